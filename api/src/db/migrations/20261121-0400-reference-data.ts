import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';

/**
 * Reference data of spec 03 managed by the ITP admin: payers, billing codes, patient tags (group
 * organizations exist since the foundation). Each list has the index its default sort needs;
 * uniqueness is case-insensitive and enforced by the database as well as by the services.
 */
export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    CREATE TABLE payers (
      id serial PRIMARY KEY,
      name text NOT NULL,
      code text,
      is_active boolean NOT NULL DEFAULT true,
      plan_name text,
      address jsonb,
      plan_package_id text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX payers_name_uniq ON payers (lower(name));
    CREATE INDEX payers_plan_name_idx ON payers (lower(plan_name)) WHERE plan_name IS NOT NULL;

    CREATE TABLE billing_codes (
      id serial PRIMARY KEY,
      code text NOT NULL,
      description text NOT NULL,
      source_division_types text[] NOT NULL CHECK (cardinality(source_division_types) > 0),
      request_types text[] NOT NULL CHECK (cardinality(request_types) > 0),
      is_active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX billing_codes_code_uniq ON billing_codes (lower(code));

    CREATE TABLE patient_tags (
      id serial PRIMARY KEY,
      name text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX patient_tags_name_uniq ON patient_tags (lower(name));

    -- The group list is sorted by name (its unique index on lower(name) serves it) and filtered by active.
    CREATE INDEX group_organizations_active_idx ON group_organizations (is_active, lower(name));
  `);
};

export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    DROP INDEX IF EXISTS group_organizations_active_idx;
    DROP TABLE IF EXISTS patient_tags, billing_codes, payers;
  `);
};
