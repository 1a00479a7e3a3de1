import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';
import { PLACEMENT_CASE_STATUSES } from '@crisis/forms';

/**
 * The calls card's read model (the ITP dashboard, api/src/placement/placement.service.ts callsCard):
 * one row per division with tasks in cases being placed — how many, how many preferred, how many
 * never called, and the earliest callback. The card reads a page of these rows instead of
 * aggregating every task of every case being placed on each request.
 *
 * Kept in the same transaction as the change, whoever makes it (task generation, the call log,
 * undo, the case writer's status changes, a case deleted): statement triggers on placement_tasks
 * and a row trigger on a case's status call calls_card_refresh for the divisions touched.
 * - The refresh takes a transaction-scoped advisory lock per division, in id order, before it
 *   counts: two transactions changing one division's tasks refresh one after the other, and the
 *   second counts with the first's changes committed (each statement of the function reads a new
 *   snapshot), so the row never keeps a count that misses a commit.
 * - "Being placed" is PLACEMENT_CASE_STATUSES (forms/src/placement/calls.ts) as of this migration;
 *   a change to that list needs a migration that replaces calls_card_refresh.
 */
const statuses = `ARRAY[${PLACEMENT_CASE_STATUSES.map((s) => `'${s}'`).join(', ')}]::text[]`;
const LOCK_CLASS = 7301; // advisory-lock namespace of the calls card rows

export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    CREATE TABLE IF NOT EXISTS calls_card_divisions (
      division_id integer PRIMARY KEY REFERENCES divisions(id) ON DELETE CASCADE,
      task_count integer NOT NULL,
      preferred_count integer NOT NULL,
      uncalled_count integer NOT NULL,
      recent_callback_at timestamptz
    );

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

    CREATE OR REPLACE FUNCTION calls_card_tasks_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM calls_card_refresh((SELECT array_agg(DISTINCT division_id) FROM new_tasks));
      RETURN NULL;
    END $$;
    CREATE OR REPLACE FUNCTION calls_card_tasks_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM calls_card_refresh((SELECT array_agg(DISTINCT division_id) FROM old_tasks));
      RETURN NULL;
    END $$;
    -- Only what the card shows: a callback coming due (due_at) or a draft saved changes no row.
    CREATE OR REPLACE FUNCTION calls_card_tasks_updated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM calls_card_refresh((
        SELECT array_agg(DISTINCT d) FROM (
          SELECT unnest(ARRAY[o.division_id, n.division_id]) AS d
            FROM old_tasks o JOIN new_tasks n ON n.id = o.id
           WHERE (o.division_id, o.case_id, o.is_preferred, o.last_call_id, o.callback_at)
                 IS DISTINCT FROM (n.division_id, n.case_id, n.is_preferred, n.last_call_id, n.callback_at)) changed));
      RETURN NULL;
    END $$;
    CREATE OR REPLACE FUNCTION calls_card_case_status_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF (OLD.status = ANY(${statuses})) IS DISTINCT FROM (NEW.status = ANY(${statuses})) THEN
        PERFORM calls_card_refresh((SELECT array_agg(DISTINCT division_id) FROM placement_tasks WHERE case_id = NEW.id));
      END IF;
      RETURN NULL;
    END $$;

    DROP TRIGGER IF EXISTS calls_card_tasks_inserted ON placement_tasks;
    DROP TRIGGER IF EXISTS calls_card_tasks_updated ON placement_tasks;
    DROP TRIGGER IF EXISTS calls_card_tasks_deleted ON placement_tasks;
    DROP TRIGGER IF EXISTS calls_card_case_status_changed ON cases;
    CREATE TRIGGER calls_card_tasks_inserted AFTER INSERT ON placement_tasks
      REFERENCING NEW TABLE AS new_tasks FOR EACH STATEMENT EXECUTE FUNCTION calls_card_tasks_inserted();
    CREATE TRIGGER calls_card_tasks_updated AFTER UPDATE ON placement_tasks
      REFERENCING OLD TABLE AS old_tasks NEW TABLE AS new_tasks FOR EACH STATEMENT EXECUTE FUNCTION calls_card_tasks_updated();
    CREATE TRIGGER calls_card_tasks_deleted AFTER DELETE ON placement_tasks
      REFERENCING OLD TABLE AS old_tasks FOR EACH STATEMENT EXECUTE FUNCTION calls_card_tasks_deleted();
    CREATE TRIGGER calls_card_case_status_changed AFTER UPDATE OF status ON cases
      FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION calls_card_case_status_changed();

    SELECT calls_card_refresh(array_agg(DISTINCT t.division_id))
      FROM placement_tasks t JOIN cases c ON c.id = t.case_id AND c.status = ANY(${statuses});
    ANALYZE calls_card_divisions;
  `);
};

export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    DROP TRIGGER IF EXISTS calls_card_case_status_changed ON cases;
    DROP TRIGGER IF EXISTS calls_card_tasks_deleted ON placement_tasks;
    DROP TRIGGER IF EXISTS calls_card_tasks_updated ON placement_tasks;
    DROP TRIGGER IF EXISTS calls_card_tasks_inserted ON placement_tasks;
    DROP FUNCTION IF EXISTS calls_card_case_status_changed();
    DROP FUNCTION IF EXISTS calls_card_tasks_updated();
    DROP FUNCTION IF EXISTS calls_card_tasks_deleted();
    DROP FUNCTION IF EXISTS calls_card_tasks_inserted();
    DROP FUNCTION IF EXISTS calls_card_refresh(integer[]);
    DROP TABLE IF EXISTS calls_card_divisions;
  `);
};
