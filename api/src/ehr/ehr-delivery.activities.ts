/**
 * The activities of the EHR delivery workflow (workflows/src/workflows/ehr.ts). Each reads its
 * ehr_deliveries row first and does nothing the row says is done. The EHR is called outside any
 * transaction; what it answered is written after, with the case activity's line, in one.
 */
import { ApplicationFailure } from '@temporalio/activity';
import {
  EHR_DOCUMENT_TITLES,
  EHR_OUTCOME_TITLE,
  ehrActivityNote,
  enumLabel,
  recipientsOf,
  type EhrDeliveryKind,
} from '@crisis/forms';
import type { EhrActivities, EhrDeliveryOutcome } from '@crisis/workflows';
import type { Sequelize } from 'sequelize-typescript';
import { evaluationDocumentPdf } from '../case-exports/case-exports.service';
import { caseRepository } from '../cases/case.repository';
import { inTransaction, pooledSql, type Sql } from '../db/sql';
import { insertNotificationRows } from '../notifications/notification-fanout';
import { EhrError, type EhrConnection, type EhrPort } from './ehr.port';
import type { EhrDeliveryRow } from './ehr-deliveries.repository';

/** Where a facility's EHR connection comes from (the ITP admin's settings). */
export interface EhrConnectionSource {
  forFacility(facilityId: number): Promise<EhrConnection | null>;
}

interface DeliveryContext extends EhrDeliveryRow {
  source_facility_id: number;
  patient_epic_id: string | null;
  encounter_identifier_id: string | null;
  request_type: string | null;
  outcome_type: string | null;
  outcome_note: string | null;
  closed_at: string | null;
  provider_npi: string | null;
  completed_at: string | null;
  primary_diagnosis: string | null;
  secondary_diagnoses: string[] | null;
  billing_codes: string[] | null;
  patient_name: string;
}

const CONTEXT = `
  SELECT d.id::text, d.key, d.kind, d.case_id, d.request_id, d.status, d.round, d.attempts,
         c.source_facility_id, c.patient_epic_id, c.encounter_identifier_id, c.outcome_type, c.outcome_note, c.closed_at,
         r.type AS request_type, r.completed_at, u.provider_info->>'npi' AS provider_npi,
         e.primary_diagnosis, e.secondary_diagnoses,
         ARRAY(SELECT b.code FROM billing_codes b WHERE b.id = ANY(coalesce(e.billing_code_ids, '{}')) ORDER BY b.code) AS billing_codes,
         p.first_name || ' ' || p.last_name AS patient_name
    FROM ehr_deliveries d
    JOIN cases c ON c.id = d.case_id
    JOIN patients p ON p.id = c.patient_id
    LEFT JOIN requests r ON r.id = d.request_id
    LEFT JOIN users u ON u.id = r.evaluation_provider_id
    LEFT JOIN evaluations e ON e.request_id = r.id
   WHERE d.id = $1`;

/** A psychiatric diagnostic evaluation, billed when the evaluation names no billing code. */
const DEFAULT_SERVICE_CODE = '90791';

/** The documents' times are printed in the zone of the platform's coordinators. */
const DOCUMENT_TIME_ZONE = process.env.EHR_DOCUMENT_TIME_ZONE || 'America/New_York';

const rejected = (message: string) => ApplicationFailure.nonRetryable(message, 'EhrRejected');

