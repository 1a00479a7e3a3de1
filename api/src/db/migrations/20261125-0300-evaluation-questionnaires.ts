import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';

/**
 * Questionnaires (spec 02 §3 "Evaluation form", "Evaluation"): a form's items, versioned so that
 * an evaluation keeps the questions it was answered on (editing a form never changes a submitted
 * evaluation); an evaluation's own version refuses a stale save from a second tab. A removed form
 * is kept (its versions are what old evaluations were answered on) but leaves the list and frees
 * its name.
 */
export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    ALTER TABLE evaluation_forms
      ADD COLUMN items jsonb NOT NULL DEFAULT '[]',
      ADD COLUMN version integer NOT NULL DEFAULT 1,
      ADD COLUMN removed_at timestamptz;
    DROP INDEX evaluation_forms_name_uniq;
    CREATE UNIQUE INDEX evaluation_forms_name_uniq ON evaluation_forms (lower(name)) WHERE removed_at IS NULL;

    CREATE TABLE evaluation_form_versions (
      evaluation_form_id integer NOT NULL REFERENCES evaluation_forms(id),
      version integer NOT NULL,
      items jsonb NOT NULL,
      created_by integer REFERENCES users(id),
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (evaluation_form_id, version)
    );
    INSERT INTO evaluation_form_versions (evaluation_form_id, version, items) SELECT id, version, items FROM evaluation_forms;

    ALTER TABLE evaluations
      ADD COLUMN evaluation_form_version integer,
      ADD COLUMN version integer NOT NULL DEFAULT 0,
      ADD COLUMN completed_at timestamptz,
      ADD COLUMN updated_by integer REFERENCES users(id);
  `);
};

export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    ALTER TABLE evaluations DROP COLUMN evaluation_form_version, DROP COLUMN version, DROP COLUMN completed_at, DROP COLUMN updated_by;
    DROP TABLE evaluation_form_versions;
    DELETE FROM facility_evaluation_forms WHERE evaluation_form_id IN (SELECT id FROM evaluation_forms WHERE removed_at IS NOT NULL);
    DELETE FROM evaluation_forms WHERE removed_at IS NOT NULL;
    DROP INDEX evaluation_forms_name_uniq;
    CREATE UNIQUE INDEX evaluation_forms_name_uniq ON evaluation_forms (lower(name));
    ALTER TABLE evaluation_forms DROP COLUMN items, DROP COLUMN version, DROP COLUMN removed_at;
  `);
};
