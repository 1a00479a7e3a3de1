import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { Sequelize } from 'sequelize-typescript';
import {
  CodedError,
  CaseStatus,
  ErrorCode,
  capitalizeName,
  caseReference,
  caseStatusLabel,
  lockedPatientFields,
  patientForSave,
  patientReference,
  type PatientInput,
  type UserContext,
} from '@crisis/forms';
import { notFound } from '../common/coded-error';
import { auditValues } from '../common/request-context';
import { select } from '../reference/reference-sql';
import { caseScopeSql } from '../cases/case-scope';
import { insurancesOfCase } from '../case-insurance/insurance-sql';
import { PATIENT_COLUMNS, type PatientRecord } from './patient-sql';

export const LOG_PAGE_SIZE = 10;

export const caseClosed = () => new CodedError(ErrorCode.CaseIsClosed, undefined, undefined, 'The case is closed');

/** The change-log names of the patient fields (spec 01 §3 "Change-log rows"), with how to read each. */
const TRACKED: Array<[name: string, read: (p: PatientRecord) => unknown]> = [
  ['firstName', (p) => p.firstName],
  ['lastName', (p) => p.lastName],
  ['dateOfBirth', (p) => p.dateOfBirth],
  ['gender', (p) => p.gender],
  ['phone', (p) => p.phone],
  ['isVeteran', (p) => p.isVeteran],
  ['homeless', (p) => p.homeless],
  ['address', (p) => [p.address.streetLine, p.address.apartmentNumber].filter(Boolean).join(', ') || null],
  ['city', (p) => p.address.city],
  ['zipCode', (p) => p.address.zipCode],
  ['state', (p) => p.address.state],
  ['county', (p) => p.address.county],
];

const asText = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

/** The patient part of a case and the patient directory look-ups (spec 01 §5 Patient form, §7 /api/patients). */
@Injectable()
export class PatientsService {
  constructor(@InjectConnection() private readonly sequelize: Sequelize) {}

  private async patientRow(patientId: number, lock = false): Promise<PatientRecord | undefined> {
    const [p] = await select<PatientRecord>(
      this.sequelize,
      `SELECT ${PATIENT_COLUMNS} FROM patients p WHERE p.id = $1 ${lock ? 'FOR UPDATE' : ''}`,
      [patientId],
    );
    return p;
  }

  /** PUT /api/cases/{id}/patient: saves the patient, one change-log row per changed field. */
  async updateCasePatient(user: UserContext, caseId: number, input: PatientInput): Promise<PatientRecord> {
    const [c] = await select<{ status: string; patientId: number }>(
      this.sequelize,
      'SELECT status, patient_id AS "patientId" FROM cases WHERE id = $1 FOR UPDATE',
      [caseId],
    );
    if (c.status === CaseStatus.Closed) throw caseClosed();
    const before = (await this.patientRow(c.patientId, true))!;
    const data = patientForSave({ ...input, firstName: capitalizeName(input.firstName), lastName: capitalizeName(input.lastName) });
    const after: PatientRecord = {
      ...before,
      firstName: data.firstName,
      lastName: data.lastName,
      dateOfBirth: data.dateOfBirth,
      gender: data.gender,
      phone: data.phone ?? null,
      isVeteran: data.isVeteran ?? false,
      homeless: data.homeless ?? false,
      ssn: data.ssn ?? null,
      address: {
        streetLine: data.address.streetLine,
        apartmentNumber: data.address.apartmentNumber ?? null,
        city: data.address.city,
        state: data.address.state,
        county: data.address.county,
        zipCode: data.address.zipCode,
      },
      outpatientProviderName: data.outpatientProviderName ?? null,
      outpatientProviderPhone: data.outpatientProviderPhone ?? null,
      athenaPatientId: data.athenaPatientId !== undefined ? (data.athenaPatientId ?? null) : before.athenaPatientId,
      patientEpicId: data.patientEpicId !== undefined ? (data.patientEpicId ?? null) : before.patientEpicId,
      encounterIdentifier: data.encounterIdentifier !== undefined ? (data.encounterIdentifier ?? null) : before.encounterIdentifier,
    };
    // Veteran flag, date of birth and gender are fixed while contacting service organizations (spec 01 §5).
    const locked = lockedPatientFields(c.status).filter((f) => asText((before as any)[f]) !== asText((after as any)[f]));
    if (locked.length)
      throw new CodedError(
        ErrorCode.PatientLockedWhileContacting,
        { field: locked[0], fields: locked },
        locked.map((field) => ({ field, key: 'lockedWhileContacting', message: 'This value cannot be changed while contacting service organizations' })),
      );

    await select(
      this.sequelize,
      `UPDATE patients SET first_name = $2, last_name = $3, date_of_birth = $4, gender = $5, phone = $6, is_veteran = $7, homeless = $8,
              street_line = $9, apartment_number = $10, city = $11, state = $12, county = $13, zip_code = $14, ssn = $15,
              outpatient_provider_name = $16, outpatient_provider_phone = $17, athena_patient_id = $18, patient_epic_id = $19,
              encounter_identifier = $20, updated_at = now()
        WHERE id = $1`,
      [
        before.id,
        after.firstName,
        after.lastName,
        after.dateOfBirth,
        after.gender,
        after.phone,
        after.isVeteran,
        after.homeless,
        after.address.streetLine,
        after.address.apartmentNumber,
        after.address.city,
        after.address.state,
        after.address.county,
        after.address.zipCode,
        after.ssn,
        after.outpatientProviderName,
        after.outpatientProviderPhone,
        after.athenaPatientId,
        after.patientEpicId,
        after.encounterIdentifier,
      ],
    );
    const changes = TRACKED.map(([name, read]) => ({ name, oldValue: asText(read(before)), newValue: asText(read(after)) })).filter(
      (ch) => ch.oldValue !== ch.newValue,
    );
    const changedByName = `${user.firstName} ${user.lastName}`;
    for (const ch of changes)
      await select(
        this.sequelize,
        `INSERT INTO change_logs (subject, case_id, patient_id, changed_by, changed_by_name, name, old_value, new_value)
         VALUES ('patient', $1, $2, $3, $4, $5, $6, $7)`,
        [caseId, before.id, user.id, changedByName, ch.name, ch.oldValue, ch.newValue],
      );
    auditValues({ caseId, patientId: before.id, changed: changes.map((ch) => ch.name) });
    return (await this.patientRow(before.id))!;
  }

