import { defineAbilityFor } from './abilities';
import { ClaimObjectType, canSeeClaim, claimableTypes } from './claims';
import { DivisionType, UserType } from './enums';
import type { AbilityUser } from './user-context';

const user = (role: UserType, over: Partial<AbilityUser> = {}): AbilityUser => ({
  id: 1, role, organizationId: null, facilityId: null, divisionId: null, divisionType: null, isIntegratedWithEMR: false, ...over,
});

describe('claim rules', () => {
  // Written from the spec: 01 §6 "Medical information card and edit: ITP roles"; 02 §6 "claim tasks,
  // call log": ITP user and admin. Facility and group users edit neither.
  const EXPECTED: Array<[string, AbilityUser, ClaimObjectType[]]> = [
    ['ITP admin', user(UserType.ItpAdmin), [ClaimObjectType.CaseMedicalInformation, ClaimObjectType.PlacementTask]],
    ['ITP user', user(UserType.ItpUser), [ClaimObjectType.CaseMedicalInformation, ClaimObjectType.PlacementTask]],
    ['ITP provider', user(UserType.ItpProvider), [ClaimObjectType.CaseMedicalInformation]],
    ['facility admin', user(UserType.FacilityAdmin, { organizationId: 7, facilityId: 7 }), []],
    ['facility user (source)', user(UserType.FacilityUser, { organizationId: 7, facilityId: 7, divisionId: 3, divisionType: DivisionType.Source }), []],
    ['facility user (referring)', user(UserType.FacilityUser, { organizationId: 7, facilityId: 7, divisionId: 4, divisionType: DivisionType.Referring }), []],
    ['group user', user(UserType.GroupUser, { organizationId: 2 }), []],
  ];

  it.each(EXPECTED)('lets the %s claim exactly what the spec lets her edit', (_who, u, types) => {
    const ability = defineAbilityFor(u);
    expect(claimableTypes(ability)).toEqual(types);
    // The claims API itself is only for those who may claim something.
    expect(ability.can('create', 'Claim')).toBe(types.length > 0);
    expect(ability.can('update', 'Claim')).toBe(types.length > 0);
  });

  it('names a holder only to roles that see the object', () => {
    for (const [, u, types] of EXPECTED) {
      const ability = defineAbilityFor(u);
      for (const t of types) expect(canSeeClaim(ability, t)).toBe(true);
    }
    expect(canSeeClaim(defineAbilityFor(user(UserType.FacilityAdmin, { facilityId: 7 })), ClaimObjectType.CaseMedicalInformation)).toBe(false);
    expect(canSeeClaim(defineAbilityFor(user(UserType.GroupUser)), ClaimObjectType.PlacementTask)).toBe(false);
  });
});
