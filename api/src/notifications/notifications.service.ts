import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { Sequelize } from 'sequelize-typescript';
import { ErrorCode, LIVE_CHANNEL, LiveRoom, type NotificationItem, type NotificationList } from '@crisis/forms';
import { CodedError, notFound } from '../common/coded-error';
import { preparedRead } from '../common/prepared-read';
import { auditValues } from '../common/request-context';
import { inTransaction, pooledSql, type Sql } from '../db/sql';
import { ITEM, resolvedListSql, unresolvedListSql, type ListOptions } from './notifications.query';

/**
 * A user's in-app notifications (spec 02 §2 bell, §4 Notification, §7 "Other"): only one's own
 * rows are ever listed or changed; another user's id is a 404, as an unknown one.
 *
 * Resolving is shared: one event raises a row per recipient (same source key and type), and the
 * rows of the recipients of the same organization (the coordinators of ITP, the staff of a
 * facility) are resolved together, with the resolver's name on each — the resolved list says who
 * took care of it.
 */
@Injectable()
export class NotificationsService {
  private readonly db: Sql;

  constructor(@InjectConnection() private readonly sequelize: Sequelize) {
    this.db = pooledSql(sequelize);
  }

  /** The unresolved ones, newest first, a keyset page; the count goes to the badge cap + 1 (99+). */
  async unresolved(userId: number, o: ListOptions): Promise<NotificationList> {
    const q = unresolvedListSql(userId, o);
    // The bell's hot path: a named statement on a pooled connection (planned once per connection).
    const rows = await preparedRead<{ count: number; items: NotificationItem[] }>(this.sequelize, q.sql, q.params);
    const items = rows[0].items;
    const more = items.length > o.limit;
    if (more) items.length = o.limit;
    return { items, unresolvedCount: rows[0].count, nextCursor: more ? String(items[items.length - 1].id) : null };
  }

  /** The resolved ones of the last 2 days, not dismissed, newest first, with the resolver's full name. */
  async resolved(userId: number, o: ListOptions): Promise<NotificationItem[]> {
    const q = resolvedListSql(userId, o);
    return preparedRead<NotificationItem>(this.sequelize, q.sql, q.params);
  }

  /**
   * Resolves one's own notification and its siblings (same event, same organization); a resolved
   * one stays as it was. Each user whose bell changed is told live.
   */
  async resolve(userId: number, id: number): Promise<NotificationItem> {
    return inTransaction(this.sequelize, async (db) => {
      const { rows } = await db.query<{ id: string; user_id: number; resolved_at: Date | null }>(
        'SELECT id, user_id, resolved_at FROM notifications WHERE id = $1 AND user_id = $2 AND dismissed_at IS NULL FOR UPDATE',
        [id, userId],
      );
      if (!rows[0]) throw notFound();
      if (!rows[0].resolved_at) {
        const changed = await db.query<{ user_id: number }>(
          `WITH mine AS (
             SELECT n.id, n.source_key, n.type, n.case_id, u.organization_type, u.organization_id
               FROM notifications n JOIN users u ON u.id = n.user_id WHERE n.id = $1
           )
           UPDATE notifications n SET resolved_at = now(), resolved_by = $2, read_at = coalesce(n.read_at, now())
             FROM mine
            WHERE n.resolved_at IS NULL AND n.dismissed_at IS NULL
              AND (n.id = mine.id
                   OR (mine.source_key IS NOT NULL AND n.source_key = mine.source_key AND n.type = mine.type AND n.case_id IS NOT DISTINCT FROM mine.case_id
                       AND EXISTS (SELECT 1 FROM users o WHERE o.id = n.user_id AND o.organization_type = mine.organization_type
                                     AND o.organization_id IS NOT DISTINCT FROM mine.organization_id)))
           RETURNING n.user_id`,
          [id, userId],
        );
        await this.tellChanged(db, changed.rows.map((r) => r.user_id));
        auditValues({ notificationId: id, resolvedFor: changed.rows.length });
      }
      return this.item(db, userId, id);
    });
  }

  /** Dismisses one's own resolved notification (it leaves the resolved list); an unresolved one is refused. */
  async dismiss(userId: number, id: number): Promise<{ id: number; dismissed: true }> {
    const { rows } = await this.db.query<{ resolved: boolean; dismissed: boolean }>(
      `WITH target AS (SELECT id, resolved_at IS NOT NULL AS resolved, dismissed_at IS NOT NULL AS dismissed FROM notifications WHERE id = $1 AND user_id = $2),
            done AS (UPDATE notifications n SET dismissed_at = now() FROM target t WHERE n.id = t.id AND t.resolved AND NOT t.dismissed RETURNING n.id)
       SELECT resolved, dismissed FROM target`,
      [id, userId],
    );
    if (!rows[0]) throw notFound();
    if (!rows[0].resolved) throw new CodedError(ErrorCode.NotificationNotResolved, { id });
    auditValues({ notificationId: id });
    await this.db.query('SELECT pg_notify($1, $2)', [LIVE_CHANNEL, JSON.stringify({ room: LiveRoom.user(userId), event: 'notifications.changed', data: {} })]);
    return { id, dismissed: true };
  }

  /** Marks one's own notifications of the given ids read; ids of other users' rows change nothing. */
  async markRead(userId: number, ids: number[]): Promise<{ updated: number }> {
    const { rows } = await this.db.query<{ id: string }>(
      'UPDATE notifications SET read_at = now() WHERE id = ANY($1::bigint[]) AND user_id = $2 AND read_at IS NULL RETURNING id',
      [ids, userId],
    );
    auditValues({ notificationIds: ids, updated: rows.length });
    return { updated: rows.length };
  }

  /**
   * Names of users by id (the bell's resolver names, at most 25 ids a call): only the caller and
   * the users who resolved one of the caller's notifications.
   */
  async users(userId: number, ids: number[]): Promise<Array<{ id: number; fullName: string }>> {
    const { rows } = await this.db.query<{ id: number; fullName: string }>(
      `SELECT u.id, u.first_name || ' ' || u.last_name AS "fullName" FROM users u
        WHERE u.id = ANY($1::int[])
          AND (u.id = $2 OR EXISTS (SELECT 1 FROM notifications n WHERE n.user_id = $2 AND n.resolved_by = u.id AND n.resolved_at IS NOT NULL))
        ORDER BY u.id`,
      [ids, userId],
    );
    return rows;
  }

  private async item(db: Sql, userId: number, id: number): Promise<NotificationItem> {
    const { rows } = await db.query<NotificationItem>(
      `SELECT ${ITEM}, u.first_name || ' ' || u.last_name AS "resolvedByName"
         FROM notifications n LEFT JOIN users u ON u.id = n.resolved_by WHERE n.id = $1 AND n.user_id = $2`,
      [id, userId],
    );
    return rows[0];
  }

  /** Tells each user's open pages that their bell changed (delivered on commit). */
  private async tellChanged(db: Sql, userIds: number[]) {
    if (!userIds.length) return;
    await db.query(
      `SELECT pg_notify($1, json_build_object('room', 'user:' || u, 'event', 'notifications.changed', 'data', '{}'::json)::text)
         FROM unnest($2::int[]) AS u`,
      [LIVE_CHANNEL, [...new Set(userIds)]],
    );
  }
}
