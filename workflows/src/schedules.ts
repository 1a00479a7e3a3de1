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
    // The sweeps, every minute: each a safety net for a timer or a start that was missed.
    const sweeps: Array<[string, string]> = [
      [claimsSweepScheduleId(env.taskQueue), 'sweepOverdueClaimsWorkflow'],
      [`callbacks-sweep-${env.taskQueue}`, 'sweepDueCallbacksWorkflow'],
      [`messaging-sweep-${env.taskQueue}`, 'sweepMessagingWorkflow'],
    ];
    for (const [scheduleId, workflowType] of sweeps) {
      try {
        await client.schedule.create({
          scheduleId,
          spec: { intervals: [{ every: '1 minute' }] },
          action: { type: 'startWorkflow', workflowType, workflowId: scheduleId, taskQueue: env.taskQueue, args: [] },
          policies: { overlap: 'SKIP', catchupWindow: '1 minute' },
        });
        log(`created schedule ${scheduleId}`);
      } catch (err) {
        if (!(err instanceof ScheduleAlreadyRunning)) throw err;
      }
    }
    await ensureUserMaintenanceSchedules(client, env, log);
  } finally {
    await connection.close();
  }
}
