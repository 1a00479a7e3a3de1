import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';

/**
 * The patient directory and the merge of duplicates (spec 02 §2 "Patients", "Merge page", §4).
 *
 * - A merged-away patient row stays, marked with the record it was merged into: its id answers
 *   INV.PATIENT.MERGED with the survivor, and what it held is not lost.
 * - "No merging needed" is remembered as the set of records an admin reviewed: a duplicate group
 *   is hidden while one such set covers all of its records (a new look-alike shows it again).
 * - Indexes for the directory's filters (state/city, date of birth for the age bands) and for the
 *   duplicate groups (name + date of birth among the records not merged away).
 */
export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    ALTER TABLE patients
      ADD COLUMN merged_into_id integer REFERENCES patients(id),
      ADD COLUMN merged_at timestamptz,
      ADD COLUMN merged_by integer REFERENCES users(id);
    CREATE INDEX patients_live_name_dob_idx ON patients (lower(last_name), lower(first_name), date_of_birth, id) WHERE merged_into_id IS NULL;
    CREATE INDEX patients_live_dob_idx ON patients (date_of_birth) WHERE merged_into_id IS NULL;
    CREATE INDEX patients_live_state_city_idx ON patients (state, lower(city)) WHERE merged_into_id IS NULL;
    CREATE INDEX patients_merged_into_idx ON patients (merged_into_id) WHERE merged_into_id IS NOT NULL;

    CREATE TABLE patient_merge_reviews (
      id serial PRIMARY KEY,
      patient_ids integer[] NOT NULL,
      reviewed_by integer REFERENCES users(id),
      reviewed_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX patient_merge_reviews_ids_idx ON patient_merge_reviews USING gin (patient_ids);
  `);
};

export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    DROP TABLE IF EXISTS patient_merge_reviews;
    DROP INDEX IF EXISTS patients_live_name_dob_idx, patients_live_dob_idx, patients_live_state_city_idx, patients_merged_into_idx;
    ALTER TABLE patients DROP COLUMN IF EXISTS merged_by, DROP COLUMN IF EXISTS merged_at, DROP COLUMN IF EXISTS merged_into_id;
  `);
};
