import type {
  AcceptedCase,
  CallEntry,
  CallLogData,
  CallsCardRow,
  DivisionClaim,
  DivisionLogEntry,
  PlacementLogRow,
  Placements,
} from '@crisis/forms/core';
import { enc, http } from './http';

const base = '/api/placement-tasks';
const range = (page: number, perPage: number) => enc([page * perPage, page * perPage + perPage - 1]);
const LEASE_KEY = (claimId: number) => `callLog.lease.${claimId}`;

/** The lease length (seconds) the server gave a claim; renewals ask for the same length again. */
export function callLogLease(claimId: number): number | null {
  try {
    const v = Number(sessionStorage.getItem(LEASE_KEY(claimId)));
    return Number.isFinite(v) && v > 0 ? v : null;
  } catch {
    return null;
  }
}

/** Placement of a case, the calls card, the call log and its logs (spec 02 §2). */
export const placementMethods = {
  placements: (caseId: number, includeWillNotAccept = false) =>
    http.get<Placements>(`/api/cases/${caseId}/placements${includeWillNotAccept ? '?includeWillNotAcceptWithEmptyCallback=true' : ''}`),
  setIncludeOutOfState: (caseId: number, includeOutOfState: boolean) => http.put<unknown>(`/api/cases/${caseId}/include-out-of-state`, { includeOutOfState }),
  generatePlacementTasks: (caseId: number, notes: string | null) => http.post<unknown>(`${base}/generate/${caseId}`, { notes }),
  addPlacementDivision: (caseId: number, divisionId: number) => http.post<unknown>(`${base}/create`, { caseId, divisionId }),
  /** One page of a case's placement log (the server pages by 10). */
  placementLog: (caseId: number, query: string, page: number, perPage: number) =>
    http.page<PlacementLogRow>(`${base}/log/${caseId}?${query ? `${query}&` : ''}range=${range(page, perPage)}`),
  undoPlacementCall: (placementTaskId: number, callId: string) => http.put<unknown>(`${base}/${placementTaskId}/undo/${callId}`, {}),
  acceptedCases: (sort: [string, string], page: number, perPage: number) =>
    http.page<AcceptedCase>(`/api/cases/accepted?sort=${enc(sort)}&range=${range(page, perPage)}`),
  confirmArrival: (caseId: number) => http.put<unknown>(`/api/cases/${caseId}/referring/confirm`, {}),
  callsCard: (filter: object, page: number, perPage: number) =>
    http.page<CallsCardRow>(`${base}/division/group?filter=${enc(filter)}&range=${range(page, perPage)}&sort=${enc(['recentCallbackAt', 'ASC'])}`),
  divisionLog: (divisionId: number, query: string, page: number, perPage: number) =>
    http.page<DivisionLogEntry>(`${base}/division/${divisionId}/log?${query}&range=${range(page, perPage)}`),

  /** Claims a division; `resumeTask` resumes its on-hold tasks instead of waiting for their callback. */
  claimDivision: async (divisionId: number, resumeTask = false) => {
    const claim = await http.post<DivisionClaim>(`${base}/division/${divisionId}/claim`, { resumeTask });
    const seconds = Math.max(4, Math.round((Date.parse(claim.expiresAt) - Date.now()) / 1000));
    try {
      sessionStorage.setItem(LEASE_KEY(claim.claimId), String(seconds));
    } catch {
      /* storage unavailable */
    }
    return claim;
  },
  callLog: (claimId: number) => http.get<CallLogData>(`${base}/claim/${claimId}`),
  submitCalls: (claimId: number, calls: CallEntry[], bulk: boolean) => http.put<{ saved: number }>(`${base}/claim/${claimId}/calls`, { calls, bulk }),
  saveCallsDraft: (claimId: number, calls: CallEntry[]) => http.put<{ saved: number }>(`${base}/claim/${claimId}/draft/calls`, { calls }),
  releaseDivisionClaim: (claimId: number) => http.put<unknown>(`${base}/claim/${claimId}/release`, {}),
  extendDivisionClaim: (claimId: number, extendBy: number | null) =>
    http.put<{ expiresAt: string }>(`/api/claims/${claimId}/extend`, extendBy ? { extendBy } : {}),
};
