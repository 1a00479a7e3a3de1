import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';

/**
 * The ITP admin's facility detail tabs (spec 03 §2, §3): evaluation forms (name and default flag
 * only; their questionnaire is another table's business), a facility's evaluation form and
 * bill-to-EHR flag per request type, credentialed providers and their Source divisions,
 * preferred facilities, and state restrictions.
 */
export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    CREATE TABLE evaluation_forms (
      id serial PRIMARY KEY,
      name text NOT NULL,
      is_default boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX evaluation_forms_name_uniq ON evaluation_forms (lower(name));

    CREATE TABLE facility_evaluation_forms (
      id serial PRIMARY KEY,
      facility_id integer NOT NULL REFERENCES facilities(id),
      request_type text NOT NULL,
      evaluation_form_id integer REFERENCES evaluation_forms(id),
      is_athena_billed boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (facility_id, request_type)
    );
    CREATE INDEX facility_evaluation_forms_form_idx ON facility_evaluation_forms (evaluation_form_id);

    CREATE TABLE credentialed_providers (
      id serial PRIMARY KEY,
      facility_id integer NOT NULL REFERENCES facilities(id),
      provider_id integer NOT NULL REFERENCES users(id),
      add_to_new_divisions boolean NOT NULL DEFAULT false,
      accepted_patients jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (facility_id, provider_id)
    );
    CREATE INDEX credentialed_providers_provider_idx ON credentialed_providers (provider_id);
    CREATE TABLE credentialed_provider_divisions (
      credentialed_provider_id integer NOT NULL REFERENCES credentialed_providers(id) ON DELETE CASCADE,
      division_id integer NOT NULL REFERENCES divisions(id),
      PRIMARY KEY (credentialed_provider_id, division_id)
    );
    CREATE INDEX credentialed_provider_divisions_division_idx ON credentialed_provider_divisions (division_id);

    CREATE TABLE preferred_facilities (
      facility_id integer NOT NULL REFERENCES facilities(id),
      preferred_facility_id integer NOT NULL REFERENCES facilities(id),
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (facility_id, preferred_facility_id),
      CHECK (facility_id <> preferred_facility_id)
    );

    CREATE TABLE facility_state_restrictions (
      id serial PRIMARY KEY,
      facility_id integer NOT NULL REFERENCES facilities(id),
      state char(2) NOT NULL,
      type text NOT NULL CHECK (type IN ('NoRestrictions', 'OnlyPopulateFacilitiesWithinTravelTime', 'DoNotPopulateFacilities')),
      within_travel_time integer CHECK (within_travel_time >= 0),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (facility_id, state),
      CHECK (type <> 'OnlyPopulateFacilitiesWithinTravelTime' OR within_travel_time IS NOT NULL)
    );
  `);
};

export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    DROP TABLE IF EXISTS facility_state_restrictions;
    DROP TABLE IF EXISTS preferred_facilities;
    DROP TABLE IF EXISTS credentialed_provider_divisions;
    DROP TABLE IF EXISTS credentialed_providers;
    DROP TABLE IF EXISTS facility_evaluation_forms;
    DROP TABLE IF EXISTS evaluation_forms;
  `);
};
