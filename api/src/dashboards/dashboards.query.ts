import {
  FINALIZED_WINDOW_DAYS,
  REQUEST_QUEUE_STATUSES,
  caseStatusLabel,
  type CaseSearchFilter,
  type CaseSearchItem,
  type FacilityRequestItem,
  type FinalizedCaseItem,
  type GroupPanel,
  type ProviderPanel,
  type UserContext,
} from '@crisis/forms';
import type { Sequelize } from 'sequelize-typescript';
import type { ListQuery } from '../common/list-query';
import { preparedRead } from '../common/prepared-read';
import { windowedPage } from '../common/windowed-page';
import { patientOrCaseSql } from '../cases/case-text-search';
import { caseScopeSql, statusAudience } from '../cases/case-scope';
import { groupCaseScopeSql } from '../cases/group-scope';

const FINALIZED_SORT_SQL: Record<string, string> = {
  closedAt: 'c.closed_at',
  patient: "lower(p.last_name || ' ' || p.first_name)",
  status: 'c.status',
  totalCaseTime: '(c.closed_at - c.created_at)',
  outcome: 'c.outcome_type',
  id: 'c.id',
};

/** GET /api/cases/finalized: the cases of the user's scope closed within FINALIZED_WINDOW_DAYS. */
export async function listFinalized(sequelize: Sequelize, user: UserContext, q: ListQuery<Record<string, never>>): Promise<{ rows: FinalizedCaseItem[]; total: number }> {
  const bind: unknown[] = [];
  const where = `c.status = 'Closed' AND c.closed_at >= now() - interval '${FINALIZED_WINDOW_DAYS} days' AND ${caseScopeSql(user, bind)}`;
  const dir = q.sortOrder === 'ASC' ? 'ASC' : 'DESC';
  const sort = FINALIZED_SORT_SQL[q.sortField] ?? FINALIZED_SORT_SQL.closedAt;
  const countBind = [...bind]; // the count past the last page reads no feedback, so not the user's id
  const me = bind.push(user.id);
  const limit = bind.push(q.limit);
  const offset = bind.push(q.offset);
  const result = await windowedPage<Omit<FinalizedCaseItem, 'statusLabel'>>(
    sequelize,
    `SELECT c.id, c.status, c.created_at AS "createdAt", c.closed_at AS "closedAt",
            (extract(epoch FROM (c.closed_at - c.created_at)) * 1000)::bigint::float8 AS "totalCaseTimeMs",
            c.outcome_type AS "outcomeType",
            json_build_object('id', p.id, 'firstName', p.first_name, 'lastName', p.last_name) AS patient,
            EXISTS (SELECT 1 FROM case_feedback cf WHERE cf.case_id = c.id AND cf.created_by = $${me}) AS "feedbackGiven",
            count(*) OVER ()::int AS total
       FROM cases c JOIN patients p ON p.id = c.patient_id
      WHERE ${where}
      ORDER BY ${sort} ${dir} NULLS LAST, c.id ${dir}
      LIMIT $${limit} OFFSET $${offset}`,
    bind,
    `SELECT count(*)::int AS n FROM cases c WHERE ${where}`,
    q.offset,
    { countBind },
  );
  const audience = statusAudience(user);
  return { rows: result.rows.map((r) => ({ ...r, statusLabel: caseStatusLabel(r.status, audience) })), total: result.total };
}

/** GET /api/cases/facility/requests: the requests of the given cases in scope (only each case's latest with lastOnly). */
export async function listFacilityRequests(sequelize: Sequelize, user: UserContext, caseIds: number[], lastOnly: boolean): Promise<FacilityRequestItem[]> {
  const bind: unknown[] = [caseIds];
  return preparedRead<FacilityRequestItem>(
    sequelize,
    `SELECT ${lastOnly ? 'DISTINCT ON (r.case_id)' : ''} r.id, r.case_id AS "caseId", r.type, r.status, r.created_at AS "createdAt",
            CASE WHEN u.id IS NULL THEN NULL ELSE json_build_object('id', u.id, 'firstName', u.first_name, 'lastName', u.last_name) END AS "evaluationProvider"
       FROM requests r JOIN cases c ON c.id = r.case_id
       LEFT JOIN users u ON u.id = r.evaluation_provider_id
      WHERE r.case_id = ANY($1::int[]) AND ${caseScopeSql(user, bind)}
      ORDER BY r.case_id, r.created_at DESC, r.id DESC`,
    bind,
  );
}

