import type { InsuranceRecord as FormsInsuranceRecord } from '@crisis/forms';
import type { Sequelize } from 'sequelize-typescript';
import { select } from '../reference/reference-sql';

/** One insurance as the API returns it (spec 01 §3 Insurance; the shape is forms' InsuranceRecord). */
export type InsuranceRecord = Omit<FormsInsuranceRecord, 'orderName'> & { caseId: number; patientId: number };

const ORDER_NAMES = ['primary', 'secondary', 'tertiary'];

/** The insurances of a case in their order (position 0..2). */
export async function insurancesOfCase(sequelize: Sequelize, caseId: number): Promise<Array<InsuranceRecord & { orderName: string }>> {
  const rows = await select<InsuranceRecord>(
    sequelize,
    `SELECT i.id, i.case_id AS "caseId", i.patient_id AS "patientId", i.payer_id AS "payerId",
            json_build_object('id', y.id, 'name', y.name, 'isActive', y.is_active) AS payer,
            i.insurance_id AS "insuranceId", i.group_id AS "groupId", i.relation_to_insured AS "relationToInsured",
            i.responsible_party AS "responsibleParty", i.front_image IS NOT NULL AS "frontImage", i.back_image IS NOT NULL AS "backImage",
            i.verified, CASE WHEN i.verified THEN 'Verified' ELSE 'Unverified' END AS status,
            i.patient_phone AS "patientPhone", i.created_at AS "createdAt", i.position AS "order"
       FROM patient_insurances i JOIN payers y ON y.id = i.payer_id
      WHERE i.case_id = $1 ORDER BY i.position, i.id`,
    [caseId],
  );
  return rows.map((r) => ({ ...r, orderName: ORDER_NAMES[r.order] ?? String(r.order) }));
}
