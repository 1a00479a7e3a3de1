/**
 * The Temporal worker: `node api/dist/worker.js`. It boots a Nest application context with the
 * API's domain modules (WorkerModule) and registers their activities; the workflows come from
 * @crisis/workflows (deterministic code only).
 *
 * Env: DATABASE_URL; TEMPORAL_ADDRESS (127.0.0.1:7233), TEMPORAL_NAMESPACE (default),
 * TEMPORAL_TASK_QUEUE (crisis); for a real cluster TEMPORAL_API_KEY or
 * TEMPORAL_TLS_CERT_PATH + TEMPORAL_TLS_KEY_PATH (see connection-env.ts); DB_POOL_MAX (20, as the API);
 * WORKER_LOG_LEVEL (INFO); WORKER_SKIP_SCHEDULES (set: do not create the Temporal schedules).
 *
 * `--build-bundle` only builds the cached workflow bundle and exits (for image builds and CI).
 * Waits for Temporal with retries, then polls until SIGINT/SIGTERM, when it finishes the tasks in
 * hand (graceful shutdown) and exits; a second signal exits at once.
 */
import 'reflect-metadata';
import path from 'path';
import { NestFactory } from '@nestjs/core';
import { getConnectionToken } from '@nestjs/sequelize';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker, type LogLevel } from '@temporalio/worker';
import { connectionOptions, ensureSchedules, loadWorkflowBundle, temporalEnv, workflowsPath } from '@crisis/workflows/worker-support';
import { messagingTaskQueueOf } from '@crisis/workflows';
import type { Sequelize } from 'sequelize-typescript';
import { CaseCommandsHandler } from './cases/case-commands.handler';
import { MessageDispatcher } from './messaging/message-dispatcher';
import { createActivities } from './temporal/activities';
import { EhrConnections } from './ehr/ehr-connections.service';
import { EHR_PORT, type EhrPort } from './ehr/ehr.port';
import { WorkerModule } from './worker.module';

/** Tasks of the messaging queue run at once in this worker (MESSAGING_TASK_SLOTS, at least 2). */
const MESSAGING_TASK_SLOTS = Math.max(2, Number(process.env.MESSAGING_TASK_SLOTS) || 4);
/**
 * Workflows kept in memory between their tasks (WORKFLOW_CACHE_SIZE, at least 10). The SDK's
 * default grows with the heap limit (about 2,000 per queue here), so memory grew with every open
 * case a busy hour touched; a workflow evicted is replayed from its history when it next runs
 * (case histories stay short: they continue as new). The messaging queue's alerts and deliveries
 * are short-lived: a fifth of it.
 */
const WORKFLOW_CACHE_SIZE = Math.max(10, Number(process.env.WORKFLOW_CACHE_SIZE) || 1000);

/**
 * The task queues this process polls (WORKER_QUEUES): `all` (default), `commands` (case commands,
 * claims, timers) or `deliveries` (texts, calls, facility alerts, EHR documents). Split, the
 * deliveries can run in a process of their own at a lower CPU priority, so a burst of them never
 * delays a command a user waits for.
 */
const WORKER_QUEUES = (['all', 'commands', 'deliveries'] as const).find((q) => q === process.env.WORKER_QUEUES) ?? 'all';

