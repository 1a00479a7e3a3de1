import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { Sequelize } from 'sequelize-typescript';
import {
  CodedError,
  ErrorCode,
  ageRangeBirthDates,
  duplicateKey,
  patientReference,
  todayUtc,
  type MergeGroupRow,
  type PatientDirectoryRow,
  type PatientListFilter,
} from '@crisis/forms';
import type { ListQuery } from '../common/list-query';
import { containsPattern, listPage, select } from '../reference/reference-sql';
import { PATIENT_COLUMNS } from './patient-sql';

/** Sortable columns of the directory (default: name ascending, spec 02 §9). */
export const PATIENT_SORTABLE = ['referenceNumber', 'name', 'gender', 'dateOfBirth', 'city', 'state'] as const;
const SORT_COLUMNS: Record<string, string> = {
  referenceNumber: 'p.id',
  name: "lower(p.last_name) || ' ' || lower(p.first_name)",
  gender: 'p.gender',
  dateOfBirth: 'p.date_of_birth',
  city: 'lower(p.city)',
  state: 'p.state',
};

/** The duplicate groups are the live records sharing a name and a date of birth (forms duplicateKey; names are stored trimmed). */
const GROUP_KEY = 'lower(p.last_name), lower(p.first_name), p.date_of_birth';

/** A record merged away answers with the survivor (INV.PATIENT.MERGED, payload survivorId). */
export const patientMerged = (survivorId: number) =>
  new CodedError(ErrorCode.PatientMerged, { survivorId }, undefined, `This patient record was merged into patient ${patientReference(survivorId)}`);

/** The patient directory (spec 02 §2 "Patients") and the duplicate groups of the merge (§2 "Merge page"). */
@Injectable()
export class PatientDirectoryService {
  constructor(@InjectConnection() private readonly sequelize: Sequelize) {}

  /** Refuses a record merged into another, pointing to the survivor; 404 for none at all. */
  async assertLive(patientId: number): Promise<void> {
    const [p] = await select<{ mergedIntoId: number | null }>(this.sequelize, 'SELECT merged_into_id AS "mergedIntoId" FROM patients WHERE id = $1', [patientId]);
    if (p?.mergedIntoId) throw patientMerged(p.mergedIntoId);
  }

  /** GET /api/patients: one page of the live records with the directory's filters. */
  async list(q: ListQuery<PatientListFilter>, today = todayUtc()): Promise<{ rows: PatientDirectoryRow[]; total: number }> {
    const f = q.filter;
    const where = ['p.merged_into_id IS NULL'];
    const bind: unknown[] = [];
    const param = (v: unknown) => (bind.push(v), `$${bind.length}`);
    // Every word of the name search must be part of the first or the last name.
    for (const word of (f.name ?? '').trim().split(/\s+/).filter(Boolean).slice(0, 4)) {
      const pattern = param(containsPattern(word.toLowerCase()));
      where.push(`(lower(p.first_name) LIKE ${pattern} OR lower(p.last_name) LIKE ${pattern})`);
    }
    if (f.cities?.length) where.push(`lower(p.city) = ANY(${param(f.cities.map((c) => c.trim().toLowerCase()))}::text[])`);
    if (f.states?.length) where.push(`p.state = ANY(${param(f.states)}::text[])`);
    if (f.genders?.length) where.push(`p.gender = ANY(${param(f.genders)}::text[])`);
    if (f.ageRanges?.length) {
      const bands = f.ageRanges.map((name) => {
        const b = ageRangeBirthDates(name, today);
        const older = `p.date_of_birth <= ${param(b.bornOnOrBefore)}::date`;
        return b.bornAfter === null ? older : `(${older} AND p.date_of_birth > ${param(b.bornAfter)}::date)`;
      });
      where.push(`(${bands.join(' OR ')})`);
    }
    if (f.id?.length) where.push(`p.id = ANY(${param(f.id)}::int[])`);
    const page = await listPage<Record<string, any>>(this.sequelize, {
      select: `p.id, p.first_name AS "firstName", p.last_name AS "lastName", p.gender, p.date_of_birth::text AS "dateOfBirth",
               json_build_object('city', p.city, 'state', p.state) AS address,
               coalesce((SELECT json_agg(json_build_object('id', sf.id, 'name', sf.name, 'city', sf.city, 'state', sf.state,
                                         'nameRepeats', EXISTS (SELECT 1 FROM facilities o WHERE o.name = sf.name AND o.id <> sf.id))
                                   ORDER BY sf.name, sf.id)
                           FROM facilities sf WHERE sf.id IN (SELECT source_facility_id FROM cases WHERE patient_id = p.id)), '[]') AS "sourceFacilities"`,
      from: 'patients p',
      where,
      bind,
      sortColumns: SORT_COLUMNS,
      q: q as ListQuery<unknown>,
    });
    return { rows: page.rows.map((r) => ({ ...r, referenceNumber: patientReference(r.id) }) as PatientDirectoryRow), total: page.total };
  }

