import { PassThrough, Transform, pipeline, type Readable } from 'stream';
import type { Client as PgClient } from 'pg';
import QueryStream from 'pg-query-stream';
import { stringify } from 'csv-stringify';
import type { Sequelize } from 'sequelize-typescript';
import {
  BILLING_CSV_COLUMNS,
  DIAGNOSTICS_CSV_COLUMNS,
  PAST_CASE_CSV_COLUMNS,
  caseReference,
  durationTwoUnits,
  enumLabel,
  formatDateTimeIn,
  formatDay,
  type PastCaseExport,
  type PastCaseFilter,
  type UserContext,
} from '@crisis/forms';
import { PAST_CASE_COLUMNS, pastCaseWhere } from './past-cases.query';

/** Rows fetched from the cursor at a time: memory stays at a batch whatever the export's size. */
const CURSOR_BATCH = 200;

/** The completed evaluations of the matching cases (billing and diagnostics lines are per evaluation). */
const EVALUATIONS = `
  SELECT c.id AS "caseId", r.id AS "requestId", r.type AS "requestType", r.completed_at AS "completedAt",
         u.first_name || ' ' || u.last_name AS provider,
         p.first_name AS "firstName", p.last_name AS "lastName", p.date_of_birth AS "dateOfBirth", p.gender,
         p.street_line AS street, p.city, p.state, p.zip_code AS "zipCode", p.athena_patient_id AS "ehrPatientId",
         c.encounter_identifier_id AS "encounterId", sf.name AS "sourceFacility", sd.name AS "sourceDivision",
         coalesce(fef.is_athena_billed, false) AS "billedToEhr", c.uninsured,
         ec.status AS "ehrClaimStatus", ec.last_error AS "ehrClaimError",
         e.primary_diagnosis AS "primaryDiagnosis", e.secondary_diagnoses AS "secondaryDiagnoses",
         ARRAY(SELECT bc.code FROM billing_codes bc WHERE bc.id = ANY(e.billing_code_ids) ORDER BY bc.code) AS "billingCodes",
         ARRAY(SELECT json_build_object('payer', py.name, 'memberId', pi.insurance_id, 'groupId', pi.group_id)
                 FROM patient_insurances pi JOIN payers py ON py.id = pi.payer_id WHERE pi.case_id = c.id ORDER BY pi.position) AS insurances,
         ARRAY(SELECT json_build_object('code', dg.code, 'description', dg.description)
                 FROM unnest(array_prepend(e.primary_diagnosis, e.secondary_diagnoses)) WITH ORDINALITY AS x(code, n)
                 JOIN diagnoses dg ON dg.code = x.code ORDER BY x.n) AS diagnoses
    FROM cases c
    JOIN patients p ON p.id = c.patient_id
    JOIN requests r ON r.case_id = c.id AND r.status = 'Completed'
    JOIN evaluations e ON e.request_id = r.id
    LEFT JOIN users u ON u.id = r.evaluation_provider_id
    JOIN facilities sf ON sf.id = c.source_facility_id
    JOIN divisions sd ON sd.id = c.source_division_id
    LEFT JOIN facility_evaluation_forms fef ON fef.facility_id = c.source_facility_id AND fef.request_type = r.type
    LEFT JOIN ehr_deliveries ec ON ec.request_id = r.id AND ec.kind = 'Claim'`;

type Row = Record<string, any>;
type Cells = Array<string | number>;

const name = (p: Row) => `${p.lastName}, ${p.firstName}`;

