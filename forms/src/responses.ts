/**
 * The response bodies of the API that the admin UI reads (spec 01 §7, 02 §2, 03 §7), written once
 * here for the API and the UI instead of being retyped on each side. Only types: no runtime code.
 */
import type { MedicalInformationInput } from './cases/schemas';
import type { CallEntryInput } from './placement/calls';

// Case page

/** The case page's payload (GET /api/cases/{id}) and the contract every case-page card follows. */
/** A patient as stored (spec 01 §3 Patient), in the shape of PatientInput. */
export interface PatientRecord {
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
  encounterIdentifier: string | null;
}

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
  /** An evaluation was saved for the request (its screen has something to show). */
  hasEvaluation: boolean;
  completedAt: string | null;
  canceledAt: string | null;
  reason: string | null;
  facilityNote: { authorName: string; value: string } | null;
  itpNote: { authorName: string; value: string } | null;
  createdBy: PersonRef | null;
  /** The request's current video meeting (its join link is asked for per user: GET …/online-meeting). */
  onlineMeeting: OnlineMeetingSummary | null;
}

/** The state of a request's video meeting, as the request card shows it. */
export interface OnlineMeetingSummary {
  isProviderJoined: boolean;
  isPatientJoined: boolean;
  ended: boolean;
  createdAt: string;
  scheduledAt: string | null;
}

/** GET /api/requests/{id}/evaluation/online-meeting and its POSTs (spec 01 §7): the join link is the caller's own. */
export interface OnlineMeetingView {
  joinUrl: string;
  isProviderJoined: boolean;
  isPatientJoined: boolean;
  createdAt: string;
  scheduledAt: string | null;
}

