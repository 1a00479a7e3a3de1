import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';

/**
 * A facility's connection to its hospital's EHR (issue 16): the FHIR R4 base URL, the SMART Backend
 * Services token URL and client id, and the RS384 key the API signs its client assertions with
 * (the EHR holds the public half). One row per facility; a facility is EHR-integrated when it has
 * an EHR department id and a complete row here. The private key never leaves the API: no route
 * returns it (only `hasPrivateKey`).
 */
export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    CREATE TABLE facility_ehr_connections (
      facility_id integer PRIMARY KEY REFERENCES facilities(id) ON DELETE CASCADE,
      dialect text NOT NULL CHECK (dialect IN ('epic', 'athena')),
      base_url text,
      token_url text,
      client_id text,
      key_id text,
      private_key_pem text,
      updated_at timestamptz NOT NULL DEFAULT now(),
      updated_by integer REFERENCES users(id) ON DELETE SET NULL
    );
  `);
};

export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query('DROP TABLE IF EXISTS facility_ehr_connections;');
};
