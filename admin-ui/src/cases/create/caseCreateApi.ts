import type { RequestType } from '@crisis/forms';
import { api } from '../../data/httpClient';

/** One patient of GET /api/cases/search-patient (spec 01 §2 search result). */
export interface PatientMatch {
  id: number;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  gender: string | null;
  city: string | null;
  state: string | null;
  lastCaseId: number | null;
  lastCaseCreatedAt: string | null;
  lastCaseStatus: string | null;
  activeCase: boolean;
}

export interface SourceFacilityOption {
  id: number;
  name: string;
  city: string | null;
  state: string | null;
  isIntegratedWithEMR: boolean;
}

export interface SourceDivisionOption {
  id: number;
  name: string;
  isIntegratedWithEMR: boolean;
  allowPlacementOnlyCases: boolean;
}

export interface ProviderOption {
  id: number;
  firstName: string;
  lastName: string;
  avatar: string | null;
  biography: string | null;
}

/** The search data carried from /cases/create/search to the next screens (query string). */
export interface SearchData {
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  patientEpicId?: string | null;
  encounterIdentifier?: string | null;
}

const qs = (o: Record<string, string | number | null | undefined>) =>
  new URLSearchParams(Object.entries(o).filter(([, v]) => v !== null && v !== undefined && v !== '') as [string, string][]).toString();

export const searchToQuery = (d: SearchData, extra: Record<string, string | number | null | undefined> = {}) =>
  qs({ firstName: d.firstName, lastName: d.lastName, dateOfBirth: d.dateOfBirth, patientEpicId: d.patientEpicId, encounterIdentifier: d.encounterIdentifier, ...extra });

export function searchFromQuery(params: URLSearchParams): SearchData | null {
  const firstName = params.get('firstName');
  const lastName = params.get('lastName');
  const dateOfBirth = params.get('dateOfBirth');
  if (!firstName || !lastName || !dateOfBirth) return null;
  return { firstName, lastName, dateOfBirth, patientEpicId: params.get('patientEpicId'), encounterIdentifier: params.get('encounterIdentifier') };
}

export const createApi = {
  searchPatients: (d: SearchData) =>
    api.get<PatientMatch[]>(`/api/cases/search-patient?${qs({ firstName: d.firstName, lastName: d.lastName, dateOfBirth: d.dateOfBirth })}`),
  sourceFacilities: () => api.get<SourceFacilityOption[]>('/api/cases/source-facilities'),
  sourceDivisions: (facilityId: number) => api.get<SourceDivisionOption[]>(`/api/cases/source-divisions?facilityId=${facilityId}`),
  requestTypes: (divisionId: number, patientId: number | null) =>
    api.get<RequestType[]>(`/api/cases/request-types?${qs({ divisionId, patientId })}`),
  providers: (divisionId: number, dateOfBirth: string | null) =>
    api.get<ProviderOption[]>(`/api/cases/providers?${qs({ divisionId, dateOfBirth })}`),
  payers: () => api.get<Array<{ id: number; name: string }>>('/api/cases/payers'),
  patient: (id: number) => api.get<Record<string, any>>(`/api/patients/${id}`),
  create: (payload: unknown) => api.post<{ id: number; requestId: number; status: string }>('/api/cases', payload),
};

/** 'TelepsychUrgentCrisisEvaluation' → 'Telepsych Urgent Crisis Evaluation'; 'OnHold_Other' → 'On Hold: Other'. */
export function humanize(value: string | null | undefined): string {
  if (!value) return '';
  return value
    .split('_')
    .map((part) => part.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/([A-Z])([A-Z][a-z])/g, '$1 $2'))
    .join(': ');
}
