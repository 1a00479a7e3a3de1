import { defineAbilityFor, passesDivisionGate } from './abilities';
import { DivisionType, UserType } from './enums';
import type { AbilityUser } from './user-context';
import { subject } from '@casl/ability';

const user = (role: UserType, over: Partial<AbilityUser> = {}): AbilityUser => ({
  id: 1, role, organizationId: null, facilityId: null, divisionId: null, divisionType: null, isIntegratedWithEMR: false, ...over,
});

describe('ability table (spec 03 §6)', () => {
  it('gives the ITP admin the whole admin menu', () => {
    const a = defineAbilityFor(user(UserType.ItpAdmin));
    for (const s of ['Facility', 'Group', 'Payer', 'BillingCode', 'PatientTag', 'EvaluationForm', 'ItpOrganization', 'User', 'AuditLog'] as const)
      expect(a.can('manage', s)).toBe(true);
    expect(a.can('access', 'UnlockUsers')).toBe(false);
    expect(a.can('access', 'ProviderCases')).toBe(false);
  });

  it('scopes a facility admin to her own facility and lets her change only MFA', () => {
    const a = defineAbilityFor(user(UserType.FacilityAdmin, { organizationId: 7, facilityId: 7 }));
    expect(a.can('manage', 'Facility')).toBe(false);
    expect(a.can('read', subject('Facility', { id: 7 }) as any)).toBe(true);
    expect(a.can('read', subject('Facility', { id: 8 }) as any)).toBe(false);
    expect(a.can('update', subject('Facility', { id: 7 }) as any, 'isMfaEnabled')).toBe(true);
    expect(a.can('update', subject('Facility', { id: 7 }) as any, 'name')).toBe(false);
    expect(a.can('access', 'FacilitySettings')).toBe(true);
    expect(a.can('manage', subject('User', { organizationType: 'Facility', organizationId: 7 }) as any)).toBe(true);
    expect(a.can('manage', subject('User', { organizationType: 'Facility', organizationId: 8 }) as any)).toBe(false);
    // A group whose id happens to equal her facility's id is not hers.
    expect(a.can('manage', subject('User', { organizationType: 'Group', organizationId: 7 }) as any)).toBe(false);
  });

  it('gives the EHR connection of a facility (URLs, client id, signing key) to the ITP admin only', () => {
    for (const role of Object.values(UserType))
      expect(defineAbilityFor(user(role, { facilityId: 7, organizationId: 7, isIntegratedWithEMR: true })).can('manage', 'EhrConnection')).toBe(role === UserType.ItpAdmin);
  });

  it('shows the unlock-users list to ITP users only', () => {
    for (const role of Object.values(UserType))
      expect(defineAbilityFor(user(role)).can('access', 'UnlockUsers')).toBe(role === UserType.ItpUser);
  });

  it('shows the provider case list to providers only', () => {
    for (const role of Object.values(UserType))
      expect(defineAbilityFor(user(role)).can('access', 'ProviderCases')).toBe(role === UserType.ItpProvider);
  });

  it('gives past cases to the facility admin, not to facility users of any division (spec 02 §6 route gates)', () => {
    expect(defineAbilityFor(user(UserType.FacilityAdmin)).can('access', 'PastCases')).toBe(true);
    expect(defineAbilityFor(user(UserType.FacilityUser, { divisionType: DivisionType.Source })).can('access', 'PastCases')).toBe(false);
    expect(defineAbilityFor(user(UserType.FacilityUser, { divisionType: DivisionType.Referring })).can('access', 'PastCases')).toBe(false);
  });

  it('keeps case details from group users; every role, group users included, has the notification bell', () => {
    const a = defineAbilityFor(user(UserType.GroupUser));
    expect(a.can('read', 'Case')).toBe(false);
    for (const role of Object.values(UserType)) expect(defineAbilityFor(user(role)).can('access', 'NotificationBell')).toBe(true);
  });

  it('offers SMS notifications to ITP staff only', () => {
    for (const role of Object.values(UserType))
      expect(defineAbilityFor(user(role)).can('access', 'SmsNotifications')).toBe(
        [UserType.ItpAdmin, UserType.ItpUser, UserType.ItpProvider].includes(role as any),
      );
  });
});

describe('division-type gates', () => {
  const referringUser = user(UserType.FacilityUser, { divisionType: DivisionType.Referring, isIntegratedWithEMR: true });
  const sourceUser = user(UserType.FacilityUser, { divisionType: DivisionType.Source });
  it.each([
    [{ kind: 'any' } as const, true, true],
    [{ kind: 'referring' } as const, true, false],
    [{ kind: 'source' } as const, false, true],
    [{ kind: 'except', types: [DivisionType.Referring] } as const, false, true],
    [{ kind: 'ehrIntegrated' } as const, true, false],
  ])('%j: referring %s, source %s', (gate, forReferring, forSource) => {
    expect(passesDivisionGate(referringUser, gate)).toBe(forReferring);
    expect(passesDivisionGate(sourceUser, gate)).toBe(forSource);
  });
});
