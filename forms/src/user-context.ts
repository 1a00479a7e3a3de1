import type { DivisionType, MfaMethod, OrganizationType, UserType } from './enums';

/** GET /api/user/context: who is signed in, and what they may do (the packed CASL rules). */
export interface UserContext {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  role: UserType;
  organizationType: OrganizationType;
  /** Facility id for facility staff, group id for group users, null for ITP staff. */
  organizationId: number | null;
  organizationName: string;
  facilityId: number | null;
  facilityName: string | null;
  divisionId: number | null;
  divisionName: string | null;
  divisionType: DivisionType | null;
  /** The division's facility is connected to an EHR (it has an EHR department id). */
  isIntegratedWithEMR: boolean;
  /** The ITP emergency-room line shown to facility users. */
  erLine: string | null;
  mfaMethod: MfaMethod | null;
  isPasswordSet: boolean;
  ssoEnabled: boolean;
  disabledPasswordLogin: boolean;
  smsNotifications: { phone: string | null; alwaysReceive: boolean; receiveUntil: string | null; isReceiving: boolean };
  /** Packed CASL rules (packRules of @casl/ability/extra). */
  rules: unknown[];
}

/** The subset of the context the ability table is computed from. */
export type AbilityUser = Pick<
  UserContext,
  'id' | 'role' | 'organizationId' | 'facilityId' | 'divisionId' | 'divisionType' | 'isIntegratedWithEMR'
>;

/** GET /api/settings: what the app needs before sign-in. */
export interface AppSettings {
  productName: string;
  identity: { authority: string; clientId: string; scope: string; resource: string };
  internationalPhones: boolean;
  idleLogoutMs: number;
  idleWarningMs: number;
  demoTools: boolean;
  version: string;
}
