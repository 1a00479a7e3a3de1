import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { Sequelize } from 'sequelize-typescript';
import { ErrorCode, LIVE_CHANNEL, LiveRoom, OrganizationType, isItpStaff, type NotificationItem, type NotificationList } from '@crisis/forms';
import { CodedError, notFound } from '../common/coded-error';
import { preparedRead } from '../common/prepared-read';
import { auditValues } from '../common/request-context';
import { inTransaction, pooledSql, type Sql } from '../db/sql';
import { ONE_ITEM_SQL, SHARED_VISIBLE, resolvedListSql, unresolvedListSql, type ListOptions, type NotificationReader } from './notifications.query';

/**
 * A user's in-app notifications (spec 02 §2 bell, §4 Notification, §7 "Other"): only one's own
 * rows, and for an ITP coordinator the broadcasts to every coordinator, are ever listed or
 * changed; another user's id is a 404, as an unknown one.
 *
 * Resolving is shared: one event raises a row per recipient named one by one (same source key and
 * type) and one broadcast row for the coordinators; the rows of the resolver's organization (the
 * coordinators' broadcast and ITP rows, the staff of a facility) are resolved together, with the
 * resolver's name — the resolved list says who took care of it. Reading and dismissing stay each
 * reader's own: on her row, or on her receipt of a broadcast.
 */
@Injectable()
export class NotificationsService {
  private readonly db: Sql;

  constructor(@InjectConnection() private readonly sequelize: Sequelize) {
    this.db = pooledSql(sequelize);
  }

  /** The unresolved ones, newest first, a keyset page; the count goes to the badge cap + 1 (99+). */
  async unresolved(reader: NotificationReader, o: ListOptions): Promise<NotificationList> {
    const q = unresolvedListSql(reader, o);
    // The bell's hot path: a named statement on a pooled connection (planned once per connection).
    const rows = await preparedRead<{ count: number; items: NotificationItem[] }>(this.sequelize, q.sql, q.params);
    const items = rows[0].items;
    const more = items.length > o.limit;
    if (more) items.length = o.limit;
    return { items, unresolvedCount: rows[0].count, nextCursor: more ? String(items[items.length - 1].id) : null };
  }

  /** The resolved ones of the last 2 days, not dismissed, newest first, with the resolver's full name. */
  async resolved(reader: NotificationReader, o: ListOptions): Promise<NotificationItem[]> {
    const q = resolvedListSql(reader, o);
    return preparedRead<NotificationItem>(this.sequelize, q.sql, q.params);
  }

  /**
   * Resolves one's own notification (or a broadcast one reads) and its siblings (same event, same
   * organization); a resolved one stays as it was. Each user whose bell changed is told live.
   */
  async resolve(reader: NotificationReader, id: number): Promise<NotificationItem> {
    return inTransaction(this.sequelize, async (db) => {
      const { rows } = await db.query<{ id: string; resolved_at: Date | null }>(
        `SELECT n.id, n.resolved_at FROM notifications n
          WHERE n.id = $3 AND n.dismissed_at IS NULL AND (n.user_id = $1 OR (${SHARED_VISIBLE})) FOR UPDATE`,
        [reader.id, reader.itpStaff, id],
      );
      if (!rows[0]) throw notFound();
      if (!rows[0].resolved_at) {
        const changed = await db.query<{ user_id: number | null }>(
          `WITH mine AS (SELECT n.id, n.source_key, n.type, n.case_id FROM notifications n WHERE n.id = $1),
                me AS (SELECT organization_type, organization_id FROM users WHERE id = $2)
           UPDATE notifications n SET resolved_at = now(), resolved_by = $2,
                  read_at = CASE WHEN n.user_id IS NOT NULL THEN coalesce(n.read_at, now()) END
             FROM mine, me
            WHERE n.resolved_at IS NULL AND n.dismissed_at IS NULL
              AND (n.id = mine.id
                   OR (mine.source_key IS NOT NULL AND n.source_key = mine.source_key AND n.type = mine.type AND n.case_id IS NOT DISTINCT FROM mine.case_id
                       AND (EXISTS (SELECT 1 FROM users o WHERE o.id = n.user_id AND o.organization_type = me.organization_type
                                      AND o.organization_id IS NOT DISTINCT FROM me.organization_id)
                            OR (n.audience = 'itp' AND me.organization_type = '${OrganizationType.ITP}'))))
           RETURNING n.user_id`,
          [id, reader.id],
        );
        await this.tellChanged(db, changed.rows.map((r) => r.user_id));
        auditValues({ notificationId: id, resolvedFor: changed.rows.length });
      }
      return this.item(db, reader, id);
    });
  }