  /**
   * GET /api/patients/merge/groups: the groups of two or more live records with the same name and
   * date of birth, except those an admin marked "no merging needed" (a review covering all their
   * records). Name ascending, 7 a page.
   */
  async groups(offset: number, limit: number): Promise<{ rows: MergeGroupRow[]; total: number }> {
    const groups = `
      SELECT min(p.first_name) AS "firstName", min(p.last_name) AS "lastName", p.date_of_birth::text AS "dateOfBirth",
             count(*)::int AS "recordsCount", array_agg(p.id ORDER BY p.id) AS ids,
             lower(p.last_name) AS lk, lower(p.first_name) AS fk
        FROM patients p WHERE p.merged_into_id IS NULL
       GROUP BY ${GROUP_KEY} HAVING count(*) > 1`;
    const open = `FROM (${groups}) g WHERE NOT EXISTS (SELECT 1 FROM patient_merge_reviews r WHERE r.patient_ids @> g.ids)`;
    const [{ total }] = await select<{ total: number }>(this.sequelize, `SELECT count(*)::int AS total ${open}`);
    const rows = total
      ? await select<Omit<MergeGroupRow, 'id'>>(
          this.sequelize,
          `SELECT g."firstName", g."lastName", g."dateOfBirth", g."recordsCount" ${open} ORDER BY g.lk, g.fk, g."dateOfBirth" LIMIT $1 OFFSET $2`,
          [limit, offset],
        )
      : [];
    return { rows: rows.map((r) => ({ id: duplicateKey(r), ...r })), total };
  }

  /** GET /api/patients/merge/records: the live records of one group, oldest first, with what tells them apart. */
  async records(q: { firstName: string; lastName: string; dateOfBirth: string }) {
    const rows = await select<Record<string, any>>(
      this.sequelize,
      `SELECT ${PATIENT_COLUMNS}, p.created_at AS "createdAt",
              CASE WHEN f.id IS NULL THEN NULL ELSE json_build_object('facilityId', f.id, 'facilityName', f.name) END AS "createdIn",
              (SELECT count(*)::int FROM cases c WHERE c.patient_id = p.id) AS "casesCount",
              (SELECT json_build_object('id', lc.id, 'createdAt', lc.created_at, 'status', lc.status)
                 FROM cases lc WHERE lc.patient_id = p.id ORDER BY lc.created_at DESC, lc.id DESC LIMIT 1) AS "lastCase"
         FROM patients p LEFT JOIN facilities f ON f.id = p.created_in_facility_id
        WHERE p.merged_into_id IS NULL AND lower(p.last_name) = lower(trim($1)) AND lower(p.first_name) = lower(trim($2))
          AND p.date_of_birth = $3::date
        ORDER BY p.id`,
      [q.lastName, q.firstName, q.dateOfBirth],
    );
    return rows.map((r) => ({
      ...r,
      id: r.id as number,
      referenceNumber: patientReference(r.id),
      lastCase: r.lastCase ? { ...r.lastCase, activeCase: r.lastCase.status !== 'Closed' } : null,
    }));
  }
}
