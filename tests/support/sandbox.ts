/**
 * Rows a battery creates for itself through the real API, with bodies the API accepts: a facility
 * with a source and a referring division, reference data (payer, group, billing code, patient tag),
 * an invited user, and cases. The fuzz changes only such rows (and the audit battery calls its
 * mutating routes on them), so the demo world the other batteries read stays as the seed made it.
 */
import { UserType } from '@crisis/forms';
import { api, type ApiResponse } from './api';
import { caseBody as validCaseBody, uniqueLetters } from './cases';
import { db } from './db';

/** Unique per process, so a battery can run again on the same database. */
export const RUN = Date.now().toString(36).toUpperCase();

export function facilityBody(name: string, overrides: Record<string, unknown> = {}) {
  return {
    name,
    description: 'Battery sandbox facility',
    allowReferringDivisionsAccess: true,
    allowPlacementOnlyCases: true,
    isActive: true,
    isMfaEnabled: false,
    isGeoPositionManually: true,
    ehrDepartmentId: null,
    address: { streetLine: '100 Test St', apartmentNumber: null, city: 'Tampa', state: 'FL', zipCode: '33602', county: 'Hillsborough County' },
    geoPosition: { latitude: 27.95, longitude: -82.46 },
    contacts: { phone1: '(813) 555-0190' },
    ...overrides,
  };
}

export function sourceDivisionBody(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Emergency Department',
    type: 'Source',
    isActive: true,
    contacts: { phone1: '+18135550192' },
    sourceType: 'ErCrisis',
    requestTypes: ['Assessment', 'PhoneConsultation'],
    documentInEHR: false,
    noPlacement: false,
    outcomeRequired: true,
    showBillingCode: false,
    ...overrides,
  };
}

export function referringDivisionBody(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Adult Inpatient',
    type: 'Referring',
    isActive: true,
    contacts: { phone1: '+18135550193', fax1: '+18135550194' },
    referringType: 'MentalHealthInpatient',
    criteria: null,
    acceptedPatients: { allAges: false, adult: { isActive: true, from: 18, to: 64 } },
    genders: ['Female', 'Male'],
    veteranOnly: false,
    extendMaximumCallbackTime: false,
    score: 80,
    ...overrides,
  };
}

export const payerBody = (name: string) => ({
  name,
  code: 'BAT',
  isActive: true,
  planName: `${name} Gold Plan`,
  address: { streetLine: '1 Main St', city: 'Tampa', state: 'FL', zipCode: '33602', phone: '(813) 555-0100' },
});

export const groupBody = (name: string, facilityIds: number[]) => ({
  name,
  description: 'County reviewers',
  isActive: true,
  mfaEnabled: false,
  states: ['FL'],
  counties: ['Hillsborough County'],
  facilities: facilityIds,
  excludedFacilities: [],
  placementFacilities: [],
});

export const billingCodeBody = (code: string) => ({
  code,
  description: 'Crisis evaluation',
  sourceDivisionTypes: ['ErCrisis'],
  requestTypes: ['Assessment'],
  isActive: true,
});

export const inviteBody = (email: string, facilityId: number, divisionIds: number[]) => ({
  email,
  phone: '(813) 555-0142',
  firstName: 'Sandbox',
  lastName: `User${uniqueLetters()}`,
  jobTitle: 'Nurse',
  isEnabled: true,
  organizationType: 'Facility',
  organizationId: facilityId,
  userType: UserType.FacilityUser,
  divisionsIds: divisionIds,
  providerInfo: null,
});

export const credentialedProviderBody = (providerId: number, divisionIds: number[]) => ({
  providerId,
  divisionsIds: divisionIds,
  addToNewDivisions: false,
  acceptedPatients: { allAges: true },
});

/** A valid new case (an adult man in Tampa, uninsured), as tests/support/cases.ts createCase sends it. */
export const caseBody = (o: { facilityId?: number; divisionId?: number; providerId?: number | null }) => validCaseBody({ ...o, patient: { lastName: 'Sandbox' } });

/** How the sandbox calls the API (the audit battery passes one that records each call). */
export type Caller = (method: string, path: string, opts: { token: string; body?: unknown }) => Promise<ApiResponse>;

export interface Sandbox {
  facilityId: number;
  sourceDivisionId: number;
  referringDivisionId: number;
  payerId: number;
  groupId: number;
  billingCodeId: number;
  patientTagId: number;
  userId: number;
  /** The invited user's e-mail (the invitation with its set-password link is in the outbox). */
  userEmail: string;
  providerId: number;
  /** A case of the sandbox facility (by the ITP admin, the demo provider evaluating) and one of the facility user's own facility. */
  caseIds: number[];
  /** Their requests. */
  requestIds: number[];
}

/** The created row (its id, and for a case its requestId). */
function created(what: string, res: { status: number; body: any }): any {
  if (res.status !== 200 && res.status !== 201) throw new Error(`sandbox: ${what} not created: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body;
}

/**
 * Creates the sandbox as the ITP admin (and one case as the facility user, in her facility).
 * `label` names its rows (e.g. 'Fuzz') so they are easy to tell from the demo world's.
 */
export async function createSandbox(label: string, tokens: { itpAdmin: string; facilityUser: string }, call: Caller = api): Promise<Sandbox> {
  const token = tokens.itpAdmin;
  const name = `${label} ${RUN}`;
  const facilityId = created('facility', await call('POST', '/api/facilities', { token, body: facilityBody(`${name} Hospital`) })).id;
  const sourceDivisionId = created('source division', await call('POST', `/api/facilities/${facilityId}/divisions`, { token, body: sourceDivisionBody() })).id;
  const referringDivisionId = created('referring division', await call('POST', `/api/facilities/${facilityId}/divisions`, { token, body: referringDivisionBody() })).id;
  const payerId = created('payer', await call('POST', '/api/payers', { token, body: payerBody(`${name} Payer`) })).id;
  const groupId = created('group', await call('POST', '/api/group-organizations', { token, body: groupBody(`${name} Group`, [facilityId]) })).id;
  const billingCodeId = created('billing code', await call('POST', '/api/billing-codes', { token, body: billingCodeBody(`${label.slice(0, 3).toUpperCase()}-${RUN}`) })).id;
  const patientTagId = created('patient tag', await call('POST', '/api/patient-tags', { token, body: { name: `${name} Tag` } })).id;
  const email = `${label.toLowerCase()}-${RUN.toLowerCase()}@sandbox.example.org`;
  const userId = created('user', await call('POST', '/api/user/invite', { token, body: inviteBody(email, facilityId, [sourceDivisionId]) })).id;
  // The demo provider credentialed at the sandbox's source division, so that cases there can name him.
  const providerId = (await db.query("SELECT id FROM users WHERE email = 'provider@itp.example.org'")).rows[0].id;
  created('credentialed provider', await call('POST', `/api/facilities/${facilityId}/credentialed-providers`, { token, body: credentialedProviderBody(providerId, [sourceDivisionId]) }));
  const itpCase = created('case', await call('POST', '/api/cases', { token, body: caseBody({ facilityId, divisionId: sourceDivisionId, providerId }) }));
  const facilityCase = created('case', await call('POST', '/api/cases', { token: tokens.facilityUser, body: caseBody({ providerId: null }) }));
  return {
    facilityId, sourceDivisionId, referringDivisionId, payerId, groupId, billingCodeId, patientTagId, userId, userEmail: email, providerId,
    caseIds: [itpCase.id, facilityCase.id],
    requestIds: [itpCase.requestId, facilityCase.requestId],
  };
}
