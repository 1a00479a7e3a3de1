import { PASSWORD_MAX, SMS_HOURS_LIMIT_ITP, SMS_HOURS_LIMIT_PROVIDER, USER_SEARCH_MIN_CHARS } from '../constants';
import {
  MFA_METHODS,
  ORGANIZATION_TYPES,
  OrganizationType,
  USER_TYPES,
  USER_TYPES_BY_ORGANIZATION_TYPE,
  UserType,
  type MfaMethod,
} from '../enums';
import type { FieldError } from '../errors';
import { PASSWORD_PATTERN } from '../password';
import { id, mediumText, optionalLargeText, optionalMediumText, phone, objectSchema } from './common';

/** Users administration (spec 03 §2 /users, §3 User, §4, §5 Invite/edit user, Profile, User search filter). */

export const PROVIDER_TYPES = ['MD', 'ARNP'] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

export interface ProviderInfo {
  providerType: ProviderType;
  npi: string | null;
  biography?: string | null;
  videoHostId?: string | null;
  dialPadUrl?: string | null;
}

/** The affiliation and details an admin edits (POST /api/user/invite, PUT /api/user/{id}). */
export interface UserInput {
  email: string;
  phone: string;
  firstName: string;
  lastName: string;
  jobTitle?: string | null;
  isEnabled: boolean;
  sendUserUnlockRequeststoThisUser?: boolean | null;
  organizationType: OrganizationType;
  organizationId?: number | null;
  userType: UserType;
  divisionsIds?: number[] | null;
  providerInfo?: ProviderInfo | null;
}

/** A row of GET /api/user and the record of GET /api/user/{id}. */
export interface UserRecord extends UserInput {
  id: number;
  isActive: boolean;
  creating: boolean;
  emailConfirmed: boolean;
  passwordLockedOut: boolean;
  lockedDueInactivity: boolean;
  lastLogin: string | null;
  mfaMethod: MfaMethod | null;
  ssoEnabled: boolean;
  disabledPasswordLogin: boolean;
  isPasswordSet: boolean;
  organizationName: string | null;
  divisions: { id: number; name: string }[];
  failedLoginCount?: number;
  /** Image reference for GET /api/avatar/{reference}. */
  avatar?: string | null;
}

/** Fields of the record that the edit form sends back and the server ignores. */
const READ_ONLY_RECORD_FIELDS = [
  'id',
  'isActive',
  'creating',
  'emailConfirmed',
  'passwordLockedOut',
  'lockedDueInactivity',
  'lastLogin',
  'mfaMethod',
  'ssoEnabled',
  'disabledPasswordLogin',
  'isPasswordSet',
  'organizationName',
  'divisions',
  'failedLoginCount',
  'fullName',
  'avatar',
] as const;
const readOnly = Object.fromEntries(READ_ONLY_RECORD_FIELDS.map((f) => [f, { readOnly: true }]));

export const providerInfoSchema = {
  type: ['object', 'null'],
  additionalProperties: false,
  required: ['providerType', 'npi'],
  properties: {
    providerType: { type: 'string', enum: PROVIDER_TYPES },
    npi: mediumText,
    biography: optionalLargeText,
    videoHostId: optionalMediumText,
    dialPadUrl: optionalMediumText,
  },
} as const;

export const userSchema = objectSchema('user', ['email', 'phone', 'firstName', 'lastName', 'organizationType', 'userType'], {
  email: { type: 'string', maxLength: 255, format: 'email' },
  phone,
  firstName: mediumText,
  lastName: mediumText,
  jobTitle: optionalMediumText,
  isEnabled: { type: 'boolean', default: true },
  sendUserUnlockRequeststoThisUser: { type: ['boolean', 'null'], default: false },
  organizationType: { type: 'string', enum: ORGANIZATION_TYPES },
  organizationId: { type: ['integer', 'null'], minimum: 1, maximum: 2147483647 },
  userType: { type: 'string', enum: USER_TYPES },
  divisionsIds: { type: ['array', 'null'], items: id, uniqueItems: true, maxItems: 500 },
  providerInfo: providerInfoSchema,
  ...readOnly,
});

