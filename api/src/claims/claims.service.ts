import { Injectable, Logger } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { QueryTypes } from 'sequelize';
import { Sequelize } from 'sequelize-typescript';
import { CodedError, ErrorCode, type UserContext } from '@crisis/forms';
import { extendClaimLease, releaseClaimLease, startClaimLease } from '@crisis/workflows';
import type { Client } from '@temporalio/client';
import { config } from '../config';
import { forbidden, notFound } from '../common/coded-error';
import { auditValues } from '../common/request-context';
import { TemporalClientService } from '../temporal/temporal-client.service';
import { afterCommit } from '../common/after-commit';
import type { ClaimDto } from './claim.dto';
import { ClaimObjects } from './claim-objects';

interface ClaimRow {
  id: string;
  object_type: string;
  object_id: string;
  subject_id: number;
  subject_name: string;
  claimed_at: Date;
  expires_at: Date;
  released_at: Date | null;
  release_reason: string | null;
}

export interface ClaimInput {
  objectId: number | string;
  objectType: string;
  extendBy?: number | null;
}

/** How long a Temporal call may hold up a response before we give up on it (the row is the truth). */
const TEMPORAL_CALL_TIMEOUT_MS = 2000;

/**
 * A claim holds only while its holder is an active user: a deactivated user's claim frees its
 * object at once (it does not block others until its lease runs out) and cannot be renewed.
 */
const HOLDER_ACTIVE = 'EXISTS (SELECT 1 FROM users u WHERE u.id = claims.subject_id AND u.is_active)';

/** The lease one claim or renewal grants: as asked (default CLAIM_DEFAULT_SECONDS), at most CLAIM_MAX_SECONDS. */
const leaseSeconds = (asked?: number | null) => Math.min(asked ?? config.claims.defaultSeconds, config.claims.maxSeconds);

/**
 * Claims (spec 03 §7): leases on objects under edit. The claims table is the truth — one active
 * row per object (partial unique index), `expires_at` the end of the lease. Every read treats a
 * row past its expiry as free. The lease workflow (`claim-<id>`, workflows/) is the guarantee that
 * an abandoned claim is marked released even when nobody calls release again.
 */
