/**
 * The error vocabulary of spec 03 §8, written once: every code with its HTTP status and default
 * message. The API, the worker's activities and the UI raise and read errors through this file
 * only (`fail(code, …)`, `ERRORS[code]`); no code is typed as a bare string anywhere else.
 */

interface ErrorDefinition {
  status: number;
  message: string;
}

const define = <T extends Record<string, ErrorDefinition>>(t: T) => t;

/** code → HTTP status and default message. */
export const ERRORS = define({
  UNEXP: { status: 500, message: 'Unexpected exception had happened' },
  /** The case service (Temporal) did not answer in time: nothing was changed, try again. */
  'UNEXP.SERVICE.UNAVAILABLE': { status: 503, message: 'The case service is not available; try again' },
  NTFND: { status: 404, message: 'Requested data not found' },
  INV: { status: 400, message: 'Invalid request data' },
  UNAUTH: { status: 401, message: "You don't have permission to perform this action" },
  FRBD: { status: 403, message: "You don't have permission to perform this action" },
  OPWD: { status: 400, message: 'Current password invalid' },
  /** A sign-in or password step was tried too often (payload: retryAfterSeconds, also the Retry-After header). */
  'INV.TOO_MANY_ATTEMPTS': { status: 429, message: 'Too many attempts: try again later' },
  'INV.NOT.UNIQ': { status: 409, message: 'Value is not unique' },
  'INV.DEACTIVATE.FACILITY.WITH.GROUPS': { status: 409, message: 'The facility belongs to group organizations' },
  'INV.DEACTIVATE.FACILITY.WITH.ACTIVE.CASES': { status: 409, message: 'The facility has active cases' },
  'INV.DEACTIVATE.FACILITY.WITH.ACTIVE.DIVISIONS': { status: 409, message: 'The facility has active divisions' },
  'INV.DEACTIVATE.DIVISION.WITH.ACTIVE.CASES': { status: 409, message: 'The division has active cases' },
  'INV.DEACTIVATE.DIVISION.WITH.CREDENTIALED.PROVIDERS': { status: 409, message: 'The division has credentialed providers' },
  'INV.REMOVE.PROVIDER.FROM.DIVISIONS.WITH.PENDING.REQUESTS': { status: 409, message: 'The provider has pending requests in these divisions' },
  'INV.OBJECT.ALREADY.HAS.BEEN.CLAIMED': { status: 409, message: 'The object is already claimed by another user' },
  'INV.CLAIM.IS.OVERDUE.OR.INACTIVE': { status: 409, message: 'The claim is overdue or inactive' },
  'INV.DIVISION.ALREADY.CLAIMED': { status: 409, message: 'The division is already claimed' },
  'INV.MEDICAL.INFORMATION.CONFIRMATION.REQUIRED': { status: 409, message: 'The change needs your confirmation' },
  /** The request's video meeting has ended (spec 02 §8): join is disabled; the provider may recreate it. */
  'INV.ONLINE.MEETING.ENDED': { status: 409, message: 'The video meeting has ended' },
  'users.table.actions.no-suitable-rows': { status: 400, message: 'None of the selected users is suitable for this action' },
  'INV.DEACTIVATE.AND.EDIT.PAYER.USED.IN.PATIENTS': { status: 409, message: 'The payer is used by patients: deactivate and edit it anyway?' },
  'INV.EDIT.PAYER.USED.IN.PATIENTS': { status: 409, message: 'The payer is used by patients: edit it anyway?' },
  'INV.DEACTIVATE.PAYER.USED.IN.PATIENTS': { status: 409, message: 'The payer is used by patients: deactivate it anyway?' },
  // Patient, insurance and source details of a case (spec 01 §8)
  'INV.PATIENT.LOCKED.WHILE.CONTACTING': { status: 409, message: 'This value cannot be changed while contacting service organizations' },
  'INV.MAX.INSURANCES': { status: 409, message: 'A case can have at most 3 insurances' },
  'INV.UPDATE.SOURCE.WITH.ACTIVE.REQUESTS': {
    status: 409,
    message: 'The source division cannot be changed while a request is active: cancel or resolve it first',
  },
  'INV.UPDATE.CASE.WITH.CREDENTIALED.PROVIDERS': { status: 409, message: 'The provider of this case is not credentialed at the new division' },
  'INV.PATIENT.HAS.ACTIVE.CASE': { status: 409, message: 'An active case exists for this patient: contact the ITP team' },
  /** The patient's open case was accepted by a referring division (payload: caseId, facilityName, divisionName). */
  'INV.PATIENT.ALREADY.ACCEPTED': { status: 409, message: 'Patient is already accepted in the other facility' },
  // Patient merge (spec 02 §4, §8)
  /** The record was merged into another (payload: survivorId, the record to use instead). */
  'INV.PATIENT.MERGED': { status: 409, message: 'This patient record was merged into another record' },
  /** More than one of the records to merge has an active case (payload: activeCases, each { caseId, patientId, referenceNumber }). */
  'INV.MERGE.PATIENTS.WITH.MORE.THAN.ONE.ACTIVE.CASES': { status: 409, message: 'More than one of these records has an active case' },
  // The case lifecycle (spec 01 §4, §8)
  'INV.CASE.IS.CLOSED': { status: 409, message: 'The case is closed' },
  'INV.CASE.NOT.CLOSED': { status: 409, message: 'The case is not closed' },
  'INV.CASE.STATUS.CHANGED': { status: 409, message: 'The case status was changed by someone else' },
  'INV.CASE.TRANSITION': { status: 409, message: 'The case cannot move to this status' },
  'INV.CASE.HAS.ACTIVE.REQUEST': { status: 409, message: 'The case has an active request' },
  'INV.CASE.NOTHING.TO.UNDO': { status: 409, message: 'There is nothing to undo' },
  'INV.CASE.NOTHING.TO.RESUME': { status: 409, message: 'The case is not on hold' },
  'INV.CASE.NOT.CONTACTING': { status: 409, message: 'Tasks are added while contacting service organizations' },
  'INV.CASE.NOT.ACCEPTED': { status: 409, message: 'No division has accepted the patient' },
  'INV.CASE.IS.REWORKED': { status: 409, message: 'The case was sent back for review: its earlier calls cannot change' },
  /** The database refused the command's data (e.g. a NUL character): nothing was written. */
  'INV.CASE.COMMAND.REFUSED': { status: 400, message: 'The data could not be saved: check for unusual characters' },
  'INV.REQUEST.NOT.EDITABLE': { status: 409, message: 'The request can no longer be edited' },
  'INV.REQUEST.NOT.ACTIVE': { status: 409, message: 'The request is not active' },
  /** Only a resolved notification can be dismissed (spec 02 §4 Notification). */
  'INV.NOTIFICATION.NOT.RESOLVED': { status: 409, message: 'Only a resolved notification can be dismissed' },
  'INV.REQUEST.NOT.IN.PROGRESS': { status: 409, message: 'The request is not in progress' },
  'INV.CALL.CANNOT.BE.UNDONE': { status: 409, message: 'This call can no longer be undone' },
  // Evaluation forms and evaluations (spec 02 §8)
  'INV.DELETE.EVALUATION.FORM.WHICH.ASSIGNED.TO.FACILITIES': { status: 409, message: 'The form is assigned to facilities' },
  'INV.DEFAULT.EVALUATION.FORM': { status: 409, message: 'A default form cannot be removed and its name cannot change' },
  'INV.EVALUATION.STALE': { status: 409, message: 'The evaluation was saved from another window: reload it to go on' },
  'INV.EVALUATION.CANNOT.BE.SAVED': { status: 400, message: 'The evaluation cannot be saved' },
  'INV.EVALUATION.CANNOT.BE.COMPLETED': { status: 400, message: 'The evaluation cannot be completed' },
  // EHR look-ups of case creation (spec 01 §5, §8 "EHR lookups") and the facility's EHR connection (issue 16)
  'INV.EHR.PATIENT.NOT.FOUND': { status: 404, message: 'Patient EPIC ID or MRN not found in the EHR' },
  'INV.EHR.PATIENT.ID.REQUIRED': { status: 400, message: 'Patient EPIC ID or MRN is required' },
  'INV.EHR.ENCOUNTER.NOT.FOUND': { status: 404, message: 'Patient Encounter ID not found in the EHR' },
  /** The encounter exists but its subject is another patient (payload: encounterId, patientId). */
  'INV.EHR.ENCOUNTER.OTHER.PATIENT': { status: 409, message: 'The Patient Encounter ID belongs to another patient' },
  'INV.DIVISION.NOT.EHR.INTEGRATED': { status: 409, message: 'The division is not integrated with an EHR' },
  'INV.EHR.NOT.CONFIGURED': { status: 409, message: 'The facility has no complete EHR connection' },
  /** The EHR refused the client assertion or the token (message: what to check, for the hospital's IT). */
  'INV.EHR.KEY.REFUSED': { status: 422, message: 'The EHR refused the key of this connection' },
  /** The EHR answered 5xx / 429 or could not be reached. */
  'INV.EHR.UNAVAILABLE': { status: 502, message: 'The EHR is not available: try again later' },
  'INV.EHR.REJECTED': { status: 422, message: 'The EHR refused the request' },
  /** Saving this IP allow-list would shut out the admin saving it (payload: ipAddress, her current address). */
  'INV.IP.ALLOW.LIST.EXCLUDES.CURRENT.ADDRESS': {
    status: 409,
    message: 'Your current address is not on this list: once it is saved, you can no longer use the application from here',
  },
});

