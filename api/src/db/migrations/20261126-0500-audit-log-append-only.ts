import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';

/**
 * The audit log is append-only (spec 03 §3) for every connection, the application's included: the
 * foundation's row trigger refuses UPDATE and DELETE; TRUNCATE fires no row trigger, so a
 * statement trigger refuses it too. Nothing in the API, the worker or the seed changes or removes
 * an entry (they only INSERT).
 *
 * Retention: there is no purge. Should one be required, it is a migration run by the database
 * owner that, in one transaction, drops audit_log_no_update and audit_log_no_truncate, deletes
 * what has expired and creates both triggers again — never something the application does.
 */
export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
    END $$;
    DROP TRIGGER IF EXISTS audit_log_no_truncate ON audit_log;
    CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
      FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
  `);
};

export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    DROP TRIGGER IF EXISTS audit_log_no_truncate ON audit_log;
    CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'audit_log is append-only';
    END $$;
  `);
};
