import {
  OrganizationType,
  UserType,
  normalizeInput,
  type UserContext,
  type UserInput,
} from '@crisis/forms/core';
import { schemaValidator } from '../common/schemaValidation';

/** The fields of the invite/edit payload (what the server validates with the 'user' schema). */
export function toUserPayload(v: Record<string, any>): UserInput {
  const providerInfo = v.userType === UserType.ItpProvider ? v.providerInfo ?? null : null;
  return normalizeInput({
    email: v.email ?? null,
    phone: v.phone ?? null,
    firstName: v.firstName ?? null,
    lastName: v.lastName ?? null,
    jobTitle: v.jobTitle ?? null,
    isEnabled: v.isEnabled ?? true,
    sendUserUnlockRequeststoThisUser: !!v.sendUserUnlockRequeststoThisUser,
    organizationType: v.organizationType ?? null,
    organizationId: v.organizationType === OrganizationType.ITP ? null : v.organizationId ?? null,
    userType: v.userType ?? null,
    divisionsIds: v.userType === UserType.FacilityUser ? v.divisionsIds ?? [] : [],
    providerInfo,
  }) as UserInput;
}

export const validateUser = schemaValidator('user', toUserPayload);

/** A new user's defaults: a facility admin's invitations are fixed to her facility (spec 03 §6). */
export function newUserDefaults(ctx: UserContext): Record<string, unknown> {
  if (ctx.role === UserType.FacilityAdmin)
    return { isEnabled: true, organizationType: OrganizationType.Facility, organizationId: ctx.organizationId, userType: UserType.FacilityUser, divisionsIds: [], providerInfo: null };
  return { isEnabled: true, organizationType: OrganizationType.ITP, organizationId: null, userType: UserType.ItpAdmin, divisionsIds: [], providerInfo: null, sendUserUnlockRequeststoThisUser: false };
}
