import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';

/**
 * Video meetings of requests (spec 01 §4 "Video meeting", 02 §2 "Video evaluation"): one row per
 * room; recreating a meeting ends the open row and adds a new one, so a request has at most one
 * open meeting. Written only through the case workflow's commands (joins and endings are case
 * activity), except reminded_at, which the meeting's timer sets once.
 * The unused requests.online_meeting column is dropped: the meeting lives here.
 */
export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    CREATE TABLE online_meetings (
      id serial PRIMARY KEY,
      request_id integer NOT NULL REFERENCES requests(id) ON DELETE CASCADE,
      case_id integer NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
      room text NOT NULL UNIQUE,
      join_url text NOT NULL,
      created_by integer REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      scheduled_at timestamptz,
      idle_ends_at timestamptz NOT NULL,
      reminded_at timestamptz,
      provider_joined_at timestamptz,
      patient_joined_at timestamptz,
      ended_at timestamptz,
      ended_reason text CHECK (ended_reason IN ('idle', 'recreated')),
      CHECK ((ended_at IS NULL) = (ended_reason IS NULL))
    );
    CREATE UNIQUE INDEX online_meetings_open_per_request ON online_meetings (request_id) WHERE ended_at IS NULL;
    CREATE INDEX online_meetings_request_created ON online_meetings (request_id, created_at DESC, id DESC);
    CREATE INDEX online_meetings_created ON online_meetings (created_at DESC, id DESC);
    ALTER TABLE requests DROP COLUMN IF EXISTS online_meeting;
  `);
};

export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    DROP TABLE IF EXISTS online_meetings;
    ALTER TABLE requests ADD COLUMN IF NOT EXISTS online_meeting jsonb;
  `);
};
