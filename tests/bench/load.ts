import http from 'node:http';
import { performance } from 'perf_hooks';

export interface LoadResult {
  concurrency: number;
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
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
  };
}

/** One line of a load result: clients, throughput, latency percentiles, counts. */
export const formatLoad = (r: LoadResult) =>
  `${String(r.concurrency).padStart(3)} clients  ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(1)} ms  p95 ${r.p95.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms  (${r.requests} ok, ${r.errors} errors)`;

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
