/**
 * Payloads of evaluation forms and evaluations (spec 02 §3, §5, §7), registered in validation.ts
 * SCHEMAS, and the rules of an evaluation's save and completion that a schema cannot say.
 */
import { TEXT_LARGE } from '../constants';
import type { FieldError } from '../errors';
import { id, mediumText, objectSchema, optionalLargeText } from '../schemas/common';
import { MAIN_RECOMMENDATIONS, RECOMMENDATION_CRITERIA, criteriaForRecommendation, recommendationNeedsNote } from '../cases/enums';
import {
  MAX_OPTIONS,
  MAX_QUESTIONS,
  QUESTION_KINDS,
  QUESTION_TYPES,
  MEDICAL_INFORMATION_QUESTION_FIELD_NAMES,
  questionnaireProblems,
  type Answers,
  type QuestionnaireItem,
} from './questionnaire';

const word = { type: 'string', pattern: '^\\w{1,64}$' } as const;

/** One item as stored; questionnaireProblems checks what depends on the other items. */
/**
 * Spec 02 §2 "New mode: autosave while filling": the evaluation screen saves this long after the
 * provider's last change (so one provider sends at most one save per this interval and answer).
 */
export const EVALUATION_AUTOSAVE_DELAY_MS = 800;

export const questionnaireItemSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'label'],
  properties: {
    type: { type: 'string', enum: QUESTION_TYPES },
    name: word,
    label: { type: 'string', maxLength: TEXT_LARGE },
    required: { type: 'boolean' },
    kind: { type: 'string', enum: QUESTION_KINDS },
    system: { type: ['string', 'null'], enum: [...MEDICAL_INFORMATION_QUESTION_FIELD_NAMES, null] },
    options: {
      type: 'array',
      maxItems: MAX_OPTIONS,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['key', 'label'],
        properties: { key: word, label: { type: 'string', maxLength: TEXT_LARGE } },
      },
    },
    conditions: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['kind', 'items'],
      properties: {
        kind: { type: 'string', enum: ['showIfAny'] },
        items: {
          type: 'array',
          maxItems: 50,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['question', 'answer'],
            properties: { question: { type: ['string', 'null'], maxLength: 64 }, answer: { type: ['string', 'null'], maxLength: 64 } },
          },
        },
      },
    },
  },
} as const;

/** POST/PUT /api/evaluation-forms (spec 02 §7: name, options). */
export const evaluationFormSchema = objectSchema('evaluationForm', ['name', 'options'], {
  name: { ...mediumText, minLength: 1 },
  options: {
    type: 'object',
    additionalProperties: false,
    required: ['items'],
    properties: { items: { type: 'array', maxItems: MAX_QUESTIONS, items: questionnaireItemSchema } },
  },
});
/** The list's filter (spec 02 §2 "Evaluation forms list"). */
export const evaluationFormListFilterSchema = objectSchema('evaluationFormListFilter', [], {
  q: { type: ['string', 'null'], maxLength: 256 },
  id: { type: 'array', items: id, maxItems: 1000 },
});

/** An evaluation form as the API returns it. */
export interface EvaluationFormRecord {
  id: number;
  name: string;
  isDefault: boolean;
  /** Bumped by every save of the questionnaire; evaluations keep the version they were answered on. */
  version: number;
  options: { items: QuestionnaireItem[] };
  updatedAt: string;
}
export const evaluationFormRecordSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    isDefault: { type: 'boolean' },
    version: { type: 'integer' },
    options: { type: 'object', properties: { items: { type: 'array', items: questionnaireItemSchema } } },
    updatedAt: { type: 'string', format: 'date-time' },
  },
} as const;

export interface EvaluationFormInput {
  name: string;
  options: { items: QuestionnaireItem[] };
}

export const evaluationFormRules = (d: EvaluationFormInput): FieldError[] =>
  questionnaireProblems(d.options.items).map((p) => ({ ...p, field: `options.${p.field}` }));

const answerValue = {
  anyOf: [{ type: 'string', maxLength: TEXT_LARGE }, { type: 'array', maxItems: MAX_OPTIONS, items: { type: 'string', maxLength: 64 } }, { type: 'null' }],
} as const;

