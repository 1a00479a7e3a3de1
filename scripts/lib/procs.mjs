// Child-process bookkeeping for the start/test/bench orchestrators.
//
// Every long-running child is spawned `detached` (its own process group), so:
// - Ctrl-C in the terminal reaches only this orchestrator, which then stops children in a
//   known order instead of everything dying at once mid-write;
// - killing `-pid` also reaches grandchildren (npx → node, shell wrappers…).
// Shutdown: SIGTERM every tracked group, SIGKILL what is left after a grace period, then run
// the registered cleanups (embedded PostgreSQL stop), then exit.

import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';

const useColour = process.stdout.isTTY && !process.env.NO_COLOR;
const COLOURS = [36, 35, 33, 32, 34, 91, 96, 95, 93, 92];
const colourOf = new Map();
const NAME_WIDTH = 8;

/** `name | ` in a stable colour per name. */
export function label(name) {
  if (!colourOf.has(name)) colourOf.set(name, COLOURS[colourOf.size % COLOURS.length]);
  const text = name.padEnd(NAME_WIDTH).slice(0, Math.max(NAME_WIDTH, name.length));
  return useColour ? `\x1b[${colourOf.get(name)}m${text}\x1b[0m | ` : `${text} | `;
}

export function log(name, msg) {
  for (const line of String(msg).split('\n')) console.log(label(name) + line);
}

export function bold(text) {
  return useColour ? `\x1b[1m${text}\x1b[0m` : text;
}

/** Seconds since `start` (from Date.now()), one decimal. */
export function secondsSince(start) {
  return `${((Date.now() - start) / 1000).toFixed(1)} s`;
}

/** @type {Map<number, { name: string, child: import('node:child_process').ChildProcess }>} */
const tracked = new Map();
/** @type {Array<{ name: string, fn: () => Promise<void>, onExitSync?: () => void }>} */
const cleanups = [];
let pidFile = null;
let shuttingDown = null;

/**
 * Records the pids of our children in `file`, and first kills the ones a previous run left
 * behind (it was SIGKILLed, or its machine session ended) so their ports are free again.
 * A pid counts as ours only while /proc/<pid>/cmdline still matches what we started.
 */
export function usePidFile(file) {
  pidFile = file;
  mkdirSync(dirname(file), { recursive: true });
  if (!existsSync(file)) return;
  let stale = [];
  try {
    stale = JSON.parse(readFileSync(file, 'utf8'));
  } catch { /* unreadable: ignore */ }
  for (const { pid, cmd, name } of stale) {
    let current = null;
    try {
      current = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    } catch { /* gone, or not Linux */ }
    if (current && current === cmd) {
      log('setup', `stopping ${name} (pid ${pid}) left over from an earlier run`);
      try { process.kill(-pid, 'SIGKILL'); } catch { /* raced */ }
    }
  }
  rmSync(file, { force: true });
}

function savePidFile() {
  if (!pidFile) return;
  const list = [...tracked.entries()].map(([pid, { name, child }]) => ({
    pid, name, cmd: [child.spawnfile, ...child.spawnargs.slice(1)].join(' ').trim(),
  }));
  writeFileSync(pidFile, JSON.stringify(list, null, 1));
}

/** Prefix each output line of `stream` with the child's name (or append it to a log file). */
function forward(stream, name, out) {
  if (!stream) return;
  if (out) {
    stream.pipe(out, { end: false });
    return;
  }
  createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
    process.stdout.write(label(name) + line + '\n');
  });
}

/**
 * Registers an already spawned (detached) child: its output is prefixed and it is stopped on
 * shutdown. With `logFile`, output goes to that file instead of the console.
 */
export function track(child, name, { logFile } = {}) {
  let out = null;
  if (logFile) {
    mkdirSync(dirname(logFile), { recursive: true });
    out = createWriteStream(logFile, { flags: 'a' });
  }
  forward(child.stdout, name, out);
  forward(child.stderr, name, out);
  tracked.set(child.pid, { name, child });
  savePidFile();
  child.exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      tracked.delete(child.pid);
      savePidFile();
      resolve({ code, signal });
    });
  });
  return child;
}

/**
 * Spawns a long-running service in its own process group and tracks it.
 * @returns child process with `.exited: Promise<{code, signal}>`
 */