/** Rules of spec 03 §5 Invite/edit user that depend on the organization and user type. */
export function userRules(d: any): FieldError[] {
  const errors: FieldError[] = [];
  const req = (field: string): FieldError => ({ field, key: 'required', message: 'This field is required' });
  const allowed = USER_TYPES_BY_ORGANIZATION_TYPE[d.organizationType as OrganizationType] ?? [];
  if (!allowed.includes(d.userType))
    errors.push({ field: 'userType', key: 'enum', message: 'The user type is not allowed for this organization type' });
  if (d.organizationType === OrganizationType.ITP) {
    if (d.organizationId !== null && d.organizationId !== undefined)
      errors.push({ field: 'organizationId', key: 'mustBeEmpty', message: 'Must be empty for the ITP' });
  } else if (d.organizationId === null || d.organizationId === undefined) errors.push(req('organizationId'));
  if (d.userType === UserType.FacilityUser && !(Array.isArray(d.divisionsIds) && d.divisionsIds.length > 0))
    errors.push(req('divisionsIds'));
  if (d.userType === UserType.ItpProvider) {
    if (!d.providerInfo) errors.push(req('providerInfo'));
  } else if (d.providerInfo !== null && d.providerInfo !== undefined)
    errors.push({ field: 'providerInfo', key: 'mustBeEmpty', message: 'Only providers have provider info' });
  return errors;
}

/** GET/PUT /api/user/profile/{id}: the user's own details; the affiliation is read-only there. */
export const profileSchema = objectSchema('profile', ['firstName', 'lastName', 'phone'], {
  firstName: mediumText,
  lastName: mediumText,
  phone,
  jobTitle: optionalMediumText,
  email: { readOnly: true },
  organizationType: { readOnly: true },
  organizationId: { readOnly: true },
  userType: { readOnly: true },
  divisionsIds: { readOnly: true },
  providerInfo: { readOnly: true },
  isEnabled: { readOnly: true },
  sendUserUnlockRequeststoThisUser: { readOnly: true },
  ...readOnly,
  /**
   * The user's own choice of how sign-in codes reach her (spec 03 §2 "MFA methods: Email, Sms"):
   * null or absent leaves it as it is (clearing it is "Reset MFA"); SMS goes to the profile's phone.
   */
  mfaMethod: { type: ['string', 'null'], enum: [...MFA_METHODS, null] },
});

/** The profile's fields the user changes herself (PUT /api/user/profile/{id}). */
export interface ProfileInput {
  firstName: string;
  lastName: string;
  phone: string;
  jobTitle?: string | null;
  mfaMethod?: MfaMethod | null;
}

/** User search filter (spec 03 §5): GET /api/user. */
export const userListFilterSchema = objectSchema('userListFilter', [], {
  nameOrEmail: { type: ['string', 'null'], minLength: USER_SEARCH_MIN_CHARS, maxLength: 255 },
  q: { type: ['string', 'null'], minLength: USER_SEARCH_MIN_CHARS, maxLength: 255 },
  organizationIds: { type: ['array', 'null'], items: id, maxItems: 500 },
  organizationTypes: { type: ['array', 'null'], items: { type: 'string', enum: ORGANIZATION_TYPES } },
  divisionsIds: { type: ['array', 'null'], items: id, maxItems: 500 },
  userTypes: { type: ['array', 'null'], items: { type: 'string', enum: USER_TYPES } },
  userType: { type: ['string', 'null'], enum: [...USER_TYPES, null] },
  status: { type: ['string', 'null'], enum: ['enabledOnly', 'lockedOnly', 'notActivatedOnly', null] },
  enabledOnly: { type: ['boolean', 'null'] },
  lockedOnly: { type: ['boolean', 'null'] },
  notActivatedOnly: { type: ['boolean', 'null'] },
  id: { type: ['array', 'null'], items: id, maxItems: 1000 },
});

/** Bulk actions and unlock: the body is a list of user ids. */
export const userIdsSchema = {
  $id: 'userIds',
  type: 'array',
  items: id,
  minItems: 1,
  maxItems: 1000,
  uniqueItems: true,
} as const;

const password = { type: 'string', minLength: 8, maxLength: PASSWORD_MAX, pattern: PASSWORD_PATTERN } as const;

/** The set-password and reset-password pages of an e-mailed link. */
export const setPasswordSchema = objectSchema('setPassword', ['newPassword', 'confirmPassword'], {
  newPassword: password,
  confirmPassword: { type: 'string', maxLength: PASSWORD_MAX },
});

