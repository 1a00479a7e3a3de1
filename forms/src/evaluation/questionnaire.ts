import { TEXT_LARGE, TEXT_MEDIUM } from '../constants';
import type { FieldError } from '../errors';
import { LIVING_SITUATIONS, VIOLENT_BEHAVIORS } from '../cases/enums';

/**
 * Questionnaires (spec 02 §3 "Questionnaire item", §4 "Questionnaire editor", §5): an evaluation
 * form is a list of items, data that the ITP admin edits. This module is the one place that knows
 * what a questionnaire means:
 * - `questionnaireProblems`: the editor's rules (the API refuses what the editor forbids);
 * - the editor's moves (`withType`, `withoutQuestion`, `withOptions`) that keep conditions valid;
 * - `compileQuestionnaire`: the JSON Schema + uiSchema that react-jsonschema-form renders and
 *   that the API validates with ajv, so browser and server accept exactly the same answers;
 * - `visibleAnswers`: the answers that count (an answer to a hidden question does not).
 *
 * Answers are `{ [questionName]: value }`: a string for text and radio (the option's key), an
 * array of keys for checkbox. Unanswered is absent: null, blank text and empty arrays mean
 * "no answer" (spec 02 §5: every field nullable) and are dropped before validation.
 */

export const QUESTION_TYPES = ['text', 'radio', 'checkbox', 'heading'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
export const QUESTION_KINDS = ['general', 'medicalInformation'] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];
/** Spec 02 §9: the generated name takes this many characters of the label. */
export const QUESTION_NAME_LABEL_SLICE = 15;
/** Spec 02 §9: radio minimum 2 options, checkbox minimum 1. */
export const MIN_OPTIONS: Record<'radio' | 'checkbox', number> = { radio: 2, checkbox: 1 };
export const MAX_QUESTIONS = 300;
export const MAX_OPTIONS = 50;
const NAME_PATTERN = /^\w{1,64}$/;

export interface QuestionOption {
  key: string;
  label: string;
}
export interface QuestionCondition {
  /** The name of the question whose answer shows this one. */
  question: string;
  /** The option key that shows it. */
  answer: string;
}
export interface QuestionConditions {
  kind: 'showIfAny';
  items: QuestionCondition[];
}
export interface HeadingItem {
  type: 'heading';
  label: string;
}
export interface QuestionItem {
  type: 'text' | 'radio' | 'checkbox';
  name: string;
  label: string;
  required: boolean;
  kind: QuestionKind;
  /** For kind medicalInformation: the field of the case's medical information it reads and fills. */
  system?: MedicalInformationQuestionField | null;
  options?: QuestionOption[];
  conditions?: QuestionConditions | null;
}
export type QuestionnaireItem = HeadingItem | QuestionItem;
export type AnswerValue = string | string[];
export type Answers = Record<string, AnswerValue>;
/** The stored form of an answer (spec 02 §3 Evaluation: questionsAnswers). */
export interface QuestionAnswer {
  questionName: string;
  type: QuestionItem['type'];
  value: AnswerValue;
}

const YES_NO: QuestionOption[] = [
  { key: 'yes', label: 'Yes' },
  { key: 'no', label: 'No' },
];
const options = (keys: readonly string[], labels: Record<string, string>): QuestionOption[] => keys.map((key) => ({ key, label: labels[key] ?? key }));

/**
 * Medical-information fields a question may stand for (spec 02 §4: the type is fixed by the field).
 * Yes/no fields are radios with the keys yes and no; enumerations keep their own keys.
 */
