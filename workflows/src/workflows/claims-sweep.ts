/** Periodic safety net for claims (run by a Temporal schedule the worker creates; see schedules.ts). */
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../definitions';

const { sweepOverdueClaims } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 3 },
});

/** Seconds past its expiry after which an active claim counts as orphaned. */
export const CLAIM_SWEEP_GRACE_SECONDS = 60;

/** Releases lapsed claims whose lease workflow never ran; returns how many. */
export async function sweepOverdueClaimsWorkflow(): Promise<number> {
  return sweepOverdueClaims(CLAIM_SWEEP_GRACE_SECONDS);
}
