import type { UserContext } from '@crisis/forms';

/**
 * The cases a group user reviews (spec 01 §1 "county-level reviewers of past cases", 03 §3 group
 * organization): cases sent from, or placed in, a facility of the group — one of its facilities,
 * or one lying in its counties (of its states) — less its excluded facilities. Open or closed: the
 * caller adds the status it lists. Pushes its parameters onto `bind`; the predicate reads `cases <alias>`.
 * The facility and division ids are uncorrelated subqueries: PostgreSQL hashes each once a query
 * and tests a case against the hash (an array's ANY would compare it with every element).
 */
export function groupCaseScopeSql(user: UserContext, bind: unknown[], alias = 'c'): string {
  const g = bind.push(user.organizationId ?? 0);
  // Facilities in the group's counties (by the county index), plus its listed ones, less its excluded ones.
  const facilities = `SELECT gf.id FROM group_organizations go JOIN facilities gf ON gf.county = ANY(go.counties) AND gf.state = ANY(go.states)
                       WHERE go.id = $${g}
                      UNION SELECT i.facility_id FROM group_organization_facilities i WHERE i.group_id = $${g} AND i.kind = 'included'
                      EXCEPT SELECT x.facility_id FROM group_organization_facilities x WHERE x.group_id = $${g} AND x.kind = 'excluded'`;
  const divisions = `SELECT gd.id FROM divisions gd WHERE gd.facility_id IN (${facilities})`;
  return `(${alias}.source_facility_id IN (${facilities}) OR ${alias}.outcome_referring_division_id IN (${divisions}))`;
}
