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

export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`
    ALTER TABLE cases ADD COLUMN IF NOT EXISTS granted_access_created_at timestamptz,
                      ADD COLUMN IF NOT EXISTS patient_accepted_created_at timestamptz;
    UPDATE cases c SET granted_access_created_at = a.granted, patient_accepted_created_at = a.accepted
      FROM (SELECT case_id, min(granted_at) AS granted, min(accepted_at) AS accepted FROM case_referring_access GROUP BY case_id) a
     WHERE a.case_id = c.id;
  `);
};
