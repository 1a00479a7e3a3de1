// The set-up shared by `npm start`, `npm test` and `npm run bench`: dependencies, build,
// PostgreSQL, Temporal, migrations, worker, seed, API. Each run chooses its own ports and
// data directories, so a test run can go on while `npm start` is up.

import { existsSync, rmSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { startTemporalDevServer } from '../../temporal/dev-server.mjs';
import { buildAll } from './build.mjs';
import { ensureNodeModules, ROOT } from './deps.mjs';
import { startPostgres, stopLeftoverPostgres } from './postgres.mjs';
import {
  canConnect, installShutdownHandlers, isShuttingDown, log, runChecked, secondsSince, shutdown,
  startService, track, usePidFile, waitForHttp,
} from './procs.mjs';

export const ENTRY = {
  migrate: 'api/dist/db/migrate.js',
  seed: 'seed/dist/index.js',
  api: 'api/dist/main.js',
  worker: 'api/dist/worker.js',
};

/** Fails early, naming what is missing, when the build did not produce an entry point. */
function checkEntryPoints() {
  const missing = Object.values(ENTRY).filter((file) => !existsSync(join(ROOT, file)));
  if (missing.length) {
    throw new Error(`the build did not produce ${missing.join(', ')}.\n` +
      'Each comes from the matching src/*.ts file of its workspace (api/src/main.ts → api/dist/main.js); ' +
      'check that the source exists and that its workspace is listed in tsconfig.json "references".');
  }
}

/** Last lines of a log file, for error messages. */
export function tail(file, lines = 30) {
  if (!file || !existsSync(file)) return '';
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

/**
 * @param {object} o
 * @param {string} o.runDir           where this run keeps its pid file and logs (e.g. .data/test)
 * @param {string} o.pgDataDir
 * @param {number} o.pgPort
 * @param {boolean} [o.fresh]         throw-away: delete the PostgreSQL data first, no fsync
 * @param {number} o.temporalPort
 * @param {number} [o.temporalUiPort] omitted → headless
 * @param {string|null} o.temporalDb  SQLite file, or null for in memory
 * @param {number} o.apiPort
 * @param {string} [o.portVar]        env variable that overrides apiPort, for error messages
 * @param {string} o.publicUrl        the URL the browser uses (OIDC issuer, links in messages)
 * @param {Record<string,string>} [o.extraEnv]  more env for the API and worker
 * @param {boolean} [o.logToFiles]    service output to runDir/logs/*.log instead of the console
 * @param {boolean} [o.exitOnServiceCrash]  shut everything down if the API or worker dies
 * @param {() => void} [o.beforeServices]   runs after the build (e.g. ensureChromium)
 */
export async function setUpStack(o) {
  installShutdownHandlers();
  const runDir = join(ROOT, o.runDir);
  const logDir = o.logToFiles ? join(runDir, 'logs') : undefined;
  await usePidFile(join(runDir, 'pids.json'));
  const timings = {};
  const step = async (label, fn) => {
    const started = Date.now();
    const result = await fn();
    timings[label] = secondsSince(started);
    return result;
  };

  if (await canConnect(o.apiPort)) {
    throw new Error(`port ${o.apiPort} is already in use: stop what listens there` +
      (o.portVar ? ` or choose another port with ${o.portVar}=…` : ''));
  }
  await step('dependencies', () => ensureNodeModules());
  await step('build', () => buildAll());
  checkEntryPoints();
  if (o.beforeServices) await step('chromium', o.beforeServices);

  if (logDir) {
    rmSync(logDir, { recursive: true, force: true });
    log('setup', `service logs: ${relative(process.cwd(), logDir) || logDir}/`);
  }
  const logFile = (name) => (logDir ? join(logDir, `${name}.log`) : undefined);

  // PostgreSQL and Temporal do not depend on each other: start both at once.
  const [pg, temporalAddress] = await Promise.all([
    step('postgres', async () => {
      if (o.fresh && !process.env.DATABASE_URL) {
        await stopLeftoverPostgres(join(ROOT, o.pgDataDir));
        rmSync(join(ROOT, o.pgDataDir), { recursive: true, force: true });
      }
      return startPostgres({ dataDir: join(ROOT, o.pgDataDir), port: o.pgPort, fast: o.fresh });
    }),
    step('temporal', async () => {
      if (process.env.TEMPORAL_ADDRESS) {
        log('temporal', `TEMPORAL_ADDRESS is set: using ${process.env.TEMPORAL_ADDRESS}, no dev server`);
        return process.env.TEMPORAL_ADDRESS;
      }
      // A throw-away run starts Temporal empty too: its workflows would name cases that are gone.
      if (o.fresh && o.temporalDb) rmSync(join(ROOT, o.temporalDb), { force: true });
      const server = await startTemporalDevServer({
        port: o.temporalPort,
        uiPort: o.temporalUiPort,
        headless: o.temporalUiPort == null,
        dbFile: o.temporalDb ? join(ROOT, o.temporalDb) : null,
        namespace: 'default',
        logDir,
      });
      track(server, 'temporal', { stopLate: true });
      log('temporal', `dev server on ${server.address}` +
        (o.temporalUiPort ? `, UI http://localhost:${o.temporalUiPort}` : ''));
      return server.address;
    }),
  ]);

  const env = {
    ...process.env,
    DATABASE_URL: pg.url,
    TEMPORAL_ADDRESS: temporalAddress,
    TEMPORAL_NAMESPACE: process.env.TEMPORAL_NAMESPACE || 'default',
    PORT: String(o.apiPort),
    PUBLIC_URL: o.publicUrl,
    // A stack started here is a demo or a test run: not production, and the outbox page on
    // (demo sign-ins read their MFA codes there). A production deployment sets neither.
    NODE_ENV: 'development',
    DEMO_TOOLS: '1',
    ...o.extraEnv,
  };
  const node = (name) => [process.execPath, [join(ROOT, ENTRY[name])]];
  const withLog = (name, err) => {
    if (logDir) err.message += `\n--- last lines of ${logFile(name)} ---\n${tail(logFile(name))}`;
    return err;
  };
  const runStep = (name) => runChecked(name, ...node(name), { env, cwd: ROOT, logFile: logFile(name) })
    .catch((err) => { throw withLog(name, err); });

  // A service that dies during set-up fails the set-up at once (the seed could otherwise wait
  // forever on a worker that is gone); one that dies later is reported, and ends `npm start`.
  const crashed = [];
  let setUpDone = false;
  let abortSetUp;
  const died = new Promise((_, reject) => { abortSetUp = reject; });
  died.catch(() => {});
  const guard = (promise) => Promise.race([promise, died]);
  const watch = (name, child) => child.exited.then(({ code, signal }) => {
    if (isShuttingDown()) return;
    const how = signal ?? `exit code ${code}`;
    if (!setUpDone) {
      abortSetUp(withLog(name, new Error(`${name} exited during set-up (${how})`)));
      return;
    }
    crashed.push(name);
    log(name, `exited unexpectedly (${how})` + (logDir ? `\n${tail(logFile(name))}` : ''));
    if (o.exitOnServiceCrash) shutdown(1);
  });

  await step('migrate', () => runStep('migrate'));

  // The worker starts before the seed: seeding cases may start workflows and wait on updates.
  const worker = startService('worker', ...node('worker'), { env, cwd: ROOT, logFile: logFile('worker') });
  watch('worker', worker);
  await step('seed', () => guard(runStep('seed')));

  const api = startService('api', ...node('api'), { env, cwd: ROOT, logFile: logFile('api') });
  watch('api', api);
  await step('api', () => guard(waitForHttp(`http://127.0.0.1:${o.apiPort}/api/health`, 90_000)));
  setUpDone = true;

  return { env, apiUrl: `http://127.0.0.1:${o.apiPort}`, timings, crashed, logDir, api, worker };
}

/** Prints an error from the set-up and stops whatever was started. */
export function failSetUp(err) {
  // Ctrl-C during the set-up makes the running step fail too: nothing more to say then.
  if (isShuttingDown()) return shutdown();
  console.error(`\n${err.stack && process.env.DEBUG ? err.stack : `error: ${err.message}`}`);
  return shutdown(1);
}
