import type { EhrPatientLookup, EhrPeriodicInformation, PatientMatch, ProviderOption, RequestType, SearchData, SourceDivisionOption, SourceFacilityOption } from '@crisis/forms/core';
import { http } from './http';

export const qs = (o: Record<string, string | number | null | undefined>) =>
  new URLSearchParams(Object.entries(o).filter(([, v]) => v !== null && v !== undefined && v !== '') as [string, string][]).toString();

/** The calls of the case-creation screens (spec 01 §2). */
export const caseCreateMethods = {
  searchPatients: (d: SearchData) =>
    http.get<PatientMatch[]>(`/api/cases/search-patient?${qs({ firstName: d.firstName, lastName: d.lastName, dateOfBirth: d.dateOfBirth })}`),
  sourceFacilities: () => http.get<SourceFacilityOption[]>('/api/cases/source-facilities'),
  sourceDivisions: (facilityId: number) => http.get<SourceDivisionOption[]>(`/api/cases/source-divisions?facilityId=${facilityId}`),
  newCaseRequestTypes: (divisionId: number, patientId: number | null) => http.get<RequestType[]>(`/api/cases/request-types?${qs({ divisionId, patientId })}`),
  newCaseProviders: (divisionId: number, dateOfBirth: string | null) => http.get<ProviderOption[]>(`/api/cases/providers?${qs({ divisionId, dateOfBirth })}`),
  casePayers: () => http.get<Array<{ id: number; name: string }>>('/api/cases/payers'),
  patientForCase: (id: number) => http.get<Record<string, any>>(`/api/patients/${id}`),
  /** The EHR's patient for an id typed at creation (spec 01 §7 search-patient-in-ehr). */
  ehrPatient: (divisionId: number, patientId: string) =>
    http.get<EhrPatientLookup>(`/api/cases/search-patient-in-ehr?${qs({ divisionId, patientId, needInsurances: 'false' })}`),
  /** Checks that an encounter belongs to the patient (spec 01 §7 validate-patientencounter-identifierid). */
  ehrEncounter: (divisionId: number, patientId: string, encounterId: string) =>
    http.get<{ valid: true }>(
      `/api/cases/validate-patientencounter-identifierid/${divisionId}/${encodeURIComponent(patientId)}/${encodeURIComponent(encounterId)}`,
    ),
  /** What the EHR knows now of a case's patient and encounter (spec 01 §7 patient-periodic-information-in-ehr). */
  ehrPeriodicInformation: (caseId: number, encounterId: string) =>
    http.get<EhrPeriodicInformation>(`/api/cases/patient-periodic-information-in-ehr/${caseId}/${encodeURIComponent(encounterId)}`),
  /** Gives a case its EHR encounter, checked by the EHR to be the patient's (spec 01 §7 add-encounteridentifiertocases-in-ehr). */
  addEhrEncounter: (caseId: number, encounterId: string) =>
    http.put<{ caseId: number; encounterIdentifier: string }>(`/api/cases/add-encounteridentifiertocases-in-ehr/${caseId}/${encodeURIComponent(encounterId)}`, {}),
  createCase: (payload: unknown) => http.post<{ id: number; requestId: number; status: string }>('/api/cases', payload),
};
