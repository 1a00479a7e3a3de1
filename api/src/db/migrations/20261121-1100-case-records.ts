import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';

/**
 * Case records (spec 01 §3, §9): one feedback per user and case (a second one updates it), who
 * last edited a case note or a file's title, and the lists' sort indexes.
 */
export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    ALTER TABLE case_feedback ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();
    CREATE UNIQUE INDEX case_feedback_case_user_uniq ON case_feedback (case_id, created_by);
    ALTER TABLE case_notes ADD COLUMN modified_by integer REFERENCES users(id);
    ALTER TABLE patient_files ADD COLUMN modified_at timestamptz;
    ALTER TABLE patient_files ADD COLUMN modified_by integer REFERENCES users(id);
  `);
};

export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    ALTER TABLE patient_files DROP COLUMN IF EXISTS modified_by, DROP COLUMN IF EXISTS modified_at;
    ALTER TABLE case_notes DROP COLUMN IF EXISTS modified_by;
    DROP INDEX IF EXISTS case_feedback_case_user_uniq;
    ALTER TABLE case_feedback DROP COLUMN IF EXISTS updated_at;
  `);
};
