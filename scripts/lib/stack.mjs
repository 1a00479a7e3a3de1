// The set-up shared by `npm start`, `npm test`, `npm run bench` and `npm run battery`:
// dependencies, build, PostgreSQL, Temporal, migrations, worker, seed, API; then supervision of
// every process it started (one that dies is started again). Each run chooses its own ports and
// data directories, so a test run can go on while `npm start` is up.

import { existsSync, rmSync, readFileSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { startTemporalCluster } from '../../temporal/cluster.mjs';
import { startTemporalDevServer } from '../../temporal/dev-server.mjs';
import { buildAll } from './build.mjs';
import { ensureNodeModules, ROOT } from './deps.mjs';
import { startPostgres, stopLeftoverPostgres } from './postgres.mjs';
import {
  canConnect, installShutdownHandlers, isShuttingDown, killGroup, log, runChecked, secondsSince, shutdown,
  startService, supervise, track, usePidFile, waitForHttp,
} from './procs.mjs';

export const ENTRY = {
  migrate: 'api/dist/db/migrate.js',
  seed: 'seed/dist/index.js',
  api: 'api/dist/main.js',
  worker: 'api/dist/worker.js',
  twilioLocal: 'api/dist/messaging/twilio-local/main.js',
  fhirLocal: 'api/dist/ehr/fhir-local/main.js',
};

/** The local Twilio's account: any AC… sid and token will do, the SDK and the server share them. */
const LOCAL_TWILIO = { sid: 'AC00000000000000000000000000000001', token: 'local-twilio-auth-token', from: '+15005550006' };

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
 * @param {number} [o.twilioPort]   the local Twilio's port (apiPort + 800), when TWILIO_ACCOUNT_SID is unset
 * @param {number} [o.fhirPort]     the local FHIR R4 server's port (apiPort + 810)
 * @param {{ shards: number }} [o.temporalCluster]  a Temporal server with PostgreSQL persistence
 *                                    (temporal/cluster.mjs) instead of the dev server
 * @param {number} [o.apiProcesses]   API processes sharing apiPort (API_PROCESSES), default 1
 * @param {number} [o.workerProcesses] worker processes, default 1
 * @param {boolean} [o.deliveriesWorker] the deliveries (texts, calls, alerts, EHR documents) in a
 *   worker process of their own at a lower CPU priority; the other workers run the case commands
 * @param {Record<string,string>} [o.extraEnv]  more env for the API and worker
 * @param {boolean} [o.logToFiles]    service output to runDir/logs/*.log instead of the console
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
  const temporalOptions = {
    port: o.temporalPort,
    uiPort: o.temporalUiPort,
    headless: o.temporalUiPort == null,
    dbFile: o.temporalDb ? join(ROOT, o.temporalDb) : null,
    namespace: 'default',
    logDir,
  };
  let clusterPg = null; // o.temporalCluster: the server keeps its state in this stack's PostgreSQL
  const startTemporal = async () =>
    track(
      o.temporalCluster
        ? await startTemporalCluster({ pg: clusterPg, port: o.temporalPort, shards: o.temporalCluster.shards, runDir, logDir })
        : await startTemporalDevServer(temporalOptions),
      'temporal',
      { stopLate: true },
    );
  const startPg = () =>
    step('postgres', async () => {
      if (o.fresh && !process.env.DATABASE_URL) {
        await stopLeftoverPostgres(join(ROOT, o.pgDataDir));
        rmSync(join(ROOT, o.pgDataDir), { recursive: true, force: true });
      }
      // A Temporal server on this PostgreSQL holds about 50 connections of its own, beside the
      // API and worker processes' pools.
      return startPostgres({ dataDir: join(ROOT, o.pgDataDir), port: o.pgPort, fast: o.fresh, maxConnections: o.temporalCluster ? 300 : undefined });
    });
  const startTemporalStep = () =>
    step('temporal', async () => {
      if (process.env.TEMPORAL_ADDRESS) {
        log('temporal', `TEMPORAL_ADDRESS is set: using ${process.env.TEMPORAL_ADDRESS}, no dev server`);
        return null;
      }
      // A throw-away run starts Temporal empty too: its workflows would name cases that are gone.
      if (o.fresh && o.temporalDb) rmSync(join(ROOT, o.temporalDb), { force: true });
      const server = await startTemporal();
      log('temporal', `${o.temporalCluster ? 'server (PostgreSQL persistence)' : 'dev server'} on ${server.address}` +
        (o.temporalUiPort ? `, UI http://localhost:${o.temporalUiPort}` : ''));
      return server;
    });
  // PostgreSQL and the dev server do not depend on each other: both start at once. A Temporal
  // server on PostgreSQL (o.temporalCluster) starts once the database answers.
  let pg;
  let temporal;
  if (o.temporalCluster) {
    pg = await startPg();
    const u = new URL(pg.url);
    clusterPg = { host: u.hostname, port: Number(u.port), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password) };
    temporal = await startTemporalStep();
  } else {
    [pg, temporal] = await Promise.all([startPg(), startTemporalStep()]);
  }
  const temporalAddress = temporal?.address ?? process.env.TEMPORAL_ADDRESS;

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
    ...(o.apiProcesses > 1 ? { API_PROCESSES: String(o.apiProcesses) } : {}),
    ...o.extraEnv,
  };
  // No Twilio account: SMS and calls go to the local server that speaks Twilio's API
  // (api/src/messaging/twilio-local), which calls our webhooks back as Twilio would.
  const localTwilio = !process.env.TWILIO_ACCOUNT_SID;
  const twilioPort = o.twilioPort ?? o.apiPort + 800;
  if (localTwilio) {
    Object.assign(env, {
      TWILIO_ACCOUNT_SID: LOCAL_TWILIO.sid,
      TWILIO_AUTH_TOKEN: LOCAL_TWILIO.token,
      TWILIO_FROM: process.env.TWILIO_FROM || LOCAL_TWILIO.from,
      TWILIO_API_BASE_URL: `http://127.0.0.1:${twilioPort}`,
      TWILIO_LOCAL_PORT: String(twilioPort),
      TWILIO_LOCAL_INBOUND_SMS_URL: `${o.publicUrl}/api/twilio/messages/inbound`,
      // A demo keeps what the phones received across restarts; a throw-away run starts empty.
      ...(o.fresh ? {} : { TWILIO_LOCAL_STATE_FILE: join(runDir, 'twilio-local.json') }),
      ...o.extraEnv,
    });
  }
  // The local FHIR R4 server (api/src/ehr/fhir-local) always runs: EHR connections are per facility,
  // so the demo facility points at it while a real one may point at a hospital's Epic or athena.
  const fhirPort = o.fhirPort ?? o.apiPort + 810;
  Object.assign(env, {
    EHR_LOCAL_BASE_URL: `http://127.0.0.1:${fhirPort}`,
    FHIR_LOCAL_PORT: String(fhirPort),
    // A demo keeps the uploaded documents and registered keys across restarts; a throw-away run starts empty.
    ...(o.fresh ? {} : { FHIR_LOCAL_STATE_FILE: join(runDir, 'fhir-local.json') }),
    ...o.extraEnv,
  });
  // CPU_PROFILE=api,worker (with CPU_PROFILE_DIR, .data/profiles by default): those processes write a
  // V8 CPU profile when they stop, for Chromium's DevTools (Performance → Load profile).
  const profiled = (process.env.CPU_PROFILE ?? '').split(',').map((s) => s.trim());
  const profileDir = resolve(ROOT, process.env.CPU_PROFILE_DIR || '.data/profiles');
  const node = (name) => [
    process.execPath,
    [...(profiled.includes(name) ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), join(ROOT, ENTRY[name])],
  ];
  const withLog = (name, err) => {
    if (logDir) err.message += `\n--- last lines of ${logFile(name)} ---\n${tail(logFile(name))}`;
    return err;
  };
  const runStep = (name) => runChecked(name, ...node(name), { env, cwd: ROOT, logFile: logFile(name) })
    .catch((err) => { throw withLog(name, err); });
  const healthUrl = `http://127.0.0.1:${o.apiPort}/api/health`;
  // o.deliveriesWorker: the workers run the commands, and one more process the deliveries.
  const workerEnv = o.deliveriesWorker ? { ...env, WORKER_QUEUES: 'commands' } : env;
  const startWorker = () => startService('worker', ...node('worker'), { env: workerEnv, cwd: ROOT, logFile: logFile('worker') });
  // o.workerProcesses > 1: more workers polling the same task queues (the first one keeps the schedules).
  const extraWorkers = Array.from({ length: Math.max(0, (o.workerProcesses ?? 1) - 1) }, (_, i) => `worker-${i + 2}`);
  const startExtraWorker = (name) => () =>
    startService(name, ...node('worker'), { env: { ...workerEnv, WORKER_SKIP_SCHEDULES: '1' }, cwd: ROOT, logFile: logFile(name) });
  /**
   * Texts, calls, facility alerts and EHR documents are background work: nobody waits on a screen
   * for them, and they may lag a few seconds. In their own process at nice 10, a burst of them (a
   * PDF rendered per completed evaluation, a call per alert) yields the CPU to the case commands.
   */
  const startDeliveriesWorker = () =>
    lowPriority(startService('deliveries', ...node('worker'), { env: { ...env, WORKER_QUEUES: 'deliveries', WORKER_SKIP_SCHEDULES: '1' }, cwd: ROOT, logFile: logFile('deliveries') }));
  /** Spawns the API and resolves once it answers; one that never does is killed (the port stays free). */
  const startApi = async () => {
    const child = startService('api', ...node('api'), { env, cwd: ROOT, logFile: logFile('api') });
    try {
      await waitForHttp(healthUrl, 90_000, { child });
      return child;
    } catch (err) {
      killGroup(child.pid, 'SIGKILL');
      await child.exited;
      throw withLog('api', err);
    }
  };

  // A service that dies during set-up fails the set-up at once (the seed could otherwise wait
  // forever on a worker that is gone).
  let abortSetUp;
  const died = new Promise((_, reject) => { abortSetUp = reject; });
  died.catch(() => {});
  const guard = (promise) => Promise.race([promise, died]);

  await step('migrate', () => runStep('migrate'));

  /**
   * The local Twilio and FHIR servers stand in for services that run on other machines: on this
   * one they yield the CPU to the platform's own processes (nice 10), so a bench or a busy test
   * measures the platform, not its stand-ins.
   */
  const startTwilio = async () => {
    const child = lowPriority(startService('twilio', ...node('twilioLocal'), { env, cwd: ROOT, logFile: logFile('twilio') }));
    try {
      await waitForHttp(`http://127.0.0.1:${twilioPort}/local/faults`, 30_000, { child });
      return child;
    } catch (err) {
      killGroup(child.pid, 'SIGKILL');
      await child.exited;
      throw withLog('twilio', err);
    }
  };
  const twilio = localTwilio ? await step('twilio', () => startTwilio()) : null;

  const startFhir = async () => {
    const child = lowPriority(startService('fhir', ...node('fhirLocal'), { env, cwd: ROOT, logFile: logFile('fhir') }));
    try {
      await waitForHttp(`http://127.0.0.1:${fhirPort}/metadata`, 30_000, { child });
      return child;
    } catch (err) {
      killGroup(child.pid, 'SIGKILL');
      await child.exited;
      throw withLog('fhir', err);
    }
  };
  const fhir = await step('fhir', () => startFhir());

  // The worker starts before the seed: seeding cases may start workflows and wait on updates.
  const worker = startWorker();
  let setUpDone = false;
  worker.exited.then(({ code, signal }) => {
    if (!setUpDone && !isShuttingDown()) abortSetUp(withLog('worker', new Error(`worker exited during set-up (${signal ?? `exit code ${code}`})`)));
  });
  await step('seed', () => guard(runStep('seed')));
  const api = await step('api', () => guard(startApi()));
  setUpDone = true;

  // From here on every process this stack started is supervised: one that dies is logged, counted
  // in `crashed` (npm test fails on it) and started again with back-off (procs.mjs supervise):
  // same environment, same port, same data directory or SQLite file.
  const crashed = [];
  const services = {};
  const keep = (name, first, start, onRestart) => {
    services[name] = supervise(name, first, {
      start,
      onExit: () => {
        crashed.push(name);
        if (logDir && (name === 'api' || name === 'worker')) log(name, `last lines of ${logFile(name)}:\n${tail(logFile(name), 15)}`);
      },
      onRestart,
    });
  };
  keep('worker', worker, startWorker);
  if (o.deliveriesWorker) keep('deliveries', startDeliveriesWorker(), startDeliveriesWorker);
  for (const name of extraWorkers) keep(name, startExtraWorker(name)(), startExtraWorker(name));
  if (twilio) keep('twilio', twilio, startTwilio);
  keep('fhir', fhir, startFhir);
  keep('api', api, startApi);
  if (temporal) {
    keep('temporal', temporal, startTemporal, () => {
      // In memory (npm test): the new server is empty; the workflows of the run are gone.
      if (!o.temporalDb) log('temporal', 'the dev server keeps its state in memory: the restarted one is empty');
    });
  }
  if (pg.restart) keep('postgres', pg.child, () => pg.restart());

  return {
    env,
    apiUrl: `http://127.0.0.1:${o.apiPort}`,
    /** The local Twilio's base URL (its /local control API), or null with a real account. */
    twilioUrl: localTwilio ? `http://127.0.0.1:${twilioPort}` : null,
    /** The local FHIR R4 server's base URL (FHIR routes and its /local control API). */
    fhirUrl: `http://127.0.0.1:${fhirPort}`,
    timings,
    crashed,
    logDir,
    /** The running child of each supervised process (api, worker, temporal, postgres). */
    current: (name) => services[name]?.current(),
  };
}

/**
 * Runs a child at nice 10 (where allowed: otherwise at the normal priority). Each child is spawned
 * detached, a session of its own, and where Linux groups the CPU by session (autogroup) a process's
 * own nice only ranks it within its session: against the API, the worker and PostgreSQL it is the
 * session's nice that counts, so both are set.
 */
function lowPriority(child) {
  try {
    setPriority(child.pid, 10);
  } catch {
    // not allowed here: it runs at the normal priority
  }
  try {
    writeFileSync(`/proc/${child.pid}/autogroup`, '10');
  } catch {
    // no autogroup here (another OS, or the scheduler groups otherwise): the nice above is enough
  }
  return child;
}

/** Prints an error from the set-up and stops whatever was started. */
export function failSetUp(err) {
  // Ctrl-C during the set-up makes the running step fail too: nothing more to say then.
  if (isShuttingDown()) return shutdown();
  console.error(`\n${err.stack && process.env.DEBUG ? err.stack : `error: ${err.message}`}`);
  return shutdown(1);
}
