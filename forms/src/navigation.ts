import type { AppAbility, Subject } from './abilities';
import type { UserContext } from './user-context';
import { DivisionType, OrganizationType, UserType } from './enums';

/** One link of the navigation bar (spec 03 §2 "Navigation bar"). */
export interface NavLink {
  label: string;
  to: string;
}

/** Entries of the Admin dropdown, in order, each with the ability that shows it. */
const ADMIN_ENTRIES: Array<NavLink & { action: 'access' | 'manage' | 'list' | 'read'; subject: Subject; group?: string }> = [
  { label: 'Facility settings', to: '/facility/settings', action: 'access', subject: 'FacilitySettings' },
  { label: 'Users', to: '/users', action: 'manage', subject: 'User' },
  { label: 'Facilities', to: '/facilities', action: 'manage', subject: 'Facility' },
  { label: 'Group organizations', to: '/group-organizations', action: 'manage', subject: 'Group' },
  { label: 'Patients', to: '/patients', action: 'manage', subject: 'Patient' },
  { label: 'Evaluation forms', to: '/evaluation-forms', action: 'manage', subject: 'EvaluationForm' },
  { label: 'ITP organization settings', to: '/itp-organization-settings', action: 'manage', subject: 'ItpOrganization' },
  { label: 'Billing codes', to: '/billing-codes', action: 'manage', subject: 'BillingCode', group: 'Insurance' },
  { label: 'Payers', to: '/payers', action: 'manage', subject: 'Payer', group: 'Insurance' },
  { label: 'Patient tags', to: '/patient-tags', action: 'manage', subject: 'PatientTag' },
  { label: 'Audit log', to: '/activity', action: 'read', subject: 'AuditLog' },
];

export interface Navigation {
  links: NavLink[];
  admin: Array<NavLink & { group?: string }>;
  profile: { changePassword: boolean; resetMfa: boolean };
  facilityLabel: { facilityName: string; divisionName: string | null; erLine: string | null; hideErLineOnCases: boolean } | null;
  smsControl: boolean;
  notificationBell: boolean;
}

/** The navigation bar for a signed-in user, derived from the ability table. */
export function navigationFor(user: UserContext, ability: AppAbility): Navigation {
  const links: NavLink[] = [{ label: 'Dashboard', to: '/dashboard' }];
  if (ability.can('access', 'ProviderCases')) links.push({ label: 'Cases', to: '/cases' });
  if (ability.can('access', 'ItpQueue') || ability.can('access', 'ProviderQueue')) links.push({ label: 'Queue', to: '/queue' });
  if (ability.can('access', 'PastCases')) links.push({ label: 'Past cases', to: '/cases/past' });
  if (ability.can('access', 'UnlockUsers')) links.push({ label: 'Unlock users', to: '/unlock-users' });
  const isAdmin = user.role === UserType.ItpAdmin || user.role === UserType.FacilityAdmin;
  const admin = isAdmin
    ? ADMIN_ENTRIES.filter((e) => ability.can(e.action, e.subject)).map(({ label, to, group }) => ({ label, to, group }))
    : [];
  return {
    links,
    admin,
    profile: {
      changePassword: user.isPasswordSet,
      resetMfa: user.isPasswordSet && user.mfaMethod !== null,
    },
    facilityLabel:
      user.organizationType === OrganizationType.Facility && user.facilityName
        ? {
            facilityName: user.facilityName,
            divisionName: user.divisionName,
            erLine: user.erLine,
            hideErLineOnCases: user.divisionType === DivisionType.Referring,
          }
        : null,
    smsControl: ability.can('access', 'SmsNotifications'),
    notificationBell: ability.can('access', 'NotificationBell'),
  };
}
