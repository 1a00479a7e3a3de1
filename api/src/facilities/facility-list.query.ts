/**
 * The SQL of the facility list, lookups and single-record read, as pure functions (no Nest, no
 * Sequelize): the API runs it through Sequelize (`bind`), the benchmark issues the very same text
 * directly through `pg`. Parameters are PostgreSQL positional ($1, $2, ...).
 *
 * One statement returns one row: the filtered total and the page, already shaped as the API's JSON
 * (built by PostgreSQL, returned as text, sent by the API as is, so Node neither parses nor
 * re-serialises it). The division flags are EXISTS probes of divisions (facility_id, ...) for the
 * page's rows only. Two plans, chosen by isSelectiveFilter: a selective filter's matches are read
 * once (a MATERIALIZED CTE), counted and top-N sorted; otherwise the total is an uncorrelated
 * sub-select (an InitPlan: an index-only count) and the page an index scan in the sort's order
 * that stops after `limit` rows. `count(*) OVER ()` was measured and rejected: the window buffers
 * every filtered row before the LIMIT applies, ~8x slower for an unfiltered list of 10,000.
 */
import { DivisionType, NO_DIVISION_SPECIFIED } from '@crisis/forms';

export interface FacilityListFilter {
  /** Name contains (case-insensitive). */
  q?: string | null;
  /** Same as q (older clients). */
  name?: string | null;
  showActiveOnly?: boolean | null;
  states?: string[];
  cities?: string[];
  /** 'Source' | 'Referring' | 'NoDivisionSpecified': has an active division of that type / has no active division. */
  divisionType?: string | null;
  /** With divisionType Source or Referring: also facilities without any active division. */
  includeNoDivisionSpecified?: boolean | null;
  /** getMany: only these ids. */
  id?: number[];
}

export const FACILITY_SORTABLE = ['name', 'city', 'state', 'isActive'] as const;
export type FacilitySortField = (typeof FACILITY_SORTABLE)[number];
export interface SqlQuery {
  sql: string;
  params: unknown[];
}

/** ORDER BY keys per sortable field; the name and then the id break ties so paging is stable. */
const FACILITY_ORDER: Record<FacilitySortField, string[]> = {
  name: ['lower(f.name)', 'f.id'],
  city: ['lower(f.city)', 'lower(f.name)', 'f.id'],
  state: ['f.state', 'lower(f.name)', 'f.id'],
  isActive: ['f.is_active', 'lower(f.name)', 'f.id'],
};

const hasActiveDivision = (type?: DivisionType) =>
  `EXISTS (SELECT 1 FROM divisions d WHERE d.facility_id = f.id AND d.is_active${type ? ` AND d.type = '${type}'` : ''})`;

/** The API's facility record (forms FacilityRecord), built from the row `f`. */
export const FACILITY_JSON = `json_build_object(
    'id', f.id,
    'name', f.name,
    'description', f.description,
    'allowReferringDivisionsAccess', f.allow_referring_divisions_access,
    'allowPlacementOnlyCases', f.allow_placement_only_cases,
    'isActive', f.is_active,
    'isMfaEnabled', f.is_mfa_enabled,
    'isGeoPositionManually', f.is_geo_position_manually,
    'ehrDepartmentId', f.ehr_department_id,
    'address', json_build_object('streetLine', f.street_line, 'apartmentNumber', f.apartment_number, 'city', f.city,
                                 'state', f.state, 'zipCode', f.zip_code, 'county', f.county),
    'geoPosition', json_build_object('latitude', f.latitude, 'longitude', f.longitude),
    'contacts', f.contacts,
    'divisionTypes', array_remove(ARRAY[CASE WHEN x.src THEN 'Source' END, CASE WHEN x.ref THEN 'Referring' END], NULL),
    'hasActiveSourceDivision', x.src,
    'hasActiveReferringDivision', x.ref)`;

/** The lookup shape (spec 03 §3 Lookups: id, name, address with city and state, the two flags). */
export const FACILITY_LOOKUP_JSON = `json_build_object(
    'id', f.id,
    'name', f.name,
    'isActive', f.is_active,
    'address', json_build_object('city', f.city, 'state', f.state),
    'hasActiveSourceDivision', x.src,
    'hasActiveReferringDivision', x.ref)`;

/** The two division flags of the row `f`, as a LATERAL row `x(src, ref)`. */
// OFFSET 0 keeps the planner from pulling the sub-select up and evaluating each EXISTS twice.
const FLAGS_LATERAL = `CROSS JOIN LATERAL (SELECT ${hasActiveDivision(DivisionType.Source)} AS src,
                                    ${hasActiveDivision(DivisionType.Referring)} AS ref OFFSET 0) x`;

