/**
 * What a process needs to run a worker for these workflows (the worker itself is api/src/worker.ts,
 * which registers the API's domain activities): the cached workflow bundle, the connection
 * settings and the schedules of the task queue.
 */
export { loadWorkflowBundle } from './bundle-cache';
export { connectionOptions, temporalEnv, type TemporalEnv } from './connection-env';
export { ensureSchedules } from './schedules';

/** The bundle's entry: every workflow of the task queue (compiled). */
export const workflowsPath = require.resolve('./workflows');
