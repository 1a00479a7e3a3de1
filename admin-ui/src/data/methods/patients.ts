import { MERGE_GROUPS_PAGE_SIZE, type MergeGroupRow, type MergeResult } from '@crisis/forms/core';
import { enc, http } from './http';

const PATIENTS = '/api/patients';

/** One record of a duplicate group (GET /api/patients/merge/records). */
export interface MergeRecord {
  id: number;
  referenceNumber: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  gender: string;
  phone: string | null;
  isVeteran: boolean;
  homeless: boolean;
  ssn: string | null;
  address: { streetLine: string | null; apartmentNumber: string | null; city: string | null; state: string | null; county: string | null; zipCode: string | null };
  patientEpicId: string | null;
  athenaPatientId: string | null;
  createdIn: { facilityId: number; facilityName: string } | null;
  createdAt: string;
  casesCount: number;
  lastCase: { id: number; createdAt: string; status: string; activeCase: boolean } | null;
}

/** The patient of the directory's details modal (GET /api/patients/{id}). */
export interface PatientDetails extends Omit<MergeRecord, 'createdAt' | 'casesCount' | 'createdIn' | 'lastCase'> {
  outpatientProviderName: string | null;
  outpatientProviderPhone: string | null;
  createdIn: { facilityId: number; facilityName: string; address: { city: string | null; state: string | null } } | null;
  sourceFacilities: Array<{ id: number; name: string; city: string | null; state: string | null }>;
  lastCase: { id: number; referenceNumber: string; createdAt: string; status: string; activeCase: boolean } | null;
  tags: Array<{ id: number; name: string }>;
}

export interface GroupKey {
  firstName: string;
  lastName: string;
  dateOfBirth: string;
}

/** The patient directory's calls that are not the simple-rest list (spec 02 §7 Patients). */
export const patientMethods = {
  patient: (id: number) => http.get<PatientDetails>(`${PATIENTS}/${id}`),
  /** One page (7) of duplicate groups, with the total of groups. */
  mergeGroups: (page: number) => {
    const first = (page - 1) * MERGE_GROUPS_PAGE_SIZE;
    return http.page<MergeGroupRow>(`${PATIENTS}/merge/groups?range=${enc([first, first + MERGE_GROUPS_PAGE_SIZE - 1])}`);
  },
  mergeRecords: (key: GroupKey) => http.get<MergeRecord[]>(`${PATIENTS}/merge/records?${new URLSearchParams({ ...key })}`),
  mergePatients: (patientIds: number[]) => http.post<MergeResult>(`${PATIENTS}/merge/records`, { patientIds }),
  mergeNotNeeded: (patientIds: number[]) => http.post<{ patientIds: number[] }>(`${PATIENTS}/merge/not-needed`, { patientIds }),
};
