import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';

/**
 * Phones are stored in E.164 (spec 03 §5; forms/src/phone.ts). Rows written before kept what was
 * typed, e.g. "(813) 555-0100": a North American number of ten digits (an optional leading 1) is
 * rewritten to +18135550100; anything else is left as it is. The down migration has nothing to undo
 * (both forms are shown the same).
 */
const E164 = (col: string) => `CASE WHEN ${col} ~ '^[\\d\\s().+-]+$' AND regexp_replace(${col}, '\\D', '', 'g') ~ '^1?\\d{10}$'
  THEN '+1' || right(regexp_replace(${col}, '\\D', '', 'g'), 10) ELSE ${col} END`;

const TEXT_COLUMNS: Array<[string, string]> = [
  ['users', 'phone'],
  ['patients', 'phone'],
  ['patients', 'outpatient_provider_phone'],
  ['cases', 'contact_phone_number'],
  ['patient_insurances', 'patient_phone'],
];

export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  for (const [table, column] of TEXT_COLUMNS)
    await qi.sequelize.query(`UPDATE ${table} SET ${column} = ${E164(column)} WHERE ${column} IS NOT NULL AND ${column} IS DISTINCT FROM ${E164(column)}`);
  for (const table of ['facilities', 'divisions'])
    for (const key of ['phone1', 'phone2', 'fax1', 'fax2']) {
      const value = `(contacts->>'${key}')`;
      await qi.sequelize.query(
        `UPDATE ${table} SET contacts = jsonb_set(contacts, '{${key}}', to_jsonb(${E164(value)}))
          WHERE jsonb_typeof(contacts->'${key}') = 'string' AND ${value} IS DISTINCT FROM ${E164(value)}`,
      );
    }
};

export const down: MigrationFn<QueryInterface> = async () => undefined;
