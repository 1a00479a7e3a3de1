/**
 * The SQL of the users list (spec 03 §4), as pure functions with positional parameters: the API
 * runs it (UsersService) and the bench runs the same text bare (tests/bench/lists.ts).
 */
import type { ListQuery } from '../common/list-query';

export interface UserListFilter {
  nameOrEmail?: string | null;
  q?: string | null;
  organizationIds?: number[] | null;
  organizationTypes?: string[] | null;
  divisionsIds?: number[] | null;
  userTypes?: string[] | null;
  userType?: string | null;
  status?: 'enabledOnly' | 'lockedOnly' | 'notActivatedOnly' | null;
  enabledOnly?: boolean | null;
  lockedOnly?: boolean | null;
  notActivatedOnly?: boolean | null;
  id?: number[] | null;
}

/** Rows a caller may see: everything (ITP admin), one organization (facility admin), facility users (ITP user). */
export interface UserScope {
  organizationType?: string;
  organizationId?: number | null;
}

export const USER_SORTABLE = ['id', 'fullName', 'firstName', 'lastName', 'email', 'userType', 'organizationName', 'lastLogin', 'isActive'] as const;
export const SORT_SQL: Record<string, string> = {
  id: 'u.id',
  fullName: 'lower(u.first_name), lower(u.last_name)',
  firstName: 'lower(u.first_name)',
  lastName: 'lower(u.last_name)',
  email: 'lower(u.email)',
  userType: 'u.user_type',
  organizationName: 'lower(org_name)',
  lastLogin: 'u.last_login',
  isActive: 'u.is_active',
};

/** A user's organization name, over the joins of ORG_JOINS. */
export const ORG_NAME = `CASE u.organization_type WHEN 'Facility' THEN f.name WHEN 'Group' THEN g.name ELSE itp.name END`;
export const ORG_JOINS = `
    LEFT JOIN facilities f ON u.organization_type = 'Facility' AND f.id = u.organization_id
    LEFT JOIN group_organizations g ON u.organization_type = 'Group' AND g.id = u.organization_id
    LEFT JOIN LATERAL (SELECT name FROM itp_organization ORDER BY id LIMIT 1) itp ON true`;
export const COLUMNS = `
  u.id, u.first_name, u.last_name, u.email, u.phone, u.job_title, u.is_active, u.creating, u.email_confirmed,
  u.password_locked_out, u.locked_due_inactivity, u.last_login, u.mfa_method, u.sso_enabled,
  u.disabled_password_login, u.password_hash IS NOT NULL AS is_password_set, u.organization_type,
  u.organization_id, u.user_type, u.provider_info, u.send_user_unlock_requests, u.failed_login_count, u.avatar,
  ${ORG_NAME} AS org_name,
  COALESCE((SELECT json_agg(json_build_object('id', d.id, 'name', d.name) ORDER BY d.name)
              FROM user_divisions ud JOIN divisions d ON d.id = ud.division_id WHERE ud.user_id = u.id), '[]') AS divisions`;
export const SELECT = `SELECT ${COLUMNS} FROM users u ${ORG_JOINS}`;

/** The WHERE of a filter within a scope, with positional parameters appended to `params`. */
export function userListWhere(filter: UserListFilter, scope: UserScope, params: unknown[]): string {
  const conds: string[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  if (scope.organizationType) conds.push(`u.organization_type = ${p(scope.organizationType)}`);
  if (scope.organizationId !== undefined) conds.push(`u.organization_id = ${p(scope.organizationId)}`);
  const text = filter.nameOrEmail ?? filter.q;
  if (text) {
    const like = p(`%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    conds.push(`(u.first_name || ' ' || u.last_name ILIKE ${like} OR u.email ILIKE ${like})`);
  }
  if (filter.organizationIds?.length) conds.push(`u.organization_id = ANY(${p(filter.organizationIds)}::int[])`);
  if (filter.organizationTypes?.length) conds.push(`u.organization_type = ANY(${p(filter.organizationTypes)}::text[])`);
  const types = [...(filter.userTypes ?? []), ...(filter.userType ? [filter.userType] : [])];
  if (types.length) conds.push(`u.user_type = ANY(${p(types)}::text[])`);
  if (filter.divisionsIds?.length)
    conds.push(`EXISTS (SELECT 1 FROM user_divisions ud WHERE ud.user_id = u.id AND ud.division_id = ANY(${p(filter.divisionsIds)}::int[]))`);
  if (filter.id?.length) conds.push(`u.id = ANY(${p(filter.id)}::int[])`);
  if (filter.enabledOnly || filter.status === 'enabledOnly') conds.push('u.is_active AND NOT u.creating');
  if (filter.lockedOnly || filter.status === 'lockedOnly') conds.push('(u.password_locked_out OR u.locked_due_inactivity)');
  if (filter.notActivatedOnly || filter.status === 'notActivatedOnly') conds.push('NOT u.email_confirmed');
  return conds.length ? `WHERE ${conds.join(' AND ')}` : '';
}


/**
 * The users page and its total in one statement (the bench runs this same SQL bare). The
 * filtered users are found first, with only their sort keys, then the page's 25 get their
 * organization and divisions. A name or e-mail search matches few users: they are collected
 * from the trigram indexes and sorted (MATERIALIZED), where walking the name index and testing
 * every user read thousands of rows for a page; without one, the name index is walked in order.
 */
export function userListSql(q: ListQuery<UserListFilter>, scope: UserScope): { sql: string; countSql: string; params: unknown[] } {
  const params: unknown[] = [];
  const where = userListWhere(q.filter, scope, params);
  const dir = q.sortOrder === 'DESC' ? 'DESC' : 'ASC';
  const order = (SORT_SQL[q.sortField] ?? SORT_SQL.fullName)
    .split(', ')
    .map((c) => `${c} ${dir}${q.sortField === 'lastLogin' ? (dir === 'ASC' ? ' NULLS FIRST' : ' NULLS LAST') : ''}`)
    .join(', ');
  const text = !!(q.filter.nameOrEmail ?? q.filter.q);
  const orgName = q.sortField === 'organizationName';
  const n = params.length;
  const sql = `WITH matched AS ${text ? 'MATERIALIZED' : 'NOT MATERIALIZED'} (
      SELECT u.id, u.first_name, u.last_name, u.email, u.user_type, u.last_login, u.is_active
             ${orgName ? `, ${ORG_NAME} AS org_name` : ''}
        FROM users u ${orgName ? ORG_JOINS : ''} ${where}
    ), page AS (
      SELECT u.id, (SELECT count(*) FROM matched)::int AS total FROM matched u ORDER BY ${order}, u.id ${dir} LIMIT $${n + 1} OFFSET $${n + 2}
    )
    SELECT * FROM (SELECT ${COLUMNS}, page.total FROM page JOIN users u ON u.id = page.id ${ORG_JOINS}) u ORDER BY ${order}, u.id ${dir}`;
  return { sql, countSql: `SELECT count(*)::int AS n FROM users u ${where}`, params: [...params, q.limit, q.offset] };
}

