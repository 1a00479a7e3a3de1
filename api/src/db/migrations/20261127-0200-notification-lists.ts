import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';

/**
 * The bell's lists (spec 02 §2 Notification bell, §4 Notification) stay fast with millions of rows:
 * - the unresolved list of one user, newest first, read by keyset (created_at, id) and counted up
 *   to the badge cap from the same index;
 * - the resolved list (the last 2 days) of one user, by resolution time;
 * - the purge of what was resolved more than 2 days ago, by resolution time across users.
 * The old (user_id, created_at) index is covered by the first.
 */
export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    DROP INDEX IF EXISTS notifications_user_idx;
    CREATE INDEX notifications_unresolved_idx ON notifications (user_id, created_at DESC, id DESC)
      WHERE resolved_at IS NULL AND dismissed_at IS NULL;
    CREATE INDEX notifications_resolved_idx ON notifications (user_id, resolved_at DESC)
      WHERE resolved_at IS NOT NULL AND dismissed_at IS NULL;
    CREATE INDEX notifications_resolved_at_idx ON notifications (resolved_at) WHERE resolved_at IS NOT NULL;
  `);
};

export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    DROP INDEX IF EXISTS notifications_unresolved_idx, notifications_resolved_idx, notifications_resolved_at_idx;
    CREATE INDEX notifications_user_idx ON notifications (user_id, created_at DESC) WHERE dismissed_at IS NULL;
  `);
};
