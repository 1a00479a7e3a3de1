import { CodedError, ErrorCode, storableProblems } from '@crisis/forms';

/** ra-data-simple-rest list parameters: sort=["field","ASC"], range=[0,24], filter={...}. */
export interface ListQuery<F = Record<string, unknown>> {
  sortField: string;
  sortOrder: 'ASC' | 'DESC';
  offset: number;
  limit: number;
  filter: F;
}

const bad = (field: string, message: string) =>
  new CodedError(ErrorCode.Invalid, undefined, [{ field, key: 'invalid', message }]);

function parseJson(raw: unknown, field: string): unknown {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string') throw bad(field, `${field} must be JSON`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw bad(field, `${field} must be JSON`);
  }
  const problems = storableProblems(parsed, field);
  if (problems.length) throw new CodedError(ErrorCode.Invalid, undefined, problems);
  return parsed;
}

/**
 * Parses and checks the list parameters. Unknown sort fields are refused (not passed to SQL);
 * pages are at most `maxPage` rows.
 */
export function parseListQuery(
  query: Record<string, unknown>,
  opts: { sortable: string[]; defaultSort: [string, 'ASC' | 'DESC']; maxPage?: number },
): ListQuery {
  const maxPage = opts.maxPage ?? 1000;
  const sort = parseJson(query.sort, 'sort') ?? opts.defaultSort;
  if (!Array.isArray(sort) || sort.length !== 2 || !opts.sortable.includes(sort[0]) || !['ASC', 'DESC'].includes(String(sort[1]).toUpperCase()))
    throw bad('sort', `sort must be one of ${opts.sortable.join(', ')} with ASC or DESC`);
  const range = parseJson(query.range, 'range') ?? [0, 24];
  if (!Array.isArray(range) || range.length !== 2 || !range.every((n) => Number.isInteger(n) && n >= 0) || range[1] < range[0])
    throw bad('range', 'range must be [first, last] row numbers');
  const limit = Math.min(range[1] - range[0] + 1, maxPage);
  const filter = parseJson(query.filter, 'filter') ?? {};
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) throw bad('filter', 'filter must be a JSON object');
  return { sortField: sort[0], sortOrder: String(sort[1]).toUpperCase() as 'ASC' | 'DESC', offset: range[0], limit, filter: filter as Record<string, unknown> };
}

/** Content-Range of a list page: "facilities 0-24/319". */
export function contentRange(resource: string, offset: number, count: number, total: number): string {
  return count === 0 ? `${resource} */${total}` : `${resource} ${offset}-${offset + count - 1}/${total}`;
}

/** One query parameter's value: Fastify gives an array for a repeated key, of which the last counts. */
export const queryValue = (v: unknown): unknown => (Array.isArray(v) ? v[v.length - 1] : v);
