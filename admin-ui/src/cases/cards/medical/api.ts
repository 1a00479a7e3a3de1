import { CLAIM_DEFAULT_EXTEND_SECONDS, MEDICAL_INFORMATION_CLAIM_TYPE, type MedicalInformationInput } from '@crisis/forms';
import { api, httpClient } from '../../../data/httpClient';

export interface Diagnosis {
  code: string;
  description: string;
}

/** GET /api/cases/{id}/medical-information (facility roles get a subset: every field optional). */
export interface MedicalInformation extends Omit<MedicalInformationInput, 'primaryDiagnosisId' | 'secondaryDiagnosisIds'> {
  caseId: number;
  caseStatus: string;
  includeOutOfStateFacilities?: boolean;
  primaryDiagnosis?: Diagnosis | null;
  secondaryDiagnoses?: Diagnosis[];
  modifiedAt?: string | null;
  modifiedBy?: string | null;
}

export interface ChangeLogRow {
  id: number;
  changedBy: string | null;
  changedAt: string;
  name: string;
  oldValue: string | null;
  newValue: string | null;
  metaInfo: { reason?: string; additionalName?: string } | null;
}

export interface Claim {
  id: number;
  subjectId: number;
  subjectName: string;
  expiresAt: string;
}

const base = (caseId: number) => `/api/cases/${caseId}/medical-information`;

export const medicalApi = {
  get: (caseId: number) => api.get<MedicalInformation>(base(caseId)),
  save: (caseId: number, body: MedicalInformationInput & { confirmed?: boolean }) => api.put<MedicalInformation>(base(caseId), body),
  logs: (caseId: number, page: number) =>
    api.get<{ items: ChangeLogRow[]; total: number; page: number; pageSize: number }>(`${base(caseId)}/logs?page=${page}`),
  diagnoses: (q: string) => api.get<Diagnosis[]>(`/api/diagnoses?q=${encodeURIComponent(q)}`),
  claim: (caseId: number) =>
    api.post<Claim>('/api/claims', { objectType: MEDICAL_INFORMATION_CLAIM_TYPE, objectId: caseId, extendBy: CLAIM_DEFAULT_EXTEND_SECONDS }),
  extend: (claimId: number) => api.put<Claim>(`/api/claims/${claimId}/extend`, { extendBy: CLAIM_DEFAULT_EXTEND_SECONDS }),
  release: (claimId: number) => api.put<Claim>(`/api/claims/${claimId}/release`, {}),
  holder: async (caseId: number): Promise<Claim | null> => {
    const r = await httpClient(`/api/claims/actual?objectType=${MEDICAL_INFORMATION_CLAIM_TYPE}&objectId=${caseId}`);
    return r.json && typeof r.json === 'object' ? (r.json as Claim) : null;
  },
};

/** 'InvoluntaryPsychiatricHold' → 'Involuntary psychiatric hold'; 'BothAHOrVH' → 'Both AH or VH'. */
export function enumLabel(v: string | null | undefined): string {
  if (!v) return '—';
  if (v === 'BothAHOrVH') return 'Both AH or VH';
  if (v === '{hash}') return '#';
  const words = v.replace(/_/g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2').split(' ');
  return words.map((w, i) => (i === 0 || /^[A-Z0-9]{2,}$/.test(w) ? w : w.toLowerCase())).join(' ');
}

export const yesNo = (v: boolean | null | undefined) => (v === true ? 'Yes' : v === false ? 'No' : '—');