export const MEDICAL_INFORMATION_QUESTION_FIELDS = {
  admissionPrecipitatingFactorsNotes: { label: 'Admission precipitating factors', type: 'text' },
  medicalPsychHistory: { label: 'Medical and psychiatric history', type: 'text' },
  homeMedications: { label: 'Home medications', type: 'text' },
  medicationsGivenInEr: { label: 'Medications given in the ER', type: 'text' },
  acuteConditions: { label: 'Acute medical conditions', type: 'text' },
  currentLivingSituationNote: { label: 'Living situation note', type: 'text' },
  homicidalOrSuicidalIdeations: { label: 'Homicidal or suicidal ideations', type: 'radio', options: YES_NO },
  activeDetox: { label: 'Active detox', type: 'radio', options: YES_NO },
  ambulatory: { label: 'Ambulatory', type: 'radio', options: YES_NO },
  incontinent: { label: 'Incontinent', type: 'radio', options: YES_NO },
  violentBehavior: {
    label: 'Violent behaviour',
    type: 'radio',
    options: options(VIOLENT_BEHAVIORS, { PastAndPresent: 'Past and present' }),
  },
  currentLivingSituationType: {
    label: 'Current living situation',
    type: 'radio',
    options: options(LIVING_SITUATIONS, {
      GroupHome: 'Group home',
      NursingFacility: 'Nursing facility',
      LongTermPsychiatricFacility: 'Long-term psychiatric facility',
    }),
  },
} as const satisfies Record<string, { label: string; type: QuestionItem['type']; options?: readonly QuestionOption[] }>;
export type MedicalInformationQuestionField = keyof typeof MEDICAL_INFORMATION_QUESTION_FIELDS;
export const MEDICAL_INFORMATION_QUESTION_FIELD_NAMES = Object.keys(MEDICAL_INFORMATION_QUESTION_FIELDS) as MedicalInformationQuestionField[];

export const isQuestion = (item: QuestionnaireItem): item is QuestionItem => item.type !== 'heading';
const hasOptions = (item: QuestionnaireItem): item is QuestionItem & { type: 'radio' | 'checkbox' } =>
  item.type === 'radio' || item.type === 'checkbox';

/**
 * A question's name (spec 02 §3): its system field, or the first 15 characters of the label with
 * non-word characters removed, plus a random suffix so two questions with the same start differ.
 */
export function questionName(label: string, system?: string | null, random: () => number = Math.random): string {
  if (system) return system;
  const stem = label.slice(0, QUESTION_NAME_LABEL_SLICE).replace(/\W/g, '') || 'question';
  const suffix = Math.floor(random() * 36 ** 6).toString(36).padStart(6, '0');
  return `${stem}_${suffix}`;
}

/** A new option's key: unique within the question, stable when labels change. */
export function optionKey(existing: readonly QuestionOption[], random: () => number = Math.random): string {
  for (;;) {
    const key = `o${Math.floor(random() * 36 ** 5).toString(36)}`;
    if (!existing.some((o) => o.key === key)) return key;
  }
}

// ── The editor's moves (spec 02 §4) ─────────────────────────────────────────────────────────

/** Drops the conditions that point to a question that is gone or to an answer it no longer has. */
function pruneConditions(items: QuestionnaireItem[]): QuestionnaireItem[] {
  const keysOf = new Map(items.filter(hasOptions).map((q) => [q.name, new Set((q.options ?? []).map((o) => o.key))]));
  return items.map((item) => {
    if (!isQuestion(item) || !item.conditions) return item;
    const kept = item.conditions.items.filter((c) => keysOf.get(c.question)?.has(c.answer));
    if (kept.length === item.conditions.items.length) return item;
    return { ...item, conditions: kept.length ? { kind: 'showIfAny', items: kept } : null };
  });
}

/** Blank options a new radio (two) or checkbox (one) starts with. */
export function blankOptions(type: 'radio' | 'checkbox', random: () => number = Math.random): QuestionOption[] {
  const made: QuestionOption[] = [];
  for (let i = 0; i < MIN_OPTIONS[type]; i++) made.push({ key: optionKey(made, random), label: '' });
  return made;
}

/**
 * Changing a question's type resets its options (a radio starts with two blank options, a
 * checkbox with one), sets it required, and drops the conditions that pointed to its answers.
 */
export function withType(items: QuestionnaireItem[], name: string, type: QuestionItem['type'], random: () => number = Math.random): QuestionnaireItem[] {
  return pruneConditions(
    items.map((item) => {
      if (!isQuestion(item) || item.name !== name || item.type === type) return item;
      const { options: _dropped, ...rest } = item;
      return type === 'text' ? { ...rest, type, required: true } : { ...rest, type, required: true, options: blankOptions(type, random) };
    }),
  );
}

/** Removing a question drops the conditions that referred to it. */
export function withoutQuestion(items: QuestionnaireItem[], name: string): QuestionnaireItem[] {
  return pruneConditions(items.filter((item) => !isQuestion(item) || item.name !== name));
}

/** New options for a question; conditions pointing to an answer it no longer has are dropped. */
export function withOptions(items: QuestionnaireItem[], name: string, options: QuestionOption[]): QuestionnaireItem[] {
  return pruneConditions(items.map((item) => (isQuestion(item) && item.name === name ? { ...item, options } : item)));
}

