import { normalizeInput, validate, type FieldError, type SchemaName } from '@crisis/forms';
import { invalid } from '../common/coded-error';
import { parseListQuery, type ListQuery } from '../common/list-query';

/** Field errors of a list filter are reported under `filter.` so they cannot be mistaken for a form's. */
const underFilter = (errors: FieldError[]) => errors.map((e) => ({ ...e, field: e.field ? `filter.${e.field}` : 'filter' }));

/** Checks a decoded `filter` object against its schema (trim, blanks → null, then ajv); 400 INV if bad. */
export function checkFilter<F>(filter: unknown, schemaName: SchemaName): F {
  const data = normalizeInput(filter ?? {});
  const errors = validate(schemaName, data);
  if (errors.length) throw invalid(underFilter(errors));
  return data as F;
}

/** ra-data-simple-rest sort/range/filter, with the filter checked by `schemaName`. */
export function parseCheckedList<F>(
  query: Record<string, unknown>,
  opts: { sortable: readonly string[]; defaultSort: [string, 'ASC' | 'DESC']; schema: SchemaName; maxPage?: number },
): ListQuery<F> {
  const parsed = parseListQuery(query, { sortable: [...opts.sortable], defaultSort: opts.defaultSort, maxPage: opts.maxPage });
  const filter = checkFilter<F>(parsed.filter, opts.schema);
  // ra-data-simple-rest's getMany sends filter={"id":[...]} without a range: all of them, not a page of 25.
  const ids = (filter as { id?: unknown[] }).id;
  if (query.range === undefined && Array.isArray(ids)) return { ...parsed, filter, offset: 0, limit: Math.max(ids.length, 1) };
  return { ...parsed, filter };
}

/**
 * A lookup's filter: `filter={...}` like the lists, or the same keys as plain query parameters
 * (`?showActiveOnly=true&states=FL&states=GA&divisionType=Referring`).
 */
export function parseLookupFilter<F>(query: Record<string, unknown>, schemaName: SchemaName, arrays: string[]): F {
  if (typeof query.filter === 'string') return checkFilter<F>(parseListQuery({ filter: query.filter }, { sortable: ['id'], defaultSort: ['id', 'ASC'] }).filter, schemaName);
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(query)) {
    if (['sort', 'range'].includes(key)) continue;
    const values = Array.isArray(raw) ? raw : [raw];
    const scalar = (v: unknown) => (v === 'true' ? true : v === 'false' ? false : /^\d+$/.test(String(v)) && key === 'id' ? Number(v) : v);
    out[key] = arrays.includes(key)
      ? values.flatMap((v) => String(v).split(',')).filter((v) => v !== '').map(scalar)
      : scalar(values[values.length - 1]);
  }
  return checkFilter<F>(out, schemaName);
}

/** Re-exported for the callers that still parse route ids by hand (prefer `@IdParam()`). */
export { parseId } from '../common/id-param';
