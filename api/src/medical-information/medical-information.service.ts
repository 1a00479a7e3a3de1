import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { Sequelize } from 'sequelize-typescript';
import {
  fractionToPercent,
  CaseStatus,
  ErrorCode,
  FACILITY_MEDICAL_INFORMATION_FIELDS,
  fail,
  MEDICAL_INFORMATION_CLAIM_TYPE,
  defineAbilityFor,
  medicalInformationConfirmation,
  medicalInformationProblems,
  normalizeMedicalInformation,
  problemsToFieldErrors,
  type MedicalInformationInput,
  type UserContext,
} from '@crisis/forms';
import { CaseCommandsService } from '../cases/case-commands.service';
import { CodedError, forbidden, invalid } from '../common/coded-error';
import { auditValues } from '../common/request-context';
import { select } from '../reference/reference-sql';
import { CasesService } from '../cases/cases.service';

/** Page size of the change log (spec 01 §9 "Log page size: 10"). */
export const MEDICAL_INFORMATION_LOG_PAGE_SIZE = 10;

/** What is kept in medical_information.data (the recommendation lives on the case row). */
type StoredData = Omit<MedicalInformationInput, 'mainRecommendation' | 'recommendationCriteria' | 'recommendationNote' | 'primaryDiagnosisId' | 'secondaryDiagnosisIds'>;

export interface Diagnosis {
  code: string;
  description: string;
}

interface CaseRow {
  id: number;
  status: string;
  includeOutOfStateFacilities: boolean;
  mainRecommendation: string | null;
  criteria: string[];
  recommendationNote: string | null;
}

/**
 * Tracked fields of the change log (spec 01 §3 "Tracked names"): the name written to the log and
 * how to read the value from the full medical information (recommendation included).
 */
const TRACKED: Array<[name: string, read: (d: any) => unknown]> = [
  ['primaryDiagnosis', (d) => d.primaryDiagnosisCode],
  ['secondaryDiagnoses', (d) => d.secondaryDiagnosisCodes],
  ['mainRecommendation', (d) => d.mainRecommendation],
  ['criteria', (d) => d.recommendationCriteria],
  ['recommendationNote', (d) => d.recommendationNote],
  ['admissionPrecipitatingFactorsNotes', (d) => d.admissionPrecipitatingFactorsNotes],
  ['homicidalOrSuicidalIdeations', (d) => d.homicidalOrSuicidalIdeations],
  ['hallucinations', (d) => d.hallucinations?.exist],
  ['hallucinationsType', (d) => d.hallucinations?.type],
  ['violentBehavior', (d) => d.violentBehavior],
  ['currentLivingSituation', (d) => d.currentLivingSituationType],
  ['currentLivingSituationNote', (d) => d.currentLivingSituationNote],
  ['criminalCharges', (d) => d.criminalCharges?.exist],
  ['criminalChargesNote', (d) => d.criminalCharges?.note],
  ['legalStatus', (d) => d.legalStatus?.type],
  ['legalGuardianName', (d) => d.legalStatus?.legalGuardianName],
  ['relationshipToPatient', (d) => d.legalStatus?.relationshipToPatient],
  ['holdEnd', (d) => d.legalStatus?.holdEnd],
  ['jailPriorToArrivingOrInCustody', (d) => d.jailPriorToArrivingOrInCustody?.exist],
  ['jailPriorToArrivingOrInCustodyNote', (d) => d.jailPriorToArrivingOrInCustody?.note],
  ['medicationsGivenInEr', (d) => d.medicationsGivenInEr],
  ['homeMedications', (d) => d.homeMedications],
  ['alcoholInSystem', (d) => d.alcoholInSystem?.exist],
  ['bloodAlcoholLevel', (d) => (typeof d.alcoholInSystem?.bal === 'number' ? `${fractionToPercent(d.alcoholInSystem.bal)}%` : null)],
  ['drugsInSystem', (d) => (d.drugsInSystem ?? []).map((x: any) => (x.useCase ? `${x.drug} (${x.useCase})` : x.drug))],
  ['acuteConditions', (d) => d.acuteConditions],
  ['medicalPsychHistory', (d) => d.medicalPsychHistory],
  ['assistiveDevices', (d) => d.assistiveDevices?.exist],
  ['assistiveDevicesNote', (d) => d.assistiveDevices?.note],
  ['activeDetox', (d) => d.activeDetox],
  ['incontinent', (d) => d.incontinent],
  ['ambulatory', (d) => d.ambulatory],
  ['covid19', (d) => d.covid19],
  ['crisisTeamNotes', (d) => d.crisisTeamNotes],
];

