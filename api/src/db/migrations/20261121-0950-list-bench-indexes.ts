import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';

/**
 * Indexes of the two big admin lists' text searches (measured by `npm run bench`, tests/bench/lists.ts).
 *
 * - Users (api/src/users/users.service.ts): the name-or-e-mail search (3+ characters, spec 03 §2) is
 *   `first_name || ' ' || last_name ILIKE '%text%' OR email ILIKE '%text%'`. Without an index both the
 *   page and its total evaluate the ILIKEs on every user; trigram GIN indexes on exactly those two
 *   expressions turn them into a BitmapOr of a few hundred rows.
 * - Audit log (api/src/audit/audit-log.query.ts): the user filter is `user_name ILIKE … OR email ILIKE …`
 *   within the time range. The range alone stays on the (performed_at, id) b-tree; with the text, the
 *   planner can AND that range with trigram bitmaps instead of running the ILIKEs on every entry of
 *   the range (about 11,000 a day in the benchmark).
 *
 * pg_trgm ships with PostgreSQL's contrib modules (the embedded one has it) and is a trusted extension
 * since PostgreSQL 13, so a database owner may create it on a managed server too.
 */
export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE INDEX IF NOT EXISTS users_full_name_trgm_idx ON users USING gin ((first_name || ' ' || last_name) gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS users_email_trgm_idx ON users USING gin (email gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS audit_log_user_name_trgm_idx ON audit_log USING gin (user_name gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS audit_log_email_trgm_idx ON audit_log USING gin (email gin_trgm_ops);
  `);
};

export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    DROP INDEX IF EXISTS audit_log_email_trgm_idx;
    DROP INDEX IF EXISTS audit_log_user_name_trgm_idx;
    DROP INDEX IF EXISTS users_email_trgm_idx;
    DROP INDEX IF EXISTS users_full_name_trgm_idx;
  `);
};
