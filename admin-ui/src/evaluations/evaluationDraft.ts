import { visibleAnswers, type Diagnosis, type EvaluationSaveInput, type EvaluationView, type QuestionnaireItem } from '@crisis/forms/core';

/** What the provider edits on the evaluation screen. */
export interface EvaluationValues {
  answers: Record<string, unknown>;
  primaryDiagnosis: Diagnosis | null;
  secondaryDiagnoses: Diagnosis[];
  billingCodes: number[];
  mainRecommendation: string | null;
  recommendationCriteria: string[];
  recommendationNote: string;
  reasonForEdit: string;
  /** Documented in the EHR: the questionnaire is skipped (offered when view.formOptional). */
  skipForm: boolean;
}

export function valuesOf(view: EvaluationView): EvaluationValues {
  return {
    answers: { ...view.answers },
    primaryDiagnosis: view.primaryDiagnosis,
    secondaryDiagnoses: view.secondaryDiagnoses,
    billingCodes: view.billingCodes.map((b) => b.id),
    mainRecommendation: view.mainRecommendation,
    recommendationCriteria: view.recommendationCriteria,
    recommendationNote: view.recommendationNote ?? '',
    // A new edit gives its own reason (spec 02 §5): the last one is not carried over.
    reasonForEdit: '',
    skipForm: !!view.skipForm,
  };
}

const text = (s: string) => (s.trim() === '' ? null : s.trim());

/** The PUT body (spec 02 §3 Evaluation save payload): the answers that count, blanks as null. */
export function payloadOf(values: EvaluationValues, items: readonly QuestionnaireItem[], version: number, editing: boolean): EvaluationSaveInput {
  return {
    version,
    primaryDiagnosisId: values.primaryDiagnosis?.code ?? null,
    secondaryDiagnoses: values.secondaryDiagnoses.map((d) => d.code),
    billingCodes: values.billingCodes,
    mainRecommendation: values.mainRecommendation,
    recommendationCriteria: values.recommendationCriteria,
    recommendationNote: text(values.recommendationNote),
    ...(editing ? { reasonForEdit: text(values.reasonForEdit) } : {}),
    answers: visibleAnswers(items, values.answers),
    ...(values.skipForm ? { skipForm: true } : {}),
  };
}

/** What a save would send, without the version: equal snapshots need no save. */
export const snapshotOf = (values: EvaluationValues, items: readonly QuestionnaireItem[], editing: boolean) =>
  JSON.stringify({ ...payloadOf(values, items, 0, editing), version: undefined });

/**
 * The unsaved draft, kept in sessionStorage (this tab only, gone with it) under the request and
 * the version it was typed on: a reload restores it, and a draft typed on a version someone has
 * saved over since is not restored over the newer one.
 */
const PREFIX = 'evaluation-draft:';
const keyOf = (requestId: number, version: number) => `${PREFIX}${requestId}:${version}`;

export function readDraft(requestId: number, version: number): EvaluationValues | null {
  try {
    const raw = sessionStorage.getItem(keyOf(requestId, version));
    return raw ? (JSON.parse(raw) as EvaluationValues) : null;
  } catch {
    return null;
  }
}

export function writeDraft(requestId: number, version: number, values: EvaluationValues) {
  try {
    sessionStorage.setItem(keyOf(requestId, version), JSON.stringify(values));
  } catch {
    /* storage full or disabled: the autosave still runs */
  }
}

/** Removes the request's drafts (all, or the one of `version`). */
export function clearDrafts(requestId: number, version?: number) {
  try {
    if (version !== undefined) return sessionStorage.removeItem(keyOf(requestId, version));
    const mine = `${PREFIX}${requestId}:`;
    for (let i = sessionStorage.length - 1; i >= 0; i--) {
      const k = sessionStorage.key(i);
      if (k?.startsWith(mine)) sessionStorage.removeItem(k);
    }
  } catch {
    /* nothing to clear */
  }
}