/**
 * Replaces (or adds, when new) one item, keeping the conditions of the others valid. A question
 * that changes its name (it became a medical-information question, named after its field, or a
 * general one again) keeps the conditions pointing to it, as far as its answers are the same.
 */
export function withItem(items: QuestionnaireItem[], index: number | null, item: QuestionnaireItem): QuestionnaireItem[] {
  const previous = index === null ? undefined : items[index];
  let next = index === null ? [...items, item] : items.map((it, i) => (i === index ? item : it));
  if (previous && isQuestion(previous) && isQuestion(item) && previous.name !== item.name) {
    const renamed = (c: QuestionCondition) => (c.question === previous.name ? { ...c, question: item.name } : c);
    next = next.map((it) => (isQuestion(it) && it.conditions ? { ...it, conditions: { ...it.conditions, items: it.conditions.items.map(renamed) } } : it));
  }
  return pruneConditions(next);
}

// ── The editor's rules (spec 02 §5 "Questionnaire item", "Evaluation form") ────────────────

const problem = (field: string, key: string, message: string): FieldError => ({ field, key, message });

/** Every problem of a questionnaire, with the path of the field it belongs to (`items.3.options.1.label`). */
export function questionnaireProblems(items: readonly QuestionnaireItem[]): FieldError[] {
  const errors: FieldError[] = [];
  if (items.length > MAX_QUESTIONS) errors.push(problem('items', 'maxItems', `At most ${MAX_QUESTIONS} items`));
  const seenNames = new Map<string, number>();
  const seenSystems = new Set<string>();
  items.forEach((item, i) => {
    const at = (f: string) => `items.${i}.${f}`;
    if (!item.label || !item.label.trim()) errors.push(problem(at('label'), 'required', 'Label is required'));
    else if (item.label.length > TEXT_LARGE) errors.push(problem(at('label'), 'maxLength', 'Label is too long'));
    if (!isQuestion(item)) return;
    if (!NAME_PATTERN.test(item.name ?? '')) errors.push(problem(at('name'), 'pattern', 'Invalid question name'));
    else if (seenNames.has(item.name)) errors.push(problem(at('name'), 'notUnique', 'Question name is used twice'));
    else seenNames.set(item.name, i);
    if (!QUESTION_KINDS.includes(item.kind)) errors.push(problem(at('kind'), 'enum', 'Kind must be general or medical information'));
    if (item.kind === 'medicalInformation') {
      const field = item.system ? MEDICAL_INFORMATION_QUESTION_FIELDS[item.system] : undefined;
      if (!item.system) errors.push(problem(at('system'), 'required', 'System field is required'));
      else if (!field) errors.push(problem(at('system'), 'enum', 'Unknown system field'));
      else {
        if (seenSystems.has(item.system)) errors.push(problem(at('system'), 'notUniqueSystemField', 'Not unique system field'));
        seenSystems.add(item.system);
        if (field.type !== item.type) errors.push(problem(at('type'), 'systemFieldType', `The type of this system field is ${field.type}`));
        if (item.name !== item.system) errors.push(problem(at('name'), 'systemFieldName', 'A system field question is named after its field'));
      }
    } else if (item.system) errors.push(problem(at('system'), 'notAllowed', 'Only medical information questions have a system field'));
    if (hasOptions(item)) {
      const opts = item.options ?? [];
      if (opts.length < MIN_OPTIONS[item.type])
        errors.push(problem(at('options'), 'minItems', `At least ${MIN_OPTIONS[item.type]} option${MIN_OPTIONS[item.type] > 1 ? 's' : ''}`));
      if (opts.length > MAX_OPTIONS) errors.push(problem(at('options'), 'maxItems', `At most ${MAX_OPTIONS} options`));
      const labels = new Set<string>();
      const keys = new Set<string>();
      opts.forEach((o, j) => {
        const label = (o.label ?? '').trim();
        if (!label) errors.push(problem(at(`options.${j}.label`), 'required', 'Option is required'));
        else if (label.length > TEXT_MEDIUM) errors.push(problem(at(`options.${j}.label`), 'maxLength', 'Option is too long'));
        else if (labels.has(label.toLowerCase())) errors.push(problem(at(`options.${j}.label`), 'notUnique', 'Options must be unique'));
        labels.add(label.toLowerCase());
        if (!NAME_PATTERN.test(o.key ?? '') || keys.has(o.key)) errors.push(problem(at(`options.${j}.key`), 'invalid', 'Invalid option key'));
        keys.add(o.key);
      });
    } else if (item.options?.length) errors.push(problem(at('options'), 'notAllowed', 'A text question has no options'));
    if (item.conditions) {
      if (item.conditions.kind !== 'showIfAny') errors.push(problem(at('conditions.kind'), 'enum', 'Unknown condition kind'));
      item.conditions.items.forEach((c, j) => {
        if (!c.question) return errors.push(problem(at(`conditions.items.${j}.question`), 'required', 'Question is required'));
        if (!c.answer) errors.push(problem(at(`conditions.items.${j}.answer`), 'required', 'Answer is required'));
        // A condition looks back: it names a question above this one (no cycles, and a form reads top down).
        const target = items.slice(0, i).find((x): x is QuestionItem => isQuestion(x) && x.name === c.question);
        if (!target || !hasOptions(target))
          errors.push(problem(at(`conditions.items.${j}.question`), 'invalid', 'The condition must name a choice question above this one'));
        else if (c.answer && !(target.options ?? []).some((o) => o.key === c.answer))
          errors.push(problem(at(`conditions.items.${j}.answer`), 'invalid', 'The condition names an answer the question does not have'));
      });
    }
  });
  return errors;
}