const log = (msg: string) => console.log(`[worker] ${new Date().toISOString()} ${msg}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<number> {
  const distDir = path.dirname(workflowsPath);
  const { bundle, cached, file } = await loadWorkflowBundle({ distDir, workflowsPath, log });
  log(`${cached ? 'using cached' : 'cached new'} workflow bundle ${path.basename(file)}`);
  if (process.argv.includes('--build-bundle')) return 0;

  const env = temporalEnv();

  let stopping = false;
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      log(`${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    log(`${signal}: shutting down`);
    stop();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  // We handle the signals ourselves (the runtime's own hook would swallow them while connecting).
  Runtime.install({
    shutdownSignals: [],
    logger: new DefaultLogger((process.env.WORKER_LOG_LEVEL?.toUpperCase() as LogLevel) || 'INFO'),
  });

  const connection = await connectWithRetry(env, () => stopping);
  if (!connection) return 0;
  if (stopping) {
    await connection.close();
    return 0;
  }

  // WORKER_SKIP_SCHEDULES: an extra worker on its own task queue (fault tests) must not add schedules.
  if (!process.env.WORKER_SKIP_SCHEDULES)
    await ensureSchedules(env, log).catch((err) => log(`could not ensure the schedules: ${(err as Error).message}`));

  // The API's domain modules, without HTTP: the activities run the same code as the API.
  const app = await NestFactory.createApplicationContext(WorkerModule, { logger: ['error', 'warn'] });
  try {
    const activities = createActivities({
      sequelize: app.get<Sequelize>(getConnectionToken()),
      cases: app.get(CaseCommandsHandler),
      ehr: app.get<EhrPort>(EHR_PORT),
      ehrConnections: app.get(EhrConnections),
    });
    // Two queues: case commands, claims and timers on the main one; deliveries and facility alerts
    // on their own (messagingTaskQueueOf), so a burst of alerts never delays a command. When one
    // process polls both, they share its CPU: the messaging queue takes a few tasks at a time (its
    // backlog waits on the server, seconds at most), or a burst of calls and texts starved the commands.
    const runsCommands = WORKER_QUEUES !== 'deliveries';
    const runsDeliveries = WORKER_QUEUES !== 'commands';
    const common = { connection, namespace: env.namespace, workflowBundle: bundle, activities, shutdownGraceTime: '10 seconds' as const };
    const messaging = MESSAGING_TASK_SLOTS;
    const queues = [...(runsCommands ? [env.taskQueue] : []), ...(runsDeliveries ? [messagingTaskQueueOf(env.taskQueue)] : [])];
    const workers = await Promise.all([
      ...(runsCommands ? [Worker.create({ ...common, taskQueue: env.taskQueue, maxCachedWorkflows: WORKFLOW_CACHE_SIZE })] : []),
      ...(runsDeliveries
        ? [
            Worker.create({
              ...common,
              taskQueue: messagingTaskQueueOf(env.taskQueue),
              maxConcurrentWorkflowTaskExecutions: messaging,
              maxConcurrentActivityTaskExecutions: messaging,
              maxConcurrentLocalActivityExecutions: messaging,
              maxCachedWorkflows: Math.max(10, Math.floor(WORKFLOW_CACHE_SIZE / 5)),
            }),
          ]
        : []),
    ]);
    log(`polling task queue${queues.length > 1 ? 's' : ''} ${queues.map((q) => `"${q}"`).join(' and ')} in namespace "${env.namespace}" at ${env.address}`);
    // Outgoing messages and facility alerts start their workflows as their rows commit (in the
    // processes that run deliveries).
    const clientConnection = runsDeliveries ? await Connection.connect(connectionOptions(env)) : undefined;
    const dispatcher = clientConnection && new MessageDispatcher(new Client({ connection: clientConnection, namespace: env.namespace }), env.taskQueue, log);
    await dispatcher?.start();
    try {
      // Polls until a signal; then stops polling, lets the tasks in hand finish (shutdownGraceTime).
      await Promise.all(workers.map((w) => w.runUntil(stopped)));
    } finally {
      await dispatcher?.stop();
      await clientConnection?.close().catch(() => undefined);
    }
    log('stopped');
    return 0;
  } finally {
    await connection.close().catch(() => undefined);
    await app.close().catch(() => undefined);
  }
}

/** Connects to Temporal, retrying with backoff until it answers (it may start after us). */
async function connectWithRetry(env: ReturnType<typeof temporalEnv>, stopped: () => boolean): Promise<NativeConnection | null> {
  for (let attempt = 1; !stopped(); attempt++) {
    try {
      const connection = await NativeConnection.connect(connectionOptions(env));
      if (attempt > 1) log(`connected to Temporal at ${env.address} after ${attempt} attempts`);
      return connection;
    } catch (err) {
      if (attempt === 1 || attempt % 10 === 0)
        log(`Temporal at ${env.address} not reachable yet (${(err as Error).message.split('\n')[0]}); retrying`);
      const delay = Math.min(250 * 2 ** Math.min(attempt, 6), 5000);
      for (let waited = 0; waited < delay && !stopped(); waited += 100) await sleep(100);
    }
  }
  return null;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error('[worker] failed:', err);
    process.exit(1);
  },
);
