/**
 * The hot reads of the bell (spec 02 §2, §4), written so that a user's lists read the partial
 * indexes of migration 20261127-0200 in order and stop after a page, whatever the table holds
 * (tests/bench/notifications.ts: 1,000,000 rows; it prints these plans).
 */
import { NOTIFICATION_BADGE_CAP, RESOLVED_NOTIFICATION_DAYS } from '@crisis/forms';

export interface ListOptions {
  /** The id of the last notification of the previous page (keyset: older ones follow). */
  cursor: number | null;
  limit: number;
  isRead: boolean | null;
}

/** The columns of a listed notification (NotificationItem), `n` being the notifications row. */
export const ITEM = `n.id::int AS id, n.type, n.case_id AS "caseId", n.payload, n.created_at AS "createdAt",
  n.read_at IS NOT NULL AS "isRead", n.read_at AS "readAt", CASE WHEN n.read_at IS NOT NULL THEN n.user_id END AS "readById",
  n.resolved_at AS "resolvedAt", n.resolved_by AS "resolvedById"`;

/** The unresolved ones of a user: the partial index notifications_unresolved_idx (user_id, created_at DESC, id DESC). */
const UNRESOLVED = 'n.user_id = $1 AND n.resolved_at IS NULL AND n.dismissed_at IS NULL';
/** Newest first, as the index holds them. */
const NEWEST = 'ORDER BY n.created_at DESC, n.id DESC';

const readFilter = (isRead: boolean | null) => (isRead === null ? '' : isRead ? 'AND n.read_at IS NOT NULL' : 'AND n.read_at IS NULL');
const after = (cursor: number | null) =>
  cursor === null ? '' : 'AND (n.created_at, n.id) < ((SELECT created_at FROM notifications WHERE id = $4 AND user_id = $1), $4)';

/**
 * One round trip: a keyset page (one more row than asked, to know whether more follow) and the
 * unresolved count up to the badge cap + 1 — both walk the same index in order, so neither
 * reads more than the page or 100 entries.
 */
export function unresolvedListSql(userId: number, o: ListOptions) {
  return {
    sql: `WITH page AS (
            SELECT ${ITEM}, NULL::text AS "resolvedByName" FROM notifications n
             WHERE ${UNRESOLVED} ${readFilter(o.isRead)} ${after(o.cursor)}
             ${NEWEST} LIMIT $2
          )
          SELECT (SELECT count(*)::int FROM (SELECT 1 FROM notifications n WHERE ${UNRESOLVED} ${NEWEST} LIMIT $3) capped) AS count,
                 coalesce((SELECT json_agg(page ORDER BY page."createdAt" DESC, page.id DESC) FROM page), '[]'::json) AS items`,
    params: o.cursor === null ? [userId, o.limit + 1, NOTIFICATION_BADGE_CAP + 1] : [userId, o.limit + 1, NOTIFICATION_BADGE_CAP + 1, o.cursor],
  };
}

/** Resolved within the last 2 days and not dismissed (the index by resolution time), newest first, with the resolver's full name. */
export function resolvedListSql(userId: number, o: ListOptions) {
  return {
    sql: `SELECT ${ITEM}, u.first_name || ' ' || u.last_name AS "resolvedByName"
            FROM notifications n LEFT JOIN users u ON u.id = n.resolved_by
           WHERE n.user_id = $1 AND n.resolved_at > now() - make_interval(days => $3) AND n.dismissed_at IS NULL ${readFilter(o.isRead)} ${after(o.cursor)}
           ${NEWEST} LIMIT $2`,
    params: o.cursor === null ? [userId, o.limit, RESOLVED_NOTIFICATION_DAYS] : [userId, o.limit, RESOLVED_NOTIFICATION_DAYS, o.cursor],
  };
}
