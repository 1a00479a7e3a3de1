import {
  REQUEST_QUEUE_STATUSES,
  caseStatusLabel,
  hasUnreadAssignment,
  type RequestQueueFilter,
  type RequestQueueItem,
  type RequestQueueKind,
  type UserContext,
} from '@crisis/forms';
import type { Sequelize } from 'sequelize-typescript';
import type { ListQuery } from '../common/list-query';
import { windowedPage } from '../common/windowed-page';
import { patientOrCaseSql } from './case-text-search';
import { caseScopeSql, statusAudience } from './case-scope';

/** "Time elapsed" descending is the longest-waiting request first: created_at ascending. */
const SORT_SQL: Record<string, { expr: string; invert?: boolean }> = {
  timeElapsed: { expr: 'r.created_at', invert: true },
  patient: { expr: "lower(p.last_name || ' ' || p.first_name)" },
  type: { expr: 'r.type' },
  sourceFacility: { expr: 'lower(f.name)' },
  provider: { expr: "lower(u.last_name || ' ' || u.first_name)" },
  id: { expr: 'r.id' },
};

/**
 * The statuses a queue lists, written into the SQL as literals (they are the forms enumeration):
 * PostgreSQL then reads the active requests from the partial index of active requests instead of
 * scanning every request ever made.
 */
const statusesSql = (kind: RequestQueueKind) => REQUEST_QUEUE_STATUSES[kind].map((s) => `'${s.replace(/'/g, '')}'`).join(', ');

/**
 * GET /api/requests/itp-queue and /provider-queue (spec 02 §2 "Queues", §5 "Queue item"): the
 * active requests of open cases (the provider's own in his queue), a page and the filtered total
 * in one statement.
 */
export async function listRequestQueue(
  sequelize: Sequelize,
  user: UserContext,
  kind: RequestQueueKind,
  q: ListQuery<RequestQueueFilter>,
): Promise<{ rows: RequestQueueItem[]; total: number }> {
  const bind: unknown[] = [];
  const where = [`r.status IN (${statusesSql(kind)})`, "c.status <> 'Closed'", caseScopeSql(user, bind)];
  if (kind === 'provider') where.push(`r.evaluation_provider_id = $${bind.push(user.id)}`);
  const text = q.filter.q?.trim();
  if (text) {
    where.push(patientOrCaseSql(text, bind));
  }
  const sort = SORT_SQL[q.sortField] ?? SORT_SQL.timeElapsed;
  const dir = (q.sortOrder === 'ASC') !== !!sort.invert ? 'ASC' : 'DESC';
  const limit = bind.push(q.limit);
  const offset = bind.push(q.offset);
  // The page's ids first, joining only what the filter and the sort read; the row details are
  // built for the page alone (building them for every active request cost most of the time).
  const needsPatient = !!text || q.sortField === 'patient';
  const from = `requests r
         JOIN cases c ON c.id = r.case_id
         ${needsPatient ? 'JOIN patients p ON p.id = c.patient_id' : ''}
         ${q.sortField === 'sourceFacility' ? 'JOIN facilities f ON f.id = c.source_facility_id' : ''}
         ${q.sortField === 'provider' ? 'LEFT JOIN users u ON u.id = r.evaluation_provider_id' : ''}`;
  const { rows, total } = await windowedPage<Omit<RequestQueueItem, 'caseStatusLabel' | 'unreadAssignment'>>(
    sequelize,
    `WITH page AS (
       SELECT r.id, count(*) OVER () AS total, row_number() OVER (ORDER BY ${sort.expr} ${dir} NULLS LAST, r.id ${dir}) AS rn
         FROM ${from}
        WHERE ${where.join(' AND ')}
        ORDER BY ${sort.expr} ${dir} NULLS LAST, r.id ${dir}
        LIMIT $${limit} OFFSET $${offset}
     )
     SELECT r.id, r.id AS "requestId", c.id AS "caseId", c.status AS "caseStatus", r.status AS "requestStatus", r.type,
            r.evaluation_started_at IS NOT NULL AS "evaluationStarted", r.note, r.created_at AS "createdAt",
            extract(epoch FROM (now() - r.created_at))::int AS "timeElapsedSeconds",
            json_build_object('id', p.id, 'firstName', p.first_name, 'lastName', p.last_name, 'dateOfBirth', p.date_of_birth, 'gender', p.gender) AS patient,
            CASE WHEN u.id IS NULL THEN NULL ELSE json_build_object('id', u.id, 'firstName', u.first_name, 'lastName', u.last_name) END AS "evaluationProvider",
            json_build_object('id', f.id, 'name', f.name, 'city', f.city, 'state', f.state) AS "sourceFacility",
            json_build_object('id', d.id, 'name', d.name) AS "sourceDivision",
            c.rn_caring_for_patient AS "rnCaringForPatient", c.contact_phone_number AS "contactPhoneNumber",
            page.total::int AS total
       FROM page
       JOIN requests r ON r.id = page.id
       JOIN cases c ON c.id = r.case_id
       JOIN patients p ON p.id = c.patient_id
       JOIN facilities f ON f.id = c.source_facility_id
       JOIN divisions d ON d.id = c.source_division_id
       LEFT JOIN users u ON u.id = r.evaluation_provider_id
      ORDER BY page.rn`,
    bind,
    `SELECT count(*)::int AS n FROM ${from} WHERE ${where.join(' AND ')}`,
    q.offset,
  );
  const audience = statusAudience(user);
  const items = rows.map((r) => ({ ...r, caseStatusLabel: caseStatusLabel(r.caseStatus, audience), unreadAssignment: hasUnreadAssignment(r.caseStatus) }));
  return { rows: items, total };
}