  /** Dismisses one's own resolved notification (it leaves the resolved list); an unresolved one is refused. */
  async dismiss(reader: NotificationReader, id: number): Promise<{ id: number; dismissed: true }> {
    const { rows } = await this.db.query<{ resolved: boolean; dismissed: boolean }>(
      `WITH target AS (
         SELECT n.id, n.user_id, n.resolved_at IS NOT NULL AS resolved,
                CASE WHEN n.user_id IS NOT NULL THEN n.dismissed_at IS NOT NULL
                     ELSE EXISTS (SELECT 1 FROM notification_receipts r WHERE r.notification_id = n.id AND r.user_id = $1 AND r.dismissed_at IS NOT NULL)
                END AS dismissed
           FROM notifications n WHERE n.id = $3 AND (n.user_id = $1 OR (${SHARED_VISIBLE}))
       ), own AS (
         UPDATE notifications n SET dismissed_at = now() FROM target t
          WHERE n.id = t.id AND t.user_id IS NOT NULL AND t.resolved AND NOT t.dismissed RETURNING n.id
       ), shared AS (
         INSERT INTO notification_receipts (notification_id, user_id, dismissed_at)
         SELECT t.id, $1, now() FROM target t WHERE t.user_id IS NULL AND t.resolved AND NOT t.dismissed
         ON CONFLICT (user_id, notification_id) DO UPDATE SET dismissed_at = excluded.dismissed_at
         RETURNING notification_id
       )
       SELECT resolved, dismissed FROM target`,
      [reader.id, reader.itpStaff, id],
    );
    if (!rows[0]) throw notFound();
    if (!rows[0].resolved) throw new CodedError(ErrorCode.NotificationNotResolved, { id });
    auditValues({ notificationId: id });
    await this.db.query('SELECT pg_notify($1, $2)', [LIVE_CHANNEL, JSON.stringify({ room: LiveRoom.user(reader.id), event: 'notifications.changed', data: {} })]);
    return { id, dismissed: true };
  }

  /** Marks the reader's notifications of the given ids read; ids she does not read change nothing. */
  async markRead(reader: NotificationReader, ids: number[]): Promise<{ updated: number }> {
    const { rows } = await this.db.query<{ updated: number }>(
      `WITH own AS (
         UPDATE notifications SET read_at = now() WHERE id = ANY($3::bigint[]) AND user_id = $1 AND read_at IS NULL RETURNING id
       ), shared AS (
         INSERT INTO notification_receipts (notification_id, user_id, read_at)
         SELECT n.id, $1, now() FROM notifications n WHERE n.id = ANY($3::bigint[]) AND ${SHARED_VISIBLE} AND n.resolved_at IS NULL
         ON CONFLICT (user_id, notification_id) DO UPDATE SET read_at = excluded.read_at WHERE notification_receipts.read_at IS NULL
         RETURNING notification_id
       )
       SELECT (SELECT count(*) FROM own)::int + (SELECT count(*) FROM shared)::int AS updated`,
      [reader.id, reader.itpStaff, ids],
    );
    auditValues({ notificationIds: ids, updated: rows[0].updated });
    return { updated: rows[0].updated };
  }

  /**
   * Names of users by id (the bell's resolver names, at most 25 ids a call): only the caller and
   * the users who resolved one of the caller's notifications.
   */
  async users(reader: NotificationReader, ids: number[]): Promise<Array<{ id: number; fullName: string }>> {
    const { rows } = await this.db.query<{ id: number; fullName: string }>(
      `SELECT u.id, u.first_name || ' ' || u.last_name AS "fullName" FROM users u
        WHERE u.id = ANY($3::int[])
          AND (u.id = $1
               OR EXISTS (SELECT 1 FROM notifications n WHERE n.user_id = $1 AND n.resolved_by = u.id AND n.resolved_at IS NOT NULL)
               OR EXISTS (SELECT 1 FROM notifications n WHERE ${SHARED_VISIBLE} AND n.resolved_by = u.id AND n.resolved_at IS NOT NULL))
        ORDER BY u.id`,
      [reader.id, reader.itpStaff, ids],
    );
    return rows;
  }

  private async item(db: Sql, reader: NotificationReader, id: number): Promise<NotificationItem> {
    const { rows } = await db.query<NotificationItem>(ONE_ITEM_SQL, [reader.id, reader.itpStaff, id]);
    return rows[0];
  }

  /** Tells the open pages whose bell changed (a broadcast: every coordinator's); delivered on commit. */
  private async tellChanged(db: Sql, userIds: Array<number | null>) {
    const rooms = [...new Set(userIds.map((u) => (u === null ? LiveRoom.itpStaff : LiveRoom.user(u))))];
    if (!rooms.length) return;
    await db.query(
      `SELECT pg_notify($1, json_build_object('room', room, 'event', 'notifications.changed', 'data', '{}'::json)::text)
         FROM unnest($2::text[]) AS room`,
      [LIVE_CHANNEL, rooms],
    );
  }
}

/** The reader of a signed-in user's bell. */
export const readerOf = (user: { id: number; role: string }): NotificationReader => ({ id: user.id, itpStaff: isItpStaff(user.role) });
