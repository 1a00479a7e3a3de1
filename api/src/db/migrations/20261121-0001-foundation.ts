import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';

/** Foundation schema: organizations, facilities and divisions, users, identity storage, audit, outbox, claims. */
export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    CREATE TABLE itp_organization (
      id serial PRIMARY KEY,
      name text NOT NULL,
      er_line text,
      mfa_enabled boolean NOT NULL DEFAULT false,
      ip_white_list_enabled boolean NOT NULL DEFAULT false,
      ip_addresses text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE facilities (
      id serial PRIMARY KEY,
      name text NOT NULL,
      description text,
      allow_referring_divisions_access boolean NOT NULL DEFAULT false,
      allow_placement_only_cases boolean NOT NULL DEFAULT false,
      is_active boolean NOT NULL DEFAULT true,
      street_line text NOT NULL,
      apartment_number text,
      city text NOT NULL,
      state char(2) NOT NULL,
      zip_code text NOT NULL,
      county text,
      latitude double precision NOT NULL,
      longitude double precision NOT NULL,
      is_geo_position_manually boolean NOT NULL DEFAULT false,
      is_mfa_enabled boolean NOT NULL DEFAULT false,
      contacts jsonb NOT NULL DEFAULT '{}',
      ehr_department_id text,
      populate_out_of_state_facilities boolean NOT NULL DEFAULT false,
      ip_white_list_enabled boolean NOT NULL DEFAULT false,
      ip_addresses text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    -- A facility is identified by name plus zip (spec 03 §3).
    CREATE UNIQUE INDEX facilities_name_zip_uniq ON facilities (lower(name), zip_code);
    CREATE INDEX facilities_name_idx ON facilities (lower(name), id);
    CREATE INDEX facilities_state_idx ON facilities (state);
    CREATE INDEX facilities_city_idx ON facilities (lower(city));
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE INDEX facilities_name_trgm_idx ON facilities USING gin (lower(name) gin_trgm_ops);

    CREATE TABLE divisions (
      id serial PRIMARY KEY,
      facility_id integer NOT NULL REFERENCES facilities(id),
      name text NOT NULL,
      npi text,
      is_active boolean NOT NULL DEFAULT true,
      contacts jsonb NOT NULL DEFAULT '{}',
      type text NOT NULL CHECK (type IN ('Source', 'Referring')),
      description text,
      source_type text,
      document_in_ehr boolean,
      no_placement boolean,
      outcome_required boolean,
      show_billing_code boolean,
      request_types text[],
      referring_type text,
      criteria text[],
      accepted_patients jsonb,
      genders text[],
      veteran_only boolean,
      extend_maximum_callback_time boolean,
      score integer CHECK (score BETWEEN 0 AND 100),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX divisions_facility_name_uniq ON divisions (facility_id, lower(name));
    CREATE INDEX divisions_facility_type_idx ON divisions (facility_id, type, is_active);

    CREATE TABLE group_organizations (
      id serial PRIMARY KEY,
      name text NOT NULL,
      description text,
      is_active boolean NOT NULL DEFAULT true,
      states text[] NOT NULL DEFAULT '{}',
      counties text[] NOT NULL DEFAULT '{}',
      mfa_enabled boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX group_organizations_name_uniq ON group_organizations (lower(name));
    CREATE TABLE group_organization_facilities (
      group_id integer NOT NULL REFERENCES group_organizations(id) ON DELETE CASCADE,
      facility_id integer NOT NULL REFERENCES facilities(id),
      kind text NOT NULL CHECK (kind IN ('included', 'excluded', 'placement')),
      PRIMARY KEY (group_id, facility_id, kind)
    );
    CREATE INDEX group_organization_facilities_facility_idx ON group_organization_facilities (facility_id);

    CREATE TABLE users (
      id serial PRIMARY KEY,
      first_name text NOT NULL,
      last_name text NOT NULL,
      email text NOT NULL,
      phone text,
      job_title text,
      avatar text,
      is_active boolean NOT NULL DEFAULT true,
      creating boolean NOT NULL DEFAULT false,
      email_confirmed boolean NOT NULL DEFAULT false,
      password_hash text,
      failed_login_count integer NOT NULL DEFAULT 0,
      password_locked_out boolean NOT NULL DEFAULT false,
      locked_due_inactivity boolean NOT NULL DEFAULT false,
      last_login timestamptz,
      mfa_method text CHECK (mfa_method IN ('Sms', 'Email')),
      sso_enabled boolean NOT NULL DEFAULT false,
      disabled_password_login boolean NOT NULL DEFAULT false,
      organization_type text NOT NULL,
      organization_id integer,
      user_type text NOT NULL,
      provider_info jsonb,
      send_user_unlock_requests boolean NOT NULL DEFAULT false,
      notifications_receiving_settings jsonb,
      tokens_valid_after timestamptz NOT NULL DEFAULT 'epoch',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX users_email_uniq ON users (lower(email));
    CREATE INDEX users_organization_idx ON users (organization_type, organization_id);
    CREATE TABLE user_divisions (
      user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      division_id integer NOT NULL REFERENCES divisions(id),
      PRIMARY KEY (user_id, division_id)
    );
    CREATE INDEX user_divisions_division_idx ON user_divisions (division_id);

    -- One-time codes of the second sign-in factor.
    CREATE TABLE mfa_codes (
      id serial PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      code_hash text NOT NULL,
      method text NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      expires_at timestamptz NOT NULL,
      consumed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX mfa_codes_user_idx ON mfa_codes (user_id, created_at DESC);

    -- Signing keys of the identity server, shared by every API replica.
    CREATE TABLE identity_keys (
      kid text PRIMARY KEY,
      private_jwk jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );

    -- oidc-provider's sessions, grants, codes and tokens (its adapter).
    CREATE TABLE oidc_payloads (
      id text NOT NULL,
      type text NOT NULL,
      payload jsonb NOT NULL,
      grant_id text,
      user_code text,
      uid text,
      expires_at timestamptz,
      consumed_at timestamptz,
      PRIMARY KEY (type, id)
    );
    CREATE INDEX oidc_payloads_grant_idx ON oidc_payloads (grant_id);
    CREATE INDEX oidc_payloads_uid_idx ON oidc_payloads (uid);
    CREATE INDEX oidc_payloads_user_code_idx ON oidc_payloads (user_code);
    CREATE INDEX oidc_payloads_expires_idx ON oidc_payloads (expires_at);

    -- Append-only audit log (spec 03 §3 Audit log entry).
    CREATE TABLE audit_log (
      id bigserial PRIMARY KEY,
      performed_at timestamptz NOT NULL DEFAULT now(),
      main_action text NOT NULL,
      kind text NOT NULL,
      user_id integer,
      user_name text,
      email text,
      user_type text,
      organization text,
      facility_id integer,
      division text,
      success boolean NOT NULL,
      method text,
      path text,
      status_code integer,
      correlation_id text,
      body jsonb,
      "values" jsonb
    );
    CREATE INDEX audit_log_performed_at_idx ON audit_log (performed_at DESC);
    CREATE INDEX audit_log_facility_idx ON audit_log (facility_id, performed_at DESC);
    CREATE INDEX audit_log_user_idx ON audit_log (user_id, performed_at DESC);
    CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'audit_log is append-only';
    END $$;
    CREATE TRIGGER audit_log_no_update BEFORE UPDATE OR DELETE ON audit_log
      FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();

    -- E-mails, SMS and calls: sent through SMTP / Twilio when configured, always recorded here.
    CREATE TABLE outbox_messages (
      id bigserial PRIMARY KEY,
      channel text NOT NULL CHECK (channel IN ('email', 'sms', 'call')),
      recipient text NOT NULL,
      sender text,
      subject text,
      body text NOT NULL,
      status text NOT NULL DEFAULT 'queued',
      provider_id text,
      user_id integer,
      purpose text,
      response text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX outbox_messages_created_idx ON outbox_messages (created_at DESC);
    CREATE INDEX outbox_messages_recipient_idx ON outbox_messages (lower(recipient), created_at DESC);

    -- Leases on objects under edit (spec 03 §7 Claims); one active claim per object.
    CREATE TABLE claims (
      id bigserial PRIMARY KEY,
      object_type text NOT NULL,
      object_id text NOT NULL,
      subject_id integer NOT NULL REFERENCES users(id),
      subject_name text NOT NULL,
      claimed_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      released_at timestamptz,
      release_reason text,
      workflow_id text
    );
    CREATE UNIQUE INDEX claims_active_object_uniq ON claims (object_type, object_id) WHERE released_at IS NULL;
    CREATE INDEX claims_subject_idx ON claims (subject_id) WHERE released_at IS NULL;

    CREATE TABLE diagnoses (
      code text PRIMARY KEY,
      description text NOT NULL
    );
    CREATE INDEX diagnoses_description_trgm_idx ON diagnoses USING gin (lower(description) gin_trgm_ops);

    -- socket.io PostgreSQL adapter: payloads too large for NOTIFY.
    CREATE TABLE socket_io_attachments (
      id bigserial UNIQUE,
      created_at timestamptz DEFAULT now(),
      payload bytea
    );
  `);
};

export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    DROP TABLE IF EXISTS identity_keys, socket_io_attachments, diagnoses, claims, outbox_messages, audit_log, oidc_payloads,
      mfa_codes, user_divisions, users, group_organization_facilities, group_organizations, divisions,
      facilities, itp_organization CASCADE;
    DROP FUNCTION IF EXISTS audit_log_append_only();
  `);
};
