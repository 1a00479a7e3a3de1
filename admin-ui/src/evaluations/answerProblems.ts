import { customizeValidator } from '@rjsf/validator-ajv8';
import type { RJSFSchema } from '@rjsf/utils';
import { compileQuestionnaire, isQuestion, visibleAnswers, visibleQuestions, type Answers, type FieldError, type QuestionnaireItem } from '@crisis/forms/core';

/**
 * react-jsonschema-form's ajv validator: the form renders with it, and the screens check answers
 * with it against the schema forms/ compiles — the schema the API checks them against with its own
 * ajv (forms/evaluation/answer-validation.ts), so both accept the same answers
 * (tests/integration/questionnaire-parity.test.ts holds them to that).
 */
export const questionnaireValidator = customizeValidator();

/**
 * The form's answers with those of hidden questions dropped (spec 02 §5: an answer to a hidden
 * question does not count). Unlike `visibleAnswers` it keeps text as typed (no trimming), so a
 * space typed between two words survives the round trip through the form.
 */
export function shownAnswers(items: readonly QuestionnaireItem[], answers: Record<string, unknown>): Record<string, unknown> {
  const shown = new Set(visibleQuestions(items, answers).map((q) => q.name));
  return Object.fromEntries(Object.entries(answers).filter(([name, value]) => shown.has(name) && value !== undefined && value !== null));
}

/**
 * The problems of the answers as the API words them (field `answers.<question>`, key, message),
 * found by rjsf's validator: `draft` checks only that what is answered fits (autosave); otherwise
 * the required rules too, conditional ones included.
 */
export function answerProblemsInBrowser(items: readonly QuestionnaireItem[], answers: Record<string, unknown>, draft: boolean): FieldError[] {
  const { schema } = compileQuestionnaire(items, { draft });
  const counted: Answers = visibleAnswers(items, answers);
  const { errors } = questionnaireValidator.validateFormData(counted, schema as RJSFSchema);
  const known = new Set(items.filter(isQuestion).map((q) => q.name));
  const problems = new Map<string, FieldError>();
  for (const e of errors) {
    // `if` says only which conditional rule applied; `const` and `anyOf` repeat a `oneOf` refusal.
    if (e.name === 'if' || e.name === 'const' || e.name === 'anyOf') continue;
    const params = (e.params ?? {}) as { missingProperty?: string; additionalProperty?: string };
    const question =
      e.name === 'required' ? params.missingProperty
      : e.name === 'additionalProperties' ? params.additionalProperty
      : (e.property ?? '').replace(/^\./, '').split('.')[0];
    if (!question) continue;
    const field = `answers.${question}`;
    if (problems.has(field)) continue;
    const key = e.name === 'required' ? 'required' : e.name === 'additionalProperties' ? 'unknownQuestion' : e.name === 'oneOf' ? 'enum' : (e.name ?? 'invalid');
    const message = key === 'required' ? 'This question is required' : !known.has(question) ? 'No such question on this form' : 'Invalid answer';
    problems.set(field, { field, key, message });
  }
  return [...problems.values()];
}

/** `answers.<question>` problems as { question: message } for the form; the others as { field: message }. */
export function splitProblems(problems: readonly FieldError[]): { questions: Record<string, string>; fields: Record<string, string> } {
  const questions: Record<string, string> = {};
  const fields: Record<string, string> = {};
  for (const p of problems) {
    if (!p.field) continue;
    if (p.field.startsWith('answers.')) questions[p.field.slice('answers.'.length)] ??= p.message;
    else fields[p.field] ??= p.message;
  }
  return { questions, fields };
}
