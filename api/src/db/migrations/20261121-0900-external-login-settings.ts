import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';

/**
 * SAML single sign-on settings (spec 03 §3 External login settings): one row for the ITP
 * organization (facility_id null) and at most one per facility.
 */
export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    CREATE TABLE external_login_settings (
      id serial PRIMARY KEY,
      facility_id integer REFERENCES facilities(id) ON DELETE CASCADE,
      enabled boolean NOT NULL DEFAULT false,
      identity_provider_entity_id text,
      x509_certificate text,
      sign_in_url text,
      user_email_claim text,
      disable_password_login boolean NOT NULL DEFAULT false,
      is_outdated boolean NOT NULL DEFAULT false,
      apply_failed boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX external_login_settings_facility_uniq ON external_login_settings (facility_id) WHERE facility_id IS NOT NULL;
    CREATE UNIQUE INDEX external_login_settings_itp_uniq ON external_login_settings ((true)) WHERE facility_id IS NULL;
    CREATE INDEX facilities_ip_white_list_idx ON facilities (id) WHERE ip_white_list_enabled;
  `);
};

export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    DROP INDEX IF EXISTS facilities_ip_white_list_idx;
    DROP TABLE IF EXISTS external_login_settings;
  `);
};
