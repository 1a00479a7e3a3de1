import type { ClaimActivities } from '@crisis/workflows';
import type { Sql } from '../db/sql';

/**
 * Claim lease activities. The claims row is the truth: the workflow only decides *when* to look,
 * and this UPDATE decides *whether* the claim is over (a renewal that committed first wins).
 */
export function createClaimActivities({ db }: { db: Sql }): ClaimActivities {
  return {
    async expireClaim(claimId) {
      const expired = await db.query(
        `UPDATE claims SET released_at = now(), release_reason = 'expired'
          WHERE id = $1 AND released_at IS NULL AND expires_at <= now()
          RETURNING id`,
        [claimId],
      );
      if (expired.rows.length) return { released: true, outcome: 'expired' as const };
      const { rows } = await db.query<{ expires_at: Date; released_at: Date | null; release_reason: string | null }>(
        'SELECT expires_at, released_at, release_reason FROM claims WHERE id = $1',
        [claimId],
      );
      const row = rows[0];
      if (!row) return { released: true, outcome: 'gone' };
      if (row.released_at) return { released: true, outcome: row.release_reason === 'expired' ? 'expired' : 'released' };
      // Extended meanwhile: the workflow keeps waiting until the new expiry.
      return { released: false, expiresAt: row.expires_at.toISOString() };
    },

    /**
     * Marks released the claims that lapsed more than `graceSeconds` ago and are still active:
     * orphans whose lease workflow never started (Temporal was unreachable when they were made).
     * Claims with a running workflow are released by it long before the grace is over.
     */
    async sweepOverdueClaims(graceSeconds) {
      const swept = await db.query(
        `UPDATE claims SET released_at = now(), release_reason = 'expired'
          WHERE released_at IS NULL AND expires_at <= now() - make_interval(secs => $1)
          RETURNING id`,
        [graceSeconds],
      );
      return swept.rows.length;
    },
  };
}
