import type { CaseState, EvaluationBillingCode, EvaluationChangeLogRow, EvaluationFormRecord, EvaluationSaveInput, EvaluationView } from '@crisis/forms';
import { enc, http } from './http';

const request = (id: number) => `/api/requests/${id}`;

/** The evaluation screen and the form editor's calls that are not CRUD (spec 02 §7 Requests, Evaluation forms). */
export const evaluationMethods = {
  evaluation: (requestId: number) => http.get<EvaluationView>(`${request(requestId)}/evaluation`),
  /** Autosave (new mode) and save (edit mode); answers the view with its new version. */
  saveEvaluation: (requestId: number, body: EvaluationSaveInput) => http.put<EvaluationView>(`${request(requestId)}/evaluation`, body),
  completeEvaluation: (requestId: number, body: { sourceDivisionId: number; version: number }) =>
    http.put<{ state: CaseState }>(`${request(requestId)}/evaluation/complete`, body),
  evaluationChangeLog: (requestId: number, page: number, perPage: number) =>
    http.page<EvaluationChangeLogRow>(`${request(requestId)}/evaluation/logs?range=${enc([page * perPage, page * perPage + perPage - 1])}`),
  evaluationBillingCodes: (requestId: number) => http.get<EvaluationBillingCode[]>(`${request(requestId)}/evaluation/billing-codes`),
  requestInProgress: (requestId: number) => http.put<CaseState>(`${request(requestId)}/in-progress`, {}),

  cloneEvaluationForm: (id: number) => http.post<EvaluationFormRecord>(`/api/evaluation-forms/${id}/clone`, {}),
  evaluationFormFacilities: (id: number) => http.get<Array<{ id: number; name: string }>>(`/api/evaluation-forms/${id}/facilities`),
};
