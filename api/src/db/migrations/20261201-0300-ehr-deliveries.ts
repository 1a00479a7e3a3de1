import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';

/**
 * What the platform owes a hospital's EHR (forms/src/cases/ehr.ts): the evaluation document, the
 * case outcome after closing, the claim. The case writer adds a row in the command's transaction,
 * so a delivery is never lost with a crash between the change and the upload; a workflow drives
 * each row (retries, then Failed and a notification), and the row is what the screens and the
 * claims retry read.
 * - `key` makes a retried command queue its delivery once, and is the idempotency key the EHR
 *   sees (conditional create), so a retried upload never files a second document.
 * - `round` counts the ITP admin's retries of a failed row: each round is a workflow of its own.
 */
export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    CREATE TABLE ehr_deliveries (
      id bigserial PRIMARY KEY,
      key text NOT NULL UNIQUE,
      kind text NOT NULL CHECK (kind IN ('EvaluationDocument', 'CaseOutcome', 'Claim')),
      case_id integer NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
      request_id integer REFERENCES requests(id) ON DELETE CASCADE,
      status text NOT NULL DEFAULT 'Pending' CHECK (status IN ('Pending', 'Delivered', 'Failed')),
      round integer NOT NULL DEFAULT 1,
      attempts integer NOT NULL DEFAULT 0,
      last_error text,
      ehr_resource_id text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      delivered_at timestamptz
    );
    CREATE INDEX ehr_deliveries_case_idx ON ehr_deliveries (case_id);
    -- The sweep's safety net reads the rows whose workflow may never have started.
    CREATE INDEX ehr_deliveries_pending_idx ON ehr_deliveries (created_at) WHERE status = 'Pending';
    -- The provider documented in the EHR and skipped the questionnaire (forms evaluationFormOptional).
    ALTER TABLE evaluations ADD COLUMN form_skipped boolean NOT NULL DEFAULT false;
  `);
};

export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query('DROP TABLE IF EXISTS ehr_deliveries; ALTER TABLE evaluations DROP COLUMN IF EXISTS form_skipped');
};