/** A row of the demo tools' meetings page. */
export interface OnlineMeetingRow {
  id: number;
  requestId: number;
  caseId: number;
  room: string;
  joinUrl: string;
  createdAt: string;
  scheduledAt: string | null;
  idleEndsAt: string;
  isProviderJoined: boolean;
  isPatientJoined: boolean;
  endedAt: string | null;
  endedReason: string | null;
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
  outcome: {
    type: string | null;
    note: string | null;
    /** The patient has an open case now (reopening this one is refused). */
    isActiveCase: boolean;
    referringFacility: { divisionId: number; divisionName: string; facilityName: string } | null;
  } | null;
  patient: Omit<PatientRecord, 'encounterIdentifier'> & { referenceNumber: string; hasNewCase: boolean; activeCaseId: number | null };
  /** The patient's case before this one. */
  lastCase: { id: number; referenceNumber: string; createdAt: string; status: string; closedAt: string | null; activeCase: boolean } | null;
  /** The providers of the case's requests, once each. */
  evaluationProviders: Array<{ id: number; firstName: string; lastName: string }>;
  /** The insurances in their order and their payers (empty for roles that do not read insurances). */
  insurances: InsuranceRecord[];
  payers: Array<{ id: number; name: string; isActive: boolean }>;
  tagNames: string[];
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

/** The calls of the case page (spec 01 §7). Every lifecycle command answers { state }. */
export interface CaseState {
  state?: { caseId: number; status: string; statusToResume: string | null; version: number };
}

export interface ReferringDivisionOption {
  divisionId: number;
  divisionName: string;
  facilityId: number;
  facilityName: string;
}

export interface ActivityRow {
  id: number;
  status: string;
  statusGroup: string;
  kind: string | null;
  note: string | null;
  initiatorName: string | null;
  startedAt: string;
  endedAt: string | null;
  undone: boolean;
  durationSeconds: number;
}

/** GET /api/cases/providers: the providers a request may go to. */
export interface ProviderOption {
  id: number;
  firstName: string;
  lastName: string;
  avatar?: string | null;
  type?: string | null;
  biography?: string | null;
}

// Case records (vitals, notes, files, tags, feedback)

/** The calls of the case-record cards (spec 01 §7 under /api/cases/{id}). */
export interface Author {
  id: number;
  fullName: string;
  organizationType: string;
}

export interface VitalsRow {
  id: number;
  submittedOn: string;
  pulse: number | null;
  bloodPressure: { systolic: number | null; diastolic: number | null };
  /** Percent. */
  oxygenSaturation: number | null;
  bodyTemperature: number | null;
  respirationRate: number | null;
  createdBy: Author | null;
}

export interface ProgressNoteRow {
  id: number;
  note: string;
  submittedOn: string;
  createdAt: string;
  createdBy: Author | null;
}

export interface CaseNoteRow {
  id: number;
  note: string;
  hidden: boolean;
  kind: 'user' | 'evaluation';
  reason: string | null;
  createdBy: Author | null;
  createdAt: string;
  modifiedAt: string;
  canEdit: boolean;
  canHide: boolean;
}

export interface PatientFileRow {
  id: number;
  title: string;
  note: string | null;
  fileName: string;
  size: number;
  hidden: boolean;
  submittedOn: string;
  submittedBy: Author | null;
  submittedById: number | null;
  /** What this user may do to the file (patientFileActions). */
  canEdit: boolean;
  canDelete: boolean;
  canHide: boolean;
}

export interface TagsPayload {
  tags: Array<{ id: number; name: string }>;
  available: Array<{ id: number; name: string }>;
}

export interface FeedbackRow {
  id: number;
  rating: number;
  note: string | null;
  confirmation: boolean;
  cantAttest: boolean;
}

// Medical information and claims

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

// Insurance

export interface InsuranceRecord {
  id: number;
  payerId: number;
  payer: { id: number; name: string; isActive: boolean };
  insuranceId: string;
  groupId: string | null;
  relationToInsured: string | null;
  responsibleParty: {
    firstName?: string | null;
    lastName?: string | null;
    contactPhoneNumber?: string | null;
    dateOfBirth?: string | null;
    role?: string | null;
  } | null;
  frontImage: boolean;
  backImage: boolean;
  verified: boolean;
  status: 'Verified' | 'Unverified';
  patientPhone: string | null;
  createdAt: string;
  order: number;
  orderName: string;
}

export interface InsuranceList {
  caseId: number;
  uninsured: boolean;
  status: 'Uninsured' | 'NotProvided' | null;
  maxInsurances: number;
  insurances: InsuranceRecord[];
}

export interface PayerChoice {
  id: number;
  name: string;
  planName: string | null;
  isActive: boolean;
}

// Exports

/** The case's exports (spec 01 §7): GET /api/cases/{id}/pdf, summary/pdf, notes/pdf, activity/report/pdf|csv. */
export interface CasePdfExportOptions {
  includeEvaluations: boolean;
  includeCaseNotes: boolean;
  includePatientFiles: boolean;
  /** Only these files; null = every file the user may see. */
  fileIds: number[] | null;
}

export interface ActivityReportRow {
  id: number;
  status: string;
  statusGroup: string;
  initiatorName: string | null;
  startedAt: string;
  endedAt: string | null;
  durationSeconds: number;
}

export interface ActivityReport {
  caseId: number;
  totalSeconds: number;
  groups: Array<{ group: string; totalSeconds: number; activities: ActivityReportRow[] }>;
}

// Case creation

/** One patient of GET /api/cases/search-patient (spec 01 §2 search result). */
export interface PatientMatch {
  id: number;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  gender: string | null;
  city: string | null;
  state: string | null;
  lastCaseId: number | null;
  lastCaseCreatedAt: string | null;
  lastCaseStatus: string | null;
  activeCase: boolean;
  /** The last case was brought over from the old system (its documents are there). */
  lastCaseFromOldSystem: boolean;
  /** The referring division that accepted the patient's open case, if one did (named to ITP staff only). */
  acceptedIn: { caseId: number; facilityName: string | null; divisionName: string | null } | null;
  /** The patient's cases of the last RECENT_VISIT_MONTHS months, by source facility (a facility's staff: their own only). */
  recentVisits: Array<{ facilityId: number; facilityName: string; lastSeenAt: string }>;
}

export interface SourceFacilityOption {
  id: number;
  name: string;
  city: string | null;
  state: string | null;
  isIntegratedWithEMR: boolean;
}

export interface SourceDivisionOption {
  id: number;
  name: string;
  isIntegratedWithEMR: boolean;
  allowPlacementOnlyCases: boolean;
}

/** The search data carried from /cases/create/search to the next screens (query string). */
export interface SearchData {
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  patientEpicId?: string | null;
  encounterIdentifier?: string | null;
}

// Placement and the call log

export interface PlacementTask {
  id: number;
  caseId: number;
  divisionId: number;
  facilityId: number;
  facilityName: string;
  divisionName: string;
  isPreferredFacility: boolean;
  isVeteranOnlyDivision: boolean;
  address: { city: string | null; state: string | null };
  travelSeconds: number | null;
  reasons: string[] | null;
  origin: string;
  notes: string | null;
  callbackAt: string | null;
  dueAt: string | null;
  lastCall: { id: string; result: string; note: string | null; createdAt: string; createdByName: string } | null;
  holdUntil: string | null;
  holdResult: string | null;
  claim: { id: number; claimedById: number; claimedByName: string } | null;
}

export interface Placements {
  tasks: PlacementTask[];
  /** Tasks left out of `tasks`: last call WillNotAccept with no callback (asked for with includeWillNotAcceptWithEmptyCallback=true). */
  hiddenWillNotAccept: number;
  reworkedWarning: boolean;
  readOnly: boolean;
  canAddTasks: boolean;
  /** How many tasks "add tasks" would add now (at most ADD_TASKS_MAX): the fitting divisions not yet in the list. */
  addTasksCount: number;
  outOfState: { shown: boolean; enabled: boolean; value: boolean };
}

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
  veteranOnly: boolean;
  documentInEHR: boolean | null;
  noPlacement: boolean | null;
  facility: { id: number; name: string; streetLine?: string | null; city?: string | null; state?: string | null; zipCode?: string | null; contacts?: any };
  hold: { until: string; result: string } | null;
}