/** Each export: its header, its SQL over the filter's WHERE, and the CSV lines of one row. */
const EXPORTS: Record<PastCaseExport, { columns: readonly string[]; sql: (where: string) => string; lines: (r: Row, tz: string) => Cells[] }> = {
  csv: {
    columns: PAST_CASE_CSV_COLUMNS,
    sql: (where) => `SELECT ${PAST_CASE_COLUMNS} FROM cases c JOIN patients p ON p.id = c.patient_id WHERE ${where} ORDER BY c.created_at DESC, c.id DESC`,
    lines: (r, tz) => [[
      formatDateTimeIn(r.createdAt, tz), caseReference(r.id), enumLabel(r.status), r.closedAt ? formatDateTimeIn(r.closedAt, tz) : '',
      name(r.patient), formatDay(r.patient.dateOfBirth), r.sourceFacility.name, r.sourceDivision.name, r.sourceFacility.county ?? '',
      r.referringFacility?.name ?? '', r.referringFacility?.divisionName ?? '', r.outcome ? enumLabel(r.outcome) : '',
      durationTwoUnits(r.locatingServicesSeconds * 1000), r.providers.join('; '),
      r.payers.length ? r.payers.join('; ') : r.uninsured ? 'Uninsured' : 'Not provided',
    ]],
  },
  billing: {
    columns: BILLING_CSV_COLUMNS,
    sql: (where) => `${EVALUATIONS} WHERE ${where} ORDER BY c.created_at DESC, c.id DESC, r.id`,
    lines: (r, tz) => {
      const [primary, ...others] = r.insurances as Row[];
      return [[
        caseReference(r.caseId), r.requestId, enumLabel(r.requestType), formatDateTimeIn(r.completedAt, tz), r.provider ?? '',
        r.lastName, r.firstName, formatDay(r.dateOfBirth), enumLabel(r.gender), r.street ?? '', r.city ?? '', r.state ?? '', r.zipCode ?? '',
        r.ehrPatientId ?? '', r.encounterId ?? '', r.sourceFacility, r.sourceDivision, r.billedToEhr ? 'Yes' : 'No', r.billingCodes.join('; '),
        primary?.payer ?? '', primary?.memberId ?? '', primary?.groupId ?? '', others.map((i) => i.payer).join('; '), r.uninsured ? 'Yes' : 'No',
      ]];
    },
  },
  diagnostics: {
    columns: DIAGNOSTICS_CSV_COLUMNS,
    sql: (where) => `${EVALUATIONS} WHERE ${where} ORDER BY c.created_at DESC, c.id DESC, r.id`,
    lines: (r, tz) =>
      (r.diagnoses as Row[]).map((d, i) => [
        caseReference(r.caseId), r.requestId, r.ehrPatientId ?? '', r.encounterId ?? '', formatDateTimeIn(r.completedAt, tz), r.provider ?? '',
        r.sourceFacility, i + 1, d.code, d.description, d.code === r.primaryDiagnosis && i === 0 ? 'Yes' : 'No',
        // Which claims to retry: the delivery's state (no row: not billed to the EHR) and the EHR's last answer.
        r.ehrClaimStatus ?? (r.billedToEhr ? 'Not sent' : ''), r.ehrClaimError ?? '',
      ]),
  },
};

/**
 * Streams a past-case export as CSV from a server-side cursor (pg-query-stream) on a connection
 * of its own, returned to the pool when the stream ends, fails or the client goes away. Memory
 * holds one batch of rows and the socket's buffer, whatever the number of rows.
 */
export async function streamPastCaseCsv(sequelize: Sequelize, user: UserContext, kind: PastCaseExport, filter: PastCaseFilter, tz: string): Promise<Readable> {
  const spec = EXPORTS[kind];
  const bind: unknown[] = [];
  const { where } = pastCaseWhere(user, filter, tz, bind);
  const manager = sequelize.connectionManager;
  const conn = (await manager.getConnection({ type: 'read' })) as unknown as PgClient;
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    manager.releaseConnection(conn as never);
  };
  const rows = conn.query(new QueryStream(spec.sql(where), bind, { batchSize: CURSOR_BATCH }));
  const toCells = new Transform({
    objectMode: true,
    transform(row: Row, _enc, done) {
      try {
        for (const line of spec.lines(row, tz)) this.push(line);
        done();
      } catch (err) {
        done(err as Error);
      }
    },
  });
  const out = new PassThrough();
  // The cursor is closed (pipeline destroys it) before the connection goes back to the pool.
  pipeline(rows, toCells, stringify({ header: true, columns: [...spec.columns] }), out, () => release());
  return out;
}
