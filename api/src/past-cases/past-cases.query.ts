import { CaseStatus, PAST_CASES_COUNT_CAP, UserType, caseStatusLabel, recencyClass, type PastCaseFilter, type PastCaseItem, type UserContext } from '@crisis/forms';
import type { Sequelize } from 'sequelize-typescript';
import type { ListQuery } from '../common/list-query';
import { preparedRead } from '../common/prepared-read';
import { select } from '../reference/reference-sql';
import { patientOrCaseSql } from '../cases/case-text-search';
import { caseScopeSql, statusAudience } from '../cases/case-scope';
import { groupCaseScopeSql } from '../cases/group-scope';

/**
 * Whose past cases a user sees (spec 02 §2 "Variants for ITP, provider and group users", §6):
 * ITP staff every case; a provider the cases he evaluated (a request assigned to him); a facility
 * admin her facility's cases and those granted to it; a group user his group's. Anyone else none.
 */
function pastScopeSql(user: UserContext, bind: unknown[]): string {
  switch (user.role) {
    case UserType.ItpAdmin:
    case UserType.ItpUser:
      return 'true';
    case UserType.ItpProvider:
      return `EXISTS (SELECT 1 FROM requests pr WHERE pr.case_id = c.id AND pr.evaluation_provider_id = $${bind.push(user.id)})`;
    case UserType.FacilityAdmin:
      return caseScopeSql(user, bind);
    case UserType.GroupUser:
      return groupCaseScopeSql(user, bind);
    default:
      return 'false';
  }
}

/**
 * The WHERE of a past-case search, shared by the page and the CSVs (so an export holds exactly
 * the rows the page shows). `tz` is the zone the from/to days are read in. Reads `cases c` and,
 * when `patientJoined` says so, `patients p`.
 */
export function pastCaseWhere(user: UserContext, f: PastCaseFilter, tz: string, bind: unknown[]): { where: string; needsPatient: boolean } {
  const where = [pastScopeSql(user, bind)];
  if (f.activeOnly) {
    where.push(`c.status <> '${CaseStatus.Closed}'`);
    if (f.activeCaseHours) where.push(`c.created_at >= now() - make_interval(hours => $${bind.push(f.activeCaseHours)})`);
  } else {
    where.push(`c.status = '${CaseStatus.Closed}'`);
  }
  if (f.from) where.push(`c.created_at >= ($${bind.push(f.from)}::date)::timestamp AT TIME ZONE $${bind.push(tz)}`);
  if (f.to) where.push(`c.created_at < ($${bind.push(f.to)}::date + 1)::timestamp AT TIME ZONE $${bind.push(tz)}`);
  if (f.referringFacilityIds?.length)
    where.push(`c.outcome_referring_division_id IN (SELECT id FROM divisions WHERE facility_id = ANY($${bind.push(f.referringFacilityIds)}::int[]))`);
  if (f.outcomes?.length) where.push(`c.outcome_type = ANY($${bind.push(f.outcomes)}::text[])`);
  if (f.counties?.length) {
    // A county's case was sent from it or placed in it (a county reviewer follows both ends).
    const i = bind.push(f.counties);
    where.push(`(c.source_facility_id IN (SELECT id FROM facilities WHERE county = ANY($${i}::text[]))
                 OR c.outcome_referring_division_id IN (SELECT d.id FROM divisions d JOIN facilities df ON df.id = d.facility_id WHERE df.county = ANY($${i}::text[])))`);
  }
  const text = f.patientOrCase?.trim();
  if (text) where.push(patientOrCaseSql(text, bind));
  return { where: where.join(' AND '), needsPatient: !!text };
}

const SORT_SQL: Record<string, string> = {
  createdAt: 'c.created_at',
  closedAt: 'c.closed_at',
  patient: "lower(p.last_name || ' ' || p.first_name)",
  sourceFacility: 'lower(sf.name)',
  locatingServices: 'c.locating_services_seconds',
  id: 'c.id',
};

/** The columns of a past case (spec 02 §2), over `cases c` joined to `patients p`. */
export const PAST_CASE_COLUMNS = `
  c.id, c.id AS "referenceNumber", c.status, c.created_at AS "createdAt", c.closed_at AS "closedAt", c.outcome_type AS outcome,
  CASE WHEN c.status = '${CaseStatus.Closed}' OR c.locating_services_started_at IS NULL THEN c.locating_services_seconds
       ELSE extract(epoch FROM now() - c.locating_services_started_at)::int END AS "locatingServicesSeconds",
  c.uninsured,
  json_build_object('id', p.id, 'firstName', p.first_name, 'lastName', p.last_name, 'dateOfBirth', p.date_of_birth) AS patient,
  (SELECT json_build_object('id', f.id, 'name', f.name, 'county', f.county) FROM facilities f WHERE f.id = c.source_facility_id) AS "sourceFacility",
  (SELECT json_build_object('id', d.id, 'name', d.name) FROM divisions d WHERE d.id = c.source_division_id) AS "sourceDivision",
  (SELECT json_build_object('id', rf.id, 'name', rf.name, 'divisionName', rd.name)
     FROM divisions rd JOIN facilities rf ON rf.id = rd.facility_id WHERE rd.id = c.outcome_referring_division_id) AS "referringFacility",
  ARRAY(SELECT u.first_name || ' ' || u.last_name FROM users u
         WHERE u.id IN (SELECT evaluation_provider_id FROM requests WHERE case_id = c.id) ORDER BY u.last_name, u.first_name) AS providers,
  ARRAY(SELECT py.name FROM patient_insurances pi JOIN payers py ON py.id = pi.payer_id WHERE pi.case_id = c.id ORDER BY pi.position) AS payers`;

