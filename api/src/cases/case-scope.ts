import { DivisionType, UserType, type UserContext } from '@crisis/forms';
import { groupCaseScopeSql } from './group-scope';

/**
 * Which cases a user may open (spec 01 §6 "Case details: everyone except group user", row
 * scoping of ARCHITECTURE): one SQL predicate over `cases c`, used by every case route.
 * - ITP admin, user and provider: every case (providers work from a queue but may open any
 *   case: their list has "show all cases");
 * - facility admin: cases of her facility, and cases granted to one of its referring divisions;
 * - facility user of a source division: cases of that division;
 * - facility user of a referring division: cases granted to that division;
 * - group user: the closed cases of his group (group-scope.ts), which he reaches only through the
 *   routes his abilities open: the past cases and their activity report and PDF export.
 * Pushes its parameters onto `bind` and returns the predicate.
 */
export function caseScopeSql(user: UserContext, bind: unknown[], alias = 'c'): string {
  const granted = (divisionPredicate: string) =>
    `EXISTS (SELECT 1 FROM case_referring_access a JOIN divisions ad ON ad.id = a.division_id
              WHERE a.case_id = ${alias}.id AND a.removed_at IS NULL AND ${divisionPredicate})`;
  switch (user.role) {
    case UserType.ItpAdmin:
    case UserType.ItpUser:
    case UserType.ItpProvider:
      return 'true';
    case UserType.FacilityAdmin: {
      const i = bind.push(user.facilityId ?? 0);
      return `(${alias}.source_facility_id = $${i} OR ${granted(`ad.facility_id = $${i}`)})`;
    }
    case UserType.FacilityUser: {
      const i = bind.push(user.divisionId ?? 0);
      return user.divisionType === DivisionType.Referring ? granted(`a.division_id = $${i}`) : `${alias}.source_division_id = $${i}`;
    }
    case UserType.GroupUser:
      return `(${alias}.status = 'Closed' AND ${groupCaseScopeSql(user, bind, alias)})`;
    default:
      return 'false';
  }
}

/** The audience a status label is written for (spec 01 §4: facilities see group names). */
export const statusAudience = (user: UserContext): 'itp' | 'facility' => (user.organizationType === 'Facility' ? 'facility' : 'itp');
