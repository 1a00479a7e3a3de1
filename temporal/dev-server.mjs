// Starts `temporal server start-dev` (the single-binary Temporal with SQLite) and waits until
// its gRPC port answers. Plain Node ESM with no dependencies.

import { spawn } from 'node:child_process';
import { mkdirSync, openSync, closeSync, readFileSync, existsSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { ensureTemporalCli } from './cli.mjs';

/**
 * Dynamic config the app relies on: workflow Updates (case status changes, close, reopen…)
 * and their async-accepted form. The SDK's own test server passes the same values.
 */
export const DEV_DYNAMIC_CONFIG = [
  'frontend.enableUpdateWorkflowExecution=true',
  'frontend.enableUpdateWorkflowExecutionAsyncAccepted=true',
  // Update-with-start: a case command starts the case workflow when none runs.
  'frontend.enableExecuteMultiOperation=true',
];

/** Resolves true once something accepts TCP connections on host:port, false on timeout. */
export function canConnect(port, host = '127.0.0.1', timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = connect({ port, host });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * @param {object} opts
 * @param {number} [opts.port=7233]         gRPC port (the TEMPORAL_ADDRESS clients use)
 * @param {number} [opts.uiPort]            web UI port; ignored when headless
 * @param {boolean} [opts.headless=false]   no web UI
 * @param {string|null} [opts.dbFile=null]  SQLite file to persist to; null = in memory
 * @param {string} [opts.namespace='default']
 * @param {string} [opts.logDir]            if set, the server's output goes to logDir/temporal.log;
 *                                          otherwise stdout/stderr are pipes for the caller
 * @param {number} [opts.timeoutMs=60000]
 * @returns {Promise<import('node:child_process').ChildProcess & { address: string, logFile?: string }>}
 *   The child runs in its own process group (detached): stop it with process.kill(-child.pid).
 */
export async function startTemporalDevServer({
  port = 7233,
  uiPort,
  headless = false,
  dbFile = null,
  namespace = 'default',
  logDir,
  timeoutMs = 60_000,
} = {}) {
  if (await canConnect(port)) {
    throw new Error(`port ${port} is already in use: another Temporal server is running? ` +
      `Stop it, or point TEMPORAL_ADDRESS at it (TEMPORAL_ADDRESS=127.0.0.1:${port}).`);
  }
  const bin = await ensureTemporalCli();

  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port)];
  if (headless || uiPort == null) args.push('--headless');
  else args.push('--ui-port', String(uiPort));
  if (dbFile) {
    mkdirSync(dirname(dbFile), { recursive: true });
    args.push('--db-filename', dbFile);
  }
  args.push('--namespace', namespace, '--log-level', 'error');
  for (const kv of DEV_DYNAMIC_CONFIG) args.push('--dynamic-config-value', kv);

  let stdio = ['ignore', 'pipe', 'pipe'];
  let logFile;
  if (logDir) {
    mkdirSync(logDir, { recursive: true });
    logFile = join(logDir, 'temporal.log');
    const fd = openSync(logFile, 'a');
    stdio = ['ignore', fd, fd];
  }
  // detached: own process group, so Ctrl-C in the terminal reaches only our orchestrator,
  // which then stops children in order (and the group kill also reaches any grandchild).
  const child = spawn(bin, args, { stdio, detached: true });
  if (typeof stdio[1] === 'number') closeSync(stdio[1]);
  child.address = `127.0.0.1:${port}`;
  child.logFile = logFile;

  let exited = null;
  child.once('exit', (code, signal) => { exited = signal ?? `exit code ${code}`; });
  let spawnError = null;
  child.once('error', (err) => { spawnError = err; });

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (spawnError) throw spawnError;
    if (exited) {
      const tail = logFile && existsSync(logFile)
        ? `\n${readFileSync(logFile, 'utf8').split('\n').slice(-20).join('\n')}` : '';
      throw new Error(`temporal server start-dev exited (${exited}) before listening on ${port}${tail}`);
    }
    if (await canConnect(port)) break;
    if (Date.now() > deadline) {
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
      throw new Error(`temporal dev server did not listen on ${port} within ${timeoutMs / 1000} s`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return child;
}
