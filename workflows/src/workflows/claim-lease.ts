/**
 * Claim lease (spec 03 §7 Claims; ARCHITECTURE "Claims are leases"). Deterministic workflow code:
 * no Node built-ins, no I/O; time is the workflow's own clock.
 *
 * The claims row in PostgreSQL is the truth; this workflow is the guarantee that an abandoned
 * claim is released even when its holder never calls release. It sleeps until the expiry it
 * knows of, then asks the database (activity expireClaim) to release the claim *if* it has
 * really lapsed; a renewal that committed meanwhile wins, and the workflow sleeps again until
 * the new expiry. Extension signals only keep its idea of the expiry current (so it does not wake
 * for nothing); a lost signal costs one extra activity call, never a wrong release.
 */
import {
  allHandlersFinished,
  condition,
  continueAsNew,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../definitions';
import {
  claimStateQuery,
  extendClaimSignal,
  releaseClaimSignal,
  type ClaimLeaseArgs,
  type ClaimLeaseResult,
} from '../definitions';

const { expireClaim } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  // Retried until the database answers; capped so a release follows soon after it is back.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/** A renewal every 10 s for a whole shift stays far below this; then history starts afresh. */
export const MAX_EXTENSIONS_PER_RUN = 500;
/** When the database says "not yet" but the clocks disagree, look again no sooner than this. */
const MIN_RECHECK_MS = 1000;

export async function claimLeaseWorkflow(args: ClaimLeaseArgs): Promise<ClaimLeaseResult> {
  const { claimId } = args;
  let expiresAt = parseInstant(args.expiresAt, Date.now());
  let released = false;
  let extensions = 0;

  setHandler(extendClaimSignal, ({ expiresAt: next }) => {
    // The latest renewal wins; if signals arrive out of order the database corrects us at wake-up.
    expiresAt = parseInstant(next, expiresAt);
    extensions++;
  });
  setHandler(releaseClaimSignal, () => {
    released = true;
  });
  setHandler(claimStateQuery, () => ({ claimId, expiresAt: new Date(expiresAt).toISOString(), released, extensions }));

  for (;;) {
    if (released) return { claimId, outcome: 'released' };
    if (extensions >= MAX_EXTENSIONS_PER_RUN || workflowInfo().continueAsNewSuggested) {
      await condition(allHandlersFinished);
      return continueAsNew<typeof claimLeaseWorkflow>({ claimId, expiresAt: new Date(expiresAt).toISOString() });
    }
    const target = expiresAt;
    const waitMs = target - Date.now();
    if (waitMs > 0) {
      // Wake on release, on a renewal that *shortens* the lease, or at the expiry we know of.
      // A renewal that lengthens it does not wake us: the timer fires, we see the later expiry
      // and sleep the rest (fewer timers in the history than restarting one per renewal).
      await condition(() => released || expiresAt < target || extensions >= MAX_EXTENSIONS_PER_RUN, waitMs);
      continue;
    }
    const result = await expireClaim(claimId);
    if (result.released) return { claimId, outcome: result.outcome };
    expiresAt = Math.max(parseInstant(result.expiresAt, expiresAt), Date.now() + MIN_RECHECK_MS);
  }
}

function parseInstant(iso: string, fallback: number): number {
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : fallback;
}
