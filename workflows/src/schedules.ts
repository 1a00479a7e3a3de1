import { Client, Connection, ScheduleAlreadyRunning } from '@temporalio/client';
import { claimsSweepScheduleId } from './definitions';
import { ensureUserMaintenanceSchedules } from './workflows/user-maintenance-schedules';
import { connectionOptions, type TemporalEnv } from './connection-env';

/**
 * Creates the task queue's schedules if they do not exist yet (periodic work that must happen
 * once per cluster, ARCHITECTURE "Periodic work"). Every worker replica calls it at start; the
 * first creates, the rest find them. A failure is logged, not fatal: the worker still serves.
 */
export async function ensureSchedules(env: TemporalEnv, log: (msg: string) => void): Promise<void> {
  const connection = await Connection.connect(connectionOptions(env));
  try {
    const client = new Client({ connection, namespace: env.namespace });
    const scheduleId = claimsSweepScheduleId(env.taskQueue);
    try {
      await client.schedule.create({
        scheduleId,
        spec: { intervals: [{ every: '1 minute' }] },
        action: {
          type: 'startWorkflow',
          workflowType: 'sweepOverdueClaimsWorkflow',
          workflowId: scheduleId,
          taskQueue: env.taskQueue,
          args: [],
        },
        policies: { overlap: 'SKIP', catchupWindow: '1 minute' },
      });
      log(`created schedule ${scheduleId}`);
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    }
    const callbacksId = `callbacks-sweep-${env.taskQueue}`;
    try {
      await client.schedule.create({
        scheduleId: callbacksId,
        spec: { intervals: [{ every: '1 minute' }] },
        action: { type: 'startWorkflow', workflowType: 'sweepDueCallbacksWorkflow', workflowId: callbacksId, taskQueue: env.taskQueue, args: [] },
        policies: { overlap: 'SKIP', catchupWindow: '1 minute' },
      });
      log(`created schedule ${callbacksId}`);
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    }
    const messagingId = `messaging-sweep-${env.taskQueue}`;
    try {
      await client.schedule.create({
        scheduleId: messagingId,
        spec: { intervals: [{ every: '1 minute' }] },
        action: { type: 'startWorkflow', workflowType: 'sweepMessagingWorkflow', workflowId: messagingId, taskQueue: env.taskQueue, args: [] },
        policies: { overlap: 'SKIP', catchupWindow: '1 minute' },
      });
      log(`created schedule ${messagingId}`);
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    }
    await ensureUserMaintenanceSchedules(client, env, log);
  } finally {
    await connection.close();
  }
}
