import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';

/**
 * Identity server additions:
 * - a sign-in code belongs to the sign-in interaction that asked for it (a code typed into another
 *   browser's sign-in is refused);
 * - sessions and grants are looked up by account when a password change signs out other sessions.
 */
export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    ALTER TABLE mfa_codes ADD COLUMN interaction_uid text;
    CREATE INDEX mfa_codes_interaction_idx ON mfa_codes (interaction_uid) WHERE consumed_at IS NULL;
    CREATE INDEX oidc_payloads_account_idx ON oidc_payloads ((payload->>'accountId')) WHERE type IN ('Session', 'Grant');
  `);
};

export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    DROP INDEX IF EXISTS oidc_payloads_account_idx;
    DROP INDEX IF EXISTS mfa_codes_interaction_idx;
    ALTER TABLE mfa_codes DROP COLUMN IF EXISTS interaction_uid;
  `);
};
