import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';

/**
 * Placement (spec 02 §3, §4): the tasks of a case (one per referring division it may go to), the
 * calls logged against them, and the division-wide holds that bulk NoBedsAvailable /
 * NoSecureBeds / CallBack results put on every current and future case.
 */
export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    CREATE TABLE placement_tasks (
      id serial PRIMARY KEY,
      case_id integer NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
      division_id integer NOT NULL REFERENCES divisions(id),
      facility_id integer NOT NULL REFERENCES facilities(id),
      origin text NOT NULL CHECK (origin IN ('generated', 'added', 'manual')),
      notes text,
      reasons text[] NOT NULL DEFAULT '{}',
      is_preferred boolean NOT NULL DEFAULT false,
      travel_seconds integer,
      rank integer,
      last_call_id bigint,
      callback_at timestamptz,
      -- When the callback came due (the timer fired); cleared by the next call.
      due_at timestamptz,
      draft jsonb,
      created_by integer REFERENCES users(id),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (case_id, division_id)
    );
    CREATE INDEX placement_tasks_division_idx ON placement_tasks (division_id, case_id);
    CREATE INDEX placement_tasks_callback_idx ON placement_tasks (callback_at) WHERE callback_at IS NOT NULL AND due_at IS NULL;

    CREATE TABLE placement_calls (
      id bigserial PRIMARY KEY,
      task_id integer NOT NULL REFERENCES placement_tasks(id) ON DELETE CASCADE,
      case_id integer NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
      division_id integer NOT NULL REFERENCES divisions(id),
      claim_id bigint,
      result text NOT NULL,
      note text,
      callback_at timestamptz,
      spoke_with text,
      accept jsonb,
      -- Calls logged together by one bulk change share it.
      bulk_id uuid,
      created_by integer REFERENCES users(id),
      created_by_name text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      -- What the task showed before this call, restored by undo.
      previous_call_id bigint,
      previous_callback_at timestamptz,
      undone_at timestamptz,
      undone_by integer REFERENCES users(id)
    );
    CREATE INDEX placement_calls_task_idx ON placement_calls (task_id, created_at DESC);
    CREATE INDEX placement_calls_case_idx ON placement_calls (case_id, created_at DESC);
    CREATE INDEX placement_calls_division_idx ON placement_calls (division_id, created_at DESC);

    CREATE TABLE division_holds (
      id serial PRIMARY KEY,
      division_id integer NOT NULL REFERENCES divisions(id),
      result text NOT NULL,
      until timestamptz NOT NULL,
      call_bulk_id uuid,
      created_by integer REFERENCES users(id),
      created_at timestamptz NOT NULL DEFAULT now(),
      released_at timestamptz
    );
    CREATE INDEX division_holds_active_idx ON division_holds (division_id, until) WHERE released_at IS NULL;
  `);
};

export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query('DROP TABLE IF EXISTS division_holds, placement_calls, placement_tasks CASCADE');
};