  /** GET /api/cases/{id}/patient/logs: newest first, 10 a page. */
  async patientLogs(caseId: number, page: number) {
    const [{ total }] = await select<{ total: number }>(
      this.sequelize,
      `SELECT count(*)::int AS total FROM change_logs WHERE subject = 'patient' AND case_id = $1`,
      [caseId],
    );
    const rows = total
      ? await select(
          this.sequelize,
          `SELECT l.id, l.name, l.old_value AS "oldValue", l.new_value AS "newValue", l.changed_at AS "changedAt",
                  json_build_object('id', l.changed_by, 'fullName', l.changed_by_name) AS "changedBy", l.meta_info AS "metaInfo"
             FROM change_logs l WHERE l.subject = 'patient' AND l.case_id = $1
            ORDER BY l.changed_at DESC, l.id DESC LIMIT $2 OFFSET $3`,
          [caseId, LOG_PAGE_SIZE, (page - 1) * LOG_PAGE_SIZE],
        )
      : [];
    return { rows, total, page, pageSize: LOG_PAGE_SIZE };
  }

  /** GET /api/patients/{id}: the patient with reference, where it was created, source facilities, last case, tags. */
  async get(patientId: number) {
    const [row] = await select<Record<string, any>>(
      this.sequelize,
      `SELECT ${PATIENT_COLUMNS},
              CASE WHEN f.id IS NULL THEN NULL ELSE json_build_object('facilityId', f.id, 'facilityName', f.name,
                'address', json_build_object('streetLine', f.street_line, 'city', f.city, 'state', f.state, 'zipCode', f.zip_code)) END AS "createdIn",
              coalesce((SELECT json_agg(json_build_object('id', sf.id, 'name', sf.name, 'city', sf.city, 'state', sf.state) ORDER BY sf.name)
                          FROM facilities sf WHERE sf.id IN (SELECT source_facility_id FROM cases WHERE patient_id = p.id)), '[]') AS "sourceFacilities",
              (SELECT json_build_object('id', lc.id, 'createdAt', lc.created_at, 'status', lc.status)
                 FROM cases lc WHERE lc.patient_id = p.id ORDER BY lc.created_at DESC, lc.id DESC LIMIT 1) AS "lastCase",
              coalesce((SELECT json_agg(DISTINCT jsonb_build_object('id', t.id, 'name', t.name))
                          FROM case_tags ct JOIN cases tc ON tc.id = ct.case_id JOIN patient_tags t ON t.id = ct.tag_id
                         WHERE tc.patient_id = p.id), '[]') AS tags
         FROM patients p LEFT JOIN facilities f ON f.id = p.created_in_facility_id
        WHERE p.id = $1`,
      [patientId],
    );
    if (!row) throw notFound();
    const lastCase = row.lastCase ? { ...row.lastCase, referenceNumber: caseReference(row.lastCase.id), activeCase: row.lastCase.status !== 'Closed' } : null;
    return { ...row, referenceNumber: patientReference(row.id), lastCase };
  }

