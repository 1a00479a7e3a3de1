import { UserType, type UserContext } from '@crisis/forms';

/**
 * The cases a group user reviews (spec 02 §6 "group past cases"; ARCHITECTURE "a group user only
 * cases of his counties and facilities"): one SQL predicate over `cases c`, read by the group panel
 * and the group past cases. A case is in scope when its source facility is one of the group's
 * included facilities, or lies in one of the group's counties (in one of its states, when the group
 * names states: county names repeat across states); a facility the group excludes never is.
 * Only the scope: callers add `status = 'Closed'` for past cases. Any other role: none.
 * Pushes its parameters onto `bind` and returns the predicate.
 */
export function groupCaseScopeSql(user: UserContext, bind: unknown[], alias = 'c'): string {
  if (user.role !== UserType.GroupUser) return 'false';
  const g = bind.push(user.organizationId ?? 0);
  const listed = (kind: 'included' | 'excluded') =>
    `EXISTS (SELECT 1 FROM group_organization_facilities gf
              WHERE gf.group_id = $${g} AND gf.kind = '${kind}' AND gf.facility_id = ${alias}.source_facility_id)`;
  const inCounties = `EXISTS (SELECT 1 FROM facilities gsf JOIN group_organizations go ON go.id = $${g}
              WHERE gsf.id = ${alias}.source_facility_id AND gsf.county = ANY(go.counties)
                AND (cardinality(go.states) = 0 OR gsf.state = ANY(go.states)))`;
  return `((${listed('included')} OR ${inCounties}) AND NOT ${listed('excluded')})`;
}
