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
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { canConnect } from '../../temporal/dev-server.mjs';

export { canConnect };

const useColour = process.stdout.isTTY && !process.env.NO_COLOR;
const COLOURS = [36, 35, 33, 32, 34, 91, 96, 95, 93, 92];
const colourOf = new Map();
const NAME_WIDTH = 8;

/** `name | ` in a stable colour per name. */
export function label(name) {
  if (!colourOf.has(name)) colourOf.set(name, COLOURS[colourOf.size % COLOURS.length]);
  const text = name.padEnd(NAME_WIDTH);
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
/** Processes stopped by a cleanup rather than by stopAll (PostgreSQL), listed in the pid file. */
const recorded = new Map();
/** @type {Array<{ name: string, fn: () => Promise<void>, onExitSync?: () => void }>} */
const cleanups = [];
let pidFile = null;
let shuttingDown = null;

function cmdlineOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return null; // gone, or not Linux
  }
}

/** What /proc/<pid>/cmdline shows for a child we exec'd directly. */
function commandOf(child) {
  return child.spawnargs.join(' ').trim();
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Records our children's pids in `file` and first stops the ones a previous run left behind
 * (it was SIGKILLed, or its session ended), so their ports are free again. A pid counts as
 * ours only while /proc/<pid>/cmdline still matches what we started. Refuses to run while
 * the run that wrote the file is itself still alive (two `npm start` on one data dir).
 */
export async function usePidFile(file) {
  mkdirSync(dirname(file), { recursive: true });
  if (existsSync(file)) {
    let previous = { owner: null, children: [] };
    try {
      previous = JSON.parse(readFileSync(file, 'utf8'));
    } catch { /* unreadable: ignore */ }
    const owner = previous.owner;
    if (owner && owner.pid !== process.pid && cmdlineOf(owner.pid) === owner.cmd) {
      throw new Error(`another run (pid ${owner.pid}: ${owner.cmd}) is using ${dirname(file)}; stop it first`);
    }
    const stale = (previous.children ?? []).filter(({ pid, cmd }) => cmdlineOf(pid) === cmd);
    for (const { pid, name, stopSignal } of stale) {
      log('setup', `stopping ${name} (pid ${pid}) left running by an earlier run`);
      killGroup(pid, stopSignal ?? 'SIGTERM');
    }
    for (let i = 0; i < 100 && stale.some(({ pid, cmd }) => cmdlineOf(pid) === cmd); i++) await sleep(100);
    for (const { pid, cmd } of stale) if (cmdlineOf(pid) === cmd) killGroup(pid, 'SIGKILL');
  }
  pidFile = file;
  savePidFile();
}

/** Lists a process we stop ourselves (not through stopAll) in the pid file. */
export function recordPid(name, child, stopSignal = 'SIGTERM') {
  recorded.set(child.pid, { name, child, stopSignal });
  child.once('exit', () => {
    recorded.delete(child.pid);
    savePidFile();
  });
  savePidFile();
}

function savePidFile() {
  if (!pidFile) return;
  const children = [...tracked.entries(), ...recorded.entries()].map(([pid, { name, child, stopSignal }]) => ({
    pid, name, cmd: commandOf(child), stopSignal,
  }));
  const owner = { pid: process.pid, cmd: cmdlineOf(process.pid) };
  writeFileSync(pidFile, JSON.stringify({ owner, children }, null, 1));
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
 * shutdown. With `logFile`, output goes to that file instead of the console. `stopLate`: stop
 * it only after the other children (a server they use, such as Temporal).
 */
export function track(child, name, { logFile, stopLate = false } = {}) {
  let out = null;
  if (logFile) {
    mkdirSync(dirname(logFile), { recursive: true });
    out = createWriteStream(logFile, { flags: 'a' });
  }
  forward(child.stdout, name, out);
  forward(child.stderr, name, out);
  tracked.set(child.pid, { name, child, stopLate });
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

/** Signals a whole process group (our children are all group leaders: spawned detached). */
export function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch { /* the group is gone */ }
}

/** SIGTERM to a group, SIGKILL if it is still there after `graceMs`. */
async function stopChild({ name, child }, graceMs) {
  killGroup(child.pid, 'SIGTERM');
  const timer = setTimeout(() => {
    log('shutdown', `${name} did not stop within ${graceMs / 1000} s: SIGKILL`);
    killGroup(child.pid, 'SIGKILL');
  }, graceMs);
  await child.exited;
  clearTimeout(timer);
  // The leader may exit before the rest of its group (npx → node): make sure all of it is gone.
  killGroup(child.pid, 'SIGKILL');
}

/**
 * Stops every tracked child (the API, worker, test runners first, then `stopLate` ones such as
 * Temporal), then runs the cleanups (PostgreSQL last).
 */
export async function stopAll({ graceMs = 8000 } = {}) {
  for (const late of [false, true]) {
    const batch = [...tracked.values()].filter((c) => c.stopLate === late);
    if (!batch.length) continue;
    log('shutdown', `stopping ${batch.map((c) => c.name).join(', ')}`);
    await Promise.all(batch.map((c) => stopChild(c, graceMs)));
  }
  while (cleanups.length) {
    const { name, fn } = cleanups.pop();
    try {
      await fn();
    } catch (err) {
      log('shutdown', `${name}: ${err.message}`);
    }
  }
}

export function isShuttingDown() {
  return shuttingDown !== null;
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

/** Restart back-off of a supervised process: 1 s, 2 s, 4 s … at most 30 s; back to 1 s after a minute up. */
export const RESTART_BACKOFF = { firstMs: 1000, maxMs: 30_000, healthyMs: 60_000 };

/** The wait before the next restart, from the previous wait and how long the process stayed up. */
export function nextRestartDelay(previousMs, upMs, b = RESTART_BACKOFF) {
  if (!previousMs || upMs >= b.healthyMs) return b.firstMs;
  return Math.min(previousMs * 2, b.maxMs);
}

const howItEnded = ({ code, signal }) => signal ?? `exit code ${code}`;
const seconds = (ms) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;

/**
 * Keeps a process running: `start()` spawns it (a tracked child with `.exited`, e.g. from
 * startService) and resolves once it is up. When it exits and we are not shutting down, it is
 * started again after a back-off (nextRestartDelay); a start that throws counts as a crash.
 * `onExit(result)` runs on every unexpected exit before the restart is planned (report it, kill
 * what the process left behind); `onRestart(child, downMs)` after each successful restart.
 * The pid file follows: the dead child leaves it on exit, the new one enters it when spawned.
 * @returns {{ current: () => any, restarts: () => number }}
 */
export function supervise(name, first, { start, onExit, onRestart }) {
  let child = first;
  let upSince = Date.now();
  let delay = 0;
  let restarts = 0;
  let downSince = 0;

  const scheduleRestart = (upMs) => {
    delay = nextRestartDelay(delay, upMs);
    log(name, `restarting in ${seconds(delay)}`);
    setTimeout(restart, delay);
  };

  const watch = (c) => c.exited.then(async (result) => {
    if (isShuttingDown()) return;
    downSince = Date.now();
    const upMs = downSince - upSince;
    log(name, `exited unexpectedly (${howItEnded(result)}) after ${seconds(upMs)} up`);
    try {
      await onExit?.(result);
    } catch (err) {
      log(name, err.message);
    }
    if (!isShuttingDown()) scheduleRestart(upMs);
  });

  async function restart() {
    if (isShuttingDown()) return;
    const started = Date.now();
    try {
      const next = await start();
      if (isShuttingDown()) return; // shutdown began meanwhile: stopAll or the exit hook stops it
      child = next;
      upSince = Date.now();
      restarts++;
      log(name, `restarted (pid ${child.pid}), ${seconds(Date.now() - downSince)} after it died`);
      watch(child);
      await onRestart?.(child, Date.now() - downSince);
    } catch (err) {
      if (isShuttingDown()) return;
      log(name, `restart failed: ${err.message.split('\n').slice(0, 8).join('\n')}`);
      scheduleRestart(Date.now() - started);
    }
  }

  watch(child);
  return { current: () => child, restarts: () => restarts };
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
