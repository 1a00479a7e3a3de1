/**
 * The two default evaluation forms (spec 02 §9): 'Default Assessment Form- Including Crisis
 * Services' and 'MercyOne Assessment Form', with their questionnaires
 * (evaluation-questionnaires.ts). Idempotent: found by case-insensitive name, inserted when
 * missing, marked default when not; a form whose questionnaire is still empty gets the content
 * (an admin's edits are never overwritten).
 */
import type { Client } from 'pg';
import { questionnaireProblems, type QuestionnaireItem } from '@crisis/forms';
import { DEFAULT_ASSESSMENT, MERCYONE_ASSESSMENT } from './evaluation-questionnaires';
import { ITP_ORGANIZATION } from './world';

export const DEFAULT_EVALUATION_FORMS: { name: string; items: QuestionnaireItem[]; formerName?: string }[] = [
  { name: 'Default Assessment Form- Including Crisis Services', items: DEFAULT_ASSESSMENT },
  // Earlier demo worlds named the second form after the ITP organization.
  { name: 'MercyOne Assessment Form', items: MERCYONE_ASSESSMENT, formerName: `${ITP_ORGANIZATION.name} Assessment Form` },
];

export async function seedEvaluationForms(db: Client): Promise<number> {
  for (const { name, items, formerName } of DEFAULT_EVALUATION_FORMS) {
    const problems = questionnaireProblems(items);
    if (problems.length) throw new Error(`the questionnaire of '${name}' breaks the editor's rules: ${JSON.stringify(problems)}`);
    if (formerName)
      await db.query(
        `UPDATE evaluation_forms SET name = $1, updated_at = now()
          WHERE lower(name) = lower($2) AND removed_at IS NULL AND NOT EXISTS (SELECT 1 FROM evaluation_forms WHERE lower(name) = lower($1) AND removed_at IS NULL)`,
        [name, formerName],
      );
    const found = await db.query<{ id: number; items: unknown[]; version: number }>(
      'SELECT id, items, version FROM evaluation_forms WHERE lower(name) = lower($1) AND removed_at IS NULL',
      [name],
    );
    let form = found.rows[0];
    if (!form) {
      const inserted = await db.query<{ id: number; items: unknown[]; version: number }>(
        `INSERT INTO evaluation_forms (name, is_default, items) VALUES ($1, true, '[]') RETURNING id, items, version`,
        [name],
      );
      form = inserted.rows[0];
    }
    await db.query('UPDATE evaluation_forms SET is_default = true, updated_at = now() WHERE id = $1 AND NOT is_default', [form.id]);
    if (form.items.length === 0) {
      await db.query('UPDATE evaluation_forms SET items = $2, updated_at = now() WHERE id = $1', [form.id, JSON.stringify(items)]);
      await db.query(
        `INSERT INTO evaluation_form_versions (evaluation_form_id, version, items) VALUES ($1, $2, $3)
         ON CONFLICT (evaluation_form_id, version) DO UPDATE SET items = EXCLUDED.items`,
        [form.id, form.version, JSON.stringify(items)],
      );
    }
  }
  return DEFAULT_EVALUATION_FORMS.length;
}
