import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';

/**
 * Durable delivery of what leaves the platform (e-mail, SMS, voice) and the facility alerts:
 * - an outbox row is written in the transaction of the change that means it, with an
 *   idempotency key (the event it tells of), then delivered by a Temporal workflow per row
 *   (`message-<id>`) with retries: a provider failure or a dead worker still yields one message;
 * - a facility alert (forms/src/notifications/facility-alerts.ts) texts or calls the case's
 *   contact phone until someone confirms, or tells the coordinators; its attempts are outbox rows.
 */
export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    CREATE TABLE facility_alerts (
      id bigserial PRIMARY KEY,
      case_id integer NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
      notification_type text NOT NULL,
      method text NOT NULL CHECK (method IN ('SMS', 'PhoneCall')),
      phone text NOT NULL,
      message text NOT NULL,
      -- the event it tells of (a case command id and the type): one alert per event
      source_key text NOT NULL UNIQUE,
      -- the coordinator whose change raised it: told when nobody confirms (null: the system, every coordinator)
      raised_by integer REFERENCES users(id) ON DELETE SET NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'confirmed', 'escalated')),
      attempts integer NOT NULL DEFAULT 0,
      confirmed_at timestamptz,
      confirmed_via text,
      escalated_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((status = 'confirmed') = (confirmed_at IS NOT NULL)),
      CHECK ((status = 'escalated') = (escalated_at IS NOT NULL))
    );
    -- an SMS reply names no alert: the newest open one of that phone is confirmed
    CREATE INDEX facility_alerts_open_idx ON facility_alerts (phone, created_at DESC) WHERE status = 'pending';
    CREATE INDEX facility_alerts_case_idx ON facility_alerts (case_id, created_at DESC);

    ALTER TABLE outbox_messages
      ADD COLUMN idempotency_key text,
      ADD COLUMN case_id integer REFERENCES cases(id) ON DELETE SET NULL,
      ADD COLUMN facility_alert_id bigint REFERENCES facility_alerts(id) ON DELETE CASCADE,
      ADD COLUMN attempts integer NOT NULL DEFAULT 0,
      ADD COLUMN last_error text,
      ADD COLUMN sent_at timestamptz;
    CREATE UNIQUE INDEX outbox_messages_idempotency_idx ON outbox_messages (idempotency_key) WHERE idempotency_key IS NOT NULL;
    -- the sweep's look-up of rows whose delivery never started
    CREATE INDEX outbox_messages_queued_idx ON outbox_messages (created_at) WHERE status = 'queued';
    -- status callbacks name the provider's id (Twilio's sid)
    CREATE INDEX outbox_messages_provider_idx ON outbox_messages (provider_id) WHERE provider_id IS NOT NULL;
  `);
};

export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    DROP INDEX IF EXISTS outbox_messages_idempotency_idx, outbox_messages_queued_idx, outbox_messages_provider_idx;
    ALTER TABLE outbox_messages DROP COLUMN idempotency_key, DROP COLUMN case_id, DROP COLUMN facility_alert_id,
      DROP COLUMN attempts, DROP COLUMN last_error, DROP COLUMN sent_at;
    DROP TABLE facility_alerts;
  `);
};
