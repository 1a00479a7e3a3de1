/**
 * A Temporal worker process of a suite's own (api/dist/worker.js on a task queue of its own, no
 * schedules), for the tests that kill a worker mid-way: the stack's worker is never touched.
 */
import { spawn, type ChildProcess } from 'child_process';
import path from 'path';

export class WorkerProcesses {
  private readonly running = new Set<ChildProcess>();

  constructor(
    readonly taskQueue: string,
    private readonly env: Record<string, string> = {},
  ) {}

  /** Starts a worker and resolves once it polls its task queue. */
  start(): Promise<ChildProcess> {
    return new Promise<ChildProcess>((resolve, reject) => {
      const child = spawn(process.execPath, [path.resolve(__dirname, '../../api/dist/worker.js')], {
        env: { ...process.env, TEMPORAL_TASK_QUEUE: this.taskQueue, WORKER_SKIP_SCHEDULES: '1', WORKER_LOG_LEVEL: 'WARN', ...this.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      this.running.add(child);
      let out = '';
      child.stdout!.on('data', (b: Buffer) => {
        out += b.toString();
        if (out.includes('polling task queue')) resolve(child);
      });
      child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
      child.on('exit', (code) => {
        this.running.delete(child);
        reject(new Error(`worker exited (${code}) before polling: ${out.slice(-500)}`));
      });
    });
  }

  /** kill -9, resolved once the process is gone. */
  kill(child: ChildProcess): Promise<void> {
    return new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  async killAll(): Promise<void> {
    for (const w of [...this.running]) await this.kill(w);
  }
}
