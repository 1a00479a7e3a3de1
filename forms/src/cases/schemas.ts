/**
 * JSON Schemas, input types and cross-field rules of the case domain (spec 01 §5, §7), registered
 * by name in validation.ts SCHEMAS. Same conventions as schemas/*.ts: blank text arrives as null
 * (normalizeInput), dates are 'YYYY-MM-DD', date-times ISO 8601 with a zone.
 */
import { REQUEST_TYPES, type RequestType } from '../enums';
import type { FieldError } from '../errors';
import { US_STATE_CODES } from '../states';
import { id, largeText, mediumText, optionalLargeText, optionalMediumText, optionalPhone, phone, ZIP_PATTERN, objectSchema } from '../schemas/common';
import { recommendationProblems } from './transitions';
import {
  CASE_OUTCOMES,
  CASE_STATUSES,
  CaseStatus,
  DEFER_RECOMMENDATION,
  DRUGS,
  DRUG_USE_CASES,
  GENDERS,
  HALLUCINATION_TYPES,
  LEGAL_STATUSES,
  LIVING_SITUATIONS,
  MAIN_RECOMMENDATIONS,
  MAX_INSURANCES,
  NOTIFICATION_SENDING_METHODS,
  RECOMMENDATION_CRITERIA,
  RELATIONS_TO_INSURED,
  RESPONSIBLE_PARTY_ROLES,
  VIOLENT_BEHAVIORS,
  criteriaForRecommendation,
  type CaseOutcome,
  type Gender,
  type LegalStatus,
  type MainRecommendation,
  type NotificationSendingMethod,
  type RecommendationCriterion,
} from './enums';
import { closeProblems, statusChangeProblems } from './transitions';

// ---------------------------------------------------------------------------------------------
// Shared fragments and rule helpers
// ---------------------------------------------------------------------------------------------

/** Minimum date of birth and of any entered date (spec 01 §9). */

/**
 * A percentage entered by a person and sent divided by 100 (spec 01 §3, §5): positive, at most
 * `maxPercent` %. `x-percent` lets a refusal speak in the percent the person typed.
 */
const percentAsFraction = (maxPercent: number) => ({ type: ['number', 'null'], exclusiveMinimum: 0, maximum: maxPercent / 100, 'x-percent': true }) as const;

export const MIN_DATE = '1902-01-01';
/** Clock skew tolerated before a date-time counts as "in the future". */
export const FUTURE_TOLERANCE_MS = 5 * 60 * 1000;
export const MIN_DATE_MESSAGE = 'Date must be on or after 01/01/1902';
export const FUTURE_DATE_MESSAGE = 'Must not be in the future';
/** Spec 03 §5 SSN messages: the count of digits first, then the number itself. */
export const SSN_LENGTH_MESSAGE = 'The SSN must consist of 9 digits';
export const SSN_MESSAGE = 'Please enter Valid SSN number';
/** NNN-NN-NNNN; area not 000, 666 or 9xx; group not 00; serial not 0000 (spec 01 §5). */
export const SSN_PATTERN = '^(?!000|666|9\\d\\d)\\d{3}-(?!00)\\d{2}-(?!0000)\\d{4}$';
export const isValidSsn = (v: string | null | undefined): boolean => !!v && new RegExp(SSN_PATTERN).test(v);

/** The SSN as typed, formatted 3-2-4 while it is typed ("1234" → "123-4"); at most 9 digits. */
export function formatSsn(v: string | null | undefined): string {
  const d = (v ?? '').replace(/\D/g, '').slice(0, 9);
  return [d.slice(0, 3), d.slice(3, 5), d.slice(5)].filter(Boolean).join('-');
}
export const AT_LEAST_ONE_CHECKBOX_MESSAGE = 'Please check at least one checkbox';
export const PATIENT_EPIC_ID_REQUIRED = 'Patient EPIC ID or MRN is required';
export const ENCOUNTER_ID_REQUIRED = 'Patient Encounter ID is required';

const REQUIRED_MESSAGE = 'This field is required';
/** Messages of the keys the problem functions return (field → key). */
export const PROBLEM_MESSAGES: Record<string, string> = {
  required: REQUIRED_MESSAGE,
  deferNotAllowed: 'Defer recommendations at this time is not allowed here',
  notAllowed: 'Not allowed for the selected recommendation',
};
/** Field-specific messages that replace the key's message. */
export const FIELD_PROBLEM_MESSAGES: Record<string, string> = {
  patientEpicId: PATIENT_EPIC_ID_REQUIRED,
  encounterIdentifier: ENCOUNTER_ID_REQUIRED,
};

/** Turns a problem map (field → key) into field errors, with the message of the field or key. */
export function problemsToFieldErrors(problems: Record<string, string>, prefix = ''): FieldError[] {
  return Object.entries(problems).map(([field, key]) => ({
    field: prefix + field,
    key,
    message: (key === 'required' && FIELD_PROBLEM_MESSAGES[field]) || PROBLEM_MESSAGES[key] || 'Invalid value',
  }));
}

const date = { type: 'string', format: 'date' } as const;
const optionalDate = { type: ['string', 'null'], format: 'date' } as const;
const dateTime = { type: 'string', format: 'date-time' } as const;
const optionalDateTime = { type: ['string', 'null'], format: 'date-time' } as const;
const optionalId = { type: ['integer', 'null'], minimum: 1, maximum: 2147483647 } as const;
const optionalBoolean = { type: ['boolean', 'null'] } as const;
const nullableEnum = <T extends readonly string[]>(values: T) => ({ type: ['string', 'null'], enum: [...values, null] }) as const;
const idArray = { type: 'array', items: id, uniqueItems: true, maxItems: 1000 } as const;

