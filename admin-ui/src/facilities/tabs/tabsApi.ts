import type {
  CredentialedProviderRecord,
  EvaluationFormLookup,
  FacilityEvaluationFormRecord,
  FacilityLookup,
  PreferredFacilityRecord,
  ProviderChoice,
  StateRestrictionRecord,
} from '@crisis/forms';
import { API_URL } from '../../data/dataProvider';
import { httpClient } from '../../data/httpClient';

const base = (facilityId: number) => `${API_URL}/facilities/${facilityId}`;
const enc = (v: unknown) => encodeURIComponent(JSON.stringify(v));
const totalOf = (headers: Headers) => Number(headers.get('content-range')?.split('/').pop() ?? 0);

async function call<T>(method: string, url: string, body?: unknown): Promise<T> {
  const res = await httpClient(url, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return res.json as T;
}

async function page<T>(url: string, filter: object, page: number, perPage: number): Promise<{ rows: T[]; total: number }> {
  const from = page * perPage;
  const res = await httpClient(`${url}?filter=${enc(filter)}&range=${enc([from, from + perPage - 1])}&sort=${enc(['name', 'ASC'])}`);
  return { rows: res.json as T[], total: totalOf(res.headers) };
}

/** The facility detail tabs' calls (spec 03 §7 Facilities). */
export const tabsApi = {
  credentialedProviders: (facilityId: number, filter: { q?: string; divisionsIds?: number[] }, p: number, perPage: number) =>
    page<CredentialedProviderRecord>(`${base(facilityId)}/credentialed-providers`, filter, p, perPage),
  availableProviders: (facilityId: number, exceptProviderId: number | null) =>
    call<ProviderChoice[]>(
      'GET',
      `${base(facilityId)}/credentialed-providers/available-providers${exceptProviderId ? `?exceptProviderId=${exceptProviderId}` : ''}`,
    ),
  createCredentialedProvider: (facilityId: number, body: unknown) => call<CredentialedProviderRecord>('POST', `${base(facilityId)}/credentialed-providers`, body),
  updateCredentialedProvider: (facilityId: number, providerId: number, body: unknown) =>
    call<CredentialedProviderRecord>('PUT', `${base(facilityId)}/credentialed-providers/${providerId}`, body),
  removeCredentialedProvider: (facilityId: number, providerId: number) => call('DELETE', `${base(facilityId)}/credentialed-providers/${providerId}`),
  activeSourceDivisions: (facilityId: number) =>
    call<Array<{ id: number; name: string }>>('GET', `${base(facilityId)}/divisions/lookups?filter=${enc({ type: 'Source', showActiveOnly: true })}`),

  preferredFacilities: (facilityId: number, p: number, perPage: number) =>
    page<PreferredFacilityRecord>(`${base(facilityId)}/preferred-facilities`, {}, p, perPage),
  availablePreferred: (facilityId: number) => call<FacilityLookup[]>('GET', `${base(facilityId)}/preferred-facilities/available`),
  addPreferred: (facilityId: number, preferredId: number) => call('POST', `${base(facilityId)}/preferred-facilities`, { facilityId: preferredId }),
  removePreferred: (facilityId: number, preferredId: number) => call('DELETE', `${base(facilityId)}/preferred-facilities/${preferredId}`),

  evaluationForms: () => call<EvaluationFormLookup[]>('GET', `${API_URL}/evaluation-forms`),
  facilityEvaluationForms: (facilityId: number) => call<FacilityEvaluationFormRecord[]>('GET', `${base(facilityId)}/evaluation-forms`),
  saveFacilityEvaluationForm: (facilityId: number, body: { requestType: string; evaluationFormId: number | null; isAthenaBilled: boolean }) =>
    call<FacilityEvaluationFormRecord>('PUT', `${base(facilityId)}/evaluation-forms`, body),

  stateRestrictions: (facilityId: number) => call<StateRestrictionRecord[]>('GET', `${base(facilityId)}/state-restrictions`),
  saveStateRestriction: (facilityId: number, state: string, body: { type: string; withinTravelTime: number | null }) =>
    call<StateRestrictionRecord>('PUT', `${base(facilityId)}/state-restrictions/${state}`, body),
  populateOutOfState: (facilityId: number) => call<{ populateOutOfStateFacilities: boolean }>('GET', `${base(facilityId)}/populate-out-of-state-facilities`),
  setPopulateOutOfState: (facilityId: number, value: boolean) =>
    call<{ populateOutOfStateFacilities: boolean }>('PUT', `${base(facilityId)}/populate-out-of-state-facilities`, { populateOutOfStateFacilities: value }),
};

/** A small confirmation dialog's state: what to ask and what to do on yes. */
export interface Confirmation {
  title: string;
  message: string;
  onConfirm: () => void | Promise<void>;
}
