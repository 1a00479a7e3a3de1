/**
 * The user-maintenance schedules (not workflow code: imported by schedules.ts only, never by the
 * workflow bundle's index). Env, read by the worker:
 * - SMS_EXPIRY_INTERVAL_SECONDS (300): how often lapsed SMS windows are cleared;
 * - INACTIVITY_LOCK_INTERVAL_SECONDS (86400): how often the inactivity lock runs;
 * - INACTIVITY_LOCK_DAYS (90): days without a sign-in before an account is locked.
 * A schedule that exists already gets its interval and arguments updated to the current env.
 */
import { ScheduleAlreadyRunning, type Client } from '@temporalio/client';

interface Env {
  taskQueue: string;
}

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

export const smsExpiryScheduleId = (taskQueue: string) => `sms-windows-expiry-${taskQueue}`;
export const inactivityLockScheduleId = (taskQueue: string) => `inactivity-lock-${taskQueue}`;

export async function ensureUserMaintenanceSchedules(client: Client, env: Env, log: (msg: string) => void): Promise<void> {
  const days = positiveInt('INACTIVITY_LOCK_DAYS', 90);
  const schedules = [
    { id: smsExpiryScheduleId(env.taskQueue), every: positiveInt('SMS_EXPIRY_INTERVAL_SECONDS', 300), workflowType: 'expireSmsWindowsWorkflow', args: [] as unknown[] },
    { id: inactivityLockScheduleId(env.taskQueue), every: positiveInt('INACTIVITY_LOCK_INTERVAL_SECONDS', 86400), workflowType: 'lockInactiveUsersWorkflow', args: [days] as unknown[] },
  ];
  for (const s of schedules) {
    const every = Math.max(s.every, 1) * 1000;
    const action = { type: 'startWorkflow' as const, workflowType: s.workflowType, workflowId: s.id, taskQueue: env.taskQueue, args: s.args };
    try {
      await client.schedule.create({ scheduleId: s.id, spec: { intervals: [{ every }] }, action, policies: { overlap: 'SKIP', catchupWindow: '1 minute' } });
      log(`created schedule ${s.id} (every ${every / 1000} s)`);
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
      await client.schedule.getHandle(s.id).update((prev) => ({ ...prev, spec: { intervals: [{ every }] }, action }));
    }
  }
}
