import { defineAbilityFor } from './abilities';
import { DivisionType, OrganizationType, UserType } from './enums';
import { navigationFor } from './navigation';
import type { UserContext } from './user-context';

const ctx = (role: UserType, over: Partial<UserContext> = {}): UserContext => ({
  id: 1, firstName: 'A', lastName: 'B', email: 'a@b.c', role, organizationType: OrganizationType.ITP, organizationId: null,
  organizationName: 'ITP', facilityId: null, facilityName: null, divisionId: null, divisionName: null, divisionType: null,
  isIntegratedWithEMR: false, erLine: '+18005550100', mfaMethod: null, isPasswordSet: true, ssoEnabled: false,
  disabledPasswordLogin: false, smsNotifications: { phone: null, alwaysReceive: false, receiveUntil: null, isReceiving: false },
  rules: [], ...over,
});
const nav = (c: UserContext) => navigationFor(c, defineAbilityFor(c));
const facilityUser = (divisionType: DivisionType) =>
  ctx(UserType.FacilityUser, { organizationType: OrganizationType.Facility, organizationId: 3, facilityId: 3, facilityName: 'Bayside', divisionName: 'ER', divisionType });

describe('navigation bar (spec 03 §2)', () => {
  it('gives the provider Dashboard, Cases, his queue and Past cases', () => {
    expect(nav(ctx(UserType.ItpProvider)).links.map((l) => l.label)).toEqual(['Dashboard', 'Cases', 'Queue', 'Past cases']);
  });

  it('gives the ITP user the unlock-users link and no admin menu', () => {
    const n = nav(ctx(UserType.ItpUser));
    expect(n.links.map((l) => l.label)).toEqual(['Dashboard', 'Queue', 'Past cases', 'Unlock users']);
    expect(n.admin).toEqual([]);
    expect(n.smsControl).toBe(true);
  });

  it('lists every admin entry for the ITP admin, billing codes and payers under Insurance', () => {
    const n = nav(ctx(UserType.ItpAdmin));
    expect(n.admin.map((e) => e.to)).toEqual([
      '/users', '/facilities', '/group-organizations', '/patients', '/evaluation-forms', '/itp-organization-settings',
      '/billing-codes', '/payers', '/patient-tags', '/activity',
    ]);
    expect(n.admin.filter((e) => e.group === 'Insurance').map((e) => e.to)).toEqual(['/billing-codes', '/payers']);
  });

  it('gives the facility admin her facility settings, users and audit log', () => {
    const n = nav(ctx(UserType.FacilityAdmin, { organizationType: OrganizationType.Facility, organizationId: 3, facilityId: 3, facilityName: 'Bayside' }));
    expect(n.admin.map((e) => e.to)).toEqual(['/facility/settings', '/users', '/activity']);
    expect(n.links.map((l) => l.label)).toEqual(['Dashboard', 'Past cases']);
    expect(n.smsControl).toBe(false);
  });

  it('shows the facility label and hides the ER line on cases pages for Referring users', () => {
    expect(nav(facilityUser(DivisionType.Source)).facilityLabel).toMatchObject({ facilityName: 'Bayside', hideErLineOnCases: false });
    expect(nav(facilityUser(DivisionType.Referring)).facilityLabel).toMatchObject({ hideErLineOnCases: true });
    expect(nav(facilityUser(DivisionType.Referring)).links.map((l) => l.label)).toEqual(['Dashboard']);
  });

  it('offers change password only with a password, reset MFA only with MFA on too', () => {
    expect(nav(ctx(UserType.ItpUser, { isPasswordSet: false, mfaMethod: 'Sms' })).profile).toEqual({ changePassword: false, resetMfa: false });
    expect(nav(ctx(UserType.ItpUser, { mfaMethod: 'Email' })).profile).toEqual({ changePassword: true, resetMfa: true });
    expect(nav(ctx(UserType.ItpUser)).profile).toEqual({ changePassword: true, resetMfa: false });
  });
});
