import type { AcceptGrid } from '@crisis/forms';
import { api } from '../../data/httpClient';

/** The claimed division's call log (GET /api/placement-tasks/claim/{claimId}, spec 02 §2 "Call log"). */
export interface CallLogDivision {
  id: number;
  name: string;
  description: string | null;
  referringType: string | null;
  contacts: Array<{ type?: string; value?: string; name?: string; phone?: string; fax?: string; [k: string]: unknown }> | null;
  acceptedPatients: any;
  genders: string[] | null;
  extendMaximumCallbackTime: boolean;
  facility: { id: number; name: string; streetLine?: string | null; city?: string | null; state?: string | null; zipCode?: string | null; contacts?: any };
  hold: { until: string; result: string } | null;
}

export interface CallEntry {
  placementTaskId: number;
  result: string | null;
  note?: string | null;
  callbackAt?: string | null;
  spokeWith?: string | null;
  accept?: AcceptGrid | null;
}

export interface CallLogTask {
  id: number;
  caseId: number;
  caseStatus: string;
  firstName: string;
  lastName: string;
  gender: string | null;
  dateOfBirth: string | null;
  age: number | null;
  sourceFacilityName: string | null;
  criteria: string[] | null;
  mainRecommendation: string | null;
  callbackAt: string | null;
  dueAt: string | null;
  draft: (CallEntry & { selected?: boolean; minutes?: number | null }) | null;
  lastCall: { id: number; result: string; note: string | null; createdAt: string; spokeWith: string | null; createdByName: string | null } | null;
  onHold: boolean;
  onHoldSince: string | null;
}

export interface CallLogData {
  claimId: number;
  expiresAt: string;
  division: CallLogDivision;
  tasks: CallLogTask[];
}

export interface DivisionClaim {
  claimId: number;
  divisionId: number;
  expiresAt: string;
}

/** One calls-card row (GET /api/placement-tasks/division/group). */
export interface CallsCardRow {
  id?: number;
  divisionId: number;
  divisionName: string;
  facilityId: number;
  facilityName: string;
  taskCount: number;
  preferredCount: number;
  recentCallbackAt: string | null;
  uncalledCount: number;
  claim: { id: number; claimedById: number; claimedByName: string } | null;
  circle: 'expired' | 'claimed' | 'active';
}

const base = '/api/placement-tasks';
const LEASE_KEY = (claimId: number) => `callLog.lease.${claimId}`;

export const callLogApi = {
  claim: async (divisionId: number) => {
    const claim = await api.post<DivisionClaim>(`${base}/division/${divisionId}/claim`, {});
    // The lease length the server gave (renewals ask for the same length again).
    const seconds = Math.max(4, Math.round((Date.parse(claim.expiresAt) - Date.now()) / 1000));
    try {
      sessionStorage.setItem(LEASE_KEY(claim.claimId), String(seconds));
    } catch {
      /* storage unavailable */
    }
    return claim;
  },
  lease: (claimId: number): number | null => {
    try {
      const v = Number(sessionStorage.getItem(LEASE_KEY(claimId)));
      return Number.isFinite(v) && v > 0 ? v : null;
    } catch {
      return null;
    }
  },
  load: (claimId: number) => api.get<CallLogData>(`${base}/claim/${claimId}`),
  submit: (claimId: number, calls: CallEntry[], bulk: boolean) => api.put<{ saved: number }>(`${base}/claim/${claimId}/calls`, { calls, bulk }),
  draft: (claimId: number, calls: CallEntry[]) => api.put<{ saved: number }>(`${base}/claim/${claimId}/draft/calls`, { calls }),
  release: (claimId: number) => api.put<unknown>(`${base}/claim/${claimId}/release`, {}),
  extend: (claimId: number, extendBy: number | null) =>
    api.put<{ expiresAt: string }>(`/api/claims/${claimId}/extend`, extendBy ? { extendBy } : {}),
};

/** "in 15 min", "in 1 h 15 min", "in 68 h". */
export function followUpLabel(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (!h) return `in ${m} min`;
  return m ? `in ${h} h ${m} min` : `in ${h} h`;
}