/**
 * PUT /api/requests/{id}/evaluation: autosave (new mode) and save (edit mode). `version` is the
 * evaluation's version the screen loaded: a save from an older one (a second tab) is refused.
 */
export const evaluationSaveSchema = objectSchema('evaluationSave', ['version'], {
  version: { type: 'integer', minimum: 0, maximum: 2147483647 },
  primaryDiagnosisId: { type: ['string', 'null'], minLength: 1, maxLength: 16 },
  secondaryDiagnoses: { type: ['array', 'null'], maxItems: 100, uniqueItems: true, items: { type: 'string', minLength: 1, maxLength: 16 } },
  billingCodes: { type: ['array', 'null'], maxItems: 100, uniqueItems: true, items: id },
  mainRecommendation: { type: ['string', 'null'], enum: [...MAIN_RECOMMENDATIONS, null] },
  recommendationCriteria: { type: ['array', 'null'], uniqueItems: true, items: { type: 'string', enum: RECOMMENDATION_CRITERIA } },
  recommendationNote: optionalLargeText,
  reasonForEdit: optionalLargeText,
  /** Set when the provider confirmed a recommendation change while the case is contacting services. */
  confirmed: { type: ['boolean', 'null'] },
  /** The provider documents in the EHR and skips the questionnaire (allowed when formOptional). */
  skipForm: { type: ['boolean', 'null'] },
  answers: { type: ['object', 'null'], maxProperties: MAX_QUESTIONS, additionalProperties: answerValue },
});
export interface EvaluationSaveInput {
  version: number;
  primaryDiagnosisId?: string | null;
  secondaryDiagnoses?: string[] | null;
  billingCodes?: number[] | null;
  mainRecommendation?: string | null;
  recommendationCriteria?: string[] | null;
  recommendationNote?: string | null;
  reasonForEdit?: string | null;
  confirmed?: boolean | null;
  skipForm?: boolean | null;
  answers?: Record<string, unknown> | null;
}

/** PUT /api/requests/{id}/evaluation/complete (spec 02 §7: body sourceDivisionId). */
export const evaluationCompleteSchema = objectSchema('evaluationComplete', ['sourceDivisionId', 'version'], {
  sourceDivisionId: id,
  version: { type: 'integer', minimum: 0, maximum: 2147483647 },
});

/** POST /api/requests/{id}/evaluation/online-meeting: create or recreate, optionally for a later time (its reminder). */
export const onlineMeetingCreateSchema = objectSchema('onlineMeetingCreate', [], {
  scheduledAt: { type: ['string', 'null'], format: 'date-time' },
});
export interface OnlineMeetingCreateInput {
  scheduledAt?: string | null;
}

/** GET /api/requests/{id}/evaluation: everything the evaluation screen shows. */
/** What a save answers: the version the next save must carry (the screen keeps its own values). */
export interface EvaluationSaved {
  requestId: number;
  version: number;
}

export interface EvaluationView {
  requestId: number;
  caseId: number;
  requestType: string;
  requestStatus: string;
  /** new: autosave while filling; edit: completed, saving needs a reason; readOnly: anyone else. */
  mode: 'new' | 'edit' | 'readOnly';
  /** The form version the evaluation is answered on. */
  form: { id: number; name: string; isDefault: boolean; version: number; items: QuestionnaireItem[] };
  /** Send it back with the next save: a save from an older version is refused. */
  version: number;
  answers: Answers;
  primaryDiagnosis: { code: string; description: string } | null;
  secondaryDiagnoses: { code: string; description: string }[];
  billingCodes: { id: number; code: string; description: string }[];
  mainRecommendation: string | null;
  recommendationCriteria: string[];
  recommendationNote: string | null;
  reasonForEdit: string | null;
  showBillingCode: boolean;
  /** The questionnaire may be skipped: the source division documents in the EHR (evaluationFormOptional). */
  formOptional: boolean;
  /** The provider chose to skip it (the evaluation's document lives in the EHR). */
  skipForm: boolean;
  sourceDivisionId: number | null;
  sourceType: string | null;
  caseStatus: string;
  modifiedAt: string | null;
  completedAt: string | null;
}