// ── Answers ─────────────────────────────────────────────────────────────────────────────────

/** An answer that says something: not null, not blank text, not an empty list. */
function given(value: unknown): value is AnswerValue {
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  return false;
}

/** Whether one of a question's conditions holds for the answers (a question without any always shows). */
export function conditionsMet(item: QuestionItem, answers: Readonly<Record<string, unknown>>): boolean {
  if (!item.conditions?.items.length) return true;
  return item.conditions.items.some(({ question, answer }) => {
    const v = answers[question];
    return Array.isArray(v) ? v.includes(answer) : v === answer;
  });
}

/**
 * The answers that count: given ones (text trimmed) of questions that show, read top down so an
 * answer to a question hidden by an earlier answer does not show the ones below it either.
 * Answers to unknown questions are kept so that validation names them.
 */
export function visibleAnswers(items: readonly QuestionnaireItem[], answers: Readonly<Record<string, unknown>> | null | undefined): Answers {
  const out: Record<string, unknown> = {};
  const known = new Set(items.filter(isQuestion).map((q) => q.name));
  for (const item of items) {
    if (!isQuestion(item)) continue;
    const value = answers?.[item.name];
    if (!given(value) || !conditionsMet(item, out)) continue;
    out[item.name] = typeof value === 'string' ? value.trim() : value;
  }
  for (const [name, value] of Object.entries(answers ?? {})) if (!known.has(name) && value !== null && value !== undefined) out[name] = value;
  return out as Answers;
}

/** The visible questions, for the form and the PDF. */
export function visibleQuestions(items: readonly QuestionnaireItem[], answers: Readonly<Record<string, unknown>>): QuestionItem[] {
  const counted = visibleAnswers(items, answers);
  return items.filter(isQuestion).filter((q) => conditionsMet(q, counted));
}

export function answersToList(items: readonly QuestionnaireItem[], answers: Answers): QuestionAnswer[] {
  return items.filter(isQuestion).flatMap((q) => (answers[q.name] === undefined ? [] : [{ questionName: q.name, type: q.type, value: answers[q.name] }]));
}

export function answersFromList(list: readonly QuestionAnswer[] | null | undefined): Answers {
  return Object.fromEntries((list ?? []).map((a) => [a.questionName, a.value]));
}

// ── The compiled form ──────────────────────────────────────────────────────────────────────

type Schema = Record<string, unknown>;

/** What a given answer must be for a question of this type. */
function answerSchema(q: QuestionItem): Schema {
  const choices = (q.options ?? []).map((o) => ({ const: o.key, title: o.label }));
  switch (q.type) {
    case 'text':
      return { type: 'string', title: q.label, maxLength: TEXT_LARGE };
    case 'radio':
      return { type: 'string', title: q.label, oneOf: choices };
    case 'checkbox':
      return { type: 'array', title: q.label, uniqueItems: true, items: { type: 'string', oneOf: choices } };
  }
}