/** Adds what SQL leaves to the code: the status label, the recency class (in the viewer's zone `tz`), the insurance answer. */
export function pastCaseItem(row: Record<string, any>, audience: 'itp' | 'facility', now: Date, tz: string): PastCaseItem {
  const { uninsured, ...r } = row;
  return {
    ...(r as PastCaseItem),
    statusLabel: caseStatusLabel(r.status, audience),
    recency: recencyClass(r.createdAt, now, tz),
    insurance: r.payers.length ? 'insured' : uninsured ? 'uninsured' : 'notProvided',
  };
}

/**
 * GET /api/cases/past: one page of past cases and the filtered total, counted up to
 * PAST_CASES_COUNT_CAP + 1 (a review list is read from its first pages; counting 100,000 closed
 * cases for every page would cost more than the page). The page's ids come from the filter's
 * columns alone, in index order; the columns are read for those rows only.
 */
export async function listPastCases(sequelize: Sequelize, user: UserContext, q: ListQuery<PastCaseFilter>, tz: string) {
  const bind: unknown[] = [];
  const { where, needsPatient } = pastCaseWhere(user, q.filter, tz, bind);
  const sort = SORT_SQL[q.sortField] ?? SORT_SQL.createdAt;
  const dir = q.sortOrder === 'ASC' ? 'ASC' : 'DESC';
  // Only the closing time can be empty (an open case's); NULLS LAST elsewhere would keep the sort off its index.
  const nulls = q.sortField === 'closedAt' ? ' NULLS LAST' : '';
  const from = `cases c
      ${needsPatient || q.sortField === 'patient' ? 'JOIN patients p ON p.id = c.patient_id' : ''}
      ${q.sortField === 'sourceFacility' ? 'JOIN facilities sf ON sf.id = c.source_facility_id' : ''}`;
  const rows = await preparedRead<Record<string, any>>(
    sequelize,
    `WITH page AS (
       SELECT id, row_number() OVER () AS rn FROM (
         SELECT c.id FROM ${from} WHERE ${where}
          ORDER BY ${sort} ${dir}${nulls}, c.id ${dir} LIMIT $${bind.length + 1} OFFSET $${bind.length + 2}) ids
     )
     SELECT ${PAST_CASE_COLUMNS}
       FROM page JOIN cases c ON c.id = page.id JOIN patients p ON p.id = c.patient_id
      ORDER BY page.rn`,
    [...bind, q.limit, q.offset],
  );
  // A page that is not full ends the list: its rows give the total.
  const total =
    rows.length > 0 && rows.length < q.limit
      ? q.offset + rows.length
      : (
          await preparedRead<{ total: number }>(
            sequelize,
            `SELECT count(*)::int AS total FROM (SELECT 1 FROM ${from} WHERE ${where} LIMIT ${PAST_CASES_COUNT_CAP + 1}) matching`,
            bind,
          )
        )[0].total;
  const audience = statusAudience(user);
  const now = new Date();
  return { rows: rows.map((r) => pastCaseItem(r, audience, now, tz)), total };
}

/** The filter's choices for the user: referring facilities of his past cases' outcomes, and a group user's counties. */
export async function pastCaseFilterOptions(sequelize: Sequelize, user: UserContext) {
  const bind: unknown[] = [];
  const scope = pastScopeSql(user, bind);
  const referringFacilities = await select<{ id: number; name: string; city: string; state: string }>(
    sequelize,
    `SELECT f.id, f.name, f.city, f.state FROM facilities f
      WHERE f.id IN (SELECT d.facility_id FROM divisions d WHERE d.type = 'Referring')
        AND EXISTS (SELECT 1 FROM cases c JOIN divisions od ON od.id = c.outcome_referring_division_id
                     WHERE od.facility_id = f.id AND c.status = '${CaseStatus.Closed}' AND ${scope})
      ORDER BY lower(f.name), f.id`,
    bind,
  );
  const counties =
    user.role === UserType.GroupUser
      ? (await select<{ counties: string[] }>(sequelize, 'SELECT counties FROM group_organizations WHERE id = $1', [user.organizationId ?? 0]))[0]?.counties ?? []
      : [];
  return { referringFacilities, counties };
}