/** A billing code the evaluation may carry (GET /api/requests/{id}/evaluation/billing-codes). */
export interface EvaluationBillingCode {
  id: number;
  code: string;
  description: string;
}

/** A row of an evaluation's change log (GET /api/requests/{id}/evaluation/logs). */
export interface EvaluationChangeLogRow {
  id: number;
  changedAt: string;
  changedBy: string | null;
  /** The question's label, or the field's name (Primary diagnosis, Billing codes…). */
  name: string;
  oldValue: string | null;
  newValue: string | null;
  reason: string | null;
}

/** What decides the rules of one evaluation. */
export interface EvaluationContext {
  items: readonly QuestionnaireItem[];
  /** The source division shows billing codes (spec 02 §6). */
  showBillingCode: boolean;
  /** The form is one of the two default forms (crisis-center recommendation allowed). */
  defaultForm: boolean;
  /** The request is Completed: saving is an edit that needs a reason. */
  editing: boolean;
  /** The questionnaire may be skipped (evaluationFormOptional); when the input skips it, its answers are checked as a draft's. */
  formOptional?: boolean;
}

/** Spec 02 §9: the crisis-center recommendation belongs to the default forms. */
export const CRISIS_CENTER_RECOMMENDATION = 'CrisisCenter';
export const recommendationsFor = (defaultForm: boolean): readonly string[] =>
  defaultForm ? MAIN_RECOMMENDATIONS : MAIN_RECOMMENDATIONS.filter((r) => r !== CRISIS_CENTER_RECOMMENDATION);

const required = (field: string, message = 'This field is required'): FieldError => ({ field, key: 'required', message });

/**
 * Spec 02 §5 "Evaluation", 01 §5: a draft (autosave) may be incomplete but not wrong; completion
 * and an edit after completion need everything: primary diagnosis, a billing code when shown, the
 * main recommendation with its criteria (and the note Defer needs), each question's required rule;
 * an edit needs its reason. Answers are checked against the compiled questionnaire with `validate`
 * (ajv in the API, rjsf's ajv validator in the browser: the same schema).
 */
export function evaluationProblems(
  input: EvaluationSaveInput,
  ctx: EvaluationContext,
  { complete, answerProblems }: { complete: boolean; answerProblems: (answers: Answers, draft: boolean) => FieldError[] },
): FieldError[] {
  const errors: FieldError[] = [];
  const main = input.mainRecommendation ?? null;
  if (main && !recommendationsFor(ctx.defaultForm).includes(main))
    errors.push({ field: 'mainRecommendation', key: 'notAllowed', message: 'The crisis center recommendation needs a default form' });
  const allowed = criteriaForRecommendation(main);
  if ((input.recommendationCriteria ?? []).some((c) => !allowed.includes(c as never)))
    errors.push({ field: 'recommendationCriteria', key: 'notAllowed', message: 'These criteria do not belong to the recommendation' });
  if (input.primaryDiagnosisId && (input.secondaryDiagnoses ?? []).includes(input.primaryDiagnosisId))
    errors.push({ field: 'secondaryDiagnoses', key: 'primaryRepeated', message: 'The primary diagnosis is not a secondary one' });
  const draft = !complete && !ctx.editing;
  if (input.skipForm && !ctx.formOptional)
    errors.push({ field: 'skipForm', key: 'notAllowed', message: 'The questionnaire can be skipped only when the division documents in the EHR' });
  errors.push(...answerProblems((input.answers ?? {}) as Answers, draft || (!!ctx.formOptional && !!input.skipForm)));
  if (draft) return errors;
  if (ctx.editing && !input.reasonForEdit?.trim()) errors.push(required('reasonForEdit', 'A reason for the edit is required'));
  if (!input.primaryDiagnosisId) errors.push(required('primaryDiagnosisId'));
  if (ctx.showBillingCode && !(input.billingCodes ?? []).length) errors.push(required('billingCodes', 'At least one billing code is required'));
  if (!main) errors.push(required('mainRecommendation'));
  if (allowed.length && !(input.recommendationCriteria ?? []).length) errors.push(required('recommendationCriteria'));
  if (recommendationNeedsNote(main) && !input.recommendationNote?.trim()) errors.push(required('recommendationNote'));
  return errors;
}
