import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { Sequelize } from 'sequelize-typescript';
import { CodedError, ErrorCode, caseReference, type MergeResult, type UserContext } from '@crisis/forms';
import { CaseCommandsHandler } from '../cases/case-commands.handler';
import { invalid, notFound } from '../common/coded-error';
import { auditValues } from '../common/request-context';
import { select } from '../reference/reference-sql';
import { patientMerged } from './patient-directory.service';

/**
 * The tables whose rows belong to a patient record (a foreign key to patients.id) other than
 * `cases`, which the case writer moves. A merge moves them all; the merge test checks this list
 * against the database's foreign keys, so a new table that references patients cannot be missed.
 */
export const PATIENT_DEPENDENT_TABLES = ['patient_files', 'patient_insurances', 'change_logs'] as const;

/** Blank fields of the surviving record a merged-away record may fill (nothing is overwritten). */
const FILLABLE = ['phone', 'athena_patient_id', 'patient_epic_id', 'encounter_identifier', 'outpatient_provider_name', 'outpatient_provider_phone'];

interface LockedPatient {
  id: number;
  mergedIntoId: number | null;
  groupKey: string;
}

/**
 * The merge of duplicate patient records and "no merging needed" (spec 02 §2 "Merge page", §4
 * "Patient merge", §5 "Merge"). Each runs in the request's transaction (the audit interceptor's),
 * so the moves, the marks, the audit entry (who merged what) and the live events of the moved
 * cases commit together or not at all.
 */
@Injectable()
export class PatientMergeService {
  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    private readonly writer: CaseCommandsHandler,
  ) {}

  /** Locks the records (in id order, so two merges cannot deadlock) and checks they are one live group. */
  private async lockGroup(patientIds: number[], lock: 'UPDATE' | 'SHARE'): Promise<LockedPatient[]> {
    const ids = [...new Set(patientIds)].sort((a, b) => a - b);
    const rows = await select<LockedPatient>(
      this.sequelize,
      `SELECT id, merged_into_id AS "mergedIntoId", lower(first_name) || '|' || lower(last_name) || '|' || date_of_birth::text AS "groupKey"
         FROM patients WHERE id = ANY($1::int[]) ORDER BY id FOR ${lock}`,
      [ids],
    );
    if (rows.length !== ids.length) throw notFound();
    const merged = rows.find((r) => r.mergedIntoId);
    if (merged) throw patientMerged(merged.mergedIntoId!);
    if (new Set(rows.map((r) => r.groupKey)).size > 1)
      throw invalid([{ field: 'patientIds', key: 'notOneGroup', message: 'The records must have the same name and date of birth' }]);
    return rows;
  }

  /**
   * POST /api/patients/merge/records: the oldest record survives (its reference number stays);
   * the cases (with their requests, activity and everything under them), files, insurances and
   * change history of the others move to it; the others remain as records merged into it.
   */
  async merge(user: UserContext, patientIds: number[]): Promise<MergeResult> {
    const rows = await this.lockGroup(patientIds, 'UPDATE');
    const ids = rows.map((r) => r.id);
    const active = await select<{ caseId: number; patientId: number }>(
      this.sequelize,
      `SELECT id AS "caseId", patient_id AS "patientId" FROM cases WHERE patient_id = ANY($1::int[]) AND status <> 'Closed' ORDER BY id`,
      [ids],
    );
    // One patient has at most one active case (spec 01 §1): two cannot become one record.
    if (active.length > 1)
      throw new CodedError(ErrorCode.MergePatientsWithMoreThanOneActiveCases, {
        activeCases: active.map((c) => ({ ...c, referenceNumber: caseReference(c.caseId) })),
      });
    const [survivorId, ...mergedIds] = ids;
    const moved: Record<string, number> = {};
    const caseIds = await this.writer.reassignPatient(mergedIds, survivorId);
    moved.cases = caseIds.length;
    for (const table of PATIENT_DEPENDENT_TABLES) {
      const [{ n }] = await select<{ n: number }>(
        this.sequelize,
        `WITH m AS (UPDATE ${table} SET patient_id = $2 WHERE patient_id = ANY($1::int[]) RETURNING 1) SELECT count(*)::int AS n FROM m`,
        [mergedIds, survivorId],
      );
      moved[table] = n;
    }
    await select(
      this.sequelize,
      `UPDATE patients s SET ${FILLABLE.map(
        (c) => `${c} = coalesce(s.${c}, (SELECT o.${c} FROM patients o WHERE o.id = ANY($2::int[]) AND o.${c} IS NOT NULL ORDER BY o.id DESC LIMIT 1))`,
      ).join(', ')}, updated_at = now()
        WHERE s.id = $1`,
      [survivorId, mergedIds],
    );
    // Records merged into one of these earlier now point at the survivor too (no chains to follow).
    await select(this.sequelize, 'UPDATE patients SET merged_into_id = $1 WHERE merged_into_id = ANY($2::int[])', [survivorId, mergedIds]);
    await select(
      this.sequelize,
      'UPDATE patients SET merged_into_id = $1, merged_at = now(), merged_by = $3, updated_at = now() WHERE id = ANY($2::int[])',
      [survivorId, mergedIds, user.id],
    );
    auditValues({ survivorId, mergedIds, caseIds, moved });
    return { survivorId, mergedIds, moved };
  }

  /** POST /api/patients/merge/not-needed: every record of the group, remembered as reviewed. */
  async markNotNeeded(user: UserContext, patientIds: number[]): Promise<{ patientIds: number[] }> {
    const rows = await this.lockGroup(patientIds, 'SHARE');
    const ids = rows.map((r) => r.id);
    const [{ groupIds }] = await select<{ groupIds: number[] }>(
      this.sequelize,
      `SELECT array_agg(p.id ORDER BY p.id) AS "groupIds" FROM patients p, patients k
        WHERE k.id = $1 AND p.merged_into_id IS NULL
          AND lower(p.last_name) = lower(k.last_name) AND lower(p.first_name) = lower(k.first_name) AND p.date_of_birth = k.date_of_birth`,
      [ids[0]],
    );
    // The spec's info dialog: "no merging needed" is said of the whole group.
    if (groupIds.length !== ids.length)
      throw invalid([{ field: 'patientIds', key: 'allRecordsRequired', message: 'Select all the records of the group to mark it as not needing a merge' }]);
    await select(this.sequelize, 'INSERT INTO patient_merge_reviews (patient_ids, reviewed_by) VALUES ($1::int[], $2)', [ids, user.id]);
    auditValues({ patientIds: ids });
    return { patientIds: ids };
  }
}
