import type {
  CredentialedProviderRecord,
  EvaluationFormLookup,
  FacilityEhrConnectionRecord,
  FacilityEhrKeyRecord,
  FacilityEhrTestRecord,
  FacilityEvaluationFormRecord,
  FacilityLookup,
  PreferredFacilityRecord,
  ProviderChoice,
  StateRestrictionRecord,
} from '@crisis/forms/core';
import { enc, http } from './http';

const base = (facilityId: number) => `/api/facilities/${facilityId}`;
const page = <T>(url: string, filter: object, p: number, perPage: number) =>
  http.page<T>(`${url}?filter=${enc(filter)}&range=${enc([p * perPage, p * perPage + perPage - 1])}&sort=${enc(['name', 'ASC'])}`);

/** The facility detail tabs' calls (spec 03 §7 Facilities). */
export const facilityTabMethods = {
  credentialedProviders: (facilityId: number, filter: { q?: string; divisionsIds?: number[] }, p: number, perPage: number) =>
    page<CredentialedProviderRecord>(`${base(facilityId)}/credentialed-providers`, filter, p, perPage),
  availableProviders: (facilityId: number, exceptProviderId: number | null) =>
    http.get<ProviderChoice[]>(
      `${base(facilityId)}/credentialed-providers/available-providers${exceptProviderId ? `?exceptProviderId=${exceptProviderId}` : ''}`,
    ),
  createCredentialedProvider: (facilityId: number, body: unknown) => http.post<CredentialedProviderRecord>(`${base(facilityId)}/credentialed-providers`, body),
  updateCredentialedProvider: (facilityId: number, providerId: number, body: unknown) =>
    http.put<CredentialedProviderRecord>(`${base(facilityId)}/credentialed-providers/${providerId}`, body),
  removeCredentialedProvider: (facilityId: number, providerId: number) => http.del<unknown>(`${base(facilityId)}/credentialed-providers/${providerId}`),
  activeSourceDivisions: (facilityId: number) =>
    http.get<Array<{ id: number; name: string }>>(`${base(facilityId)}/divisions/lookups?filter=${enc({ type: 'Source', showActiveOnly: true })}`),

  preferredFacilities: (facilityId: number, p: number, perPage: number) =>
    page<PreferredFacilityRecord>(`${base(facilityId)}/preferred-facilities`, {}, p, perPage),
  availablePreferred: (facilityId: number) => http.get<FacilityLookup[]>(`${base(facilityId)}/preferred-facilities/available`),
  addPreferred: (facilityId: number, preferredId: number) => http.post<unknown>(`${base(facilityId)}/preferred-facilities`, { facilityId: preferredId }),
  removePreferred: (facilityId: number, preferredId: number) => http.del<unknown>(`${base(facilityId)}/preferred-facilities/${preferredId}`),

  evaluationForms: () => http.get<EvaluationFormLookup[]>('/api/evaluation-forms/lookups'),
  facilityEvaluationForms: (facilityId: number) => http.get<FacilityEvaluationFormRecord[]>(`${base(facilityId)}/evaluation-forms`),
  saveFacilityEvaluationForm: (facilityId: number, body: { requestType: string; evaluationFormId: number | null; isAthenaBilled: boolean }) =>
    http.put<FacilityEvaluationFormRecord>(`${base(facilityId)}/evaluation-forms`, body),

  // The facility's EHR (FHIR) connection (issue 16): the private key never comes back.
  ehrConnection: (facilityId: number) => http.get<FacilityEhrConnectionRecord>(`${base(facilityId)}/ehr-connection`),
  saveEhrConnection: (facilityId: number, body: { dialect: string; baseUrl: string | null; tokenUrl: string | null; clientId: string | null; keyId: string | null }) =>
    http.put<FacilityEhrConnectionRecord>(`${base(facilityId)}/ehr-connection`, body),
  generateEhrKey: (facilityId: number) => http.post<FacilityEhrKeyRecord>(`${base(facilityId)}/ehr-connection/key`, {}),
  testEhrConnection: (facilityId: number) => http.post<FacilityEhrTestRecord>(`${base(facilityId)}/ehr-connection/test`, {}),

  stateRestrictions: (facilityId: number) => http.get<StateRestrictionRecord[]>(`${base(facilityId)}/state-restrictions`),
  saveStateRestriction: (facilityId: number, state: string, body: { type: string; withinTravelTime: number | null }) =>
    http.put<StateRestrictionRecord>(`${base(facilityId)}/state-restrictions/${state}`, body),
  populateOutOfState: (facilityId: number) => http.get<{ populateOutOfStateFacilities: boolean }>(`${base(facilityId)}/populate-out-of-state-facilities`),
  setPopulateOutOfState: (facilityId: number, value: boolean) =>
    http.put<{ populateOutOfStateFacilities: boolean }>(`${base(facilityId)}/populate-out-of-state-facilities`, { populateOutOfStateFacilities: value }),
};
