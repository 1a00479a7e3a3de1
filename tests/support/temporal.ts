/**
 * Temporal helpers for the workflow suites: where the compiled workflows and the `temporal` CLI
 * are, the workflow bundle, and a local test environment (a dev server of our own, no download).
 */
import { existsSync } from 'fs';
import { homedir } from 'os';
import path from 'path';
import { temporal } from '@temporalio/proto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker } from '@temporalio/worker';

/** workflows/dist/workflows: the compiled workflows the worker bundles (see workflows/src/worker.ts). */
export const WORKFLOWS_PATH = path.join(path.dirname(require.resolve('@crisis/workflows')), 'workflows');

/** Recorded histories of the replay test (written by record-histories.ts). */
export const HISTORIES_DIR = path.join(__dirname, '..', 'fixtures', 'histories');

/** The names every workflow type is registered under: the exports of workflows/src/workflows/index.ts. */
export function workflowTypes(): string[] {
  const mod = require(WORKFLOWS_PATH) as Record<string, unknown>;
  return Object.entries(mod)
    .filter(([, v]) => typeof v === 'function')
    .map(([k]) => k)
    .sort();
}

/**
 * The `temporal` CLI: $TEMPORAL_CLI, else `temporal` on PATH, else the copy temporal/cli.mjs builds
 * into ${XDG_CACHE_HOME:-~/.cache}/crisis-platform/temporal-1.5.1/. Nothing is ever downloaded.
 */
export function temporalCli(): string {
  const candidates = [
    process.env.TEMPORAL_CLI,
    ...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, 'temporal')),
    path.join(process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'crisis-platform', 'temporal-1.5.1', 'temporal'),
  ];
  const found = candidates.find((c): c is string => !!c && existsSync(c));
  if (!found) throw new Error('no temporal CLI: run `npm start -- --infra` once (temporal/cli.mjs builds it) or set TEMPORAL_CLI');
  return found;
}

/** The workflow bundle built from workflows/dist/workflows (about 3 s; build it once per suite). */
export async function workflowBundle(): Promise<{ code: string }> {
  const { code } = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: new DefaultLogger('WARN') });
  return { code };
}

/** The SDK logs WARN and above only (its INFO lines would bury jest's output). Call before any worker. */
export function quietRuntime(): void {
  try {
    Runtime.install({ logger: new DefaultLogger('WARN') });
  } catch {
    /* already installed by an earlier suite of this process */
  }
}

/**
 * A dev server of our own on a free port, in memory (`TestWorkflowEnvironment.createLocal` with the
 * existing CLI). There is no time skipping (its server cannot be downloaded here): tests configure
 * short durations instead. `dynamicConfig` adds `--dynamic-config-value KEY=JSON` flags.
 */
export function localTestEnv(dynamicConfig: Record<string, unknown> = {}): Promise<TestWorkflowEnvironment> {
  quietRuntime();
  const extraArgs = Object.entries(dynamicConfig).flatMap(([k, v]) => ['--dynamic-config-value', `${k}=${JSON.stringify(v)}`]);
  return TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: temporalCli() },
      ip: '127.0.0.1',
      ui: false,
      log: { format: 'pretty', level: 'error' },
      extraArgs,
    },
  });
}

/** A task queue of its own per test, so one test's workflows never reach another's worker. */
let queues = 0;
export const uniqueTaskQueue = (prefix: string) => `${prefix}-${process.pid}-${Date.now().toString(36)}-${queues++}`;

/**
 * Runs `fn` while a real worker polls a task queue of its own with the given (stub) activities;
 * the worker stops when `fn` settles.
 */
export async function withWorker<T>(
  env: TestWorkflowEnvironment,
  bundle: { code: string },
  activities: object,
  fn: (taskQueue: string) => Promise<T>,
): Promise<T> {
  const taskQueue = uniqueTaskQueue('wf');
  const worker = await Worker.create({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue,
    workflowBundle: bundle,
    activities,
  });
  return worker.runUntil(() => fn(taskQueue));
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const { History } = temporal.api.history.v1;

/**
 * A history as the JSON the fixtures hold: protobufjs's JSON form of temporal.api.history.v1.History
 * (int64 as strings, enums by name, bytes in base64). Read back with historyFromFixture.
 * (Not @temporalio/common's historyToJSON: with the nested protobufjs copies of this install it
 * throws "type must be a Type".)
 */
export function historyToFixture(history: temporal.api.history.v1.IHistory): unknown {
  return History.toObject(History.fromObject(history), { longs: String, enums: String, bytes: String, json: true });
}

/** The History object of a fixture file's JSON (eventIds as Long, so replay takes it as it is). */
export function historyFromFixture(json: unknown): temporal.api.history.v1.History {
  return History.fromObject(json as Record<string, unknown>);
}
