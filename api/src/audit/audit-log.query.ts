/**
 * The SQL of the audit log list, as pure functions (PostgreSQL positional parameters). Every list is
 * a time range (default: the last day) ordered by the chosen column, then performed_at and id, so
 * paging is stable; the default sort is an index range scan on (performed_at, id) or, for a facility
 * admin, (facility_id, performed_at, id) (migration 20261121-0500).
 */
import { AUDIT_LOG_COUNT_CAP, auditLogRange, type AuditLogFilter, type AuditLogSortField } from '@crisis/forms';

export interface AuditLogScope {
  /** null: the global table (ITP admin); a number: that facility's entries only. */
  facilityId: number | null;
}

export interface SqlQuery {
  sql: string;
  params: unknown[];
}

const ORDER_COLUMN: Record<AuditLogSortField, string> = {
  performedAt: 'performed_at',
  mainAction: 'main_action',
  kind: 'kind',
  userName: 'lower(user_name)',
  email: 'lower(email)',
  userType: 'user_type',
  organization: 'lower(organization)',
  division: 'lower(division)',
  success: 'success',
};

export const AUDIT_LOG_COLUMNS = `id::text AS id, performed_at AS "performedAt", main_action AS "mainAction", kind,
  user_id AS "userId", user_name AS "userName", email, user_type AS "userType", organization,
  facility_id AS "facilityId", division, success`;

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** WHERE clause of a filter within a scope; `params` is appended to. */
export function auditLogWhere(filter: AuditLogFilter, scope: AuditLogScope, params: unknown[], now = Date.now()): string {
  const { from, to } = auditLogRange(filter, now);
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const conds = [`performed_at >= ${p(from.toISOString())}`, `performed_at <= ${p(to.toISOString())}`];
  if (scope.facilityId !== null) conds.push(`facility_id = ${p(scope.facilityId)}`);
  if (filter.mainAction) conds.push(`main_action = ${p(filter.mainAction)}`);
  if (filter.userId) conds.push(`user_id = ${p(filter.userId)}`);
  if (filter.user) {
    // The few (name, e-mail) pairs that match, then their entries (migration 20261202-0100): an
    // entry without a name or an e-mail has '' there, which no non-empty text matches.
    const like = p(`%${likeEscape(filter.user)}%`);
    conds.push(
      `(coalesce(user_name, ''), coalesce(email, '')) IN (SELECT user_name, email FROM audit_log_actors WHERE user_name ILIKE ${like} OR email ILIKE ${like})`,
    );
  }
  if (filter.success === true || filter.success === false) conds.push(`success = ${p(filter.success)}`);
  return conds.join(' AND ');
}

/** Columns that are NOT NULL (audit_log in the foundation migration): they need no NULLS clause. */
const NOT_NULL = new Set(['performed_at', 'id', 'main_action', 'kind', 'success']);

/**
 * Nullable columns sort nulls last descending and first ascending. NOT NULL columns get no NULLS
 * clause: the order is the same, and only then does it match the b-trees (performed_at DESC, id DESC),
 * whose natural order is NULLS FIRST descending — with an explicit NULLS LAST the planner sorted the
 * whole range (every entry of the day) for a page of 25 instead of reading 25 index entries.
 */
export function auditLogOrderBy(field: AuditLogSortField, dir: 'ASC' | 'DESC'): string {
  const keys = field === 'performedAt' ? ['performed_at', 'id'] : [ORDER_COLUMN[field], 'performed_at', 'id'];
  // audit_log.id, not id: a bare "id" in ORDER BY is the output column `id::text AS id`, which sorted
  // ids as text (10 before 9) and could use no index.
  const column = (k: string) => (k === 'id' ? 'audit_log.id' : k);
  return keys.map((k) => `${column(k)} ${dir}${NOT_NULL.has(k) ? '' : dir === 'ASC' ? ' NULLS FIRST' : ' NULLS LAST'}`).join(', ');
}

export interface AuditLogPageQuery {
  filter: AuditLogFilter;
  scope: AuditLogScope;
  sortField: AuditLogSortField;
  sortOrder: 'ASC' | 'DESC';
  offset: number;
  limit: number;
}

/**
 * A page of entries, each row with the filtered total counted up to AUDIT_LOG_COUNT_CAP + 1 (one
 * statement: the count stops after the cap's entries instead of reading the whole range);
 * `withTotal: false` for a reader of rows only (the CSV's batches).
 */
export function auditLogPageSql(q: AuditLogPageQuery, now = Date.now(), { withTotal = true } = {}): SqlQuery {
  const params: unknown[] = [];
  const where = auditLogWhere(q.filter, q.scope, params, now);
  params.push(q.limit, q.offset);
  return {
    sql: `SELECT ${AUDIT_LOG_COLUMNS}${withTotal ? `, (${cappedCount(where)}) AS total` : ''} FROM audit_log WHERE ${where}
          ORDER BY ${auditLogOrderBy(q.sortField, q.sortOrder)} LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  };
}

/** The filtered total on its own (a page past the last one), counted up to the same cap. */
export function auditLogCountSql(filter: AuditLogFilter, scope: AuditLogScope, now = Date.now()): SqlQuery {
  const params: unknown[] = [];
  return { sql: `SELECT (${cappedCount(auditLogWhere(filter, scope, params, now))}) AS n`, params };
}

const cappedCount = (where: string) => `SELECT count(*)::int FROM (SELECT 1 FROM audit_log WHERE ${where} LIMIT ${AUDIT_LOG_COUNT_CAP + 1}) capped`;

/**
 * Distinct main actions, as a loose index scan on (main_action) or (facility_id, main_action): one
 * index probe per distinct value instead of reading every entry.
 */
export function mainActionsSql(scope: AuditLogScope): SqlQuery {
  const fac = scope.facilityId === null ? '' : 'facility_id = $1 AND';
  const params = scope.facilityId === null ? [] : [scope.facilityId];
  return {
    sql: `WITH RECURSIVE a(v) AS (
            (SELECT main_action FROM audit_log WHERE ${fac} main_action IS NOT NULL ORDER BY main_action LIMIT 1)
            UNION ALL
            SELECT (SELECT main_action FROM audit_log WHERE ${fac} main_action > a.v ORDER BY main_action LIMIT 1)
            FROM a WHERE a.v IS NOT NULL)
          SELECT v AS "mainAction" FROM a WHERE v IS NOT NULL`,
    params,
  };
}
