import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';

/**
 * Task generation keeps, per process, the active referring divisions of each type with their
 * facility (api/src/placement/placement-generation.ts): the static half of the matching, 900 rows
 * a type. This counter says when the kept rows are stale: any change to divisions or facilities
 * moves it, in the changing transaction (a generation that reads it sees the change committed or
 * not at all, never a bump ahead of its rows).
 */
export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    CREATE TABLE IF NOT EXISTS placement_candidates_version (
      only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
      version bigint NOT NULL
    );
    INSERT INTO placement_candidates_version (only_row, version) VALUES (true, 1) ON CONFLICT DO NOTHING;

    CREATE OR REPLACE FUNCTION placement_candidates_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE placement_candidates_version SET version = version + 1;
      RETURN NULL;
    END $$;

    DROP TRIGGER IF EXISTS placement_candidates_divisions ON divisions;
    DROP TRIGGER IF EXISTS placement_candidates_facilities ON facilities;
    CREATE TRIGGER placement_candidates_divisions AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON divisions
      FOR EACH STATEMENT EXECUTE FUNCTION placement_candidates_changed();
    CREATE TRIGGER placement_candidates_facilities AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON facilities
      FOR EACH STATEMENT EXECUTE FUNCTION placement_candidates_changed();
  `);
};

export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    DROP TRIGGER IF EXISTS placement_candidates_facilities ON facilities;
    DROP TRIGGER IF EXISTS placement_candidates_divisions ON divisions;
    DROP FUNCTION IF EXISTS placement_candidates_changed();
    DROP TABLE IF EXISTS placement_candidates_version;
  `);
};