/** The JSON Schema of "one of these conditions holds" (the `if` of a conditional question). */
function conditionSchema(items: readonly QuestionnaireItem[], q: QuestionItem): Schema {
  return {
    anyOf: q.conditions!.items.map(({ question, answer }) => {
      const target = items.find((x) => isQuestion(x) && x.name === question);
      const value = target?.type === 'checkbox' ? { type: 'array', contains: { const: answer } } : { const: answer };
      return { required: [question], properties: { [question]: value } };
    }),
  };
}

export interface CompiledQuestionnaire {
  /** JSON Schema (draft-07) of the answers, after `visibleAnswers`. */
  schema: Schema;
  /** react-jsonschema-form's uiSchema (order, widgets, headings) for every question shown. */
  uiSchema: Schema;
}

/**
 * The questionnaire as JSON Schema + uiSchema. Required questions without conditions are in
 * `required`; a required question with conditions (spec 02 §5) is required only when one of them
 * holds: `if` (any condition) `then` (required). Headings are null fields that show a title.
 * `draft`: the same answers without the required rules (what an autosave must fit).
 */
export function compileQuestionnaire(items: readonly QuestionnaireItem[], { draft = false }: { draft?: boolean } = {}): CompiledQuestionnaire {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  const allOf: Schema[] = [];
  const uiSchema: Schema = {};
  const order: string[] = [];
  items.forEach((item, i) => {
    if (!isQuestion(item)) {
      const name = `heading_${i}`;
      properties[name] = { type: 'null', title: item.label };
      uiSchema[name] = { 'ui:field': 'QuestionnaireHeading' };
      order.push(name);
      return;
    }
    properties[item.name] = answerSchema(item);
    order.push(item.name);
    uiSchema[item.name] = {
      ...(item.type === 'text' ? { 'ui:widget': 'textarea', 'ui:options': { rows: 2 } } : {}),
      ...(item.type === 'radio' ? { 'ui:widget': 'radio' } : {}),
      ...(item.type === 'checkbox' ? { 'ui:widget': 'checkboxes' } : {}),
    };
    // A draft (autosave) may leave questions unanswered, but what it answers must fit.
    if (!item.required || draft) return;
    if (item.conditions?.items.length) allOf.push({ if: conditionSchema(items, item), then: { required: [item.name] } });
    else required.push(item.name);
  });
  uiSchema['ui:order'] = [...order, '*'];
  const schema: Schema = {
    type: 'object',
    additionalProperties: false,
    properties,
    ...(required.length ? { required } : {}),
    ...(allOf.length ? { allOf } : {}),
  };
  return { schema, uiSchema };
}

/**
 * The uiSchema for the answers as they stand: questions whose conditions do not hold are hidden
 * (the UI registers a `HiddenQuestion` field that renders nothing, and `visibleAnswers` drops
 * what they hold); required ones whose conditions hold are marked.
 */
export function questionnaireUiSchema(items: readonly QuestionnaireItem[], compiled: CompiledQuestionnaire, answers: Readonly<Record<string, unknown>>): Schema {
  const counted = visibleAnswers(items, answers);
  const ui: Schema = { ...compiled.uiSchema };
  for (const item of items) {
    if (!isQuestion(item) || !item.conditions?.items.length) continue;
    const shows = conditionsMet(item, counted);
    ui[item.name] = shows
      ? { ...(ui[item.name] as Schema), ...(item.required ? { 'ui:title': `${item.label} *` } : {}) }
      : { 'ui:field': 'HiddenQuestion' };
  }
  return ui;
}

/**
 * The questionnaire as the provider saw it, for the PDF and read-only views: headings, and each
 * question that showed with its answer in words (option labels, not keys).
 */
export function answeredQuestions(items: readonly QuestionnaireItem[], answers: Readonly<Record<string, unknown>>): { label: string; answer: string; heading: boolean }[] {
  const counted = visibleAnswers(items, answers);
  const rows: { label: string; answer: string; heading: boolean }[] = [];
  for (const item of items) {
    if (!isQuestion(item)) {
      rows.push({ label: item.label, answer: '', heading: true });
      continue;
    }
    if (!conditionsMet(item, counted)) continue;
    const value = counted[item.name];
    const word = (key: string) => item.options?.find((o) => o.key === key)?.label ?? key;
    const answer = value === undefined ? '—' : Array.isArray(value) ? value.map(word).join(', ') : item.type === 'text' ? value : word(value);
    rows.push({ label: item.label, answer, heading: false });
  }
  // A heading with nothing under it before the next heading says nothing.
  return rows.filter((r, i) => !r.heading || (rows[i + 1] && !rows[i + 1].heading));
}
