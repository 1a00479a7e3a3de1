import cluster, { type Worker } from 'cluster';

/** API_PROCESSES: how many API processes share the port (1 to 32; default 1). */
export function apiProcessesOf(env: NodeJS.ProcessEnv): number {
  const raw = env.API_PROCESSES;
  if (raw === undefined || raw === '') return 1;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 32) {
    console.error(`API_PROCESSES must be a whole number from 1 to 32, not "${raw}"`);
    process.exit(1);
  }
  return n;
}

/**
 * The cluster's primary: forks the API processes, starts a new one when one dies (after a second,
 * so a process that cannot start does not spin), and on SIGTERM or SIGINT stops them all and exits
 * when the last one has, with the code of the first that failed.
 */
export function runApiCluster(processes: number): void {
  let stopping = false;
  let exitCode = 0;
  for (let i = 0; i < processes; i++) cluster.fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (code) exitCode ||= code;
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
      return;
    }
    console.error(`API process ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another`);
    setTimeout(() => !stopping && cluster.fork(), 1000);
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);
    if (workers.length === 0) process.exit(0);
    for (const w of workers) w.process.kill(signal);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  console.log(`API: ${processes} processes share port ${process.env.PORT ?? 3000}`);
}
