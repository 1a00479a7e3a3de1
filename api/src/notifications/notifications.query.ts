/**
 * The hot reads of the bell (spec 02 §2, §4), written so that a user's lists read the partial
 * indexes in order and stop after a page, whatever the table holds (tests/bench/notifications.ts:
 * 1,000,000 rows; it prints these plans). A user reads two kinds of rows:
 * - her own (user_id), by notifications_unresolved_idx / notifications_resolved_idx;
 * - for an ITP coordinator, the broadcasts to every coordinator (audience 'itp'), by the
 *   notifications_broadcast_* indexes, with her read / dismissed state from her receipt.
 * Each side is walked for one page, then the two are merged.
 */
import { NOTIFICATION_BADGE_CAP, RESOLVED_NOTIFICATION_DAYS } from '@crisis/forms';

/** Whose bell: the user, and whether she reads the coordinators' broadcasts. */
export interface NotificationReader {
  id: number;
  itpStaff: boolean;
}

export interface ListOptions {
  /** The id of the last notification of the previous page (keyset: older ones follow). */
  cursor: number | null;
  limit: number;
  isRead: boolean | null;
}

/**
 * The rows of both kinds as one shape (`m`): own rows, and broadcasts with the reader's receipt
 * (a resolved broadcast counts as read, as a resolved own row is marked read). $1 is the reader.
 */
const OWN_COLUMNS = 'n.id, n.type, n.case_id, n.payload, n.created_at, n.read_at AS my_read_at, n.resolved_at, n.resolved_by';
const SHARED_COLUMNS = 'n.id, n.type, n.case_id, n.payload, n.created_at, coalesce(r.read_at, n.resolved_at) AS my_read_at, n.resolved_at, n.resolved_by';
const WITH_RECEIPT = 'notifications n LEFT JOIN notification_receipts r ON r.notification_id = n.id AND r.user_id = $1';
/**
 * A broadcast this reader reads ($2: she is an ITP coordinator): raised since she joined (as a row
 * of her own would have been), never by her own change.
 */
export const SHARED_VISIBLE = `$2::boolean AND n.audience = 'itp' AND n.except_user_id IS DISTINCT FROM $1
  AND n.created_at >= (SELECT created_at FROM users WHERE id = $1)`;

/** The columns of a listed notification (NotificationItem), `m` being a merged row. */
export const ITEM = `m.id::int AS id, m.type, m.case_id AS "caseId", m.payload, m.created_at AS "createdAt",
  m.my_read_at IS NOT NULL AS "isRead", m.my_read_at AS "readAt", CASE WHEN m.my_read_at IS NOT NULL THEN $1::int END AS "readById",
  m.resolved_at AS "resolvedAt", m.resolved_by AS "resolvedById"`;

/** Newest first, as the indexes hold them. */
const NEWEST = 'ORDER BY n.created_at DESC, n.id DESC';

const readFilter = (column: string, isRead: boolean | null) => (isRead === null ? '' : isRead ? `AND ${column} IS NOT NULL` : `AND ${column} IS NULL`);
/** Keyset: after the cursor's row ($5), which is one of the reader's. */
const after = (cursor: number | null) =>
  cursor === null ? '' : `AND (n.created_at, n.id) < ((SELECT created_at FROM notifications WHERE id = $5 AND (user_id = $1 OR audience IS NOT NULL)), $5)`;

const OWN_UNRESOLVED = 'n.user_id = $1 AND n.resolved_at IS NULL AND n.dismissed_at IS NULL';
const SHARED_UNRESOLVED = `${SHARED_VISIBLE} AND n.resolved_at IS NULL AND r.dismissed_at IS NULL`;

/**
 * One round trip: a keyset page (one more row than asked, to know whether more follow) and the
 * unresolved count up to the badge cap + 1 — each side walks its index in order, so neither
 * reads more than the page or 100 entries.
 */
