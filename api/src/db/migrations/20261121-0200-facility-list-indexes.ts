import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';

/**
 * Indexes of the facility list's sorts (api/src/facilities/facility-list.query.ts): each sortable
 * column followed by the tie-breakers the query orders by (name, then id), so every sort of a page
 * is an index scan that stops after the page instead of a sort of all facilities. They replace the
 * single-column state and city indexes of the foundation (same leading column, so the state and
 * cities filters still use them).
 */
export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    CREATE INDEX facilities_city_sort_idx ON facilities (lower(city), lower(name), id);
    CREATE INDEX facilities_state_sort_idx ON facilities (state, lower(name), id);
    CREATE INDEX facilities_active_sort_idx ON facilities (is_active, lower(name), id);
    DROP INDEX IF EXISTS facilities_state_idx;
    DROP INDEX IF EXISTS facilities_city_idx;
  `);
};

export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    CREATE INDEX IF NOT EXISTS facilities_state_idx ON facilities (state);
    CREATE INDEX IF NOT EXISTS facilities_city_idx ON facilities (lower(city));
    DROP INDEX IF EXISTS facilities_city_sort_idx;
    DROP INDEX IF EXISTS facilities_state_sort_idx;
    DROP INDEX IF EXISTS facilities_active_sort_idx;
  `);
};