@Injectable()
export class ClaimsService {
  private readonly log = new Logger('claims');

  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    private readonly temporal: TemporalClientService,
    private readonly objects: ClaimObjects,
  ) {}

  /**
   * Claims an object for `extendBy` seconds (at most CLAIM_MAX_SECONDS). Runs in the request's
   * transaction (the audit interceptor's); the lease workflow is started only after it commits.
   * - an object the claim rules do not let her edit → 403 FRBD; one that does not exist → 404 NTFND;
   * - another user's active claim → 409 INV.OBJECT.ALREADY.HAS.BEEN.CLAIMED naming the holder;
   * - the caller's own active claim → extended and returned (idempotent).
   */
  async claim(user: UserContext, input: ClaimInput): Promise<ClaimDto> {
    const { objectType } = input;
    const seconds = leaseSeconds(input.extendBy);
    auditValues({ objectType, objectId: input.objectId });
    const objectId = await this.objects.assertMayEdit(user, objectType, String(input.objectId));

    // A lapsed claim frees the object even if its workflow has not run yet (worker down, clock);
    // so does the claim of a holder who was deactivated since.
    await this.rows(
      `UPDATE claims SET released_at = now(), release_reason = CASE WHEN expires_at <= now() THEN 'expired' ELSE 'holderInactive' END
        WHERE object_type = $1 AND object_id = $2 AND released_at IS NULL AND (expires_at <= now() OR NOT ${HOLDER_ACTIVE})
        RETURNING id`,
      [objectType, objectId],
    );

    for (let attempt = 0; attempt < 3; attempt++) {
      // Already the caller's: extend it (idempotent claim; a second tab of the same user).
      const [mine] = await this.rows(
        `UPDATE claims SET expires_at = now() + make_interval(secs => $4)
          WHERE object_type = $1 AND object_id = $2 AND subject_id = $3 AND released_at IS NULL
          RETURNING *`,
        [objectType, objectId, user.id, seconds],
      );
      if (mine) {
        auditValues({ claimId: mine.id });
        await afterCommit(`extending the lease workflow of claim ${mine.id}`, () =>
          this.withTemporal((client) =>
            extendClaimLease(client, mine.id, mine.expires_at.toISOString(), { taskQueue: config.temporal.taskQueue }),
          ),
        );
        return toDto(mine);
      }

      // Under a concurrent claim of the same object this waits for the other transaction, then
      // inserts nothing if it committed: the unique index decides, never a race in our code.
      const [created] = await this.rows(
        `WITH next AS (SELECT nextval(pg_get_serial_sequence('claims', 'id')) AS id)
         INSERT INTO claims (id, object_type, object_id, subject_id, subject_name, expires_at, workflow_id)
         SELECT next.id, $1, $2, $3, $4, now() + make_interval(secs => $5), 'claim-' || next.id FROM next
         ON CONFLICT (object_type, object_id) WHERE released_at IS NULL DO NOTHING
         RETURNING *`,
        [objectType, objectId, user.id, subjectName(user), seconds],
      );
      if (created) {
        auditValues({ claimId: created.id });
        await afterCommit(`starting the lease workflow of claim ${created.id}`, () =>
          this.withTemporal((client) =>
            startClaimLease(client, { claimId: created.id, expiresAt: created.expires_at.toISOString() }, { taskQueue: config.temporal.taskQueue }),
          ),
        );
        return toDto(created);
      }

      const [holder] = await this.rows(
        'SELECT * FROM claims WHERE object_type = $1 AND object_id = $2 AND released_at IS NULL',
        [objectType, objectId],
      );
      if (holder)
        throw new CodedError(ErrorCode.ObjectAlreadyClaimed, {
          objectId: toObjectId(holder.object_id),
          objectType: holder.object_type,
          subjectId: holder.subject_id,
          subjectName: holder.subject_name,
        });
      // The holder released between our statements: try again.
    }
    throw new CodedError(ErrorCode.ObjectAlreadyClaimed, { objectId: toObjectId(objectId), objectType });
  }

  /**
   * Extends the caller's own active claim to now + `extendBy` seconds (at most CLAIM_MAX_SECONDS).
   * Only the holder, while she is active and may still edit the object. Not audited and outside
   * any transaction: one UPDATE decides, and it serialises with the workflow's expiry on the row
   * lock (whichever commits first wins; the loser sees the other's result).
   */
  async extend(user: UserContext, id: string, extendBy?: number | null): Promise<ClaimDto> {
    const [existing] = await this.rows('SELECT * FROM claims WHERE id = $1', [id]);
    if (!existing) throw notFound();
    if (existing.subject_id !== user.id) throw forbidden();
    // Her rights are read again: a lease outlives no change of them by more than one renewal.
    await this.objects.assertMayEdit(user, existing.object_type, existing.object_id);
    const [row] = await this.rows(
      `UPDATE claims SET expires_at = now() + make_interval(secs => $3)
        WHERE id = $1 AND subject_id = $2 AND released_at IS NULL AND expires_at > now() AND ${HOLDER_ACTIVE}
        RETURNING *`,
      [id, user.id, leaseSeconds(extendBy)],
    );
    if (!row) throw new CodedError(ErrorCode.ClaimOverdueOrInactive);
    await afterCommit(`extending the lease workflow of claim ${row.id}`, () =>
      this.withTemporal((client) =>
        extendClaimLease(client, row.id, row.expires_at.toISOString(), { taskQueue: config.temporal.taskQueue }),
      ),
    );
    return toDto(row);
  }

  /**
   * Releases the caller's own claim. Idempotent: a claim already released (or expired) answers
   * 200 with its final state, because the UI releases "on leaving" and may do so twice.
   */
  async release(user: UserContext, id: string): Promise<ClaimDto> {
    auditValues({ claimId: id });
    const [row] = await this.rows(
      `UPDATE claims SET released_at = now(),
              release_reason = CASE WHEN expires_at <= now() THEN 'expired' ELSE 'released' END
        WHERE id = $1 AND subject_id = $2 AND released_at IS NULL
        RETURNING *`,
      [id, user.id],
    );
    if (!row) {
      const [existing] = await this.rows('SELECT * FROM claims WHERE id = $1', [id]);
      if (!existing) throw notFound();
      if (existing.subject_id !== user.id) throw forbidden();
      return toDto(existing);
    }
    auditValues({ objectType: row.object_type, objectId: row.object_id });
    await afterCommit(`stopping the lease workflow of claim ${row.id}`, () =>
      this.withTemporal((client) => releaseClaimLease(client, row.id)),
    );
    return toDto(row);
  }

  /**
   * The active, unexpired claim of an object, or null. Only for a user who may see the object
   * (the claim rules): the answer names its holder.
   */
  async actual(user: UserContext, objectType: string, objectId: string): Promise<ClaimDto | null> {
    const storedId = await this.objects.assertMaySee(user, objectType, objectId);
    const [row] = await this.rows(
      `SELECT * FROM claims
        WHERE object_type = $1 AND object_id = $2 AND released_at IS NULL AND expires_at > now() AND ${HOLDER_ACTIVE}`,
      [objectType, storedId],
    );
    return row ? toDto(row) : null;
  }

  private rows(sql: string, bind: unknown[]): Promise<ClaimRow[]> {
    // Inside a request transaction (CLS) the query joins it without being told.
    return this.sequelize.query<ClaimRow>(sql, { bind, type: QueryTypes.SELECT });
  }

  /** A Temporal call that may not hold a response up for long; the caller logs its failure. */
  private async withTemporal<T>(call: (client: Client) => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Temporal did not answer within ${TEMPORAL_CALL_TIMEOUT_MS} ms`)), TEMPORAL_CALL_TIMEOUT_MS);
    });
    try {
      return await Promise.race([this.temporal.get().then(call), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

const subjectName = (u: UserContext) => `${u.firstName ?? ''} ${u.lastName ?? ''}`.trim() || u.email;

/** Object ids are stored as text; a positive integer goes back out as the number it came in as. */
function toObjectId(text: string): number | string {
  return /^[1-9]\d{0,15}$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : text;
}

function toDto(r: ClaimRow): ClaimDto {
  return {
    id: Number(r.id),
    objectId: toObjectId(r.object_id),
    objectType: r.object_type,
    subjectId: r.subject_id,
    subjectName: r.subject_name,
    claimedAt: new Date(r.claimed_at).toISOString(),
    expiresAt: new Date(r.expires_at).toISOString(),
    releasedAt: r.released_at ? new Date(r.released_at).toISOString() : null,
    releaseReason: r.release_reason,
  };
}