/** One row of the call log as saved (the same shape the submit takes). */
export type CallEntry = CallEntryInput;

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
  /** The on-hold tasks resumed by the claim (claimed with resumeTask). */
  resumedTaskIds?: number[];
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
  /** The division's bulk hold (NoBedsAvailable, NoSecureBeds, CallBack) while it lasts: its tasks, new ones too, are held until then. */
  holdUntil: string | null;
  holdResult: string | null;
}

export interface PlacementLogRow {
  placementTaskCallId: string;
  placementTaskId: number;
  createdAt: string;
  spokeWith: string | null;
  crisisCoordinator: string;
  coordinatorId: number;
  referringFacilityDivisionInfo: { facilityId: number; facilityName: string; divisionName: string; facilityAddress: string };
  result: string;
  note: string | null;
  callbackAt: string | null;
  undone: boolean;
  bulkId: string | null;
  canUndo: boolean;
}

export interface DivisionLogEntry {
  id: string;
  createdAt: string;
  spokeWith: string | null;
  user: { id: number; name: string };
  patients: Array<{ caseId: number; name: string }>;
  result: string;
  note: string | null;
  callbackAt: string | null;
  undone: boolean;
  bulkId: string | null;
}

export interface AcceptedCase {
  id: number;
  status: string;
  patient: { id: number; firstName: string; lastName: string; dateOfBirth: string };
  sourceFacility: { id: number; name: string };
  acceptedAt: string;
  divisionId: number;
  divisionName: string;
}

// Administration

export interface UserLookup {
  id: number;
  fullName?: string;
  firstName?: string;
  lastName?: string;
  email?: string;
}

export interface SmsState {
  phone: string | null;
  alwaysReceive: boolean;
  receiveUntil: string | null;
  isReceiving: boolean;
}

/** One row of GET /api/cases/{id}/patient/logs. */
export interface PatientChangeLogRow {
  id: number;
  name: string;
  oldValue: string | null;
  newValue: string | null;
  changedAt: string;
  changedBy: { id: number | null; fullName: string | null };
}

/** One row of "inpatient facilities nearby" (GET /api/cases/inpatient-divisions/{caseId}, spec 01 §2). */
export interface InpatientDivisionNearby {
  divisionId: number;
  divisionName: string;
  facilityId: number;
  facilityName: string;
  city: string | null;
  state: string | null;
  proximityMiles: number;
}