export type ErrorCodeName = keyof typeof ERRORS;

/** Named constants for the codes (kept for readability at call sites: `ErrorCode.NotFound`). */
export const ErrorCode = {
  Unexpected: 'UNEXP',
  ServiceUnavailable: 'UNEXP.SERVICE.UNAVAILABLE',
  NotFound: 'NTFND',
  Invalid: 'INV',
  Unauthorized: 'UNAUTH',
  Forbidden: 'FRBD',
  WrongCurrentPassword: 'OPWD',
  TooManyAttempts: 'INV.TOO_MANY_ATTEMPTS',
  NotUnique: 'INV.NOT.UNIQ',
  DeactivateFacilityWithGroups: 'INV.DEACTIVATE.FACILITY.WITH.GROUPS',
  DeactivateFacilityWithActiveCases: 'INV.DEACTIVATE.FACILITY.WITH.ACTIVE.CASES',
  DeactivateFacilityWithActiveDivisions: 'INV.DEACTIVATE.FACILITY.WITH.ACTIVE.DIVISIONS',
  DeactivateDivisionWithActiveCases: 'INV.DEACTIVATE.DIVISION.WITH.ACTIVE.CASES',
  DeactivateDivisionWithCredentialedProviders: 'INV.DEACTIVATE.DIVISION.WITH.CREDENTIALED.PROVIDERS',
  RemoveProviderFromDivisionsWithPendingRequests: 'INV.REMOVE.PROVIDER.FROM.DIVISIONS.WITH.PENDING.REQUESTS',
  ObjectAlreadyClaimed: 'INV.OBJECT.ALREADY.HAS.BEEN.CLAIMED',
  ClaimOverdueOrInactive: 'INV.CLAIM.IS.OVERDUE.OR.INACTIVE',
  DivisionAlreadyClaimed: 'INV.DIVISION.ALREADY.CLAIMED',
  MedicalInformationConfirmationRequired: 'INV.MEDICAL.INFORMATION.CONFIRMATION.REQUIRED',
  OnlineMeetingEnded: 'INV.ONLINE.MEETING.ENDED',
  NoSuitableRows: 'users.table.actions.no-suitable-rows',
  DeactivateAndEditPayerUsedInPatients: 'INV.DEACTIVATE.AND.EDIT.PAYER.USED.IN.PATIENTS',
  EditPayerUsedInPatients: 'INV.EDIT.PAYER.USED.IN.PATIENTS',
  DeactivatePayerUsedInPatients: 'INV.DEACTIVATE.PAYER.USED.IN.PATIENTS',
  PatientLockedWhileContacting: 'INV.PATIENT.LOCKED.WHILE.CONTACTING',
  MaxInsurances: 'INV.MAX.INSURANCES',
  UpdateSourceWithActiveRequests: 'INV.UPDATE.SOURCE.WITH.ACTIVE.REQUESTS',
  UpdateCaseWithCredentialedProviders: 'INV.UPDATE.CASE.WITH.CREDENTIALED.PROVIDERS',
  PatientHasActiveCase: 'INV.PATIENT.HAS.ACTIVE.CASE',
  PatientAlreadyAccepted: 'INV.PATIENT.ALREADY.ACCEPTED',
  PatientMerged: 'INV.PATIENT.MERGED',
  MergePatientsWithMoreThanOneActiveCases: 'INV.MERGE.PATIENTS.WITH.MORE.THAN.ONE.ACTIVE.CASES',
  CaseIsClosed: 'INV.CASE.IS.CLOSED',
  CaseNotClosed: 'INV.CASE.NOT.CLOSED',
  CaseStatusChanged: 'INV.CASE.STATUS.CHANGED',
  CaseTransition: 'INV.CASE.TRANSITION',
  CaseHasActiveRequest: 'INV.CASE.HAS.ACTIVE.REQUEST',
  CaseNothingToUndo: 'INV.CASE.NOTHING.TO.UNDO',
  CaseNothingToResume: 'INV.CASE.NOTHING.TO.RESUME',
  CaseNotContacting: 'INV.CASE.NOT.CONTACTING',
  CaseNotAccepted: 'INV.CASE.NOT.ACCEPTED',
  CaseIsReworked: 'INV.CASE.IS.REWORKED',
  CaseCommandRefused: 'INV.CASE.COMMAND.REFUSED',
  RequestNotEditable: 'INV.REQUEST.NOT.EDITABLE',
  RequestNotActive: 'INV.REQUEST.NOT.ACTIVE',
  NotificationNotResolved: 'INV.NOTIFICATION.NOT.RESOLVED',
  RequestNotInProgress: 'INV.REQUEST.NOT.IN.PROGRESS',
  CallCannotBeUndone: 'INV.CALL.CANNOT.BE.UNDONE',
  DeleteEvaluationFormAssignedToFacilities: 'INV.DELETE.EVALUATION.FORM.WHICH.ASSIGNED.TO.FACILITIES',
  DefaultEvaluationForm: 'INV.DEFAULT.EVALUATION.FORM',
  EvaluationStale: 'INV.EVALUATION.STALE',
  EvaluationCannotBeSaved: 'INV.EVALUATION.CANNOT.BE.SAVED',
  EvaluationCannotBeCompleted: 'INV.EVALUATION.CANNOT.BE.COMPLETED',
  IpAllowListExcludesCurrentAddress: 'INV.IP.ALLOW.LIST.EXCLUDES.CURRENT.ADDRESS',
  EhrPatientNotFound: 'INV.EHR.PATIENT.NOT.FOUND',
  EhrPatientIdRequired: 'INV.EHR.PATIENT.ID.REQUIRED',
  EhrEncounterNotFound: 'INV.EHR.ENCOUNTER.NOT.FOUND',
  EhrEncounterOtherPatient: 'INV.EHR.ENCOUNTER.OTHER.PATIENT',
  DivisionNotEhrIntegrated: 'INV.DIVISION.NOT.EHR.INTEGRATED',
  EhrNotConfigured: 'INV.EHR.NOT.CONFIGURED',
  EhrKeyRefused: 'INV.EHR.KEY.REFUSED',
  EhrUnavailable: 'INV.EHR.UNAVAILABLE',
  EhrRejected: 'INV.EHR.REJECTED',
} as const satisfies Record<string, ErrorCodeName>;
export type ErrorCode = ErrorCodeName;

