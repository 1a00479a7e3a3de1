/** The case page's payload (GET /api/cases/{id}) and the contract every case-page card follows. */
export interface PersonRef {
  id: number;
  firstName: string;
  lastName: string;
}

export interface CaseRequest {
  id: number;
  caseId: number;
  type: string;
  status: string;
  createdAt: string;
  note: string | null;
  evaluationProviderId: number | null;
  evaluationProvider: (PersonRef & { avatar: string | null; biography: string | null; type: string | null }) | null;
  evaluationStarted: boolean;
  completedAt: string | null;
  canceledAt: string | null;
  reason: string | null;
  facilityNote: { authorName: string; value: string } | null;
  itpNote: { authorName: string; value: string } | null;
  createdBy: PersonRef | null;
}

export interface CaseDetails {
  id: number;
  referenceNumber: number;
  status: string;
  statusLabel: string;
  statusGroup: string;
  statusToResume: string | null;
  version: number;
  createdAt: string;
  statusChangedAt: string;
  timeElapsedSeconds: number;
  attendingProvider: string | null;
  rnCaringForPatient: string | null;
  contactPhoneNumber: string | null;
  notificationSendingMethod: 'SMS' | 'PhoneCall';
  isInvoluntary: boolean;
  includeOutOfStateFacilities: boolean;
  isFromOldSystem: boolean;
  mainRecommendation: string | null;
  criteria: string[];
  recommendationNote: string | null;
  uninsured: boolean;
  patientEpicId: string | null;
  encounterIdentifierId: string | null;
  grantedAccessCreatedAt: string | null;
  patientAcceptedCreatedAt: string | null;
  closedAt: string | null;
  locatingServicesSeconds: number;
  outcome: { type: string | null; note: string | null; referringFacility: { divisionId: number; divisionName: string; facilityName: string } | null } | null;
  patient: {
    id: number;
    firstName: string;
    lastName: string;
    dateOfBirth: string;
    gender: string;
    phone: string | null;
    isVeteran: boolean;
    homeless: boolean;
    ssn: string | null;
    address: { streetLine: string | null; apartmentNumber: string | null; city: string | null; state: string | null; county: string | null; zipCode: string | null };
    outpatientProviderName: string | null;
    outpatientProviderPhone: string | null;
    athenaPatientId: string | null;
    patientEpicId: string | null;
    hasNewCase: boolean;
    activeCaseId: number | null;
  };
  sourceFacility: {
    id: number;
    name: string;
    description: string | null;
    address: { streetLine: string; city: string; state: string; zipCode: string };
    contacts: Record<string, string | null>;
    populateOutOfStateFacilities: boolean;
    allowPlacementOnlyCases: boolean;
    ehrIntegrated: boolean;
  };
  sourceDivision: {
    id: number;
    name: string;
    description: string | null;
    contacts: Record<string, string | null>;
    documentInEHR: boolean;
    outcomeRequired: boolean;
    showBillingCode: boolean;
  };
  tags: Array<{ id: number; name: string }>;
  erLine: string | null;
  requests: CaseRequest[];
  activeRequest: CaseRequest | null;
  /** The last status change was a manual one that undo can take back. */
  canUndo: boolean;
  /** Statuses the status selector offers (spec 01 §4). */
  allowedStatuses: string[];
}

/**
 * Every card of the case page receives the case and a callback to reload it after a change. A
 * card hides its add/edit actions when the case is closed (caseRecord.status === 'Closed') and
 * reads what the role may do from the ability (useAbility in ../auth).
 */
export interface CaseCardProps {
  caseRecord: CaseDetails;
  onChanged: () => void;
}