export function setPasswordRules(d: any): FieldError[] {
  return d.newPassword && d.confirmPassword !== d.newPassword
    ? [{ field: 'confirmPassword', key: 'passwordsDoNotMatch', message: 'Passwords do not match' }]
    : [];
}

// ---------------------------------------------------------------------------------------------
// Status and bulk action applicability (spec 03 §4), used by the API and the user list alike.

export type UserStatus = 'pending' | 'enabled' | 'disabled';

/** The row fields the status and the bulk rules read. */
export interface UserStatusRow {
  creating: boolean;
  isActive: boolean;
  emailConfirmed: boolean;
  passwordLockedOut: boolean;
  lockedDueInactivity: boolean;
  mfaMethod: MfaMethod | null;
  ssoEnabled: boolean;
  disabledPasswordLogin: boolean;
  userType: UserType;
}

export const userStatus = (u: Pick<UserStatusRow, 'creating' | 'isActive'>): UserStatus =>
  u.creating ? 'pending' : u.isActive ? 'enabled' : 'disabled';
export const isUserLocked = (u: Pick<UserStatusRow, 'passwordLockedOut' | 'lockedDueInactivity'>) =>
  u.passwordLockedOut || u.lockedDueInactivity;

const ADMIN_TYPES: UserType[] = [UserType.ItpAdmin, UserType.FacilityAdmin];
/** Password login is usable unless SSO is on and password login is disabled; admins always count as usable. */
export const passwordLoginUsable = (u: Pick<UserStatusRow, 'ssoEnabled' | 'disabledPasswordLogin' | 'userType'>) =>
  ADMIN_TYPES.includes(u.userType) || !(u.ssoEnabled && u.disabledPasswordLogin);

export const USER_BULK_ACTIONS = ['activate', 'deactivate', 'resend-invitation', 'reset-mfa', 'reset-password', 'unlock'] as const;
export type UserBulkAction = (typeof USER_BULK_ACTIONS)[number];

export const USER_BULK_ACTION_LABELS: Record<UserBulkAction, string> = {
  activate: 'Activate',
  deactivate: 'Deactivate',
  'resend-invitation': 'Resend invitation',
  'reset-mfa': 'Reset MFA',
  'reset-password': 'Send reset-password instructions',
  unlock: 'Unlock',
};

/** Whether a bulk action applies to a row; rows that do not qualify are skipped. */
export function bulkActionApplies(action: UserBulkAction, u: UserStatusRow): boolean {
  const pending = u.creating;
  switch (action) {
    case 'activate':
      return !pending && !u.isActive;
    case 'deactivate':
      return !pending && u.isActive;
    case 'resend-invitation':
      return !pending && !u.emailConfirmed;
    case 'reset-mfa':
      return !pending && !!u.mfaMethod && passwordLoginUsable(u);
    case 'reset-password':
      return u.isActive && u.emailConfirmed && passwordLoginUsable(u);
    case 'unlock':
      return isUserLocked(u);
  }
}

/** The toast (and the API's coded 400) when no selected row qualifies. */
export const NO_SUITABLE_ROWS = 'users.table.actions.no-suitable-rows';

// ---------------------------------------------------------------------------------------------
// Form dynamics (spec 03 §4): what changing one affiliation field does to the others.

export type UserFormValues = Partial<UserInput> & Record<string, unknown>;

export function onOrganizationTypeChange(v: UserFormValues, organizationType: OrganizationType): UserFormValues {
  const userType = USER_TYPES_BY_ORGANIZATION_TYPE[organizationType]?.[0];
  return onUserTypeChange({ ...v, organizationType, organizationId: null, divisionsIds: [] }, userType);
}

export function onUserTypeChange(v: UserFormValues, userType: UserType): UserFormValues {
  const out: UserFormValues = { ...v, userType };
  if (userType === UserType.ItpProvider) out.providerInfo = v.providerInfo ?? blankProviderInfo();
  else {
    out.providerInfo = null;
    out.divisionsIds = [];
  }
  if (userType === UserType.ItpAdmin) out.sendUserUnlockRequeststoThisUser = false;
  if (userType === UserType.ItpUser) out.sendUserUnlockRequeststoThisUser = true;
  return out;
}

