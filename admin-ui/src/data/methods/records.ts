import {
  CLAIM_DEFAULT_EXTEND_SECONDS,
  MEDICAL_INFORMATION_CLAIM_TYPE,
  type CaseNoteRow,
  type ChangeLogRow,
  type Claim,
  type Diagnosis,
  type FeedbackRow,
  type InsuranceInput,
  type InsuranceList,
  type InsuranceRecord,
  type MedicalInformation,
  type MedicalInformationInput,
  type PatientFileRow,
  type PayerChoice,
  type ProgressNoteRow,
  type TagsPayload,
  type VitalsRow,
} from '@crisis/forms/core';
import { getAccessToken } from '../../auth/userManager';
import { downloadFile } from '../download';
import { http } from './http';

const base = (id: number) => `/api/cases/${id}`;
const medical = (caseId: number) => `${base(caseId)}/medical-information`;
const insurances = (caseId: number) => `${base(caseId)}/insurances`;
type Saved = { id: number };

/** The case-record cards (spec 01 §7 under /api/cases/{id}): vitals, notes, files, tags, feedback, medical information, insurance. */
export const recordMethods = {
  vitals: (id: number) => http.get<VitalsRow[]>(`${base(id)}/vitals`),
  addVitals: (id: number, body: unknown) => http.post<Saved>(`${base(id)}/vitals`, body),
  progressNotes: (id: number) => http.get<ProgressNoteRow[]>(`${base(id)}/progress-notes`),
  addProgressNote: (id: number, body: unknown) => http.post<Saved>(`${base(id)}/progress-notes`, body),
  caseNotes: (id: number) => http.get<CaseNoteRow[]>(`${base(id)}/notes`),
  addCaseNote: (id: number, body: unknown) => http.post<Saved>(`${base(id)}/notes`, body),
  updateCaseNote: (id: number, noteId: number, body: unknown) => http.put<Saved>(`${base(id)}/notes/${noteId}`, body),
  removeCaseNote: (id: number, noteId: number) => http.del<Saved>(`${base(id)}/notes/${noteId}`),
  setCaseNoteHidden: (id: number, noteId: number, hidden: boolean) => http.post<Saved>(`${base(id)}/notes/${noteId}`, { hidden }),
  patientFiles: (id: number) => http.get<PatientFileRow[]>(`${base(id)}/files`),
  /** Title and note go before the file: the server reads them before streaming the file. */
  uploadPatientFile: (id: number, file: File, title: string | null, note: string | null) => {
    const form = new FormData();
    if (title) form.append('title', title);
    if (note) form.append('note', note);
    form.append('file', file, file.name);
    return http.upload<{ id: number; title: string }>(`${base(id)}/files`, form);
  },
  updatePatientFile: (id: number, fileId: number, body: unknown) => http.put<Saved>(`${base(id)}/files/${fileId}`, body),
  downloadPatientFile: (caseId: number, file: PatientFileRow) => downloadFile(`${base(caseId)}/files/${file.id}`, file.fileName),
  removePatientFile: (id: number, fileId: number) => http.del<Saved>(`${base(id)}/files/${fileId}`),
  setPatientFileHidden: (id: number, fileId: number, hidden: boolean) => http.post<Saved>(`${base(id)}/files/${fileId}/hidden`, { hidden }),
  caseTags: (id: number) => http.get<TagsPayload>(`${base(id)}/tags`),
  setCaseTags: (id: number, tagIds: number[]) => http.put<TagsPayload>(`${base(id)}/tags`, { tagIds }),
  caseFeedback: (id: number) => http.get<FeedbackRow | null>(`${base(id)}/feedback`),
  saveCaseFeedback: (id: number, body: unknown) => http.post<{ id: number; created: boolean }>(`${base(id)}/feedback`, body),

  medicalInformation: (caseId: number) => http.get<MedicalInformation>(medical(caseId)),
  saveMedicalInformation: (caseId: number, body: MedicalInformationInput & { confirmed?: boolean }) => http.put<MedicalInformation>(medical(caseId), body),
  medicalInformationLogs: (caseId: number, page: number) =>
    http.get<{ items: ChangeLogRow[]; total: number; page: number; pageSize: number }>(`${medical(caseId)}/logs?page=${page}`),
  diagnoses: (q: string) => http.get<Diagnosis[]>(`/api/diagnoses?q=${encodeURIComponent(q)}`),
  claimMedicalInformation: (caseId: number) =>
    http.post<Claim>('/api/claims', { objectType: MEDICAL_INFORMATION_CLAIM_TYPE, objectId: caseId, extendBy: CLAIM_DEFAULT_EXTEND_SECONDS }),
  extendMedicalClaim: (claimId: number) => http.put<Claim>(`/api/claims/${claimId}/extend`, { extendBy: CLAIM_DEFAULT_EXTEND_SECONDS }),
  releaseMedicalClaim: (claimId: number) => http.put<Claim>(`/api/claims/${claimId}/release`, {}),
  medicalClaimHolder: async (caseId: number): Promise<Claim | null> => {
    const r = await http.get<unknown>(`/api/claims/actual?objectType=${MEDICAL_INFORMATION_CLAIM_TYPE}&objectId=${caseId}`);
    return r && typeof r === 'object' ? (r as Claim) : null;
  },

  insurances: (caseId: number) => http.get<InsuranceList>(insurances(caseId)),
  insurancePayers: (caseId: number) => http.get<PayerChoice[]>(`${insurances(caseId)}/payers`),
  addInsurance: (caseId: number, body: InsuranceInput) => http.post<InsuranceRecord>(insurances(caseId), body),
  updateInsurance: (caseId: number, id: number, body: InsuranceInput) => http.put<InsuranceRecord>(`${insurances(caseId)}/${id}`, body),
  removeInsurance: (caseId: number, id: number) => http.del<InsuranceList>(`${insurances(caseId)}/${id}`),
  toggleInsuranceVerified: (caseId: number, id: number) => http.put<InsuranceRecord>(`${insurances(caseId)}/${id}/verify`, {}),
  setUninsured: (caseId: number, uninsured: boolean) => http.put<InsuranceList>(`${insurances(caseId)}/uninsured`, { uninsured }),
  reorderInsurances: (caseId: number, ids: number[]) => http.put<InsuranceList>(`${insurances(caseId)}/order`, { ids }),
  uploadInsuranceImage: (caseId: number, id: number, side: 'front' | 'back', file: File) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return http.upload<{ side: string; stored: boolean }>(`${insurances(caseId)}/${id}/images/${side}`, form);
  },
  /** The card image as an object URL (the call needs the bearer token, so no plain <img src>); null when there is none. */
  insuranceImageUrl: async (caseId: number, id: number, side: 'front' | 'back'): Promise<string | null> => {
    const token = await getAccessToken();
    const res = await fetch(`${insurances(caseId)}/${id}/images/${side}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    if (!res.ok) return null;
    return URL.createObjectURL(await res.blob());
  },
};
