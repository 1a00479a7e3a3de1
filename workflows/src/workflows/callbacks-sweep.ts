/**
 * Safety net for placement callbacks (run every minute by a schedule; see schedules.ts): a task
 * whose callback passed some time ago and never came due had no timer (Temporal was unreachable
 * when the call was saved): it comes due now, through the same activity as a timer.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../definitions';

const { sweepDueCallbacks } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { maximumAttempts: 3 },
});

/** Seconds past its callback time after which a task without a fired timer counts as orphaned. */
export const CALLBACK_SWEEP_GRACE_SECONDS = 30;

export async function sweepDueCallbacksWorkflow(): Promise<number> {
  return sweepDueCallbacks(CALLBACK_SWEEP_GRACE_SECONDS);
}