/** GET /api/dashboard/search: open and closed cases by patient name or case reference (#000123 or digits). */
export async function searchCases(sequelize: Sequelize, user: UserContext, q: ListQuery<CaseSearchFilter>): Promise<{ rows: CaseSearchItem[]; total: number }> {
  const text = q.filter.q?.trim();
  if (!text) return { rows: [], total: 0 };
  const bind: unknown[] = [];
  const where = `${patientOrCaseSql(text, bind)} AND ${caseScopeSql(user, bind)}`;
  const dir = q.sortOrder === 'ASC' ? 'ASC' : 'DESC';
  const sort = q.sortField === 'id' ? 'c.id' : 'c.created_at';
  const limit = bind.push(q.limit);
  const offset = bind.push(q.offset);
  const from = 'cases c JOIN patients p ON p.id = c.patient_id JOIN facilities f ON f.id = c.source_facility_id';
  const result = await windowedPage<Omit<CaseSearchItem, 'statusLabel'>>(
    sequelize,
    `SELECT c.id, c.status, c.created_at AS "createdAt", c.closed_at AS "closedAt",
            json_build_object('id', p.id, 'firstName', p.first_name, 'lastName', p.last_name, 'dateOfBirth', p.date_of_birth) AS patient,
            json_build_object('id', f.id, 'name', f.name) AS "sourceFacility",
            count(*) OVER ()::int AS total
       FROM ${from} WHERE ${where}
      ORDER BY ${sort} ${dir}, c.id ${dir}
      LIMIT $${limit} OFFSET $${offset}`,
    bind,
    `SELECT count(*)::int AS n FROM ${from} WHERE ${where}`,
    q.offset,
  );
  const audience = statusAudience(user);
  return { rows: result.rows.map((r) => ({ ...r, statusLabel: caseStatusLabel(r.status, audience) })), total: result.total };
}

/** GET /api/dashboard/group: the group and its past cases closed today (since midnight UTC), in 7 and in 30 days. */
export async function groupPanel(sequelize: Sequelize, user: UserContext): Promise<GroupPanel | null> {
  const [group] = await preparedRead<GroupPanel['group']>(
    sequelize,
    'SELECT id, name, states, counties FROM group_organizations WHERE id = $1',
    [user.organizationId ?? 0],
  );
  if (!group) return null;
  const bind: unknown[] = [];
  const scope = groupCaseScopeSql(user, bind);
  const [pastCases] = await preparedRead<GroupPanel['pastCases']>(
    sequelize,
    `SELECT count(*) FILTER (WHERE c.closed_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')::int AS today,
            count(*) FILTER (WHERE c.closed_at >= now() - interval '7 days')::int AS "last7Days",
            count(*)::int AS "last30Days"
       FROM cases c
      WHERE c.status = 'Closed' AND c.closed_at >= now() - interval '30 days' AND ${scope}`,
    bind,
  );
  return { group, pastCases };
}

const providerStatusesSql = REQUEST_QUEUE_STATUSES.provider.map((s) => `'${s.replace(/'/g, '')}'`).join(', ');

/** GET /api/dashboard/provider: his queue (as the provider queue counts it) and his evaluations completed today (UTC). */
export async function providerPanel(sequelize: Sequelize, user: UserContext): Promise<ProviderPanel> {
  const [row] = await preparedRead<ProviderPanel>(
    sequelize,
    `SELECT count(*) FILTER (WHERE r.status IN (${providerStatusesSql}) AND c.status <> 'Closed')::int AS "queueCount",
            count(*) FILTER (WHERE r.status = 'Completed' AND r.completed_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')::int AS "completedToday"
       FROM requests r JOIN cases c ON c.id = r.case_id
      WHERE r.evaluation_provider_id = $1`,
    [user.id],
  );
  return row;
}
