import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { InjectConnection } from '@nestjs/sequelize';
import { Sequelize } from 'sequelize-typescript';
import {
  CaseStatus,
  CodedError,
  ErrorCode,
  MEDICAL_INFORMATION_QUESTION_FIELDS,
  PLACING_STATUSES,
  UserType,
  answerProblems,
  answersFromList,
  answersToList,
  evaluationFormOptional,
  evaluationProblems,
  isQuestion,
  visibleAnswers,
  type Answers,
  type EvaluationBillingCode,
  type EvaluationSaveInput,
  type EvaluationSaved,
  type EvaluationView,
  type QuestionAnswer,
  type QuestionnaireItem,
  type UserContext,
} from '@crisis/forms';
import { CaseCommandsService } from '../cases/case-commands.service';
import { caseScopeSql } from '../cases/case-scope';
import { afterCommit } from '../common/after-commit';
import { forbidden, notFound } from '../common/coded-error';
import type { ListQuery } from '../common/list-query';
import { auditValues } from '../common/request-context';
import { select } from '../reference/reference-sql';

interface Context {
  requestId: number;
  caseId: number;
  requestType: string;
  requestStatus: string;
  documentInEhr: boolean;
  formSkipped: boolean;
  providerId: number | null;
  caseStatus: string;
  sourceFacilityId: number;
  sourceDivisionId: number | null;
  sourceType: string | null;
  showBillingCode: boolean;
  /** The evaluation row, when one was saved. */
  saved: boolean;
  formId: number | null;
  formVersion: number | null;
  formName: string | null;
  formIsDefault: boolean | null;
  version: number;
  answers: QuestionAnswer[];
  primaryDiagnosis: string | null;
  secondaryDiagnoses: string[];
  billingCodeIds: number[];
  mainRecommendation: string | null;
  criteria: string[];
  recommendationNote: string | null;
  reasonForEdit: string | null;
  modifiedAt: string | null;
  completedAt: string | null;
}

interface Form {
  id: number;
  name: string;
  isDefault: boolean;
  version: number;
  items: QuestionnaireItem[];
}

/**
 * The items of form versions, by `id:version`. A version is never changed once written (an edit makes
 * a new one), so a process may keep them: an autosave then reads no questionnaire from the database.
 */
const formVersionItems = new LRUCache<string, QuestionnaireItem[]>({ max: 200 });

/** The default form a request falls back to when its facility chose none (spec 02 §9). */
const FALLBACK_FORM = 'Default Assessment Form- Including Crisis Services';
const COMPLETED = 'Completed';
const EDITABLE_REQUEST_STATUSES = ['InProgress', COMPLETED];

/**
 * The evaluation of a request (spec 02 §2 "Evaluation screen", §4 "Evaluation flow", §5): the
 * questionnaire of the form version it is answered on, diagnoses, billing codes and the
 * recommendation. The provider of the request writes it: autosaves while the request is in
 * progress, edits with a reason once completed. Completion goes through the case workflow
 * (`completeEvaluation`), which makes the recommendation the case's and moves the case on.
 * Each save carries the version it was made from; an older one (a second tab) is refused.
 */
/** The document lives in the EHR: the questionnaire of an assessment-like request may be skipped. */
const formOptionalOf = (ctx: Context) => evaluationFormOptional({ requestType: ctx.requestType, documentInEhr: ctx.documentInEhr });