export function unresolvedListSql(reader: NotificationReader, o: ListOptions) {
  return {
    sql: `WITH own AS (
            SELECT ${OWN_COLUMNS} FROM notifications n
             WHERE ${OWN_UNRESOLVED} ${readFilter('n.read_at', o.isRead)} ${after(o.cursor)} ${NEWEST} LIMIT $3
          ), shared AS (
            SELECT ${SHARED_COLUMNS} FROM ${WITH_RECEIPT}
             WHERE ${SHARED_UNRESOLVED} ${readFilter('coalesce(r.read_at, n.resolved_at)', o.isRead)} ${after(o.cursor)} ${NEWEST} LIMIT $3
          ), page AS (
            SELECT ${ITEM}, NULL::text AS "resolvedByName"
              FROM (SELECT * FROM own UNION ALL SELECT * FROM shared) m ORDER BY m.created_at DESC, m.id DESC LIMIT $3
          )
          SELECT least($4::int, (SELECT count(*)::int FROM (SELECT 1 FROM notifications n WHERE ${OWN_UNRESOLVED} ${NEWEST} LIMIT $4) a)
                              + (SELECT count(*)::int FROM (SELECT 1 FROM ${WITH_RECEIPT} WHERE ${SHARED_UNRESOLVED} ${NEWEST} LIMIT $4) b)) AS count,
                 coalesce((SELECT json_agg(page ORDER BY page."createdAt" DESC, page.id DESC) FROM page), '[]'::json) AS items`,
    params: [reader.id, reader.itpStaff, o.limit + 1, NOTIFICATION_BADGE_CAP + 1, ...(o.cursor === null ? [] : [o.cursor])],
  };
}

/** Latest resolved first, as the resolution-time indexes hold them. */
const LATEST_RESOLVED = 'ORDER BY n.resolved_at DESC, n.id DESC';
/** Keyset of the resolved list: after the cursor's row ($5) by resolution time. */
const afterResolved = (cursor: number | null) =>
  cursor === null ? '' : `AND (n.resolved_at, n.id) < ((SELECT resolved_at FROM notifications WHERE id = $5 AND (user_id = $1 OR audience IS NOT NULL)), $5)`;

/**
 * Resolved within the last 2 days and not dismissed, the latest resolved first, with the
 * resolver's full name. Each side walks its index by resolution time and stops after a page:
 * sorted by creation instead, every row resolved in the 2 days had to be read and sorted first.
 */
export function resolvedListSql(reader: NotificationReader, o: ListOptions) {
  const recent = 'n.resolved_at > now() - make_interval(days => $4)';
  return {
    sql: `WITH own AS (
            SELECT ${OWN_COLUMNS} FROM notifications n
             WHERE n.user_id = $1 AND ${recent} AND n.dismissed_at IS NULL ${readFilter('n.read_at', o.isRead)} ${afterResolved(o.cursor)} ${LATEST_RESOLVED} LIMIT $3
          ), shared AS (
            SELECT ${SHARED_COLUMNS} FROM ${WITH_RECEIPT}
             WHERE ${SHARED_VISIBLE} AND ${recent} AND r.dismissed_at IS NULL ${readFilter('coalesce(r.read_at, n.resolved_at)', o.isRead)} ${afterResolved(o.cursor)} ${LATEST_RESOLVED} LIMIT $3
          )
          SELECT ${ITEM}, u.first_name || ' ' || u.last_name AS "resolvedByName"
            FROM (SELECT * FROM own UNION ALL SELECT * FROM shared) m LEFT JOIN users u ON u.id = m.resolved_by
           ORDER BY m.resolved_at DESC, m.id DESC LIMIT $3`,
    params: [reader.id, reader.itpStaff, o.limit, RESOLVED_NOTIFICATION_DAYS, ...(o.cursor === null ? [] : [o.cursor])],
  };
}

/** One notification of the reader's (own or a broadcast she reads), as listed; $3 is its id. */
export const ONE_ITEM_SQL = `SELECT ${ITEM}, u.first_name || ' ' || u.last_name AS "resolvedByName"
   FROM (SELECT ${OWN_COLUMNS} FROM notifications n WHERE n.id = $3 AND n.user_id = $1
         UNION ALL
         SELECT ${SHARED_COLUMNS} FROM ${WITH_RECEIPT} WHERE n.id = $3 AND ${SHARED_VISIBLE}) m
   LEFT JOIN users u ON u.id = m.resolved_by`;
