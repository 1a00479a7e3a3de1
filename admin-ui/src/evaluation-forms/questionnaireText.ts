import {
  MEDICAL_INFORMATION_QUESTION_FIELDS,
  isQuestion,
  questionnaireProblems,
  type QuestionCondition,
  type QuestionItem,
  type QuestionnaireItem,
} from '@crisis/forms/core';

/** How the editor names things in its messages. */
export const TYPE_LABEL: Record<QuestionnaireItem['type'], string> = { heading: 'Heading', text: 'Text', radio: 'Single choice', checkbox: 'Multiple choice' };

export const systemFieldLabel = (field: string) => MEDICAL_INFORMATION_QUESTION_FIELDS[field as keyof typeof MEDICAL_INFORMATION_QUESTION_FIELDS]?.label ?? field;

const quoted = (s: string | undefined | null) => `“${s && s.trim() ? s.trim() : '(no label)'}”`;

export function questionNamed(items: readonly QuestionnaireItem[], name: string): QuestionItem | undefined {
  return items.find((i): i is QuestionItem => isQuestion(i) && i.name === name);
}

/** “Suicidal ideation” is “Yes”. */
export function conditionText(items: readonly QuestionnaireItem[], c: QuestionCondition): string {
  const q = questionNamed(items, c.question);
  const answer = q?.options?.find((o) => o.key === c.answer)?.label;
  return `${quoted(q?.label ?? c.question)} is ${quoted(answer ?? c.answer)}`;
}

/** "Shown if “A” is “Yes” or “B” is “Often”" (or null for a question always shown). */
export function conditionsSummary(items: readonly QuestionnaireItem[], item: QuestionnaireItem): string | null {
  if (!isQuestion(item) || !item.conditions?.items.length) return null;
  return `Shown if ${item.conditions.items.map((c) => conditionText(items, c)).join(' or ')}`;
}

/**
 * The conditions a change took away from questions (spec 02 §4: deleting or retyping a question,
 * or removing one of its options, drops the conditions that pointed to it), in words, so the admin
 * sees what happened. `except` is the item being edited: its own conditions are the admin's doing.
 */
export function droppedConditions(
  before: readonly QuestionnaireItem[],
  after: readonly QuestionnaireItem[],
  edited?: { before: string | null; after: string | null },
): string[] {
  const out: string[] = [];
  // The edited question may have a new name: its conditions followed it.
  const now = (name: string) => (edited?.before && name === edited.before && edited.after ? edited.after : name);
  for (const item of after) {
    if (!isQuestion(item) || (edited?.after && item.name === edited.after)) continue;
    const previous = questionNamed(before, item.name);
    const kept = item.conditions?.items ?? [];
    for (const c of previous?.conditions?.items ?? [])
      if (!kept.some((k) => k.question === now(c.question) && k.answer === c.answer)) out.push(`${quoted(item.label)} no longer depends on ${conditionText(before, c)}`);
  }
  return out;
}

/** Problems of the conditions only (a condition must point to a choice question above it). */
const conditionProblems = (items: readonly QuestionnaireItem[]) => questionnaireProblems(items).filter((p) => p.field.includes('.conditions.'));

/**
 * Moves an item from one place to another, unless that puts a question above a question it
 * depends on: then the reason, in words.
 */
export function moved(items: readonly QuestionnaireItem[], from: number, to: number): { items: QuestionnaireItem[] } | { refused: string } {
  const next = [...items];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  const brokenBefore = new Set(conditionProblems(items).map((p) => items[itemPath(p.field)!.index]));
  const broken = conditionProblems(next)
    .map((p) => next[itemPath(p.field)!.index])
    .find((it) => !brokenBefore.has(it));
  if (broken && isQuestion(broken)) {
    const on = broken.conditions?.items.map((c) => questionNamed(next, c.question)?.label).filter(Boolean) ?? [];
    return { refused: `${quoted(broken.label)} is shown depending on ${on.map(quoted).join(' or ')}: it has to stay below it.` };
  }
  return { items: next };
}

/** `items.3.options.1.label` → { index: 3, rest: 'options.1.label' }. */
export function itemPath(field: string): { index: number; rest: string } | null {
  const m = /^(?:options\.)?items\.(\d+)(?:\.(.*))?$/.exec(field);
  return m ? { index: Number(m[1]), rest: m[2] ?? '' } : null;
}