export function startService(name, cmd, args, { env, cwd, logFile } = {}) {
  const child = spawn(cmd, args, {
    cwd,
    env: env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.once('error', (err) => log(name, `failed to start: ${err.message}`));
  return track(child, name, { logFile });
}

/**
 * Runs a command to completion. `inherit: true` gives it our terminal as is (test runners keep
 * their colours and progress output); otherwise its lines are prefixed with `name`.
 * It is tracked while it runs, so Ctrl-C stops it too.
 * @returns {Promise<{ code: number|null, signal: string|null }>}
 */
export function runCommand(name, cmd, args, { env, cwd, inherit = false, logFile } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd,
      env: env ?? process.env,
      stdio: inherit ? ['ignore', 'inherit', 'inherit'] : ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    child.once('error', reject);
    track(child, name, { logFile });
    child.exited.then(resolve);
  });
}

/** Like runCommand, but throws a clear error on a non-zero exit. */
export async function runChecked(name, cmd, args, opts) {
  const { code, signal } = await runCommand(name, cmd, args, opts);
  if (code !== 0) {
    throw new Error(`${name}: \`${[cmd, ...args].join(' ')}\` failed (${signal ?? `exit code ${code}`})`);
  }
}

/**
 * Registers a cleanup run after all children are stopped (in reverse order of registration).
 * `onExitSync` is the best effort used when the process exits without a graceful shutdown.
 */
export function onShutdown(name, fn, { onExitSync } = {}) {
  cleanups.push({ name, fn, onExitSync });
}

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    try { process.kill(pid, signal); } catch { /* already gone */ }
  }
}

/** Stops every tracked child (SIGTERM, then SIGKILL after `graceMs`), then the cleanups. */
export async function stopAll({ graceMs = 8000 } = {}) {
  const children = [...tracked.values()];
  if (children.length) {
    log('shutdown', `stopping ${children.map((c) => c.name).join(', ')}`);
  }
  await Promise.all(children.map(async ({ name, child }) => {
    killGroup(child.pid, 'SIGTERM');
    const timer = setTimeout(() => {
      log('shutdown', `${name} did not stop within ${graceMs / 1000} s: SIGKILL`);
      killGroup(child.pid, 'SIGKILL');
    }, graceMs);
    await child.exited;
    clearTimeout(timer);
    // The leader may exit before its group does (npx → node); make sure the group is gone.
    killGroup(child.pid, 'SIGKILL');
  }));
  while (cleanups.length) {
    const { name, fn } = cleanups.pop();
    try {
      await fn();
    } catch (err) {
      log('shutdown', `${name}: ${err.message}`);
    }
  }
}

/** Graceful shutdown then exit; safe to call more than once. */
export function shutdown(exitCode = 0) {
  if (!shuttingDown) {
    shuttingDown = stopAll().finally(() => {
      if (pidFile) rmSync(pidFile, { force: true });
      process.exit(exitCode);
    });
  }
  return shuttingDown;
}

let installed = false;

/**
 * SIGINT/SIGTERM/SIGHUP → graceful shutdown. A second Ctrl-C exits at once (the exit hook
 * still SIGKILLs the children). Uncaught errors print and shut down with exit code 1.
 * On any exit of this process, children still alive are SIGKILLed synchronously.
 */
export function installShutdownHandlers() {
  if (installed) return;
  installed = true;
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(sig, () => {
      if (shuttingDown) {
        log('shutdown', 'second signal: exiting now');
        process.exit(130);
      }
      log('shutdown', `${sig} received`);
      shutdown(sig === 'SIGINT' ? 130 : 143);
    });
  }
  process.on('uncaughtException', (err) => {
    console.error(err);
    shutdown(1);
  });
  process.on('unhandledRejection', (err) => {
    console.error(err);
    shutdown(1);
  });
  process.on('exit', () => {
    for (const { child } of tracked.values()) killGroup(child.pid, 'SIGKILL');
    for (const { onExitSync } of cleanups) {
      try { onExitSync?.(); } catch { /* best effort */ }
    }
  });
}

/** Resolves true once host:port accepts a TCP connection. */
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

/** Polls until host:port accepts TCP connections; throws after `timeoutMs`. */
export async function waitForPort(port, { host = '127.0.0.1', timeoutMs = 60_000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (!(await canConnect(port, host))) {
    if (Date.now() > deadline) throw new Error(`nothing listens on ${host}:${port} after ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Polls `url` until it answers 200. With `child`, gives up as soon as that process exits
 * (an API that crashed at start-up will never answer).
 */
export async function waitForHttp(url, timeoutMs = 60_000, { child } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  let exited = null;
  child?.exited?.then((r) => { exited = r; });
  for (;;) {
    if (exited) {
      throw new Error(`the process serving ${url} exited (${exited.signal ?? `exit code ${exited.code}`}) before it answered`);
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return;
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = err.cause?.code ?? err.message;
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s (last: ${last})`);
    await new Promise((r) => setTimeout(r, 300));
  }
}