export function createEhrDeliveryActivities(deps: { sequelize: Sequelize; ehr: EhrPort; connections: EhrConnectionSource }): EhrActivities {
  const { sequelize, ehr, connections } = deps;
  const pool = pooledSql(sequelize);

  const line = (db: Sql, d: DeliveryContext, event: 'delivered' | 'retrying' | 'failed', detail: string | null) =>
    caseRepository.recordSystemLine(db, d.case_id, 'ehr', ehrActivityNote(d.kind, event, detail), `ehr:${d.id}:${d.round}:${event}`);

  /** Files the row's resource; returns the EHR's id of it. */
  async function send(conn: EhrConnection, d: DeliveryContext): Promise<string> {
    if (!d.patient_epic_id || !d.encounter_identifier_id) throw rejected('The case has no EHR patient id or encounter id');
    const patient = await ehr.findPatient(conn, d.patient_epic_id);
    if (!patient) throw rejected(`The EHR has no patient ${d.patient_epic_id}`);
    const encounter = await ehr.readEncounter(conn, d.encounter_identifier_id);
    if (!encounter) throw rejected(`The EHR has no encounter ${d.encounter_identifier_id}`);
    const base = { patientFhirId: patient.fhirId, encounterFhirId: encounter.fhirId, idempotencyKey: d.key };
    switch (d.kind as EhrDeliveryKind) {
      case 'EvaluationDocument': {
        const title = EHR_DOCUMENT_TITLES[d.request_type ?? ''] ?? 'Tele-psych Evaluation';
        const pdf = await evaluationDocumentPdf(sequelize, d.case_id, d.request_id!, title, DOCUMENT_TIME_ZONE);
        if (!pdf) throw rejected('The request has no evaluation to upload');
        const r = await ehr.uploadDocument(conn, { ...base, title, contentType: 'application/pdf', content: pdf, date: d.completed_at ?? new Date().toISOString() });
        return `DocumentReference/${r.id}`;
      }
      case 'CaseOutcome': {
        const text = [
          `Case outcome: ${d.outcome_type ? enumLabel(d.outcome_type) : 'Closed without an outcome'}`,
          d.outcome_note ? `Note: ${d.outcome_note}` : null,
          d.closed_at ? `Closed at: ${new Date(d.closed_at).toISOString()}` : null,
        ].filter(Boolean).join('\n');
        const r = await ehr.uploadDocument(conn, { ...base, title: EHR_OUTCOME_TITLE, contentType: 'text/plain', content: Buffer.from(text, 'utf8'), date: new Date().toISOString() });
        return `DocumentReference/${r.id}`;
      }
      case 'Claim': {
        const diagnosisCodes = [d.primary_diagnosis, ...(d.secondary_diagnoses ?? [])].filter((x): x is string => !!x);
        if (!diagnosisCodes.length) throw rejected('The evaluation has no diagnosis to bill');
        const r = await ehr.createClaim(conn, {
          ...base,
          diagnosisCodes,
          serviceCode: d.billing_codes?.[0] ?? DEFAULT_SERVICE_CODE,
          serviceDate: (d.completed_at ? new Date(d.completed_at) : new Date()).toISOString().slice(0, 10),
          providerNpi: d.provider_npi,
        });
        return `Claim/${r.id}`;
      }
    }
  }

  return {
    async deliverToEhr(deliveryId, round): Promise<EhrDeliveryOutcome> {
      const { rows } = await pool.query<DeliveryContext>(CONTEXT, [deliveryId]);
      const d = rows[0];
      if (!d) return 'gone';
      // Done by an earlier attempt whose completion was lost, or a later round took over.
      if (d.status !== 'Pending' || d.round !== round) return d.status === 'Delivered' ? 'delivered' : 'failed';
      await pool.query('UPDATE ehr_deliveries SET attempts = attempts + 1, updated_at = now() WHERE id = $1', [deliveryId]);
      const conn = await connections.forFacility(d.source_facility_id);
      if (!conn) throw rejected('The source facility has no EHR connection');
      let resource: string;
      try {
        resource = await send(conn, d);
      } catch (err) {
        if (!(err instanceof EhrError)) throw err;
        const message = err.message.slice(0, 1000);
        if (err.kind !== 'unavailable') throw rejected(message);
        await inTransaction(sequelize, async (db) => {
          await db.query('UPDATE ehr_deliveries SET last_error = $2, updated_at = now() WHERE id = $1', [deliveryId, message]);
          // The first refusal of a round shows on the case; the further tries only on the row.
          await line(db, d, 'retrying', message);
        });
        throw ApplicationFailure.retryable(message, 'EhrUnavailable');
      }
      await inTransaction(sequelize, async (db) => {
        await db.query(
          `UPDATE ehr_deliveries SET status = 'Delivered', ehr_resource_id = $2, delivered_at = now(), last_error = NULL, updated_at = now()
            WHERE id = $1 AND status = 'Pending'`,
          [deliveryId, resource],
        );
        await line(db, d, 'delivered', resource);
      });
      return 'delivered';
    },

    async recordEhrDeliveryFailed(deliveryId, round, reason) {
      await inTransaction(sequelize, async (db) => {
        const { rows } = await db.query<DeliveryContext>(CONTEXT, [deliveryId]);
        const d = rows[0];
        if (!d || d.status !== 'Pending' || d.round !== round) return;
        await db.query("UPDATE ehr_deliveries SET status = 'Failed', last_error = $2, updated_at = now() WHERE id = $1", [deliveryId, reason.slice(0, 1000)]);
        await line(db, d, 'failed', reason);
        await insertNotificationRows(db, {
          caseId: d.case_id,
          type: 'EhrDeliveryFailed',
          audiences: recipientsOf('EhrDeliveryFailed'),
          payload: { DeliveryKind: d.kind, Reason: reason.slice(0, 300), ...(d.request_id ? { RequestId: d.request_id } : {}) },
          sourceKey: `ehr:${deliveryId}:${round}`,
        });
      });
    },
  };
}