/** A tracked value as the log shows it: lists joined, booleans Yes/No, nothing as null. */
function logText(v: unknown): string | null {
  if (v === undefined || v === null || v === '') return null;
  if (Array.isArray(v)) return v.length ? v.join(', ') : null;
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  return String(v);
}

/**
 * Medical information of a case (spec 01 §3, §4, §5): read by ITP roles in full and by facility
 * roles as the facility case page's subset; edited by ITP roles under a claim on
 * ('CaseMedicalInformation', caseId), with the dependent clearing, the confirmation rules and one
 * change-log row per changed tracked field.
 */
@Injectable()
export class MedicalInformationService {
  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    private readonly cases: CasesService,
    private readonly commands: CaseCommandsService,
  ) {}

  async get(user: UserContext, caseId: number) {
    const ability = defineAbilityFor(user);
    const full = ability.can('read', 'MedicalInformation');
    if (!full && !ability.can('read', 'FacilityMedicalInformation')) throw forbidden();
    await this.cases.findInScope(user, caseId);
    const c = await this.caseRow(caseId);
    const [row] = await select<{ data: StoredData; updatedAt: Date | null; updatedBy: string | null }>(
      this.sequelize,
      `SELECT m.data, m.updated_at AS "updatedAt", nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') AS "updatedBy"
         FROM medical_information m LEFT JOIN users u ON u.id = m.updated_by WHERE m.case_id = $1`,
      [caseId],
    );
    const data: any = row?.data ?? {};
    const codes = [data.primaryDiagnosisCode, ...(data.secondaryDiagnosisCodes ?? [])].filter(Boolean);
    const diagnoses = codes.length
      ? await select<Diagnosis>(this.sequelize, 'SELECT code, description FROM diagnoses WHERE code = ANY($1::text[])', [codes])
      : [];
    const byCode = new Map(diagnoses.map((d) => [d.code, d]));
    const diag = (code: string) => byCode.get(code) ?? { code, description: '' };
    const result: Record<string, unknown> = {
      caseId,
      caseStatus: c.status,
      includeOutOfStateFacilities: c.includeOutOfStateFacilities,
      mainRecommendation: c.mainRecommendation,
      recommendationCriteria: c.criteria ?? [],
      recommendationNote: c.recommendationNote,
      admissionPrecipitatingFactorsNotes: data.admissionPrecipitatingFactorsNotes ?? null,
      primaryDiagnosisCode: data.primaryDiagnosisCode ?? null,
      secondaryDiagnosisCodes: data.secondaryDiagnosisCodes ?? [],
      primaryDiagnosis: data.primaryDiagnosisCode ? diag(data.primaryDiagnosisCode) : null,
      secondaryDiagnoses: (data.secondaryDiagnosisCodes ?? []).map(diag),
      homicidalOrSuicidalIdeations: data.homicidalOrSuicidalIdeations ?? null,
      hallucinations: { exist: data.hallucinations?.exist ?? null, type: data.hallucinations?.type ?? null },
      violentBehavior: data.violentBehavior ?? null,
      currentLivingSituationType: data.currentLivingSituationType ?? null,
      currentLivingSituationNote: data.currentLivingSituationNote ?? null,
      criminalCharges: { exist: data.criminalCharges?.exist ?? null, note: data.criminalCharges?.note ?? null },
      legalStatus: {
        type: data.legalStatus?.type ?? null,
        legalGuardianName: data.legalStatus?.legalGuardianName ?? null,
        relationshipToPatient: data.legalStatus?.relationshipToPatient ?? null,
        holdEnd: data.legalStatus?.holdEnd ?? null,
      },
      jailPriorToArrivingOrInCustody: {
        exist: data.jailPriorToArrivingOrInCustody?.exist ?? null,
        note: data.jailPriorToArrivingOrInCustody?.note ?? null,
      },
      // bal travels and is kept as a fraction (the percent entered divided by 100, spec 01 §5).
      alcoholInSystem: { exist: data.alcoholInSystem?.exist ?? null, bal: data.alcoholInSystem?.bal ?? null },
      assistiveDevices: { exist: data.assistiveDevices?.exist ?? null, note: data.assistiveDevices?.note ?? null },
      activeDetox: data.activeDetox ?? null,
      acuteConditions: data.acuteConditions ?? null,
      medicationsGivenInEr: data.medicationsGivenInEr ?? null,
      homeMedications: data.homeMedications ?? null,
      ambulatory: data.ambulatory ?? null,
      covid19: data.covid19 ?? null,
      incontinent: data.incontinent ?? null,
      crisisTeamNotes: data.crisisTeamNotes ?? null,
      medicalPsychHistory: data.medicalPsychHistory ?? null,
      drugsInSystem: data.drugsInSystem ?? [],
      modifiedAt: row?.updatedAt ?? null,
      modifiedBy: row?.updatedBy ?? null,
    };
    if (full) return result;
    const subset: Record<string, unknown> = { caseId, caseStatus: c.status };
    for (const f of FACILITY_MEDICAL_INFORMATION_FIELDS) subset[f] = result[f];
    return subset;
  }

  async update(user: UserContext, caseId: number, body: MedicalInformationInput & { confirmed?: boolean | null }) {
    await this.cases.findInScope(user, caseId);
    // No row lock here: the recommendation is changed by the case workflow's handler, which locks the case itself.
    const c = await this.caseRow(caseId);
    if (c.status === CaseStatus.Closed) fail(ErrorCode.CaseIsClosed);
    await this.assertClaimHeld(user, caseId);

    const { confirmed, primaryDiagnosisId: _a, secondaryDiagnosisIds: _b, ...input } = normalizeMedicalInformation(body) as any;
    const problems = medicalInformationProblems(input, { caseStatus: c.status });
    if (Object.keys(problems).length) throw invalid(problemsToFieldErrors(problems));
    await this.checkDiagnoses(input);

    const [existing] = await select<{ data: any }>(this.sequelize, 'SELECT data FROM medical_information WHERE case_id = $1 FOR UPDATE', [caseId]);
    const oldData: any = existing?.data ?? {};
    const before = {
      ...oldData,
      mainRecommendation: c.mainRecommendation,
      recommendationCriteria: c.criteria ?? [],
      recommendationNote: c.recommendationNote,
    };
    const after = {
      ...input,
      mainRecommendation: input.mainRecommendation ?? null,
      recommendationCriteria: input.recommendationCriteria ?? [],
      recommendationNote: input.recommendationNote ?? null,
    };

    const reason = medicalInformationConfirmation(before, after, {
      caseStatus: c.status,
      includeOutOfStateFacilities: c.includeOutOfStateFacilities,
    });
    if (reason && confirmed !== true) throw new CodedError(ErrorCode.MedicalInformationConfirmationRequired, { reason });

    const { mainRecommendation, recommendationCriteria, recommendationNote, ...rest } = after;
    const recommendationChanged =
      (c.mainRecommendation ?? null) !== mainRecommendation ||
      [...(c.criteria ?? [])].sort().join('|') !== [...recommendationCriteria].sort().join('|') ||
      (c.recommendationNote ?? null) !== recommendationNote;
    // The recommendation is part of the case: changed through its workflow (the rules of the
    // case's current status, the version, the activity row and the live event), before this
    // transaction writes the rest of the medical information.
    if (recommendationChanged)
      await this.commands.run(user, caseId, {
        kind: 'updateRecommendation',
        mainRecommendation,
        criteria: recommendationCriteria,
        note: recommendationNote,
      });
    const stored: any = { ...rest };

    await this.sequelize.query(
      `INSERT INTO medical_information (case_id, data, updated_by, updated_at) VALUES ($1, $2::jsonb, $3, now())
       ON CONFLICT (case_id) DO UPDATE SET data = EXCLUDED.data, updated_by = EXCLUDED.updated_by, updated_at = now()`,
      { bind: [caseId, JSON.stringify(stored), user.id] },
    );

    const changes = TRACKED.map(([name, read]) => ({ name, oldValue: logText(read(before)), newValue: logText(read(after)) })).filter(
      (ch) => ch.oldValue !== ch.newValue,
    );
    if (changes.length) {
      const changedByName = `${user.firstName ?? ''} ${user.lastName ?? ''}`.trim() || user.email;
      const metaInfo = JSON.stringify({ reason: reason ?? 'edit' });
      await this.sequelize.query(
        `INSERT INTO change_logs (subject, case_id, patient_id, changed_by, changed_by_name, name, old_value, new_value, meta_info)
         SELECT 'medicalInformation', $1, c.patient_id, $2, $3, x.name, x.old_value, x.new_value, $4::jsonb
           FROM cases c, unnest($5::text[], $6::text[], $7::text[]) AS x(name, old_value, new_value)
          WHERE c.id = $1`,
        {
          bind: [caseId, user.id, changedByName, metaInfo, changes.map((x) => x.name), changes.map((x) => x.oldValue), changes.map((x) => x.newValue)],
        },
      );
    }
    auditValues({ caseId, changed: changes.map((x) => x.name), confirmation: reason });
    return this.get(user, caseId);
  }

  /** One page (1-based) of the change log, newest first. */
  async logs(user: UserContext, caseId: number, page: number) {
    await this.cases.findInScope(user, caseId);
    const offset = (page - 1) * MEDICAL_INFORMATION_LOG_PAGE_SIZE;
    const [{ total }] = await select<{ total: number }>(
      this.sequelize,
      `SELECT count(*)::int AS total FROM change_logs WHERE subject = 'medicalInformation' AND case_id = $1`,
      [caseId],
    );
    const rows = await select(
      this.sequelize,
      `SELECT id::int AS id, changed_by AS "changedById", changed_by_name AS "changedBy", changed_at AS "changedAt", name,
              old_value AS "oldValue", new_value AS "newValue", meta_info AS "metaInfo"
         FROM change_logs WHERE subject = 'medicalInformation' AND case_id = $1
        ORDER BY changed_at DESC, id DESC LIMIT $2 OFFSET $3`,
      [caseId, MEDICAL_INFORMATION_LOG_PAGE_SIZE, offset],
    );
    return { rows, total, offset };
  }

  /** Diagnoses whose code or description contains the text (3 or more characters). */
  async searchDiagnoses(q: string): Promise<Diagnosis[]> {
    const like = `%${q.toLowerCase().replace(/[\\%_]/g, (m) => '\\' + m)}%`;
    return select<Diagnosis>(
      this.sequelize,
      `SELECT code, description FROM diagnoses
        WHERE lower(code) LIKE $1 OR lower(description) LIKE $1
        ORDER BY (lower(code) LIKE $2) DESC, code LIMIT 25`,
      [like, `${q.toLowerCase().replace(/[\\%_]/g, (m) => '\\' + m)}%`],
    );
  }

  private async caseRow(caseId: number): Promise<CaseRow> {
    const [c] = await select<CaseRow>(
      this.sequelize,
      `SELECT id, status, include_out_of_state_facilities AS "includeOutOfStateFacilities", main_recommendation AS "mainRecommendation",
              criteria, recommendation_note AS "recommendationNote"
         FROM cases WHERE id = $1`,
      [caseId],
    );
    return c;
  }

  /**
   * The caller must hold the active claim on the case's medical information: another holder →
   * 409 INV.OBJECT.ALREADY.HAS.BEEN.CLAIMED naming the holder; none (never claimed, lapsed or
   * released) → 409 INV.CLAIM.IS.OVERDUE.OR.INACTIVE.
   */
  private async assertClaimHeld(user: UserContext, caseId: number) {
    const [holder] = await select<{ subjectId: number; subjectName: string }>(
      this.sequelize,
      `SELECT subject_id AS "subjectId", subject_name AS "subjectName" FROM claims
        WHERE object_type = $1 AND object_id = $2 AND released_at IS NULL AND expires_at > now()`,
      [MEDICAL_INFORMATION_CLAIM_TYPE, String(caseId)],
    );
    if (holder?.subjectId === user.id) return;
    if (holder)
      throw new CodedError(ErrorCode.ObjectAlreadyClaimed, {
        objectId: caseId,
        objectType: MEDICAL_INFORMATION_CLAIM_TYPE,
        subjectId: holder.subjectId,
        subjectName: holder.subjectName,
      });
    throw new CodedError(ErrorCode.ClaimOverdueOrInactive, { objectId: caseId, objectType: MEDICAL_INFORMATION_CLAIM_TYPE });
  }

  private async checkDiagnoses(input: { primaryDiagnosisCode?: string | null; secondaryDiagnosisCodes?: string[] | null }) {
    const codes = [input.primaryDiagnosisCode, ...(input.secondaryDiagnosisCodes ?? [])].filter((x): x is string => !!x);
    if (!codes.length) return;
    const found = await select<{ code: string }>(this.sequelize, 'SELECT code FROM diagnoses WHERE code = ANY($1::text[])', [codes]);
    const known = new Set(found.map((f) => f.code));
    const fields = [];
    if (input.primaryDiagnosisCode && !known.has(input.primaryDiagnosisCode))
      fields.push({ field: 'primaryDiagnosisCode', key: 'notFound', message: 'Unknown diagnosis' });
    if ((input.secondaryDiagnosisCodes ?? []).some((x) => !known.has(x)))
      fields.push({ field: 'secondaryDiagnosisCodes', key: 'notFound', message: 'Unknown diagnosis' });
    if (fields.length) throw invalid(fields);
  }
}
