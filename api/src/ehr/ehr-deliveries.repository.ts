/**
 * The EHR deliveries a case change owes (forms/src/cases/ehr.ts), queued by the case writer in the
 * change's own transaction, each with a NOTIFY that starts its workflow when the row commits
 * (the messaging dispatcher; the messaging sweep is the safety net). Nothing here calls the EHR.
 */
import { deliveriesAfterEvaluation, hasEhrIds, syncsOutcome, type EhrDeliveryKind } from '@crisis/forms';
import type { Sql } from '../db/sql';
import { MESSAGING_CHANNEL } from '../messaging/messaging.repository';
import { ehrIntegratedSql } from './ehr-connections.service';

export interface EhrDeliveryRow {
  id: string;
  key: string;
  kind: EhrDeliveryKind;
  case_id: number;
  request_id: number | null;
  status: 'Pending' | 'Delivered' | 'Failed';
  round: number;
  attempts: number;
}

/** The case's EHR facts: its ids, and whether its source facility is integrated (department id and connection). */
const CASE_EHR = `
  SELECT c.patient_epic_id AS "patientEpicId", c.encounter_identifier_id AS "encounterIdentifier",
         ${ehrIntegratedSql('f')} AS "ehrIntegrated"
    FROM cases c JOIN facilities f ON f.id = c.source_facility_id WHERE c.id = $1`;

async function caseEhr(db: Sql, caseId: number) {
  const { rows } = await db.query<{ patientEpicId: string | null; encounterIdentifier: string | null; ehrIntegrated: boolean }>(CASE_EHR, [caseId]);
  return rows[0] ?? null;
}

async function queue(db: Sql, caseId: number, requestId: number | null, kind: EhrDeliveryKind, key: string): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    `WITH ins AS (
       INSERT INTO ehr_deliveries (key, kind, case_id, request_id) VALUES ($1, $2, $3, $4)
       ON CONFLICT (key) DO NOTHING RETURNING id, round
     )
     SELECT id::text, pg_notify($5, json_build_object('kind', 'ehr', 'id', id::text, 'round', round)::text) FROM ins`,
    [key, kind, caseId, requestId, MESSAGING_CHANNEL],
  );
  return rows[0]?.id ?? null;
}

export const ehrDeliveries = {
  /** After an evaluation's completion: its document (assessment, reassessment) and its claim (bill-to-EHR types). */
  async afterEvaluation(db: Sql, caseId: number, requestId: number): Promise<string[]> {
    const c = await caseEhr(db, caseId);
    if (!c?.ehrIntegrated) return [];
    const { rows } = await db.query<{ type: string; hasEvaluation: boolean; formSkipped: boolean; billedToEhr: boolean }>(
      `SELECT r.type, e.request_id IS NOT NULL AS "hasEvaluation", coalesce(e.form_skipped, false) AS "formSkipped",
              coalesce(fef.is_athena_billed, false) AS "billedToEhr"
         FROM requests r JOIN cases c ON c.id = r.case_id
         LEFT JOIN evaluations e ON e.request_id = r.id
         LEFT JOIN facility_evaluation_forms fef ON fef.facility_id = c.source_facility_id AND fef.request_type = r.type
        WHERE r.id = $1`,
      [requestId],
    );
    const r = rows[0];
    if (!r) return [];
    const kinds = deliveriesAfterEvaluation({ requestType: r.type, ehrIntegrated: true, hasEhrIds: hasEhrIds(c), hasEvaluation: r.hasEvaluation, formSkipped: r.formSkipped, billedToEhr: r.billedToEhr });
    const ids: string[] = [];
    for (const kind of kinds) {
      const id = await queue(db, caseId, requestId, kind, `${kind}:request:${requestId}`);
      if (id) ids.push(id);
    }
    return ids;
  },

  /** After closing or changing the outcome: the outcome as the EHR should file it (one per command). */
  async afterOutcome(db: Sql, caseId: number, commandId: string): Promise<string | null> {
    const c = await caseEhr(db, caseId);
    if (!c || !syncsOutcome({ ehrIntegrated: c.ehrIntegrated, hasEhrIds: hasEhrIds(c) })) return null;
    return queue(db, caseId, null, 'CaseOutcome', `CaseOutcome:command:${commandId}`);
  },

  /**
   * The ITP admin's retry of failed claims (spec 01 §7 "retry of an EHR claim"): each failed claim
   * of these cases starts a new round. Returns the case ids that had one.
   */
  async retryFailedClaims(db: Sql, caseIds: number[]): Promise<number[]> {
    const { rows } = await db.query<{ case_id: number }>(
      `WITH up AS (
         UPDATE ehr_deliveries SET status = 'Pending', round = round + 1, attempts = 0, last_error = NULL, updated_at = now()
          WHERE kind = 'Claim' AND status = 'Failed' AND case_id = ANY($1::int[])
          RETURNING id, case_id, round
       )
       SELECT case_id, pg_notify($2, json_build_object('kind', 'ehr', 'id', id::text, 'round', round)::text) FROM up`,
      [caseIds, MESSAGING_CHANNEL],
    );
    return [...new Set(rows.map((r) => r.case_id))];
  },
};
