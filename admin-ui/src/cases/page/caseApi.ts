import { api } from '../../data/httpClient';
import type { CaseDetails, CaseRequest } from '../types';

/** The calls of the case page (spec 01 §7). Every lifecycle command answers { state }. */
export interface CaseState {
  state?: { caseId: number; status: string; statusToResume: string | null; version: number };
}

export interface ReferringDivisionOption {
  divisionId: number;
  divisionName: string;
  facilityId: number;
  facilityName: string;
}

export interface ActivityRow {
  id: number;
  status: string;
  statusGroup: string;
  kind: string | null;
  note: string | null;
  initiatorName: string | null;
  startedAt: string;
  endedAt: string | null;
  undone: boolean;
  durationSeconds: number;
}

export interface ProviderOption {
  id: number;
  firstName: string;
  lastName: string;
  type?: string | null;
  biography?: string | null;
}

const base = (id: number) => `/api/cases/${id}`;

export const caseApi = {
  details: (id: number) => api.get<CaseDetails>(base(id)),
  changeStatus: (id: number, body: Record<string, unknown>) => api.put<CaseState>(`${base(id)}/status`, body),
  close: (id: number, body: Record<string, unknown>) => api.put<CaseState>(`${base(id)}/close`, body),
  changeOutcome: (id: number, body: Record<string, unknown>) => api.put<CaseState>(`${base(id)}/change-outcome`, body),
  resume: (id: number) => api.put<CaseState>(`${base(id)}/resume`, {}),
  undo: (id: number) => api.put<CaseState>(`${base(id)}/undo`, {}),
  reopenStatus: (id: number) => api.get<{ statusToReopen: string; activeCaseId: number | null }>(`${base(id)}/reopen-status`),
  reopen: (id: number) => api.post<CaseState>(`${base(id)}/reopen`, {}),
  closeOptions: (id: number) => api.get<{ accepted: ReferringDivisionOption[]; referring: ReferringDivisionOption[] }>(`${base(id)}/close-options`),
  activity: (id: number) => api.get<ActivityRow[]>(`${base(id)}/activity`),
  requests: (id: number) => api.get<CaseRequest[]>(`${base(id)}/requests`),
  requestTypes: (id: number) => api.get<string[]>(`${base(id)}/requests/types`),
  createRequest: (id: number, body: Record<string, unknown>) => api.post<CaseState>(`${base(id)}/requests`, body),
  updateRequest: (id: number, requestId: number, body: Record<string, unknown>) => api.put<CaseState>(`${base(id)}/requests/${requestId}`, body),
  providers: (divisionId: number, dateOfBirth: string) =>
    api.get<ProviderOption[]>(`/api/cases/providers?divisionId=${divisionId}&dateOfBirth=${encodeURIComponent(dateOfBirth)}`),
  cancelRequest: (requestId: number, reason: string) => api.put<CaseState>(`/api/requests/${requestId}/cancel`, { reason }),
  notReady: (requestId: number, reason: string) => api.put<CaseState>(`/api/requests/${requestId}/not-ready-for-evaluation`, { reason }),
  inProgress: (requestId: number) => api.put<CaseState>(`/api/requests/${requestId}/in-progress`, {}),
  startEvaluation: (requestId: number) => api.put<CaseState>(`/api/requests/${requestId}/evaluation/start`, {}),
};

/** 'MentalHealthInpatient' → 'Mental Health Inpatient'; 'Transferred_MedicalUnit' → 'Transferred: Medical Unit'. */
export function enumLabel(value: string | null | undefined): string {
  if (!value) return '';
  const words = (v: string) => v.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
  const [head, ...rest] = value.split('_');
  return rest.length ? `${words(head)}: ${rest.map(words).join(' — ')}` : words(head);
}
