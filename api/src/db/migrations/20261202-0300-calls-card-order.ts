import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';
import { PLACEMENT_CASE_STATUSES } from '@crisis/forms';

/**
 * The calls card's page in the card's own order, read from one index: the read model rows carry
 * their facility's name (lowercased, the card's last sort key), so a page of 6 is 6 index entries
 * instead of joining and sorting every division on the card (462 rows, 9 ms, after a busy hour of
 * the bench). A facility renamed renames its rows.
 */
const statuses = `ARRAY[${PLACEMENT_CASE_STATUSES.map((s) => `'${s}'`).join(', ')}]::text[]`;
const LOCK_CLASS = 7301; // as in 20261202-0200

export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    ALTER TABLE calls_card_divisions ADD COLUMN IF NOT EXISTS facility_sort_name text;
    UPDATE calls_card_divisions g SET facility_sort_name = lower(f.name)
      FROM divisions d JOIN facilities f ON f.id = d.facility_id WHERE d.id = g.division_id;
    ALTER TABLE calls_card_divisions ALTER COLUMN facility_sort_name SET NOT NULL;
    CREATE INDEX IF NOT EXISTS calls_card_divisions_order_idx
      ON calls_card_divisions ((uncalled_count > 0) DESC, recent_callback_at NULLS FIRST, facility_sort_name, division_id);

    CREATE OR REPLACE FUNCTION calls_card_refresh(division_ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      IF division_ids IS NULL OR cardinality(division_ids) = 0 THEN RETURN; END IF;
      PERFORM pg_advisory_xact_lock(${LOCK_CLASS}, d) FROM (SELECT DISTINCT unnest(division_ids) AS d ORDER BY 1) ids;
      DELETE FROM calls_card_divisions WHERE division_id = ANY(division_ids);
      INSERT INTO calls_card_divisions (division_id, task_count, preferred_count, uncalled_count, recent_callback_at, facility_sort_name)
        SELECT t.division_id, count(*), count(*) FILTER (WHERE t.is_preferred), count(*) FILTER (WHERE t.last_call_id IS NULL), min(t.callback_at),
               (SELECT lower(f.name) FROM divisions d JOIN facilities f ON f.id = d.facility_id WHERE d.id = t.division_id)
          FROM placement_tasks t JOIN cases c ON c.id = t.case_id AND c.status = ANY(${statuses})
         WHERE t.division_id = ANY(division_ids)
         GROUP BY t.division_id;
    END $$;

    CREATE OR REPLACE FUNCTION calls_card_facility_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE calls_card_divisions SET facility_sort_name = lower(NEW.name)
       WHERE division_id IN (SELECT id FROM divisions WHERE facility_id = NEW.id);
      RETURN NULL;
    END $$;
    DROP TRIGGER IF EXISTS calls_card_facility_renamed ON facilities;
    CREATE TRIGGER calls_card_facility_renamed AFTER UPDATE OF name ON facilities
      FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION calls_card_facility_renamed();
    ANALYZE calls_card_divisions;
  `);
};

export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    DROP TRIGGER IF EXISTS calls_card_facility_renamed ON facilities;
    DROP FUNCTION IF EXISTS calls_card_facility_renamed();
    DROP INDEX IF EXISTS calls_card_divisions_order_idx;
    CREATE OR REPLACE FUNCTION calls_card_refresh(division_ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      IF division_ids IS NULL OR cardinality(division_ids) = 0 THEN RETURN; END IF;
      PERFORM pg_advisory_xact_lock(${LOCK_CLASS}, d) FROM (SELECT DISTINCT unnest(division_ids) AS d ORDER BY 1) ids;
      DELETE FROM calls_card_divisions WHERE division_id = ANY(division_ids);
      INSERT INTO calls_card_divisions (division_id, task_count, preferred_count, uncalled_count, recent_callback_at)
        SELECT t.division_id, count(*), count(*) FILTER (WHERE t.is_preferred), count(*) FILTER (WHERE t.last_call_id IS NULL), min(t.callback_at)
          FROM placement_tasks t JOIN cases c ON c.id = t.case_id AND c.status = ANY(${statuses})
         WHERE t.division_id = ANY(division_ids)
         GROUP BY t.division_id;
    END $$;
    ALTER TABLE calls_card_divisions DROP COLUMN IF EXISTS facility_sort_name;
  `);
};
