import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';

/**
 * Past cases (spec 02 §2): closed cases newest first is the default page of ITP staff over every
 * closed case; outcomes' referring divisions are the referring-facilities filter.
 */
export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    CREATE INDEX IF NOT EXISTS cases_past_created_idx ON cases (created_at DESC, id DESC) WHERE status = 'Closed';
    -- The past-case search by name, first name first (the last-name-first one exists).
    CREATE INDEX IF NOT EXISTS patients_first_name_trgm_idx ON patients USING gin (lower(first_name || ' ' || last_name) gin_trgm_ops);
    -- A group's facilities are those of its counties.
    CREATE INDEX IF NOT EXISTS facilities_county_idx ON facilities (county) WHERE county IS NOT NULL;
    CREATE INDEX IF NOT EXISTS cases_outcome_division_idx ON cases (outcome_referring_division_id) WHERE outcome_referring_division_id IS NOT NULL;
  `);
};

export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query('DROP INDEX IF EXISTS cases_past_created_idx, cases_outcome_division_idx, patients_first_name_trgm_idx, facilities_county_idx;');
};
