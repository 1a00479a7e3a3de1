/** The error vocabulary of spec 03 §8, shared by server and client. */
export const ErrorCode = {
  Unexpected: 'UNEXP',
  NotFound: 'NTFND',
  Invalid: 'INV',
  Unauthorized: 'UNAUTH',
  Forbidden: 'FRBD',
  WrongCurrentPassword: 'OPWD',
  NotUnique: 'INV.NOT.UNIQ',
  DeactivateFacilityWithGroups: 'INV.DEACTIVATE.FACILITY.WITH.GROUPS',
  DeactivateFacilityWithActiveCases: 'INV.DEACTIVATE.FACILITY.WITH.ACTIVE.CASES',
  DeactivateFacilityWithActiveDivisions: 'INV.DEACTIVATE.FACILITY.WITH.ACTIVE.DIVISIONS',
  DeactivateDivisionWithActiveCases: 'INV.DEACTIVATE.DIVISION.WITH.ACTIVE.CASES',
  DeactivateDivisionWithCredentialedProviders: 'INV.DEACTIVATE.DIVISION.WITH.CREDENTIALED.PROVIDERS',
  ObjectAlreadyClaimed: 'INV.OBJECT.ALREADY.HAS.BEEN.CLAIMED',
  ClaimOverdueOrInactive: 'INV.CLAIM.IS.OVERDUE.OR.INACTIVE',
  DivisionAlreadyClaimed: 'INV.DIVISION.ALREADY.CLAIMED',
  MedicalInformationConfirmationRequired: 'INV.MEDICAL.INFORMATION.CONFIRMATION.REQUIRED',
  NoSuitableRows: 'users.table.actions.no-suitable-rows',
  DeactivateAndEditPayerUsedInPatients: 'INV.DEACTIVATE.AND.EDIT.PAYER.USED.IN.PATIENTS',
  EditPayerUsedInPatients: 'INV.EDIT.PAYER.USED.IN.PATIENTS',
  DeactivatePayerUsedInPatients: 'INV.DEACTIVATE.PAYER.USED.IN.PATIENTS',
  // Patient, insurance and source details of a case (spec 01 §8)
  PatientLockedWhileContacting: 'INV.PATIENT.LOCKED.WHILE.CONTACTING',
  MaxInsurances: 'INV.MAX.INSURANCES',
  UpdateSourceWithActiveRequests: 'INV.UPDATE.SOURCE.WITH.ACTIVE.REQUESTS',
  UpdateCaseWithCredentialedProviders: 'INV.UPDATE.CASE.WITH.CREDENTIALED.PROVIDERS',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode] | string;

export const DEFAULT_MESSAGES: Record<string, string> = {
  UNEXP: 'Unexpected exception had happened',
  NTFND: 'Requested data not found',
  INV: 'Invalid request data',
  UNAUTH: "You don't have permission to perform this action",
  FRBD: "You don't have permission to perform this action",
  OPWD: 'Current password invalid',
  'INV.NOT.UNIQ': 'Value is not unique',
  'INV.DEACTIVATE.FACILITY.WITH.GROUPS': 'The facility belongs to group organizations',
  'INV.DEACTIVATE.FACILITY.WITH.ACTIVE.CASES': 'The facility has active cases',
  'INV.DEACTIVATE.FACILITY.WITH.ACTIVE.DIVISIONS': 'The facility has active divisions',
  'INV.DEACTIVATE.DIVISION.WITH.ACTIVE.CASES': 'The division has active cases',
  'INV.DEACTIVATE.DIVISION.WITH.CREDENTIALED.PROVIDERS': 'The division has credentialed providers',
  'INV.OBJECT.ALREADY.HAS.BEEN.CLAIMED': 'The object is already claimed by another user',
  'INV.CLAIM.IS.OVERDUE.OR.INACTIVE': 'The claim is overdue or inactive',
  'INV.DIVISION.ALREADY.CLAIMED': 'The division is already claimed',
  'INV.MEDICAL.INFORMATION.CONFIRMATION.REQUIRED': 'The change needs your confirmation',
  'users.table.actions.no-suitable-rows': 'None of the selected users is suitable for this action',
  'INV.DEACTIVATE.AND.EDIT.PAYER.USED.IN.PATIENTS': 'The payer is used by patients: deactivate and edit it anyway?',
  'INV.EDIT.PAYER.USED.IN.PATIENTS': 'The payer is used by patients: edit it anyway?',
  'INV.DEACTIVATE.PAYER.USED.IN.PATIENTS': 'The payer is used by patients: deactivate it anyway?',
  'INV.PATIENT.LOCKED.WHILE.CONTACTING': 'This value cannot be changed while contacting service organizations',
  'INV.MAX.INSURANCES': 'A case can have at most 3 insurances',
  'INV.UPDATE.SOURCE.WITH.ACTIVE.REQUESTS': 'The source division cannot be changed while a request is active: cancel or resolve it first',
  'INV.UPDATE.CASE.WITH.CREDENTIALED.PROVIDERS': 'The provider of this case is not credentialed at the new division',
};

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
  code: ErrorCode;
  defaultMessage: string;
  payload?: unknown;
  /** Field errors of a validation failure (code INV) or a uniqueness failure (INV.NOT.UNIQ). */
  fields?: FieldError[];
  correlationId?: string;
}