  /** GET /api/patients/search: by name (first, last or "last first" contains) and/or date of birth. */
  async search(q: { name?: string | null; dateOfBirth?: string | null }) {
    const where: string[] = [];
    const bind: unknown[] = [];
    if (q.name) {
      for (const word of q.name.trim().split(/\s+/).slice(0, 4)) {
        bind.push(`%${word.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`);
        where.push(`(lower(p.first_name) LIKE $${bind.length} OR lower(p.last_name) LIKE $${bind.length})`);
      }
    }
    if (q.dateOfBirth) {
      bind.push(q.dateOfBirth);
      where.push(`p.date_of_birth = $${bind.length}::date`);
    }
    const rows = await select<Record<string, any>>(
      this.sequelize,
      `SELECT p.id, p.first_name AS "firstName", p.last_name AS "lastName", p.date_of_birth::text AS "dateOfBirth", p.gender,
              p.city, p.state,
              (SELECT json_build_object('id', lc.id, 'createdAt', lc.created_at, 'status', lc.status)
                 FROM cases lc WHERE lc.patient_id = p.id ORDER BY lc.created_at DESC, lc.id DESC LIMIT 1) AS "lastCase"
         FROM patients p WHERE ${where.join(' AND ')}
        ORDER BY lower(p.last_name), lower(p.first_name), p.id LIMIT 50`,
      bind,
    );
    return rows.map((r) => ({
      ...r,
      referenceNumber: patientReference(r.id),
      lastCase: r.lastCase ? { ...r.lastCase, referenceNumber: caseReference(r.lastCase.id), activeCase: r.lastCase.status !== 'Closed' } : null,
    }));
  }

  /** GET /api/patients/{id}/history: every case of the patient the user may open, newest first. */
  async history(user: UserContext, patientId: number) {
    const patient = await this.get(patientId);
    const bind: unknown[] = [patientId];
    const scope = caseScopeSql(user, bind);
    const cases = await select<Record<string, any>>(
      this.sequelize,
      `SELECT c.id, c.created_at AS "createdAt", c.status, c.closed_at AS "closedAt",
              json_build_object('id', f.id, 'name', f.name) AS "sourceFacility",
              json_build_object('id', d.id, 'name', d.name) AS "sourceDivision",
              CASE WHEN c.outcome_type IS NULL THEN NULL ELSE json_build_object('type', c.outcome_type, 'note', c.outcome_note,
                'referringFacility', CASE WHEN od.id IS NULL THEN NULL ELSE json_build_object('divisionId', od.id, 'divisionName', od.name, 'facilityName', ofa.name) END) END AS outcome
         FROM cases c
         JOIN facilities f ON f.id = c.source_facility_id
         JOIN divisions d ON d.id = c.source_division_id
         LEFT JOIN divisions od ON od.id = c.outcome_referring_division_id
         LEFT JOIN facilities ofa ON ofa.id = od.facility_id
        WHERE c.patient_id = $1 AND ${scope}
        ORDER BY c.created_at DESC, c.id DESC`,
      bind,
    );
    const audience = user.organizationType === 'Facility' ? 'facility' : 'itp';
    return {
      patient,
      cases: cases.map((c) => ({ ...c, referenceNumber: caseReference(c.id), statusLabel: caseStatusLabel(c.status, audience) })),
    };
  }

  /** GET /api/patients/{id}/insurances/last: the insurances of the patient's latest case. */
  async lastInsurances(patientId: number) {
    const [p] = await select<{ id: number; caseId: number | null; uninsured: boolean | null }>(
      this.sequelize,
      `SELECT p.id, lc.id AS "caseId", lc.uninsured FROM patients p
         LEFT JOIN LATERAL (SELECT id, uninsured FROM cases WHERE patient_id = p.id ORDER BY created_at DESC, id DESC LIMIT 1) lc ON true
        WHERE p.id = $1`,
      [patientId],
    );
    if (!p) throw notFound();
    if (!p.caseId) return [];
    return insurancesOfCase(this.sequelize, p.caseId);
  }
}
