/**
 * What PostgreSQL can hold, checked at the edge before anything else runs (spec 03 §8: bad input
 * gets a coded error, never a 500): no NUL character in text (PostgreSQL refuses the byte), no
 * unpaired UTF-16 surrogate ("\ud800": jsonb refuses it, so the call's audit entry could not be
 * written), no nesting deeper than any payload of ours, no row number beyond a bigint.
 */
import type { FieldError } from './errors';

/** No payload of the product nests deeper than this (the deepest, medical information, uses 4). */
export const MAX_INPUT_DEPTH = 32;
/** Offsets and ids fit PostgreSQL's integers; JSON numbers beyond this are not exact anyway. */
export const MAX_INPUT_INTEGER = Number.MAX_SAFE_INTEGER;

/** A high surrogate not followed by a low one, or a low one without its high one. */
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a text cannot be stored, or null. */
function textProblem(s: string): string | null {
  if (s.includes('\u0000')) return 'Contains a character that cannot be saved (NUL)';
  if (UNPAIRED_SURROGATE.test(s)) return 'Contains a character that cannot be saved (an unpaired surrogate)';
  return null;
}

/** The problems of a parsed value (keys and strings at any depth): [] when it can be stored. */
export function storableProblems(value: unknown, path = ''): FieldError[] {
  const problems: FieldError[] = [];
  const visit = (v: unknown, at: string, depth: number): void => {
    if (problems.length) return;
    if (depth > MAX_INPUT_DEPTH) {
      problems.push({ field: at, key: 'tooDeep', message: `Nested more than ${MAX_INPUT_DEPTH} levels` });
      return;
    }
    if (typeof v === 'string') {
      const problem = textProblem(v);
      if (problem) problems.push({ field: at, key: 'invalidCharacter', message: problem });
      return;
    }
    if (typeof v === 'number') {
      if (Math.abs(v) > MAX_INPUT_INTEGER) problems.push({ field: at, key: 'outOfRange', message: 'Number out of range' });
      return;
    }
    if (Array.isArray(v)) {
      v.forEach((x, i) => visit(x, at ? `${at}.${i}` : String(i), depth + 1));
      return;
    }
    if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        const field = at ? `${at}.${k}` : k;
        const problem = textProblem(k);
        if (problem) {
          problems.push({ field, key: 'invalidCharacter', message: problem });
          return;
        }
        visit(x, field, depth + 1);
      }
    }
  };
  visit(value, path, 0);
  return problems;
}
