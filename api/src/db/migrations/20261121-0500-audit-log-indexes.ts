import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';

/**
 * Indexes of the audit log list (api/src/audit/audit-log.query.ts). Every list is a time range
 * ordered by performed_at then id (the default sort, newest first), globally or within one
 * facility, so both lead with (performed_at, id) and (facility_id, performed_at, id): a page is an
 * index range scan that stops after the page. The main action has its own index for its filter and
 * for the distinct main actions (a loose index scan). They replace the foundation's performed_at
 * and facility indexes (same leading columns, plus the id tie-breaker).
 */
export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    CREATE INDEX IF NOT EXISTS audit_log_performed_id_idx ON audit_log (performed_at DESC, id DESC);
    CREATE INDEX IF NOT EXISTS audit_log_facility_performed_id_idx ON audit_log (facility_id, performed_at DESC, id DESC);
    CREATE INDEX IF NOT EXISTS audit_log_main_action_idx ON audit_log (main_action, performed_at DESC);
    CREATE INDEX IF NOT EXISTS audit_log_facility_main_action_idx ON audit_log (facility_id, main_action);
    DROP INDEX IF EXISTS audit_log_performed_at_idx;
    DROP INDEX IF EXISTS audit_log_facility_idx;
  `);
};

export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    CREATE INDEX IF NOT EXISTS audit_log_performed_at_idx ON audit_log (performed_at DESC);
    CREATE INDEX IF NOT EXISTS audit_log_facility_idx ON audit_log (facility_id, performed_at DESC);
    DROP INDEX IF EXISTS audit_log_performed_id_idx;
    DROP INDEX IF EXISTS audit_log_facility_performed_id_idx;
    DROP INDEX IF EXISTS audit_log_main_action_idx;
    DROP INDEX IF EXISTS audit_log_facility_main_action_idx;
  `);
};
