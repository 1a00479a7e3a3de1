import type { CaseState, OnlineMeetingCreateInput, OnlineMeetingRow, OnlineMeetingView, EvaluationBillingCode, EvaluationChangeLogRow, EvaluationFormRecord, EvaluationSaveInput, EvaluationSaved, EvaluationView } from '@crisis/forms/core';
import { enc, http, tz } from './http';

const request = (id: number) => `/api/requests/${id}`;

/** The evaluation screen and the form editor's calls that are not CRUD (spec 02 §7 Requests, Evaluation forms). */
export const evaluationMethods = {
  evaluation: (requestId: number) => http.get<EvaluationView>(`${request(requestId)}/evaluation`),
  /** Autosave (new mode) and save (edit mode); answers the new version. */
  saveEvaluation: (requestId: number, body: EvaluationSaveInput) => http.put<EvaluationSaved>(`${request(requestId)}/evaluation`, body),
  completeEvaluation: (requestId: number, body: { sourceDivisionId: number; version: number }) =>
    http.put<{ state: CaseState }>(`${request(requestId)}/evaluation/complete`, body),
  evaluationChangeLog: (requestId: number, page: number, perPage: number) =>
    http.page<EvaluationChangeLogRow>(`${request(requestId)}/evaluation/logs?range=${enc([page * perPage, page * perPage + perPage - 1])}`),
  evaluationBillingCodes: (requestId: number) => http.get<EvaluationBillingCode[]>(`${request(requestId)}/evaluation/billing-codes`),
  /** The request's video meeting with the caller's own join link (spec 01 §7). */
  onlineMeeting: (requestId: number) => http.get<OnlineMeetingView>(`${request(requestId)}/evaluation/online-meeting`),
  createOnlineMeeting: (requestId: number, body: OnlineMeetingCreateInput = {}) => http.post<OnlineMeetingView>(`${request(requestId)}/evaluation/online-meeting`, body),
  joinOnlineMeeting: (requestId: number) => http.post<OnlineMeetingView>(`${request(requestId)}/evaluation/online-meeting/join`, {}),
  demoMeetings: () => http.get<OnlineMeetingRow[]>('/api/demo-tools/meetings'),
  requestInProgress: (requestId: number) => http.put<CaseState>(`${request(requestId)}/in-progress`, {}),

  cloneEvaluationForm: (id: number) => http.post<EvaluationFormRecord>(`/api/evaluation-forms/${id}/clone`, {}),
  evaluationFormFacilities: (id: number) => http.get<Array<{ id: number; name: string }>>(`/api/evaluation-forms/${id}/facilities`),
};

/** GET /api/cases/{id}/requests/{requestId}/evaluation/pdf (spec 01 §7), in the user's zone. */
export const evaluationPdfUrl = (caseId: number, requestId: number) =>
  `/api/cases/${caseId}/requests/${requestId}/evaluation/pdf?tz=${encodeURIComponent(tz())}`;