/** Escapes LIKE wildcards so a search for "50%" means the text "50%". */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** WHERE conditions of a facility filter; pushes its parameters onto `params`. */
export function facilityWhere(filter: FacilityListFilter, params: unknown[]): string {
  const p = (v: unknown) => `$${params.push(v)}`;
  const conds: string[] = [];
  const q = filter.q ?? filter.name;
  if (q) conds.push(`lower(f.name) LIKE lower(${p(`%${escapeLike(q)}%`)})`);
  if (filter.showActiveOnly) conds.push('f.is_active');
  if (filter.states?.length) conds.push(`f.state = ANY(${p(filter.states)}::bpchar[])`);
  if (filter.cities?.length) conds.push(`lower(f.city) = ANY(${p(filter.cities.map((c) => c.toLowerCase()))}::text[])`);
  if (filter.id) conds.push(`f.id = ANY(${p(filter.id)}::int[])`);
  const type = filter.divisionType;
  if (type === NO_DIVISION_SPECIFIED) conds.push(`NOT ${hasActiveDivision()}`);
  else if (type === DivisionType.Source || type === DivisionType.Referring)
    conds.push(
      filter.includeNoDivisionSpecified
        ? `(${hasActiveDivision(type)} OR NOT ${hasActiveDivision()})`
        : hasActiveDivision(type),
    );
  return conds.length ? `WHERE ${conds.join(' AND ')}` : '';
}

/** A list request as parseListQuery (api/src/common/list-query.ts) returns it. */
export interface FacilityListQuery {
  filter: FacilityListFilter;
  sortField: string;
  sortOrder: 'ASC' | 'DESC';
  offset: number;
  limit: number;
}

/**
 * True when the filter's own indexes narrow the facilities to a small candidate set (a name search
 * of 3+ characters uses the trigram index; ids and cities their b-trees). Then that set is read
 * once, counted and top-N sorted. Otherwise (no filter, active only, states, division type) the
 * page is read in the sort's index order, stopping after the page, and the count is a separate
 * index-only count: reading every match to sort it would cost more than the two index scans.
 * (Measured on 10,000 facilities; see facility-list.query in the report.)
 */
export function isSelectiveFilter(filter: FacilityListFilter): boolean {
  const q = filter.q ?? filter.name;
  return (!!q && q.length >= 3) || !!filter.id || !!filter.cities?.length;
}

/**
 * GET /api/facilities: one row `{ total: int, rows: text (a JSON array of facility records) }`.
 * `sortField` must be one of FACILITY_SORTABLE (parseListQuery checks it; anything else throws here).
 */
export function buildFacilityListQuery({ filter, sortField, sortOrder, offset, limit }: FacilityListQuery): SqlQuery {
  const keys = FACILITY_ORDER[sortField as FacilitySortField];
  if (!keys) throw new Error(`unsortable field ${sortField}`);
  const dir = sortOrder === 'DESC' ? 'DESC' : 'ASC';
  const order = keys.map((k) => `${k} ${dir}`).join(', ');
  const params: unknown[] = [];
  const where = facilityWhere(filter, params);
  const page = (from: string) => `coalesce((SELECT json_agg(page.j) FROM (
         SELECT ${FACILITY_JSON} AS j
           FROM ${from}
           ${FLAGS_LATERAL}
          ORDER BY ${order}) page), '[]')::text AS rows`;

  if (isSelectiveFilter(filter)) {
    // The matches (id and sort keys only) are read once: counted, then top-N sorted for the page.
    const sortKeys = keys.slice(0, -1); // the last key is f.id
    const sql = `WITH matches AS MATERIALIZED (
         SELECT f.id${sortKeys.map((k, i) => `, ${k} AS k${i}`).join('')} FROM facilities f ${where})
       SELECT (SELECT count(*) FROM matches)::int AS total,
       ${page(`(SELECT id FROM matches
                   ORDER BY ${[...sortKeys.map((_, i) => `k${i} ${dir}`), `id ${dir}`].join(', ')}
                   LIMIT $${params.push(limit)} OFFSET $${params.push(offset)}) m
                 JOIN facilities f ON f.id = m.id`)}`;
    return { sql, params };
  }
  const sql = `SELECT (SELECT count(*) FROM facilities f ${where})::int AS total,
       ${page(`(SELECT f.* FROM facilities f ${where}
                  ORDER BY ${order}
                  LIMIT $${params.push(limit)} OFFSET $${params.push(offset)}) f`)}`;
  return { sql, params };
}

/** GET /api/facilities/lookups: one row `{ rows: text }`, every matching facility sorted by name. */
export function buildFacilityLookupQuery(filter: FacilityListFilter): SqlQuery {
  const params: unknown[] = [];
  const where = facilityWhere(filter, params);
  const sql = `SELECT coalesce((SELECT json_agg(page.j) FROM (
         SELECT ${FACILITY_LOOKUP_JSON} AS j
           FROM facilities f ${FLAGS_LATERAL}
           ${where}
          ORDER BY lower(f.name), f.id) page), '[]')::text AS rows`;
  return { sql, params };
}

/** GET /api/facilities/{id}: one row `{ record: json }` or none. */
export function buildFacilityGetQuery(id: number): SqlQuery {
  return { sql: `SELECT ${FACILITY_JSON} AS record FROM facilities f ${FLAGS_LATERAL} WHERE f.id = $1`, params: [id] };
}
