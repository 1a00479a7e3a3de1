import { QueryTypes } from 'sequelize';
import type { Sequelize } from 'sequelize-typescript';
import { CaseStatus } from '@crisis/forms';

/**
 * The patients of the open cases a facility or a division takes part in (spec 03 §5 deactivation
 * guards: the payload of INV.DEACTIVATE.FACILITY/DIVISION.WITH.ACTIVE.CASES names them). A division
 * takes part as the case's source or as a referring division that still has access to it.
 */
export async function activeCasePatients(sequelize: Sequelize, where: { facilityId: number } | { divisionId: number }): Promise<string[]> {
  const byFacility = 'facilityId' in where;
  const rows = await sequelize.query<{ name: string }>(
    `SELECT DISTINCT p.first_name || ' ' || p.last_name AS name, lower(p.last_name), lower(p.first_name)
       FROM cases c JOIN patients p ON p.id = c.patient_id
      WHERE c.status <> $2
        AND (${byFacility ? 'c.source_facility_id = $1' : 'c.source_division_id = $1'}
             OR EXISTS (SELECT 1 FROM case_referring_access a JOIN divisions d ON d.id = a.division_id
                         WHERE a.case_id = c.id AND a.removed_at IS NULL AND ${byFacility ? 'd.facility_id = $1' : 'd.id = $1'}))
      ORDER BY lower(p.last_name), lower(p.first_name)
      LIMIT 50`,
    { bind: [byFacility ? where.facilityId : where.divisionId, CaseStatus.Closed], type: QueryTypes.SELECT },
  );
  return rows.map((r) => r.name);
}
