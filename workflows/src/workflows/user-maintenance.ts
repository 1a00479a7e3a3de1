/** Periodic user maintenance, run by Temporal schedules the worker creates (schedules.ts). */
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../definitions';

const { expireSmsWindows, lockInactiveUsers } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 3 },
});

/** Every 5 minutes: timed SMS-notification windows that lapsed are cleared. Returns the user ids. */
export async function expireSmsWindowsWorkflow(): Promise<number[]> {
  return expireSmsWindows();
}

/** Daily (INACTIVITY_LOCK_INTERVAL_SECONDS): locks users inactive for `days` (INACTIVITY_LOCK_DAYS, default 90). */
export async function lockInactiveUsersWorkflow(days = 90): Promise<number[]> {
  return lockInactiveUsers(days);
}
