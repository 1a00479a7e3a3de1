import { OrganizationType, UserType } from '../enums';
import { validate } from '../validation';
import {
  bulkActionApplies,
  onOrganizationChange,
  onOrganizationTypeChange,
  onUserTypeChange,
  passwordLoginUsable,
  type UserStatusRow,
} from './users';

const row = (o: Partial<UserStatusRow> = {}): UserStatusRow => ({
  creating: false,
  isActive: true,
  emailConfirmed: true,
  passwordLockedOut: false,
  lockedDueInactivity: false,
  mfaMethod: null,
  ssoEnabled: false,
  disabledPasswordLogin: false,
  userType: UserType.FacilityUser,
  ...o,
});

describe('bulk action applicability (spec 03 §4)', () => {
  it('activate / deactivate skip pending users', () => {
    expect(bulkActionApplies('activate', row({ isActive: false }))).toBe(true);
    expect(bulkActionApplies('activate', row())).toBe(false);
    expect(bulkActionApplies('activate', row({ isActive: false, creating: true }))).toBe(false);
    expect(bulkActionApplies('deactivate', row())).toBe(true);
    expect(bulkActionApplies('deactivate', row({ creating: true }))).toBe(false);
  });
  it('resend invitation, reset MFA, reset password, unlock', () => {
    expect(bulkActionApplies('resend-invitation', row({ emailConfirmed: false }))).toBe(true);
    expect(bulkActionApplies('resend-invitation', row())).toBe(false);
    expect(bulkActionApplies('reset-mfa', row({ mfaMethod: 'Email' }))).toBe(true);
    expect(bulkActionApplies('reset-mfa', row({ mfaMethod: 'Email', ssoEnabled: true, disabledPasswordLogin: true }))).toBe(false);
    expect(bulkActionApplies('reset-password', row())).toBe(true);
    expect(bulkActionApplies('reset-password', row({ emailConfirmed: false }))).toBe(false);
    expect(bulkActionApplies('unlock', row({ lockedDueInactivity: true }))).toBe(true);
    expect(bulkActionApplies('unlock', row())).toBe(false);
  });
  it('admins always count as password-login usable', () => {
    expect(passwordLoginUsable(row({ userType: UserType.FacilityAdmin, ssoEnabled: true, disabledPasswordLogin: true }))).toBe(true);
  });
});

describe('user form dynamics (spec 03 §4)', () => {
  it('organization type resets user type, organization and divisions', () => {
    const v = onOrganizationTypeChange({ organizationType: OrganizationType.ITP, userType: UserType.ItpUser, organizationId: 3, divisionsIds: [1] }, OrganizationType.Facility);
    expect(v).toMatchObject({ organizationType: OrganizationType.Facility, userType: UserType.FacilityAdmin, organizationId: null, divisionsIds: [], providerInfo: null });
  });
  it('provider gets blank ARNP provider info; other types clear it; unlock flag for ITP admin/user', () => {
    expect(onUserTypeChange({}, UserType.ItpProvider).providerInfo).toMatchObject({ providerType: 'ARNP', npi: null });
    expect(onUserTypeChange({ providerInfo: { providerType: 'MD', npi: '1' }, divisionsIds: [2] }, UserType.ItpUser)).toMatchObject({
      providerInfo: null,
      divisionsIds: [],
      sendUserUnlockRequeststoThisUser: true,
    });
    expect(onUserTypeChange({}, UserType.ItpAdmin).sendUserUnlockRequeststoThisUser).toBe(false);
    expect(onOrganizationChange({ divisionsIds: [4] }, 9)).toMatchObject({ organizationId: 9, divisionsIds: [] });
  });
});

describe('user schema (spec 03 §5)', () => {
  const base = { email: 'a@b.org', phone: '8135550100', firstName: 'A', lastName: 'B', organizationType: 'Facility', organizationId: 1, userType: 'Facility_User', divisionsIds: [1], providerInfo: null };
  it('accepts a facility user and refuses the type/organization mismatches', () => {
    expect(validate('user', { ...base })).toEqual([]);
    expect(validate('user', { ...base, divisionsIds: [] }).map((e) => e.field)).toEqual(['divisionsIds']);
    expect(validate('user', { ...base, organizationType: 'IntegratedTelehealthPartners' }).map((e) => e.field)).toEqual(
      expect.arrayContaining(['userType', 'organizationId']),
    );
    expect(validate('user', { ...base, userType: 'Facility_Admin', providerInfo: { providerType: 'MD', npi: '1' } }).map((e) => e.field)).toEqual(['providerInfo']);
  });
});
