import type {
  ActivityReport,
  ActivityRow,
  CaseDetails,
  CaseRequest,
  CaseState,
  PatientChangeLogRow,
  InpatientDivisionNearby,
  PayerInsuranceRecord,
  ProviderOption,
  ReferringDivisionOption,
} from '@crisis/forms/core';
import { http } from './http';

const base = (id: number) => `/api/cases/${id}`;
type Body = Record<string, unknown>;

/** The case page and its lifecycle commands (spec 01 §7). Every lifecycle command answers { state }. */
export const caseMethods = {
  caseDetails: (id: number) => http.get<CaseDetails>(base(id)),
  caseChangeStatus: (id: number, body: Body) => http.put<CaseState>(`${base(id)}/status`, body),
  caseClose: (id: number, body: Body) => http.put<CaseState>(`${base(id)}/close`, body),
  caseChangeOutcome: (id: number, body: Body) => http.put<CaseState>(`${base(id)}/change-outcome`, body),
  caseResume: (id: number) => http.put<CaseState>(`${base(id)}/resume`, {}),
  caseUndo: (id: number) => http.put<CaseState>(`${base(id)}/undo`, {}),
  caseReopenStatus: (id: number) => http.get<{ statusToReopen: string; activeCaseId: number | null }>(`${base(id)}/reopen-status`),
  caseReopen: (id: number) => http.post<CaseState>(`${base(id)}/reopen`, {}),
  caseRemoveFromAccepted: (id: number, divisionId: number) => http.put<CaseState>(`${base(id)}/remove-from-accepted`, { divisionId }),
  caseCloseOptions: (id: number) =>
    http.get<{ accepted: ReferringDivisionOption[]; referring: ReferringDivisionOption[] }>(`${base(id)}/close-options`),
  /** The insurance form's payer look-up by plan name (spec 01 §5 Insurance). */
  payerInsuranceLookup: (planName: string) => http.get<PayerInsuranceRecord[]>(`/api/payers/insurance?planName=${encodeURIComponent(planName)}`),
  /** Active mental-health inpatient divisions nearest the case's source facility, in miles (spec 01 §2). */
  inpatientDivisionsNearby: (id: number) => http.get<InpatientDivisionNearby[]>(`/api/cases/inpatient-divisions/${id}`),
  caseActivity: (id: number) => http.get<ActivityRow[]>(`${base(id)}/activity`),
  caseActivityReport: (id: number) => http.get<ActivityReport>(`${base(id)}/activity/report`),
  caseRequests: (id: number) => http.get<CaseRequest[]>(`${base(id)}/requests`),
  caseRequestTypes: (id: number) => http.get<string[]>(`${base(id)}/requests/types`),
  caseCreateRequest: (id: number, body: Body) => http.post<CaseState>(`${base(id)}/requests`, body),
  caseUpdateRequest: (id: number, requestId: number, body: Body) => http.put<CaseState>(`${base(id)}/requests/${requestId}`, body),
  caseProviders: (divisionId: number, dateOfBirth: string) =>
    http.get<ProviderOption[]>(`/api/cases/providers?divisionId=${divisionId}&dateOfBirth=${encodeURIComponent(dateOfBirth)}`),
  requestCancel: (requestId: number, reason: string) => http.put<CaseState>(`/api/requests/${requestId}/cancel`, { reason }),
  requestNotReady: (requestId: number, reason: string) => http.put<CaseState>(`/api/requests/${requestId}/not-ready-for-evaluation`, { reason }),
  requestStartEvaluation: (requestId: number) => http.put<CaseState>(`/api/requests/${requestId}/evaluation/start`, {}),
  caseUpdateSource: (id: number, body: unknown) => http.put<unknown>(base(id), body),
  caseSourceDivisions: (id: number) => http.get<Array<{ id: number; name: string; isActive: boolean }>>(`${base(id)}/source-divisions`),
  caseUpdatePatient: (id: number, body: unknown) => http.put<unknown>(`${base(id)}/patient`, body),
  casePatientLogs: (id: number, page: number) =>
    http.get<{ rows: PatientChangeLogRow[]; total: number; pageSize: number }>(`${base(id)}/patient/logs?page=${page}`),
};