/** Default messages by code (the UI shows them when it has no translation of its own). */
export const DEFAULT_MESSAGES: Record<string, string> = Object.fromEntries(
  Object.entries(ERRORS).map(([code, d]) => [code, d.message]),
);

/** HTTP status of a code (500 for a code this registry does not know). */
export const statusOf = (code: string): number => (ERRORS as Record<string, ErrorDefinition>)[code]?.status ?? 500;

/** One field-level problem, keyed for translation as errors.{key} (spec 03 §5). */
export interface FieldError {
  /** Dotted path of the field, e.g. "address.zipCode". */
  field: string;
  /** Translation key: required, maxLength, pattern, notUnique, ... */
  key: string;
  message: string;
}

/** The body and x-error header of every failed API call. */
export interface CodedErrorBody {
  code: ErrorCodeName;
  defaultMessage: string;
  payload?: unknown;
  /** Field errors of a validation failure (code INV) or a uniqueness failure (INV.NOT.UNIQ). */
  fields?: FieldError[];
  correlationId?: string;
}

/** A failure the client can act on (spec 03 §8); the API's exception filter turns it into the wire format. */
export class CodedError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCodeName,
    readonly payload?: unknown,
    readonly fields?: FieldError[],
    message?: string,
  ) {
    super(message ?? ERRORS[code]?.message ?? ERRORS.INV.message);
    this.name = 'CodedError';
    this.status = statusOf(code);
  }

  toBody(): CodedErrorBody {
    return { code: this.code, defaultMessage: this.message, payload: this.payload, fields: this.fields };
  }
}

/** Throws the coded error `code` (status and default message from the registry). */
export function fail(code: ErrorCodeName, payload?: unknown, options: { fields?: FieldError[]; message?: string } = {}): never {
  throw new CodedError(code, payload, options.fields, options.message);
}

export const isErrorCode = (code: unknown): code is ErrorCodeName => typeof code === 'string' && code in ERRORS;