export const onOrganizationChange = (v: UserFormValues, organizationId: number | null): UserFormValues => ({
  ...v,
  organizationId,
  divisionsIds: [],
});

export const blankProviderInfo = (): ProviderInfo => ({ providerType: 'ARNP', npi: null, biography: null, videoHostId: null, dialPadUrl: null });

export const USER_MFA_METHODS = MFA_METHODS;

// ---------------------------------------------------------------------------------------------
// SMS notification settings (spec 03 §3 Notification settings, §5 SMS settings).

export const SMS_RECEIVE_TYPES = ['Always', 'ForTheNextNumberOfHours'] as const;
export type SmsReceiveType = (typeof SMS_RECEIVE_TYPES)[number];

/**
 * The spec's payload (03 §7 "POST /api/user/sms-notifications-receiving/start (phone, receiveUntil,
 * alwaysReceive)"): always, or until a time at most the role's limit ahead. The settings form asks
 * "always / for the next N hours" (03 §5) and sends the end it computes (smsWindowEnd).
 */
export interface SmsNotificationsStartInput {
  phone: string;
  alwaysReceive: boolean;
  receiveUntil?: string | null;
}

/** The most hours of a timed window for a role (ITP admin/user 12, provider 24); 0 when the role may not start SMS. */
export function smsHoursLimit(role: UserType | string): number {
  if (role === UserType.ItpProvider) return SMS_HOURS_LIMIT_PROVIDER;
  if (role === UserType.ItpAdmin || role === UserType.ItpUser) return SMS_HOURS_LIMIT_ITP;
  return 0;
}

export const smsNotificationsStartSchema = objectSchema('smsNotificationsStart', ['phone', 'alwaysReceive'], {
  phone,
  alwaysReceive: { type: 'boolean' },
  receiveUntil: { type: ['string', 'null'], format: 'date-time' },
});

/** The end of a window of `hours` from `now`, as the form sends it. */
export const smsWindowEnd = (hours: number, now = new Date()): string => new Date(now.getTime() + hours * 3600_000).toISOString();

/** A request's clock may run a little behind the server's: the limit is checked with this much slack. */
const SMS_WINDOW_SLACK_MS = 60_000;

/** receiveUntil is required for a timed window, in the future and at most the role's limit ahead (pass the role when known). */
export function smsNotificationsStartRules(d: any, role?: UserType | string, now = new Date()): FieldError[] {
  if (d?.alwaysReceive !== false) return [];
  const until = d.receiveUntil;
  if (until === null || until === undefined || until === '') return [{ field: 'receiveUntil', key: 'required', message: 'This field is required' }];
  const end = Date.parse(until);
  if (Number.isNaN(end)) return [{ field: 'receiveUntil', key: 'format', message: 'Must be a date and time' }];
  if (end <= now.getTime()) return [{ field: 'receiveUntil', key: 'minimum', message: 'Must be in the future' }];
  const limit = role ? smsHoursLimit(role) : Math.max(SMS_HOURS_LIMIT_ITP, SMS_HOURS_LIMIT_PROVIDER);
  if (end > now.getTime() + limit * 3600_000 + SMS_WINDOW_SLACK_MS)
    return [{ field: 'receiveUntil', key: 'maximum', message: `Must be at most ${limit} hours from now` }];
  return [];
}

/** What the settings mean now: receiving when always, or until a time still in the future. */
export function isReceivingSms(s: { alwaysReceive?: boolean; receiveUntil?: string | null } | null | undefined, now = new Date()): boolean {
  return !!s && (!!s.alwaysReceive || (!!s.receiveUntil && new Date(s.receiveUntil) > now));
}

// ---------------------------------------------------------------------------------------------
// User CSV import (spec 03 §5 User import): the template's columns, in order.

export const USER_IMPORT_COLUMNS = [
  'firstName',
  'lastName',
  'email',
  'phone',
  'jobTitle',
  'organizationType',
  'organization',
  'userType',
  'divisions',
] as const;
export const USER_IMPORT_TEMPLATE_FILE = 'Users_Import_Template.csv';
export const MUST_BE_CSV = 'Must be CSV file';
export const EMPTY_FILE = "You can't upload empty file";
export const FILE_TOO_BIG = 'File size bigger than allowed max size';
