import Ajv, { type ValidateFunction } from 'ajv';
import type { FieldError } from '../errors';
import { compileQuestionnaire, visibleAnswers, type QuestionnaireItem } from './questionnaire';

/**
 * The answers of an evaluation checked against its compiled questionnaire with ajv: the API runs
 * this, and the browser's react-jsonschema-form runs the same schema through its own ajv
 * validator. Problems name `answers.<question>`.
 */
const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new Map<string, ValidateFunction>();
const MAX_CACHED = 200;

const KEY_BY_KEYWORD: Record<string, string> = { required: 'required', oneOf: 'enum', additionalProperties: 'unknownQuestion', maxLength: 'maxLength', type: 'type' };

export function answerProblems(
  items: readonly QuestionnaireItem[],
  answers: Readonly<Record<string, unknown>> | null | undefined,
  { draft, cacheKey }: { draft: boolean; cacheKey?: string },
): FieldError[] {
  const key = cacheKey ? `${cacheKey}:${draft}` : null;
  let validate = key ? compiled.get(key) : undefined;
  if (!validate) {
    validate = ajv.compile(compileQuestionnaire(items, { draft }).schema);
    if (key) {
      if (compiled.size >= MAX_CACHED) compiled.delete(compiled.keys().next().value!);
      compiled.set(key, validate);
    }
  }
  if (validate(visibleAnswers(items, answers))) return [];
  const problems = new Map<string, FieldError>();
  for (const e of validate.errors ?? []) {
    // `if` only says which conditional rule applied; the `required` inside `then` is the problem.
    if (e.keyword === 'if' || e.keyword === 'const' || e.keyword === 'anyOf') continue;
    const question =
      e.keyword === 'required' ? (e.params as { missingProperty: string }).missingProperty
      : e.keyword === 'additionalProperties' ? (e.params as { additionalProperty: string }).additionalProperty
      : e.instancePath.split('/')[1];
    if (!question) continue;
    const field = `answers.${question}`;
    if (problems.has(field)) continue;
    const k = KEY_BY_KEYWORD[e.keyword] ?? 'invalid';
    problems.set(field, { field, key: k, message: k === 'required' ? 'This question is required' : k === 'unknownQuestion' ? 'No such question on this form' : 'Invalid answer' });
  }
  return [...problems.values()];
}
