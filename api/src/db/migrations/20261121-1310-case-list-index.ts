import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';

/**
 * The case list's hot path (ITP staff: open cases by time elapsed, filtered by status and main
 * recommendation): a covering index over the open cases, so the page and its total are read from
 * the index alone, already in order.
 */
export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    DROP INDEX IF EXISTS cases_open_created_idx;
    CREATE INDEX cases_open_list_idx ON cases (created_at, id)
      INCLUDE (status, main_recommendation, source_division_id, source_facility_id, patient_id)
      WHERE status <> 'Closed';
  `);
};

export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    DROP INDEX IF EXISTS cases_open_list_idx;
    CREATE INDEX cases_open_created_idx ON cases (created_at, id) WHERE status <> 'Closed';
  `);
};
