/**
 * The two default evaluation forms (spec 03 §2 Evaluation forms tab; ARCHITECTURE.md seed/):
 * 'Default Assessment Form- Including Crisis Services' and one named after the ITP organization.
 * Only name and default flag: the questionnaire content belongs to the evaluation-form editor.
 * Idempotent: found by case-insensitive name, inserted when missing, marked default when not.
 */
import type { Client } from 'pg';
import { ITP_ORGANIZATION } from './world';

export const DEFAULT_EVALUATION_FORMS = [
  'Default Assessment Form- Including Crisis Services',
  `${ITP_ORGANIZATION.name} Assessment Form`,
];

export async function seedEvaluationForms(db: Client): Promise<number> {
  for (const name of DEFAULT_EVALUATION_FORMS) {
    const found = await db.query<{ id: number }>('SELECT id FROM evaluation_forms WHERE lower(name) = lower($1)', [name]);
    if (found.rows.length) {
      await db.query('UPDATE evaluation_forms SET is_default = true, updated_at = now() WHERE id = $1 AND NOT is_default', [found.rows[0].id]);
      continue;
    }
    await db.query(
      `INSERT INTO evaluation_forms (name, is_default) VALUES ($1, true)
       ON CONFLICT ((lower(name))) DO NOTHING`,
      [name],
    );
  }
  return DEFAULT_EVALUATION_FORMS.length;
}