@Injectable()
export class EvaluationsService {
  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    private readonly commands: CaseCommandsService,
  ) {}

  async view(user: UserContext, requestId: number): Promise<EvaluationView> {
    const ctx = await this.context(user, requestId);
    const form = await this.formOf(ctx);
    return this.toView(user, ctx, form);
  }

  async save(user: UserContext, requestId: number, body: EvaluationSaveInput): Promise<EvaluationSaved> {
    const ctx = await this.context(user, requestId);
    this.assertProvider(user, ctx);
    const form = await this.formOf(ctx);
    const editing = ctx.requestStatus === COMPLETED;
    const problems = evaluationProblems(body, this.rulesOf(ctx, form, editing), {
      complete: false,
      answerProblems: (answers, draft) => answerProblems(form.items, answers, { draft, cacheKey: `${form.id}:${form.version}` }),
    });
    await this.checkReferences(body, problems);
    if (problems.length) throw new CodedError(ErrorCode.EvaluationCannotBeSaved, undefined, problems);
    // An edit that changes the recommendation while services are being contacted asks first (spec 02 §5).
    const recommendationChanged = editing && (body.mainRecommendation ?? null) !== ctx.mainRecommendation;
    if (recommendationChanged && PLACING_STATUSES.includes(ctx.caseStatus) && !body.confirmed)
      throw new CodedError(ErrorCode.MedicalInformationConfirmationRequired, { recommendation: true });
    // A save from an older screen is refused before anything changes (the write checks it again).
    if (body.version !== ctx.version) throw new CodedError(ErrorCode.EvaluationStale);
    // The case's recommendation changes through its workflow first, as medical information does: the
    // command locks the case row, which the change-log rows this request's transaction writes refer
    // to (a key-share lock), so a command run after the write would wait on this very transaction
    // until the command deadline.
    if (recommendationChanged && body.mainRecommendation)
      await this.commands.run(user, ctx.caseId, {
        kind: 'updateRecommendation',
        mainRecommendation: body.mainRecommendation,
        criteria: body.recommendationCriteria ?? [],
        note: body.recommendationNote ?? null,
      });
    const { version, changedFields } = await this.write(user, ctx, form, body, editing);
    // An edit of a completed evaluation that changed something is news (spec 02 §3 CompletedEvaluationUpdated).
    if (editing && changedFields > 0)
      await afterCommit('notify evaluation updated', () =>
        this.commands.run(user, ctx.caseId, {
          kind: 'recordEvent',
          event: 'CompletedEvaluationUpdated',
          payload: { RequestId: ctx.requestId, MainRecommendation: body.mainRecommendation ?? null, FieldsCount: changedFields },
        }),
      );
    return { requestId, version };
  }

  /** Validates everything, stores the final answers, then completes the request through the case workflow. */
  async complete(user: UserContext, requestId: number, body: { sourceDivisionId: number; version: number }) {
    const ctx = await this.context(user, requestId);
    this.assertProvider(user, ctx);
    if (ctx.requestStatus !== 'InProgress') throw new CodedError(ErrorCode.RequestNotInProgress, { status: ctx.requestStatus });
    const form = await this.formOf(ctx);
    const current = this.inputOf(ctx, body.version);
    const problems = evaluationProblems(current, this.rulesOf(ctx, form, false), {
      complete: true,
      answerProblems: (answers, draft) => answerProblems(form.items, answers, { draft, cacheKey: `${form.id}:${form.version}` }),
    });
    if (body.sourceDivisionId !== ctx.sourceDivisionId)
      problems.push({ field: 'sourceDivisionId', key: 'invalid', message: "The source division is not the case's" });
    if (body.version !== ctx.version) throw new CodedError(ErrorCode.EvaluationStale);
    if (problems.length) throw new CodedError(ErrorCode.EvaluationCannotBeCompleted, undefined, problems);
    auditValues({ requestId, caseId: ctx.caseId, mainRecommendation: ctx.mainRecommendation });
    // The version checked here is checked again where the evaluation is completed (no saved row: nothing to check).
    return this.commands.run(user, ctx.caseId, { kind: 'completeEvaluation', requestId, ...(ctx.saved ? { evaluationVersion: body.version } : {}) });
  }

  /**
   * The billing codes of this evaluation (spec 02 §7 Other: active, of the source division's type and
   * the request's type). The billing-code list itself is the ITP admin's; the provider reads these.
   */
  async billingCodeChoices(user: UserContext, requestId: number): Promise<EvaluationBillingCode[]> {
    const ctx = await this.context(user, requestId);
    return select<EvaluationBillingCode>(
      this.sequelize,
      `SELECT id, code, description FROM billing_codes
        WHERE is_active AND $1 = ANY(request_types) AND ($2::text IS NULL OR $2 = ANY(source_division_types))
        ORDER BY lower(code), id`,
      [ctx.requestType, ctx.sourceType],
    );
  }

  /** The evaluation's change log (spec 01 §3 change-log rows), newest first, with question and billing-code names. */
  async changeLog(user: UserContext, requestId: number, q: ListQuery<unknown>) {
    await this.context(user, requestId);
    const [{ total }] = await select<{ total: number }>(this.sequelize, `SELECT count(*)::int AS total FROM change_logs WHERE subject = 'evaluation' AND request_id = $1`, [requestId]);
    const rows = total
      ? await select(
          this.sequelize,
          `SELECT id, changed_at AS "changedAt", changed_by_name AS "changedBy", name, old_value AS "oldValue", new_value AS "newValue",
                  meta_info->>'reason' AS reason
             FROM change_logs WHERE subject = 'evaluation' AND request_id = $1
            ORDER BY changed_at DESC, id DESC LIMIT $2 OFFSET $3`,
          [requestId, q.limit, q.offset],
        )
      : [];
    return { rows, total };
  }

  // ── reading ────────────────────────────────────────────────────────────────────────────────

  /** The request, its case and its evaluation, with the case-scope rule of the user, in one query. */
  private async context(user: UserContext, requestId: number): Promise<Context> {
    const bind: unknown[] = [requestId];
    const scope = caseScopeSql(user, bind);
    const [ctx] = await select<Context & { visible: boolean }>(
      this.sequelize,
      `SELECT r.id AS "requestId", r.case_id AS "caseId", r.type AS "requestType", r.status AS "requestStatus",
              r.evaluation_provider_id AS "providerId", c.status AS "caseStatus", c.source_facility_id AS "sourceFacilityId",
              c.source_division_id AS "sourceDivisionId", d.source_type AS "sourceType", coalesce(d.show_billing_code, false) AS "showBillingCode",
              coalesce(d.document_in_ehr, false) AS "documentInEhr",
              e.request_id IS NOT NULL AS saved, coalesce(e.form_skipped, false) AS "formSkipped", e.evaluation_form_id AS "formId", e.evaluation_form_version AS "formVersion",
              coalesce(e.version, 0) AS version, coalesce(e.answers, '[]') AS answers, e.primary_diagnosis AS "primaryDiagnosis",
              coalesce(e.secondary_diagnoses, '{}') AS "secondaryDiagnoses", coalesce(e.billing_code_ids, '{}') AS "billingCodeIds",
              e.main_recommendation AS "mainRecommendation", coalesce(e.criteria, '{}') AS criteria, e.recommendation_note AS "recommendationNote",
              e.reason_for_edit AS "reasonForEdit", e.modified_at AS "modifiedAt", e.completed_at AS "completedAt",
              ef.name AS "formName", ef.is_default AS "formIsDefault", (${scope}) AS visible
         FROM requests r JOIN cases c ON c.id = r.case_id
         LEFT JOIN divisions d ON d.id = c.source_division_id
         LEFT JOIN evaluations e ON e.request_id = r.id
         LEFT JOIN evaluation_forms ef ON ef.id = e.evaluation_form_id
        WHERE r.id = $1`,
      bind,
    );
    if (!ctx) throw notFound();
    if (!ctx.visible) throw forbidden();
    // A provider sees only the requests assigned to him (spec 01 §6).
    if (user.role === UserType.ItpProvider && ctx.providerId !== user.id) throw forbidden();
    return ctx;
  }

  /** The form version the evaluation was answered on; before the first save, the one its facility chose. */
  private async formOf(ctx: Context): Promise<Form> {
    if (ctx.formId && ctx.formVersion && ctx.formName !== null) {
      const items = await this.formVersionItems(ctx.formId, ctx.formVersion);
      if (items) return { id: ctx.formId, name: ctx.formName, isDefault: !!ctx.formIsDefault, version: ctx.formVersion, items };
    }
    const [form] = await select<Omit<Form, 'items'>>(
      this.sequelize,
      `SELECT f.id, f.name, f.is_default AS "isDefault", f.version FROM evaluation_forms f
         LEFT JOIN facility_evaluation_forms fe ON fe.evaluation_form_id = f.id AND fe.facility_id = $1 AND fe.request_type = $2
        WHERE f.removed_at IS NULL AND (fe.id IS NOT NULL OR lower(f.name) = lower($3))
        ORDER BY fe.id IS NULL, f.id LIMIT 1`,
      [ctx.sourceFacilityId, ctx.requestType, FALLBACK_FORM],
    );
    const items = form && (await this.formVersionItems(form.id, form.version));
    if (!form || !items) throw notFound();
    return { ...form, items };
  }

  private async formVersionItems(formId: number, version: number): Promise<QuestionnaireItem[] | undefined> {
    const key = `${formId}:${version}`;
    const cached = formVersionItems.get(key);
    if (cached) return cached;
    const [row] = await select<{ items: QuestionnaireItem[] }>(
      this.sequelize,
      'SELECT items FROM evaluation_form_versions WHERE evaluation_form_id = $1 AND version = $2',
      [formId, version],
    );
    if (!row) return undefined;
    formVersionItems.set(key, row.items);
    return row.items;
  }

  private rulesOf(ctx: Context, form: Form, editing: boolean) {
    return { items: form.items, showBillingCode: ctx.showBillingCode, defaultForm: form.isDefault, editing, formOptional: formOptionalOf(ctx) };
  }

  private inputOf(ctx: Context, version: number): EvaluationSaveInput {
    return {
      version,
      primaryDiagnosisId: ctx.primaryDiagnosis,
      secondaryDiagnoses: ctx.secondaryDiagnoses,
      billingCodes: ctx.billingCodeIds,
      mainRecommendation: ctx.mainRecommendation,
      recommendationCriteria: ctx.criteria,
      recommendationNote: ctx.recommendationNote,
      answers: answersFromList(ctx.answers),
      skipForm: ctx.formSkipped,
    };
  }

  private assertProvider(user: UserContext, ctx: Context) {
    if (ctx.providerId !== user.id) throw forbidden();
    if (ctx.caseStatus === CaseStatus.Closed) throw new CodedError(ErrorCode.CaseIsClosed);
    if (!EDITABLE_REQUEST_STATUSES.includes(ctx.requestStatus)) throw new CodedError(ErrorCode.RequestNotInProgress, { status: ctx.requestStatus });
  }

  /** Diagnoses and billing codes must exist; billing codes must fit the division and request type. */
  private async checkReferences(body: EvaluationSaveInput, problems: { field: string; key: string; message: string }[]) {
    const codes = [body.primaryDiagnosisId, ...(body.secondaryDiagnoses ?? [])].filter((c): c is string => !!c);
    const billingCodes = body.billingCodes ?? [];
    if (!codes.length && !billingCodes.length) return;
    // One round trip for both look-ups: an autosave carries them every time.
    const [found] = await select<{ diagnoses: string[]; billingCodes: number }>(
      this.sequelize,
      `SELECT ARRAY(SELECT code FROM diagnoses WHERE code = ANY($1::text[])) AS diagnoses,
              (SELECT count(*)::int FROM billing_codes WHERE id = ANY($2::int[]) AND is_active) AS "billingCodes"`,
      [codes, billingCodes],
    );
    const diagnoses = new Set(found.diagnoses);
    if (body.primaryDiagnosisId && !diagnoses.has(body.primaryDiagnosisId)) problems.push({ field: 'primaryDiagnosisId', key: 'notFound', message: 'No such diagnosis' });
    if ((body.secondaryDiagnoses ?? []).some((c) => !diagnoses.has(c))) problems.push({ field: 'secondaryDiagnoses', key: 'notFound', message: 'No such diagnosis' });
    if (found.billingCodes !== billingCodes.length) problems.push({ field: 'billingCodes', key: 'notFound', message: 'No such billing code' });
  }

  private async toView(user: UserContext, ctx: Context, form: Form): Promise<EvaluationView> {
    const answers = ctx.saved ? answersFromList(ctx.answers) : await this.prefill(ctx, form);
    const diagnoses = await select<{ code: string; description: string }>(
      this.sequelize,
      'SELECT code, description FROM diagnoses WHERE code = ANY($1::text[])',
      [[ctx.primaryDiagnosis, ...ctx.secondaryDiagnoses].filter(Boolean)],
    );
    const byCode = new Map(diagnoses.map((d) => [d.code, d]));
    const billingCodes = ctx.billingCodeIds.length
      ? await select<{ id: number; code: string; description: string }>(this.sequelize, 'SELECT id, code, description FROM billing_codes WHERE id = ANY($1::int[]) ORDER BY code', [ctx.billingCodeIds])
      : [];
    const mayWrite = ctx.providerId === user.id && EDITABLE_REQUEST_STATUSES.includes(ctx.requestStatus) && ctx.caseStatus !== CaseStatus.Closed;
    return {
      requestId: ctx.requestId,
      caseId: ctx.caseId,
      requestType: ctx.requestType,
      requestStatus: ctx.requestStatus,
      mode: !mayWrite ? 'readOnly' : ctx.requestStatus === COMPLETED ? 'edit' : 'new',
      form: { id: form.id, name: form.name, isDefault: form.isDefault, version: form.version, items: form.items },
      version: ctx.version,
      answers,
      primaryDiagnosis: ctx.primaryDiagnosis ? (byCode.get(ctx.primaryDiagnosis) ?? { code: ctx.primaryDiagnosis, description: '' }) : null,
      secondaryDiagnoses: ctx.secondaryDiagnoses.map((c) => byCode.get(c) ?? { code: c, description: '' }),
      billingCodes,
      mainRecommendation: ctx.mainRecommendation,
      recommendationCriteria: ctx.criteria,
      recommendationNote: ctx.recommendationNote,
      reasonForEdit: ctx.reasonForEdit,
      showBillingCode: ctx.showBillingCode,
      formOptional: formOptionalOf(ctx),
      skipForm: ctx.formSkipped,
      sourceDivisionId: ctx.sourceDivisionId,
      sourceType: ctx.sourceType,
      caseStatus: ctx.caseStatus,
      modifiedAt: ctx.modifiedAt,
      completedAt: ctx.completedAt,
    };
  }

  /** Before the first save, medical-information questions start from what the case already records. */
  private async prefill(ctx: Context, form: Form): Promise<Answers> {
    const [mi] = await select<{ data: Record<string, unknown> }>(this.sequelize, 'SELECT data FROM medical_information WHERE case_id = $1', [ctx.caseId]);
    const answers: Answers = {};
    for (const item of form.items) {
      if (!isQuestion(item) || item.kind !== 'medicalInformation' || !item.system) continue;
      const value = mi?.data?.[item.system];
      const field = MEDICAL_INFORMATION_QUESTION_FIELDS[item.system];
      if (typeof value === 'boolean') answers[item.name] = value ? 'yes' : 'no';
      else if (typeof value === 'string' && value && (field.type === 'text' || (item.options ?? []).some((o) => o.key === value))) answers[item.name] = value;
    }
    return answers;
  }

  // ── writing ────────────────────────────────────────────────────────────────────────────────

  /** Stores the evaluation when the stored version is still the one the screen loaded: the new version, and how many fields an edit of a completed one changed (0 otherwise). */
  private async write(user: UserContext, ctx: Context, form: Form, body: EvaluationSaveInput, editing: boolean): Promise<{ version: number; changedFields: number }> {
    const answers = answersToList(form.items, visibleAnswers(form.items, body.answers ?? {}));
    const values = [
      ctx.requestId,
      form.id,
      form.version,
      body.primaryDiagnosisId ?? null,
      body.secondaryDiagnoses ?? [],
      body.mainRecommendation ?? null,
      body.recommendationCriteria ?? [],
      body.recommendationNote ?? null,
      JSON.stringify(answers),
      body.billingCodes ?? [],
      editing ? (body.reasonForEdit ?? null) : null,
      user.id,
      body.version,
      !!body.skipForm,
    ];
    // The version the screen loaded must still be the stored one: a save from an older screen is refused.
    const rows = ctx.saved
      ? await select<{ version: number }>(
          this.sequelize,
          `UPDATE evaluations SET primary_diagnosis = $4, secondary_diagnoses = $5, main_recommendation = $6, criteria = $7,
                  recommendation_note = $8, answers = $9, billing_code_ids = $10, reason_for_edit = coalesce($11, reason_for_edit),
                  updated_by = $12, modified_at = now(), version = version + 1, form_skipped = $14
            WHERE request_id = $1 AND evaluation_form_id = $2 AND evaluation_form_version = $3 AND version = $13 RETURNING version`,
          values,
        )
      : await select<{ version: number }>(
          this.sequelize,
          `INSERT INTO evaluations (request_id, evaluation_form_id, evaluation_form_version, primary_diagnosis, secondary_diagnoses,
                                    main_recommendation, criteria, recommendation_note, answers, billing_code_ids, reason_for_edit, updated_by, version, form_skipped)
           SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 1, $14 WHERE $13 = 0
           ON CONFLICT (request_id) DO NOTHING RETURNING version`,
          values,
        );
    if (!rows.length) throw new CodedError(ErrorCode.EvaluationStale);
    const changed = editing ? await this.logEdit(user, ctx, form, body, answers) : 0;
    auditValues({ requestId: ctx.requestId, caseId: ctx.caseId, evaluationFormId: form.id, formVersion: form.version, editing });
    return { version: rows[0].version, changedFields: changed };
  }

  /** An edit after completion leaves one change-log row per changed field, with the reason. */
  private async logEdit(user: UserContext, ctx: Context, form: Form, body: EvaluationSaveInput, answers: QuestionAnswer[]): Promise<number> {
    const before = answersFromList(ctx.answers);
    const after = answersFromList(answers);
    const labelOf = (name: string) => form.items.find((i) => isQuestion(i) && i.name === name)?.label ?? name;
    const show = (v: unknown) => (v === undefined || v === null ? null : Array.isArray(v) ? v.join(', ') : String(v));
    const changes: { name: string; old: string | null; new: string | null }[] = [];
    for (const name of new Set([...Object.keys(before), ...Object.keys(after)]))
      if (show(before[name]) !== show(after[name])) changes.push({ name: labelOf(name), old: show(before[name]), new: show(after[name]) });
    const field = (name: string, old: unknown, next: unknown) => {
      if (show(old) !== show(next)) changes.push({ name, old: show(old), new: show(next) });
    };
    field('Primary diagnosis', ctx.primaryDiagnosis, body.primaryDiagnosisId ?? null);
    field('Secondary diagnoses', ctx.secondaryDiagnoses, body.secondaryDiagnoses ?? []);
    field('Main recommendation', ctx.mainRecommendation, body.mainRecommendation ?? null);
    field('Criteria', ctx.criteria, body.recommendationCriteria ?? []);
    field('Recommendation note', ctx.recommendationNote, body.recommendationNote ?? null);
    const codeNames = async (ids: number[]) =>
      ids.length ? (await select<{ code: string }>(this.sequelize, 'SELECT code FROM billing_codes WHERE id = ANY($1::int[]) ORDER BY code', [ids])).map((r) => r.code) : [];
    field('Billing codes', await codeNames(ctx.billingCodeIds), await codeNames(body.billingCodes ?? []));
    if (!changes.length) return 0;
    await select(
      this.sequelize,
      `INSERT INTO change_logs (subject, case_id, request_id, changed_by, changed_by_name, name, old_value, new_value, meta_info)
       SELECT 'evaluation', $1, $2, $3, $4, x.name, x.old, x.new, jsonb_build_object('reason', $5::text)
         FROM jsonb_to_recordset($6::jsonb) AS x(name text, old text, new text)`,
      [ctx.caseId, ctx.requestId, user.id, `${user.firstName} ${user.lastName}`, body.reasonForEdit ?? null, JSON.stringify(changes)],
    );
    return changes.length;
  }
}
