import http from 'node:http';
import { performance } from 'perf_hooks';
import { countCpu, type CpuSpent } from './processes';

export interface LoadResult {
  concurrency: number;
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  /** The CPU each request cost the stack and the load generator while the load ran. */
  cpu: CpuSpent;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/**
 * A closed-loop load generator: `concurrency` workers each run `task` back to back for `seconds`.
 * The same generator drives the API and the bare SQL, so their figures compare fairly.
 */
export async function runLoad(task: () => Promise<void>, concurrency: number, seconds: number): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  const stopCounting = countCpu();
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        try {
          await task();
          latencies.push(performance.now() - t0);
        } catch {
          errors++;
        }
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  const cpu = stopCounting(latencies.length);
  latencies.sort((a, b) => a - b);
  return {
    concurrency,
    requests: latencies.length,
    errors,
    seconds: elapsed,
    rps: latencies.length / elapsed,
    p50: pct(latencies, 50),
    p95: pct(latencies, 95),
    p99: pct(latencies, 99),
    cpu,
  };
}

/**
 * One line of a load result: clients, throughput, latency percentiles, counts; then where the CPU
 * went, and the two waits that CPU alone implies for a closed loop of N clients: the machine's
 * (N × CPU per request ÷ cores, when every core is busy) and the API's event loop (N × the API's
 * CPU per request ÷ its processes: one Node thread each answers one request at a time). The larger
 * is the measured reason a latency target is out of reach at this cost.
 */
export const formatLoad = (r: LoadResult) => {
  const head = `${String(r.concurrency).padStart(3)} clients  ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(1)} ms  p95 ${r.p95.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms  (${r.requests} ok, ${r.errors} errors)`;
  const { perRequestMs, totalMs, busyCores, cores, apiProcesses } = r.cpu;
  const parts = Object.entries(perRequestMs)
    .filter(([, v]) => v >= 0.05)
    .sort((a, b) => b[1] - a[1])
    .map(([g, v]) => `${g} ${v.toFixed(1)}`)
    .join(', ');
  const machineWait = (r.concurrency * totalMs) / cores;
  const apiWait = (r.concurrency * (perRequestMs.api ?? 0)) / apiProcesses;
  return (
    `${head}\n      CPU per request ${totalMs.toFixed(1)} ms (${parts}); machine ${busyCores.toFixed(1)} of ${cores} cores busy; ` +
    `mean wait from CPU alone: machine ${machineWait.toFixed(1)} ms, API event loop ${apiWait.toFixed(1)} ms (${apiProcesses} process${apiProcesses > 1 ? 'es' : ''})`
  );
};

/** GET of a list page with a bearer token; fails unless 200 with a Content-Range. */
export function getListPage(agent: http.Agent, url: URL, token: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 && res.headers['content-range'] ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
  });
}