const todayLocal = (now: Date): string =>
  `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;

/** A 'YYYY-MM-DD' date (a date of birth): on or after 1902-01-01 and not after today. */
export function dayRules(value: unknown, field: string, now = new Date()): FieldError[] {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return [];
  if (value < MIN_DATE) return [{ field, key: 'minDate', message: MIN_DATE_MESSAGE }];
  if (value > todayLocal(now)) return [{ field, key: 'future', message: FUTURE_DATE_MESSAGE }];
  return [];
}

/** An ISO date-time: not before 1902-01-01 and not in the future (with a small clock-skew tolerance). */
export function dateTimeRules(value: unknown, field: string, now = Date.now()): FieldError[] {
  if (typeof value !== 'string') return [];
  const t = Date.parse(value);
  if (Number.isNaN(t)) return [];
  if (value.slice(0, 10) < MIN_DATE) return [{ field, key: 'minDate', message: MIN_DATE_MESSAGE }];
  if (t > now + FUTURE_TOLERANCE_MS) return [{ field, key: 'future', message: FUTURE_DATE_MESSAGE }];
  return [];
}

const isObject = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v);

// ---------------------------------------------------------------------------------------------
// Patient search and patient (spec 01 §5 Case creation, Patient form)
// ---------------------------------------------------------------------------------------------

export interface CasePatientSearchInput {
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  patientEpicId?: string | null;
  encounterIdentifier?: string | null;
}

export const casePatientSearchSchema = objectSchema('casePatientSearch', ['firstName', 'lastName', 'dateOfBirth'], {
  firstName: mediumText,
  lastName: mediumText,
  dateOfBirth: date,
  patientEpicId: optionalMediumText,
  encounterIdentifier: optionalMediumText,
});

export const casePatientSearchRules = (d: any): FieldError[] => dayRules(d.dateOfBirth, 'dateOfBirth');

/** GET /api/patients/search: part of a name and/or a date of birth. */
export const patientSearchSchema = {
  $id: 'patientSearch',
  type: 'object',
  additionalProperties: false,
  properties: { name: optionalMediumText, dateOfBirth: optionalDate },
} as const;
export const patientSearchRules = (d: any): FieldError[] => dayRules(d.dateOfBirth, 'dateOfBirth');

export interface AddressInput {
  streetLine: string;
  apartmentNumber?: string | null;
  city: string;
  state: string;
  county: string;
  zipCode: string;
}

export interface PatientInput {
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  gender: Gender;
  phone?: string | null;
  isVeteran?: boolean;
  homeless?: boolean;
  address: AddressInput;
  /** Required and sent only for veterans. */
  ssn?: string | null;
  outpatientProviderName?: string | null;
  outpatientProviderPhone?: string | null;
  athenaPatientId?: string | null;
  patientEpicId?: string | null;
  encounterIdentifier?: string | null;
}

/** Fields of the patient record the edit form sends back and the server ignores. */
const PATIENT_READ_ONLY = ['id', 'referenceNumber', 'tags', 'sourceFacilities', 'lastCase', 'createdIn', 'activeCase', 'hasNewCase', 'age'] as const;

const patientBody = {
  type: 'object',
  additionalProperties: false,
  required: ['firstName', 'lastName', 'dateOfBirth', 'gender', 'address'],
  properties: {
    firstName: mediumText,
    lastName: mediumText,
    dateOfBirth: date,
    gender: { type: 'string', enum: GENDERS },
    phone: optionalPhone,
    isVeteran: { type: 'boolean', default: false },
    homeless: { type: 'boolean', default: false },
    address: {
      type: 'object',
      additionalProperties: false,
      required: ['streetLine', 'city', 'state', 'county', 'zipCode'],
      properties: {
        streetLine: mediumText,
        apartmentNumber: optionalMediumText,
        city: mediumText,
        state: { type: 'string', enum: US_STATE_CODES },
        county: mediumText,
        zipCode: { type: 'string', pattern: ZIP_PATTERN },
      },
    },
    ssn: { type: ['string', 'null'], maxLength: 11 },
    outpatientProviderName: optionalMediumText,
    outpatientProviderPhone: optionalPhone,
    athenaPatientId: optionalMediumText,
    patientEpicId: optionalMediumText,
    encounterIdentifier: optionalMediumText,
    ...Object.fromEntries(PATIENT_READ_ONLY.map((f) => [f, { readOnly: true }])),
  },
} as const;

export const patientSchema = { $id: 'patient', ...patientBody } as const;

/** Date of birth, and ssn required and valid for veterans (keys 'ssnLength', 'ssnInvalid'). `prefix` for nesting. */
export function patientRules(d: any, prefix = ''): FieldError[] {
  if (!isObject(d)) return [];
  const errors = dayRules(d.dateOfBirth, `${prefix}dateOfBirth`);
  if (d.isVeteran === true) {
    if (d.ssn === null || d.ssn === undefined) errors.push({ field: `${prefix}ssn`, key: 'required', message: REQUIRED_MESSAGE });
    else if (typeof d.ssn === 'string' && d.ssn.replace(/\D/g, '').length !== 9) errors.push({ field: `${prefix}ssn`, key: 'ssnLength', message: SSN_LENGTH_MESSAGE });
    else if (typeof d.ssn === 'string' && !isValidSsn(d.ssn)) errors.push({ field: `${prefix}ssn`, key: 'ssnInvalid', message: SSN_MESSAGE });
  }
  return errors;
}

/** Patient fields that cannot change while the case is contacting service organizations (spec 01 §5 Patient form). */
export const PATIENT_FIELDS_LOCKED_WHILE_CONTACTING = ['isVeteran', 'dateOfBirth', 'gender'] as const;
/** The locked patient fields for a case in this status (empty unless contacting). */
export const lockedPatientFields = (caseStatus: string | null | undefined): readonly string[] =>
  caseStatus === CaseStatus.Contacting ? PATIENT_FIELDS_LOCKED_WHILE_CONTACTING : [];

/** The patient as stored: ssn kept only for veterans (spec 01 §5 "ssn is sent only for veterans"). */
export const patientForSave = <T extends Partial<PatientInput>>(p: T): T => ({ ...p, ssn: p.isVeteran ? (p.ssn ?? null) : null });

// ---------------------------------------------------------------------------------------------
// Insurance (spec 01 §3, §5 Insurance)
// ---------------------------------------------------------------------------------------------

export interface ResponsiblePartyInput {
  firstName?: string | null;
  lastName?: string | null;
  contactPhoneNumber?: string | null;
  dateOfBirth?: string | null;
  role?: (typeof RESPONSIBLE_PARTY_ROLES)[number] | null;
}

export interface InsuranceInput {
  /** Present when a full update (PUT /{id}/insurances) keeps an existing insurance. */
  id?: number | null;
  payerId: number;
  insuranceId: string;
  groupId?: string | null;
  relationToInsured?: (typeof RELATIONS_TO_INSURED)[number] | null;
  responsibleParty?: ResponsiblePartyInput | null;
  verified?: boolean;
  patientPhone?: string | null;
}

const INSURANCE_READ_ONLY = ['payer', 'frontImage', 'backImage', 'createdAt', 'order', 'status'] as const;

const insuranceBody = {
  type: 'object',
  additionalProperties: false,
  required: ['payerId', 'insuranceId'],
  properties: {
    id: optionalId,
    payerId: id,
    insuranceId: mediumText,
    groupId: optionalMediumText,
    relationToInsured: nullableEnum(RELATIONS_TO_INSURED),
    responsibleParty: {
      type: ['object', 'null'],
      additionalProperties: false,
      properties: {
        firstName: optionalMediumText,
        lastName: optionalMediumText,
        contactPhoneNumber: optionalPhone,
        dateOfBirth: optionalDate,
        role: nullableEnum(RESPONSIBLE_PARTY_ROLES),
      },
    },
    verified: { type: 'boolean' },
    patientPhone: optionalPhone,
    ...Object.fromEntries(INSURANCE_READ_ONLY.map((f) => [f, { readOnly: true }])),
  },
} as const;

export const insuranceSchema = { $id: 'insurance', ...insuranceBody } as const;

export function insuranceRules(d: any, prefix = ''): FieldError[] {
  if (!isObject(d) || !isObject(d.responsibleParty)) return [];
  return dayRules(d.responsibleParty.dateOfBirth, `${prefix}responsibleParty.dateOfBirth`);
}

export interface InsuranceOrderInput {
  ids: number[];
}
export const insuranceOrderSchema = {
  $id: 'insuranceOrder',
  type: 'object',
  additionalProperties: false,
  required: ['ids'],
  properties: { ids: { type: 'array', items: id, uniqueItems: true, maxItems: MAX_INSURANCES } },
} as const;

export interface InsuranceUninsuredInput {
  uninsured: boolean;
}
export const insuranceUninsuredSchema = {
  $id: 'insuranceUninsured',
  type: 'object',
  additionalProperties: false,
  required: ['uninsured'],
  properties: { uninsured: { type: 'boolean' } },
} as const;

/** PUT /api/cases/{id}/insurances: the whole list in order (items with an id keep that insurance). */
export interface InsuranceListInput {
  insurances: InsuranceInput[];
  uninsured?: boolean;
}
export const insuranceListSchema = objectSchema('insuranceList', ['insurances'], {
  insurances: { type: 'array', items: insuranceBody, maxItems: MAX_INSURANCES },
  uninsured: { type: 'boolean', default: false },
});
export function insuranceListRules(d: any): FieldError[] {
  const errors: FieldError[] = [];
  if (Array.isArray(d.insurances)) d.insurances.forEach((ins: unknown, i: number) => errors.push(...insuranceRules(ins, `insurances.${i}.`)));
  return errors;
}

/**
 * The responsible party an insurance keeps for its relation (spec 01 §4 Insurance states), at case
 * creation and on every insurance edit, in the browser and on the server: relation Self copies the
 * patient into it; any other relation clears what was copied (a party marked Self, or one with the
 * patient's own name and date of birth) and keeps a party someone entered.
 */
export function responsiblePartyForRelation(
  relation: string | null | undefined,
  patient: { firstName?: string | null; lastName?: string | null; phone?: string | null; dateOfBirth?: string | null } | null | undefined,
  current: ResponsiblePartyInput | null | undefined,
): ResponsiblePartyInput | null {
  if (relation === 'Self')
    return {
      firstName: patient?.firstName ?? null,
      lastName: patient?.lastName ?? null,
      contactPhoneNumber: patient?.phone ?? null,
      dateOfBirth: patient?.dateOfBirth ?? null,
      role: 'Self',
    };
  if (!current) return null;
  const same = (a: string | null | undefined, b: string | null | undefined) => !!a && !!b && a.trim().toLowerCase() === b.trim().toLowerCase();
  const copied =
    current.role === 'Self' ||
    (same(current.firstName, patient?.firstName) && same(current.lastName, patient?.lastName) && same(current.dateOfBirth?.slice(0, 10), patient?.dateOfBirth?.slice(0, 10)));
  return copied ? null : current;
}

// ---------------------------------------------------------------------------------------------
// Case creation and source details (spec 01 §5, §7 POST /api/cases, PUT /{id})
// ---------------------------------------------------------------------------------------------

export interface CaseCreateInput {
  /** A new patient, or (with patientId) the edited data of the chosen one. */
  patient?: PatientInput | null;
  patientId?: number | null;
  sourceFacilityId?: number | null;
  sourceDivisionId?: number | null;
  attendingProvider?: string | null;
  rnCaringForPatient?: string | null;
  contactPhoneNumber: string;
  notificationSendingMethod: NotificationSendingMethod;
  isInvoluntary?: boolean;
  requestType: RequestType;
  requestNote?: string | null;
  evaluationProviderId?: number | null;
  patientEpicId?: string | null;
  encounterIdentifier?: string | null;
  insurances?: InsuranceInput[];
  uninsured?: boolean;
}

export const caseCreateSchema = objectSchema('caseCreate', ['contactPhoneNumber', 'notificationSendingMethod', 'requestType'], {
  patient: { ...patientBody, type: ['object', 'null'] },
  patientId: optionalId,
  sourceFacilityId: optionalId,
  sourceDivisionId: optionalId,
  attendingProvider: optionalMediumText,
  rnCaringForPatient: optionalMediumText,
  contactPhoneNumber: phone,
  notificationSendingMethod: { type: 'string', enum: NOTIFICATION_SENDING_METHODS },
  isInvoluntary: { type: 'boolean', default: false },
  requestType: { type: 'string', enum: REQUEST_TYPES },
  requestNote: optionalLargeText,
  evaluationProviderId: optionalId,
  patientEpicId: optionalMediumText,
  encounterIdentifier: optionalMediumText,
  insurances: { type: 'array', items: insuranceBody, maxItems: MAX_INSURANCES, default: [] },
  uninsured: { type: 'boolean', default: false },
});

export function caseCreateRules(d: any): FieldError[] {
  const errors: FieldError[] = [];
  if (!isObject(d.patient) && (d.patientId === null || d.patientId === undefined))
    errors.push({ field: 'patient', key: 'required', message: REQUIRED_MESSAGE });
  errors.push(...patientRules(d.patient, 'patient.'));
  if (Array.isArray(d.insurances)) d.insurances.forEach((ins: unknown, i: number) => errors.push(...insuranceRules(ins, `insurances.${i}.`)));
  return errors;
}

export interface CaseCreateContext {
  /** The creator is ITP staff (the ITP form picks facility, division and provider). */
  isItp: boolean;
  /** The source division is integrated with an EHR. */
  ehrIntegrated: boolean;
}

/**
 * Requirements that depend on who creates the case and where (spec 01 §5 Case creation): ITP staff
 * must give source facility and division and, unless the request is PlacementOnly, an evaluation
 * provider; EHR-integrated divisions need the EHR patient and encounter ids. Field → key; turn into
 * field errors with problemsToFieldErrors (it carries the EHR messages).
 */
export function caseCreateProblems(
  input: Partial<Pick<CaseCreateInput, 'sourceFacilityId' | 'sourceDivisionId' | 'evaluationProviderId' | 'requestType' | 'patientEpicId' | 'encounterIdentifier'>>,
  { isItp, ehrIntegrated }: CaseCreateContext,
): Record<string, string> {
  const problems: Record<string, string> = {};
  const missing = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');
  if (isItp) {
    if (missing(input.sourceFacilityId)) problems.sourceFacilityId = 'required';
    if (missing(input.sourceDivisionId)) problems.sourceDivisionId = 'required';
    if (providerRequired(true, input.requestType) && missing(input.evaluationProviderId)) problems.evaluationProviderId = 'required';
  }
  if (ehrIntegrated) {
    if (missing(input.patientEpicId)) problems.patientEpicId = 'required';
    if (missing(input.encounterIdentifier)) problems.encounterIdentifier = 'required';
  }
  return problems;
}

export interface CaseSourceDetailsInput {
  sourceFacilityId: number;
  sourceDivisionId: number;
  attendingProvider?: string | null;
  rnCaringForPatient?: string | null;
  contactPhoneNumber: string;
  notificationSendingMethod: NotificationSendingMethod;
  isInvoluntary?: boolean;
  /** Confirms a division change after the credentialed-providers warning. */
  forceUpdate?: boolean | null;
}

export const caseSourceDetailsSchema = objectSchema('caseSourceDetails', ['sourceFacilityId', 'sourceDivisionId', 'contactPhoneNumber', 'notificationSendingMethod'], {
  sourceFacilityId: id,
  sourceDivisionId: id,
  attendingProvider: optionalMediumText,
  rnCaringForPatient: optionalMediumText,
  contactPhoneNumber: phone,
  notificationSendingMethod: { type: 'string', enum: NOTIFICATION_SENDING_METHODS },
  isInvoluntary: { type: 'boolean', default: false },
  forceUpdate: optionalBoolean,
});

// ---------------------------------------------------------------------------------------------
// Status change, close, outcome, feedback, out-of-state, tags (spec 01 §4, §5, §7)
// ---------------------------------------------------------------------------------------------

export interface CaseStatusChangeInput {
  status: CaseStatus;
  note?: string | null;
  mainRecommendation?: MainRecommendation | null;
  criteria?: RecommendationCriterion[] | null;
  includeOutOfStateFacilities?: boolean | null;
  /** The status the user saw: the change is refused if the case moved meanwhile. */
  expectedStatus?: CaseStatus | null;
}

export const caseStatusChangeSchema = objectSchema('caseStatusChange', ['status'], {
  status: { type: 'string', enum: CASE_STATUSES },
  note: optionalLargeText,
  mainRecommendation: nullableEnum(MAIN_RECOMMENDATIONS),
  criteria: { type: ['array', 'null'], items: { type: 'string', enum: RECOMMENDATION_CRITERIA }, uniqueItems: true },
  includeOutOfStateFacilities: optionalBoolean,
  expectedStatus: nullableEnum(CASE_STATUSES),
});

export const caseStatusChangeRules = (d: any): FieldError[] => problemsToFieldErrors(statusChangeProblems(d));

export interface CaseCloseInput {
  outcomeRequired: boolean;
  caseOutcomeType?: CaseOutcome | null;
  note?: string | null;
  referringDivisionId?: number | null;
  expectedStatus?: CaseStatus | null;
}

/**
 * The message key of an outcome that is not one of the case outcomes (spec 01 §8 "Outcome invalid"):
 * the close and change-outcome calls answer it as the field's key, and the dialogs look it up.
 */
export const OUTCOME_ERROR_KEY = 'cases.information.activity.changeStatus.outcomeError';
const outcomeType = { ...nullableEnum(CASE_OUTCOMES), 'x-errorKey': OUTCOME_ERROR_KEY, 'x-errorMessage': 'Choose one of the case outcomes' } as const;

export const caseCloseSchema = objectSchema('caseClose', ['outcomeRequired'], {
  outcomeRequired: { type: 'boolean' },
  caseOutcomeType: outcomeType,
  note: optionalLargeText,
  referringDivisionId: optionalId,
  expectedStatus: nullableEnum(CASE_STATUSES),
});

export const caseCloseRules = (d: any): FieldError[] => problemsToFieldErrors(closeProblems(d));

export interface CaseChangeOutcomeInput {
  caseOutcomeType: CaseOutcome | null;
  note?: string | null;
  referringDivisionId?: number | null;
}

export const caseChangeOutcomeSchema = objectSchema('caseChangeOutcome', ['caseOutcomeType'], {
  caseOutcomeType: outcomeType,
  note: optionalLargeText,
  referringDivisionId: optionalId,
});

/** Changing the outcome always needs one (the EHR-without-outcome case only shows a notice). */
/** PUT /api/cases/{id}/remove-from-accepted: the division to take off; may be left out when only one accepts. */
export interface CaseRemoveFromAcceptedInput {
  divisionId?: number | null;
}
export const caseRemoveFromAcceptedSchema = objectSchema('caseRemoveFromAccepted', [], { divisionId: optionalId });

export const caseChangeOutcomeRules = (d: any): FieldError[] => problemsToFieldErrors(closeProblems({ ...d, outcomeRequired: true }));

export interface CaseFeedbackInput {
  rating: number;
  note?: string | null;
  confirmation?: boolean | null;
  cantAttest?: boolean | null;
}

export const caseFeedbackSchema = objectSchema('caseFeedback', ['rating'], {
  rating: { type: 'integer', minimum: 1, maximum: 5 },
  note: optionalLargeText,
  confirmation: optionalBoolean,
  cantAttest: optionalBoolean,
});

export interface CaseIncludeOutOfStateInput {
  includeOutOfState: boolean;
}
export const caseIncludeOutOfStateSchema = {
  $id: 'caseIncludeOutOfState',
  type: 'object',
  additionalProperties: false,
  required: ['includeOutOfState'],
  properties: { includeOutOfState: { type: 'boolean' } },
} as const;

export interface CaseTagsInput {
  tagIds: number[];
}
export const caseTagsSchema = {
  $id: 'caseTags',
  type: 'object',
  additionalProperties: false,
  required: ['tagIds'],
  properties: { tagIds: idArray },
} as const;

// ---------------------------------------------------------------------------------------------
// Requests (spec 01 §3 Request, §7 /{id}/requests, /api/requests)
// ---------------------------------------------------------------------------------------------

/**
 * ITP staff name the evaluating provider of every request they create — at case creation and on
 * later requests — unless it is PlacementOnly (spec 01 §5); facility staff may leave it to the ITP.
 */
export const providerRequired = (isItp: boolean, requestType: string | null | undefined): boolean => isItp && requestType !== 'PlacementOnly';

export interface RequestCreateInput {
  type: RequestType;
  evaluationProviderId?: number | null;
  /** The request note. */
  note?: string | null;
  facilityNote?: string | null;
  itpNote?: string | null;
}
export type RequestUpdateInput = RequestCreateInput;

const requestBody = {
  type: 'object',
  additionalProperties: false,
  required: ['type'],
  properties: {
    type: { type: 'string', enum: REQUEST_TYPES },
    evaluationProviderId: optionalId,
    note: optionalLargeText,
    facilityNote: optionalLargeText,
    itpNote: optionalLargeText,
  },
} as const;
export const requestCreateSchema = { $id: 'requestCreate', ...requestBody } as const;
export const requestUpdateSchema = { $id: 'requestUpdate', ...requestBody } as const;

export interface RequestReasonInput {
  reason: string;
}
export const requestReasonSchema = {
  $id: 'requestReason',
  type: 'object',
  additionalProperties: false,
  required: ['reason'],
  properties: { reason: largeText },
} as const;

// ---------------------------------------------------------------------------------------------
// Vitals, progress notes, case notes (spec 01 §3, §5)
// ---------------------------------------------------------------------------------------------

export interface VitalsInput {
  submittedOn: string;
  pulse?: number | null;
  bloodPressure?: { systolic?: number | null; diastolic?: number | null } | null;
  /** Percent as entered (the API stores it divided by 100). */
  oxygenSaturation?: number | null;
  /** Degrees Fahrenheit. */
  bodyTemperature?: number | null;
  respirationRate?: number | null;
}

/**
 * Upper bounds the spec does not give, kept so absurd values fail validation rather than the
 * database: smallint, and numeric(5, 1) (one decimal below 10,000: a value rounding past 9999.9
 * does not fit).
 */
const positiveInteger = { type: ['integer', 'null'], minimum: 1, maximum: 32767 } as const;
const positiveNumber = { type: ['number', 'null'], exclusiveMinimum: 0, maximum: 9999.9 } as const;

export const vitalsSchema = objectSchema('vitals', ['submittedOn'], {
  submittedOn: dateTime,
  pulse: positiveInteger,
  bloodPressure: {
    type: ['object', 'null'],
    additionalProperties: false,
    properties: { systolic: positiveInteger, diastolic: positiveInteger },
  },
  // Entered in percent, sent as a fraction (spec 01 §3: 97 % travels as 0.97).
  oxygenSaturation: percentAsFraction(100),
  bodyTemperature: positiveNumber,
  respirationRate: positiveNumber,
});

const present = (v: unknown) => v !== null && v !== undefined;
export function vitalsRules(d: any): FieldError[] {
  const errors = dateTimeRules(d.submittedOn, 'submittedOn');
  const bp = isObject(d.bloodPressure) ? d.bloodPressure : {};
  const any = [d.pulse, bp.systolic, bp.diastolic, d.oxygenSaturation, d.bodyTemperature, d.respirationRate].some(present);
  if (!any) errors.push({ field: 'pulse', key: 'atLeastOne', message: 'Enter at least one measurement' });
  return errors;
}

export interface ProgressNoteInput {
  note: string;
  submittedOn: string;
}
export const progressNoteSchema = {
  $id: 'progressNote',
  type: 'object',
  additionalProperties: false,
  required: ['note', 'submittedOn'],
  properties: { note: largeText, submittedOn: dateTime },
} as const;
export const progressNoteRules = (d: any): FieldError[] => dateTimeRules(d.submittedOn, 'submittedOn');

export interface CaseNoteInput {
  note: string;
  /** Why an existing note was edited (optional). */
  reason?: string | null;
}
export const caseNoteSchema = objectSchema('caseNote', ['note'], {
  note: largeText,
  reason: optionalLargeText,
  ...Object.fromEntries(['id', 'hidden', 'createdBy', 'createdAt', 'modifiedAt'].map((f) => [f, { readOnly: true }])),
});

export interface CaseNoteHiddenInput {
  hidden: boolean;
}
export const caseNoteHiddenSchema = {
  $id: 'caseNoteHidden',
  type: 'object',
  additionalProperties: false,
  required: ['hidden'],
  properties: { hidden: { type: 'boolean' } },
} as const;

// ---------------------------------------------------------------------------------------------
// Medical information (spec 01 §3, §5)
// ---------------------------------------------------------------------------------------------

export interface YesNoNote {
  exist?: boolean | null;
  note?: string | null;
}

export interface MedicalInformationInput {
  mainRecommendation?: MainRecommendation | null;
  recommendationCriteria?: RecommendationCriterion[] | null;
  recommendationNote?: string | null;
  admissionPrecipitatingFactorsNotes?: string | null;
  primaryDiagnosisId?: number | null;
  secondaryDiagnosisIds?: number[] | null;
  /** Diagnoses are keyed by their ICD-10-CM code (table diagnoses). */
  primaryDiagnosisCode?: string | null;
  secondaryDiagnosisCodes?: string[] | null;
  homicidalOrSuicidalIdeations?: boolean | null;
  hallucinations?: { exist?: boolean | null; type?: (typeof HALLUCINATION_TYPES)[number] | null } | null;
  violentBehavior?: (typeof VIOLENT_BEHAVIORS)[number] | null;
  currentLivingSituationType?: (typeof LIVING_SITUATIONS)[number] | null;
  currentLivingSituationNote?: string | null;
  criminalCharges?: YesNoNote | null;
  legalStatus?: {
    type?: LegalStatus | null;
    legalGuardianName?: string | null;
    relationshipToPatient?: string | null;
    holdEnd?: string | null;
  } | null;
  jailPriorToArrivingOrInCustody?: YesNoNote | null;
  /** bal: blood alcohol as a fraction (the percent entered divided by 100, spec 01 §5). */
  alcoholInSystem?: { exist?: boolean | null; bal?: number | null } | null;
  assistiveDevices?: YesNoNote | null;
  activeDetox?: boolean | null;
  acuteConditions?: string | null;
  medicationsGivenInEr?: string | null;
  homeMedications?: string | null;
  ambulatory?: boolean | null;
  covid19?: boolean | null;
  incontinent?: boolean | null;
  crisisTeamNotes?: string | null;
  medicalPsychHistory?: string | null;
  drugsInSystem?: Array<{ drug: (typeof DRUGS)[number]; useCase?: (typeof DRUG_USE_CASES)[number] | null }> | null;
}

const yesNoNote = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: { exist: optionalBoolean, note: optionalLargeText },
} as const;

const MEDICAL_INFORMATION_READ_ONLY = ['id', 'caseId', 'primaryDiagnosis', 'secondaryDiagnoses', 'modifiedAt', 'modifiedBy', 'createdAt'] as const;

export const medicalInformationSchema = objectSchema('medicalInformation', [], {
  mainRecommendation: nullableEnum(MAIN_RECOMMENDATIONS),
  recommendationCriteria: { type: ['array', 'null'], items: { type: 'string', enum: RECOMMENDATION_CRITERIA }, uniqueItems: true },
  recommendationNote: optionalLargeText,
  admissionPrecipitatingFactorsNotes: optionalLargeText,
  primaryDiagnosisId: optionalId,
  secondaryDiagnosisIds: { type: ['array', 'null'], items: id, uniqueItems: true, maxItems: 100 },
  primaryDiagnosisCode: { type: ['string', 'null'], minLength: 1, maxLength: 16 },
  secondaryDiagnosisCodes: { type: ['array', 'null'], items: { type: 'string', minLength: 1, maxLength: 16 }, uniqueItems: true, maxItems: 100 },
  /** Set when the user confirmed a change that asks for confirmation (recommendation, legal status while contacting). */
  confirmed: optionalBoolean,
  homicidalOrSuicidalIdeations: optionalBoolean,
  hallucinations: {
    type: ['object', 'null'],
    additionalProperties: false,
    properties: { exist: optionalBoolean, type: nullableEnum(HALLUCINATION_TYPES) },
  },
  violentBehavior: nullableEnum(VIOLENT_BEHAVIORS),
  currentLivingSituationType: nullableEnum(LIVING_SITUATIONS),
  currentLivingSituationNote: optionalLargeText,
  criminalCharges: yesNoNote,
  legalStatus: {
    type: ['object', 'null'],
    additionalProperties: false,
    properties: {
      type: nullableEnum(LEGAL_STATUSES),
      legalGuardianName: optionalMediumText,
      relationshipToPatient: optionalMediumText,
      holdEnd: optionalDateTime,
    },
  },
  jailPriorToArrivingOrInCustody: yesNoNote,
  alcoholInSystem: {
    type: ['object', 'null'],
    additionalProperties: false,
    properties: { exist: optionalBoolean, bal: percentAsFraction(900) },
  },
  assistiveDevices: yesNoNote,
  activeDetox: optionalBoolean,
  acuteConditions: optionalLargeText,
  medicationsGivenInEr: optionalLargeText,
  homeMedications: optionalLargeText,
  ambulatory: optionalBoolean,
  covid19: optionalBoolean,
  incontinent: optionalBoolean,
  crisisTeamNotes: optionalLargeText,
  medicalPsychHistory: optionalLargeText,
  drugsInSystem: {
    type: ['array', 'null'],
    maxItems: DRUGS.length * DRUG_USE_CASES.length,
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['drug'],
      properties: { drug: { type: 'string', enum: DRUGS }, useCase: nullableEnum(DRUG_USE_CASES) },
    },
  },
  ...Object.fromEntries(MEDICAL_INFORMATION_READ_ONLY.map((f) => [f, { readOnly: true }])),
});

/** Criteria must belong to the recommendation; Defer needs a note. */
export function medicalInformationRules(d: any): FieldError[] {
  const errors: FieldError[] = [];
  const allowed = criteriaForRecommendation(d.mainRecommendation);
  if (Array.isArray(d.recommendationCriteria) && d.recommendationCriteria.some((c: string) => !allowed.includes(c as never)))
    errors.push({ field: 'recommendationCriteria', key: 'notAllowed', message: PROBLEM_MESSAGES.notAllowed });
  if (d.mainRecommendation === DEFER_RECOMMENDATION && !(typeof d.recommendationNote === 'string' && d.recommendationNote.trim()))
    errors.push({ field: 'recommendationNote', key: 'required', message: REQUIRED_MESSAGE });
  return errors;
}

/** Statuses in which the medical information must carry a main recommendation. */
export const RECOMMENDATION_REQUIRED_STATUSES: readonly CaseStatus[] = [CaseStatus.Contacting, CaseStatus.WaitingForConfirmation];

/** Problems that depend on the case: the recommendation is required only while contacting or waiting for confirmation. */
export function medicalInformationProblems(input: Pick<MedicalInformationInput, 'mainRecommendation'>, { caseStatus }: { caseStatus: string }): Record<string, string> {
  const problems: Record<string, string> = {};
  if ((RECOMMENDATION_REQUIRED_STATUSES as readonly string[]).includes(caseStatus) && !input.mainRecommendation) problems.mainRecommendation = 'required';
  const { mainRecommendation } = recommendationProblems(input, { caseStatus });
  if (mainRecommendation) problems.mainRecommendation = mainRecommendation;
  return problems;
}

/** Legal statuses that show the guardian fields, and the one that shows the hold end. */
export const GUARDIAN_LEGAL_STATUSES: readonly LegalStatus[] = ['LegalGuardian'];
export const HOLD_END_LEGAL_STATUSES: readonly LegalStatus[] = ['InvoluntaryPsychiatricHold'];
export const showsGuardianFields = (t: string | null | undefined): boolean => !!t && (GUARDIAN_LEGAL_STATUSES as readonly string[]).includes(t);
export const showsHoldEnd = (t: string | null | undefined): boolean => !!t && (HOLD_END_LEGAL_STATUSES as readonly string[]).includes(t);

/**
 * The dependent-field clearing of spec 01 §5: fields the legal-status type does not show are
 * cleared (guardian name and relationship only for LegalGuardian, hold end only for
 * InvoluntaryPsychiatricHold), and a yes/no that is not "yes" clears its note, type or level.
 * Returns a copy; used by the form on change and by the API before saving.
 */
export function normalizeMedicalInformation<T extends MedicalInformationInput>(input: T): T {
  const out: any = { ...input };
  if (isObject(out.legalStatus)) {
    const ls = { ...out.legalStatus };
    if (!showsGuardianFields(ls.type)) {
      ls.legalGuardianName = null;
      ls.relationshipToPatient = null;
    }
    if (!showsHoldEnd(ls.type)) ls.holdEnd = null;
    out.legalStatus = ls;
  }
  if (isObject(out.hallucinations) && out.hallucinations.exist !== true) out.hallucinations = { ...out.hallucinations, type: null };
  for (const key of ['criminalCharges', 'jailPriorToArrivingOrInCustody', 'assistiveDevices'] as const)
    if (isObject(out[key]) && out[key].exist !== true) out[key] = { ...out[key], note: null };
  if (isObject(out.alcoholInSystem) && out.alcoholInSystem.exist !== true) out.alcoholInSystem = { ...out.alcoholInSystem, bal: null };
  return out;
}


/**
 * Legal statuses a case may change to while contacting service organizations without asking for
 * confirmation (spec 01 §5 leaves the set unnamed; product decision): the involuntary group plus
 * Voluntary. Any other one asks, unless the case includes out-of-state facilities.
 */
export const CONTACTING_ALLOWED_LEGAL_STATUSES: readonly LegalStatus[] = [
  'Voluntary',
  'InvoluntaryPsychiatricHold',
  'InvoluntaryMentalHealthCommitment',
  'InvoluntarySubstanceAbuseCommitment',
  'InvoluntaryOutpatientCommitment',
];

export type MedicalInformationConfirmationReason = 'recommendationChanged' | 'legalStatusChanged';

const sameList = (a: readonly string[] | null | undefined, b: readonly string[] | null | undefined) =>
  [...(a ?? [])].sort().join('|') === [...(b ?? [])].sort().join('|');

/**
 * Whether saving needs the user's confirmation (spec 01 §5): the recommendation (main or criteria)
 * changed, or, while contacting, the legal status changed to one outside
 * CONTACTING_ALLOWED_LEGAL_STATUSES and the case does not include out-of-state facilities.
 */
export function medicalInformationConfirmation(
  before: Pick<MedicalInformationInput, 'mainRecommendation' | 'recommendationCriteria' | 'legalStatus'>,
  after: Pick<MedicalInformationInput, 'mainRecommendation' | 'recommendationCriteria' | 'legalStatus'>,
  ctx: { caseStatus: string; includeOutOfStateFacilities: boolean },
): MedicalInformationConfirmationReason | null {
  if ((before.mainRecommendation ?? null) !== (after.mainRecommendation ?? null) || !sameList(before.recommendationCriteria, after.recommendationCriteria))
    return 'recommendationChanged';
  const oldType = before.legalStatus?.type ?? null;
  const newType = after.legalStatus?.type ?? null;
  if (
    ctx.caseStatus === CaseStatus.Contacting &&
    !ctx.includeOutOfStateFacilities &&
    newType !== oldType &&
    !(newType && (CONTACTING_ALLOWED_LEGAL_STATUSES as readonly string[]).includes(newType))
  )
    return 'legalStatusChanged';
  return null;
}

/** The fields of medical information a facility sees (spec 01 §2 facility case page). */
export const FACILITY_MEDICAL_INFORMATION_FIELDS = [
  'admissionPrecipitatingFactorsNotes',
  'homeMedications',
  'medicationsGivenInEr',
  'mainRecommendation',
  'recommendationCriteria',
  'recommendationNote',
  'primaryDiagnosis',
  'secondaryDiagnoses',
  'currentLivingSituationType',
  'currentLivingSituationNote',
  'legalStatus',
  'drugsInSystem',
  'alcoholInSystem',
  'activeDetox',
  'ambulatory',
  'incontinent',
  'assistiveDevices',
  'covid19',
  'jailPriorToArrivingOrInCustody',
] as const;

// ---------------------------------------------------------------------------------------------
// Files, PDF export, list filter
// ---------------------------------------------------------------------------------------------

export interface PatientFileMetaInput {
  title: string;
  note?: string | null;
}
export const patientFileMetaSchema = {
  $id: 'patientFileMeta',
  type: 'object',
  additionalProperties: false,
  required: ['title'],
  properties: { title: mediumText, note: optionalLargeText },
} as const;

/** Default title of an uploaded file: its name without the extension. */
export const fileTitleFromName = (fileName: string): string => fileName.replace(/\.[^./\\]*$/, '') || fileName;
/** Largest patient file (spec 01 §9: PDF, max 100 MB). */
export const PATIENT_FILE_MAX_BYTES = 104_857_600;
export const PDF_ONLY_MESSAGE = 'Only PDF files can be uploaded';
/** A PDF by content: it starts with the %PDF- signature. */
export const isPdfHead = (head: Uint8Array): boolean =>
  head.length >= 5 && head[0] === 0x25 && head[1] === 0x50 && head[2] === 0x44 && head[3] === 0x46 && head[4] === 0x2d;

export interface CasePdfExportInput {
  includeEvaluations?: boolean | null;
  includeCaseNotes?: boolean | null;
  includePatientFiles?: boolean | null;
  fileIds?: number[] | null;
}
export const casePdfExportSchema = objectSchema('casePdfExport', [], {
  includeEvaluations: optionalBoolean,
  includeCaseNotes: optionalBoolean,
  includePatientFiles: optionalBoolean,
  fileIds: { type: ['array', 'null'], items: id, uniqueItems: true, maxItems: 1000 },
});
export const casePdfExportRules = (d: any): FieldError[] =>
  d.includeEvaluations === true || d.includeCaseNotes === true || d.includePatientFiles === true
    ? []
    : [{ field: 'includeEvaluations', key: 'atLeastOneCheckbox', message: AT_LEAST_ONE_CHECKBOX_MESSAGE }];

export interface CaseListFilter {
  status?: CaseStatus[] | null;
  mainRecommendation?: MainRecommendation[] | null;
  search?: string | null;
  q?: string | null;
  except?: CaseStatus[] | null;
  onlyWaitingForConfirmation?: boolean | null;
  providerCases?: boolean | null;
  showAll?: boolean | null;
  activeForHours?: number | null;
  id?: number[] | null;
}
export const caseListFilterSchema = objectSchema('caseListFilter', [], {
  status: { type: ['array', 'null'], items: { type: 'string', enum: CASE_STATUSES }, maxItems: 100 },
  mainRecommendation: { type: ['array', 'null'], items: { type: 'string', enum: MAIN_RECOMMENDATIONS }, maxItems: 100 },
  search: optionalMediumText,
  q: optionalMediumText,
  except: { type: ['array', 'null'], items: { type: 'string', enum: CASE_STATUSES }, maxItems: 100 },
  onlyWaitingForConfirmation: optionalBoolean,
  providerCases: optionalBoolean,
  showAll: optionalBoolean,
  activeForHours: { type: ['integer', 'null'], minimum: 1, maximum: 99 },
  id: { type: ['array', 'null'], items: id, maxItems: 1000 },
});
