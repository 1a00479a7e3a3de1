import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';

/**
 * A notification for the ITP coordinators (audience 'itp') is one row, not one per coordinator:
 * with 1,600 of them, an evaluation's completion wrote 1,600 rows (130 ms of its transaction).
 * - `audience` is set on such a broadcast row and `user_id` is null; `except_user_id` is the
 *   coordinator whose change raised it (never told of his own change).
 * - Resolving stays shared (the row's resolved_at / resolved_by); what is each reader's own, read
 *   and dismissed, is a receipt row, written only when a coordinator reads or dismisses it.
 * Rows written before stay per user, and are read as before.
 */
export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    ALTER TABLE notifications ALTER COLUMN user_id DROP NOT NULL,
      ADD COLUMN audience text,
      ADD COLUMN except_user_id integer REFERENCES users(id) ON DELETE SET NULL,
      ADD CONSTRAINT notifications_user_or_audience CHECK ((user_id IS NULL) <> (audience IS NULL)),
      ADD CONSTRAINT notifications_audience_known CHECK (audience IN ('itp'));
    -- A retried command raises its broadcast once (user rows keep notifications_source_uniq).
    CREATE UNIQUE INDEX notifications_broadcast_source_uniq ON notifications (source_key, type, audience)
      WHERE audience IS NOT NULL AND source_key IS NOT NULL;
    -- The bell of a coordinator reads these two beside her own rows' indexes.
    CREATE INDEX notifications_broadcast_unresolved_idx ON notifications (audience, created_at DESC, id DESC)
      WHERE audience IS NOT NULL AND resolved_at IS NULL;
    CREATE INDEX notifications_broadcast_resolved_idx ON notifications (audience, resolved_at DESC)
      WHERE audience IS NOT NULL AND resolved_at IS NOT NULL;
    CREATE TABLE notification_receipts (
      notification_id bigint NOT NULL REFERENCES notifications(id) ON DELETE CASCADE,
      user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      read_at timestamptz,
      dismissed_at timestamptz,
      PRIMARY KEY (user_id, notification_id)
    );
    CREATE INDEX notification_receipts_notification_idx ON notification_receipts (notification_id);
  `);
};

export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    DROP TABLE IF EXISTS notification_receipts;
    DELETE FROM notifications WHERE audience IS NOT NULL;
    DROP INDEX IF EXISTS notifications_broadcast_source_uniq, notifications_broadcast_unresolved_idx, notifications_broadcast_resolved_idx;
    ALTER TABLE notifications DROP CONSTRAINT IF EXISTS notifications_user_or_audience,
      DROP CONSTRAINT IF EXISTS notifications_audience_known,
      DROP COLUMN IF EXISTS except_user_id, DROP COLUMN IF EXISTS audience,
      ALTER COLUMN user_id SET NOT NULL;
  `);
};
