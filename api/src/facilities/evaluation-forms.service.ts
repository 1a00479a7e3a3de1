import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { QueryTypes } from 'sequelize';
import { Sequelize } from 'sequelize-typescript';
import { REQUEST_TYPES, type FacilityEvaluationFormRecord, type RequestType } from '@crisis/forms';
import { invalid, notFound } from '../common/coded-error';
import { auditValues } from '../common/request-context';

export interface FacilityEvaluationFormInput {
  requestType: RequestType;
  evaluationFormId: number | null;
  isAthenaBilled: boolean;
}

/** A facility's evaluation form and bill-to-EHR flag per request type (spec 03 §2, §7). */
@Injectable()
export class FacilityEvaluationFormsService {
  constructor(@InjectConnection() private readonly sequelize: Sequelize) {}

  /** One row per request type, in the enumeration's order; unsaved ones have id null. */
  async forFacility(facilityId: number): Promise<FacilityEvaluationFormRecord[]> {
    await this.assertFacility(facilityId);
    const saved = await this.sequelize.query<FacilityEvaluationFormRecord>(
      `SELECT id, request_type AS "requestType", evaluation_form_id AS "evaluationFormId", is_athena_billed AS "isAthenaBilled"
         FROM facility_evaluation_forms WHERE facility_id = $1`,
      { bind: [facilityId], type: QueryTypes.SELECT },
    );
    const byType = new Map(saved.map((r) => [r.requestType, r]));
    return REQUEST_TYPES.map((requestType) => byType.get(requestType) ?? { id: null, requestType, evaluationFormId: null, isAthenaBilled: false });
  }

  async save(facilityId: number, body: FacilityEvaluationFormInput): Promise<FacilityEvaluationFormRecord> {
    await this.assertFacility(facilityId);
    auditValues({ facilityId, requestType: body.requestType, evaluationFormId: body.evaluationFormId, isAthenaBilled: body.isAthenaBilled });
    if (body.evaluationFormId !== null) {
      const [form] = await this.sequelize.query('SELECT 1 FROM evaluation_forms WHERE id = $1 AND removed_at IS NULL', {
        bind: [body.evaluationFormId],
        type: QueryTypes.SELECT,
      });
      if (!form) throw invalid([{ field: 'evaluationFormId', key: 'notFound', message: 'No such evaluation form' }]);
    }
    const [row] = await this.sequelize.query<FacilityEvaluationFormRecord>(
      `INSERT INTO facility_evaluation_forms (facility_id, request_type, evaluation_form_id, is_athena_billed)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (facility_id, request_type) DO UPDATE
         SET evaluation_form_id = EXCLUDED.evaluation_form_id, is_athena_billed = EXCLUDED.is_athena_billed, updated_at = now()
       RETURNING id, request_type AS "requestType", evaluation_form_id AS "evaluationFormId", is_athena_billed AS "isAthenaBilled"`,
      { bind: [facilityId, body.requestType, body.evaluationFormId, body.isAthenaBilled], type: QueryTypes.SELECT },
    );
    return row;
  }

  private async assertFacility(facilityId: number) {
    const [row] = await this.sequelize.query('SELECT id FROM facilities WHERE id = $1', { bind: [facilityId], type: QueryTypes.SELECT });
    if (!row) throw notFound();
  }
}
