import { DivisionType, UserType, caseStatusLabel, type UserContext } from '@crisis/forms';
import type { Sequelize } from 'sequelize-typescript';
import type { ListQuery } from '../common/list-query';
import { windowedPage } from '../common/windowed-page';
import { patientOrCaseSql } from './case-text-search';
import { caseScopeSql, statusAudience } from './case-scope';

export interface CaseListFilter {
  status?: string[] | null;
  mainRecommendation?: string[] | null;
  search?: string | null;
  q?: string | null;
  except?: string[] | null;
  onlyWaitingForConfirmation?: boolean | null;
  providerCases?: boolean | null;
  showAll?: boolean | null;
  activeForHours?: number | null;
  id?: number[] | null;
}

export const CASE_SORTABLE = [
  'timeElapsed',
  'createdAt',
  'patient',
  'dateOfBirth',
  'sourceFacility',
  'status',
  'requestType',
  'grantedAccessCreatedAt',
  'patientAcceptedCreatedAt',
  'id',
] as const;

/** "time elapsed" descending means the longest-waiting case first: created_at ascending. */
const SORT_SQL: Record<string, { expr: string; invert?: boolean }> = {
  timeElapsed: { expr: 'c.created_at', invert: true },
  createdAt: { expr: 'c.created_at' },
  patient: { expr: "lower(p.last_name || ' ' || p.first_name)" },
  dateOfBirth: { expr: 'p.date_of_birth' },
  sourceFacility: { expr: 'lower(f.name)' },
  status: { expr: 'c.status' },
  requestType: { expr: 'lr.type' },
  grantedAccessCreatedAt: { expr: 'ra.granted_at' },
  patientAcceptedCreatedAt: { expr: 'ra.accepted_at' },
  id: { expr: 'c.id' },
};

/** The default sort of each table (spec 01 §9 "Default sorts"). */
export function defaultCaseSort(user: UserContext, filter: CaseListFilter): [string, 'ASC' | 'DESC'] {
  if (isReferringUser(user)) return filter.onlyWaitingForConfirmation ? ['patientAcceptedCreatedAt', 'ASC'] : ['grantedAccessCreatedAt', 'ASC'];
  return ['timeElapsed', 'DESC'];
}

const isReferringUser = (user: UserContext) => user.organizationType === 'Facility' && user.role === UserType.FacilityUser && user.divisionType === DivisionType.Referring;

/**
 * GET /api/cases for every role (spec 01 §2 /cases): open cases in the user's scope, with the
 * columns of each table. One statement returns the page and the filtered total.
 */
