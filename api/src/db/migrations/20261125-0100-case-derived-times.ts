import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';

/**
 * The times a referring division was first granted access to a case and first accepted the
 * patient are read from case_referring_access (its granted_at and accepted_at): the copies on the
 * case row were derived state kept by a second writer.
 */
export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    ALTER TABLE cases DROP COLUMN IF EXISTS granted_access_created_at, DROP COLUMN IF EXISTS patient_accepted_created_at;
  `);
};

/** The columns come back empty: the times stay in case_referring_access, where they are read. */
export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    ALTER TABLE cases ADD COLUMN IF NOT EXISTS granted_access_created_at timestamptz,
                      ADD COLUMN IF NOT EXISTS patient_accepted_created_at timestamptz;
  `);
};
