import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';

/**
 * The calls card aggregates the tasks of every case being placed, per division: a covering index
 * over a case's tasks lets it read them from the index alone.
 */
export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    CREATE INDEX placement_tasks_case_cover_idx ON placement_tasks (case_id)
      INCLUDE (division_id, is_preferred, last_call_id, callback_at);
  `);
};

export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query('DROP INDEX IF EXISTS placement_tasks_case_cover_idx');
};