export async function listCases(sequelize: Sequelize, user: UserContext, q: ListQuery<CaseListFilter>) {
  const f = q.filter;
  const bind: unknown[] = [];
  const where: string[] = [caseScopeSql(user, bind), "c.status <> 'Closed'"];
  const referring = isReferringUser(user);
  let accessJoin = '';
  if (referring) {
    const i = bind.push(user.divisionId ?? 0);
    accessJoin = `JOIN case_referring_access ra ON ra.case_id = c.id AND ra.division_id = $${i} AND ra.removed_at IS NULL`;
    if (f.onlyWaitingForConfirmation) where.push('ra.accepted_at IS NOT NULL');
  } else {
    accessJoin = `LEFT JOIN LATERAL (SELECT min(granted_at) AS granted_at, min(accepted_at) AS accepted_at
                                       FROM case_referring_access WHERE case_id = c.id AND removed_at IS NULL) ra ON true`;
  }
  if (user.role === UserType.ItpProvider && !f.showAll) {
    const i = bind.push(user.id);
    where.push(`EXISTS (SELECT 1 FROM requests pr WHERE pr.case_id = c.id AND pr.evaluation_provider_id = $${i}
                         AND pr.status IN ('New', 'Pending', 'InProgress', 'OnHold'))`);
  }
  if (f.showAll && f.activeForHours) where.push(`c.created_at >= now() - make_interval(hours => $${bind.push(f.activeForHours)})`);
  if (f.status?.length) where.push(`c.status = ANY($${bind.push(f.status)}::text[])`);
  if (f.except?.length) where.push(`c.status <> ALL($${bind.push(f.except)}::text[])`);
  if (f.mainRecommendation?.length) where.push(`c.main_recommendation = ANY($${bind.push(f.mainRecommendation)}::text[])`);
  if (f.id?.length) where.push(`c.id = ANY($${bind.push(f.id)}::int[])`);
  const text = (f.search ?? f.q)?.trim();
  if (text) {
    where.push(patientOrCaseSql(text, bind));
  }
  const sort = SORT_SQL[q.sortField] ?? SORT_SQL.timeElapsed;
  const asc = (q.sortOrder === 'ASC') !== !!sort.invert;
  const dir = asc ? 'ASC' : 'DESC';
  // Join only what the filter and the sort read: the page query runs over every matching case.
  const needsPatient = !!text || q.sortField === 'patient' || q.sortField === 'dateOfBirth';
  const needsAccess = referring || q.sortField === 'grantedAccessCreatedAt' || q.sortField === 'patientAcceptedCreatedAt';
  const from = `cases c
         ${needsPatient ? 'JOIN patients p ON p.id = c.patient_id' : ''}
         ${q.sortField === 'sourceFacility' ? 'JOIN facilities f ON f.id = c.source_facility_id' : ''}
         ${needsAccess ? accessJoin : ''}
         ${q.sortField === 'requestType' ? 'LEFT JOIN LATERAL (SELECT type FROM requests WHERE case_id = c.id ORDER BY created_at DESC, id DESC LIMIT 1) lr ON true' : ''}`;
  const limit = bind.push(q.limit);
  const offset = bind.push(q.offset);
  const { rows, total } = await windowedPage<Record<string, any>>(
    sequelize,
    `WITH page AS (
       SELECT c.id, count(*) OVER () AS total, row_number() OVER (ORDER BY ${sort.expr} ${dir} NULLS LAST, c.id ${dir}) AS rn
         FROM ${from}
        WHERE ${where.join(' AND ')}
        ORDER BY ${sort.expr} ${dir} NULLS LAST, c.id ${dir}
        LIMIT $${limit} OFFSET $${offset}
     )
     SELECT c.id, c.id AS "referenceNumber", c.status, c.created_at AS "createdAt", c.criteria,
            c.main_recommendation AS "mainRecommendation", c.contact_phone_number AS "contactPhoneNumber",
            c.rn_caring_for_patient AS "rnCaringForPatient",
            extract(epoch FROM (now() - c.created_at))::int AS "timeElapsedSeconds",
            json_build_object('id', p.id, 'firstName', p.first_name, 'lastName', p.last_name, 'dateOfBirth', p.date_of_birth,
                              'gender', p.gender) AS patient,
            json_build_object('id', f.id, 'name', f.name) AS "sourceFacility",
            json_build_object('id', d.id, 'name', d.name) AS "sourceDivision",
            (SELECT json_build_object('id', r.id, 'type', r.type, 'status', r.status,
                      'evaluationProvider', CASE WHEN u.id IS NULL THEN NULL ELSE json_build_object('id', u.id, 'firstName', u.first_name,
                        'lastName', u.last_name, 'avatar', u.avatar, 'biography', u.provider_info->>'biography') END)
               FROM requests r LEFT JOIN users u ON u.id = r.evaluation_provider_id
              WHERE r.case_id = c.id ORDER BY r.created_at DESC, r.id DESC LIMIT 1) AS "latestRequest",
            (SELECT min(granted_at) FROM case_referring_access a WHERE a.case_id = c.id AND a.removed_at IS NULL) AS "grantedAccessCreatedAt",
            (SELECT min(accepted_at) FROM case_referring_access a WHERE a.case_id = c.id AND a.removed_at IS NULL) AS "patientAcceptedCreatedAt",
            page.total::int AS total
       FROM page
       JOIN cases c ON c.id = page.id
       JOIN patients p ON p.id = c.patient_id
       JOIN facilities f ON f.id = c.source_facility_id
       JOIN divisions d ON d.id = c.source_division_id
      ORDER BY page.rn`,
    bind,
    `SELECT count(*)::int AS n FROM ${from} WHERE ${where.join(' AND ')}`,
    q.offset,
    // A search's pattern decides its plan; the other pages plan alike for any status or role.
    { plan: text ? 'auto' : 'generic' },
  );
  const audience = statusAudience(user);
  const out = rows.map((r) => ({ ...r, statusLabel: caseStatusLabel(r.status, audience) }));
  return { rows: out, total };
}
