import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';

/** The claims sweep looks for active claims past their expiry. */
export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query('CREATE INDEX claims_active_expiry_idx ON claims (expires_at) WHERE released_at IS NULL');
};

export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query('DROP INDEX IF EXISTS claims_active_expiry_idx');
};
