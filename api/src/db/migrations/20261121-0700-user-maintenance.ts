import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';

/**
 * Indexes of the user-maintenance schedules: timed SMS windows still open (expireSmsWindows) and
 * active, unlocked users by last activity (lockInactiveUsers).
 */
export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    CREATE INDEX users_sms_receive_until_idx ON users ((notifications_receiving_settings->>'receiveUntil'))
      WHERE notifications_receiving_settings->>'receiveUntil' IS NOT NULL;
    CREATE INDEX users_inactivity_idx ON users ((COALESCE(last_login, created_at)))
      WHERE is_active AND NOT creating AND NOT locked_due_inactivity;
  `);
};

export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    DROP INDEX IF EXISTS users_inactivity_idx;
    DROP INDEX IF EXISTS users_sms_receive_until_idx;
  `);
};
