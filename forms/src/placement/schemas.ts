/** JSON Schemas of the placement payloads (spec 02 §5, §7), registered in validation.ts. */
import type { FieldError } from '../errors';
import type { CaseOutcome } from '../cases/enums';
import { id, optionalLargeText, optionalMediumText, objectSchema } from '../schemas/common';
import { ACCEPT_AGES, ACCEPT_GENDERS, CALL_RESULTS, callLogProblems, type CallEntryInput } from './calls';

const acceptRow = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(ACCEPT_AGES.map((a) => [a, { type: 'boolean' }])),
} as const;
export const acceptGridSchema = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: Object.fromEntries(ACCEPT_GENDERS.map((g) => [g, acceptRow])),
} as const;

const callEntry = {
  type: 'object',
  additionalProperties: false,
  required: ['placementTaskId'],
  properties: {
    placementTaskId: id,
    result: { type: ['string', 'null'], enum: [...CALL_RESULTS, null] },
    note: optionalLargeText,
    callbackAt: { type: ['string', 'null'], format: 'date-time' },
    spokeWith: optionalMediumText,
    accept: acceptGridSchema,
  },
} as const;

export interface CallLogSubmitInput {
  calls: CallEntryInput[];
  /** Logged through the bulk-change modal: hold results then apply to the whole division. */
  bulk?: boolean | null;
}

export const callLogSubmitSchema = objectSchema('callLogSubmit', ['calls'], {
  calls: { type: 'array', items: callEntry, maxItems: 500 },
  bulk: { type: ['boolean', 'null'] },
});

/** Structural rules the server re-checks with its own clock and the divisions (callLogProblems). */
export const callLogSubmitRules = (d: any): FieldError[] => {
  if (!Array.isArray(d?.calls)) return [];
  const problems = callLogProblems(d.calls, { now: new Date(), allowExtended: () => true, bulk: d.bulk === true });
  return Object.entries(problems).map(([field, key]) => ({ field, key, message: CALL_LOG_MESSAGES[key] ?? key }));
};

export const CALL_LOG_MESSAGES: Record<string, string> = {
  required: 'Required',
  selectPatient: 'Select patient to continue',
  past: 'Must be in the future',
  tooLate: 'Later than the longest follow-up allowed',
  format: 'Must be a date and time',
  notBulk: 'Not a result of the bulk change',
  notAccepted: 'The division does not take this age or gender',
};

/** Draft rows: anything the coordinator typed so far (nothing required). */
export const callLogDraftSchema = {
  $id: 'callLogDraft',
  type: 'object',
  additionalProperties: false,
  required: ['calls'],
  properties: { calls: { type: 'array', items: callEntry, maxItems: 500 } },
} as const;

export const placementGenerateSchema = {
  $id: 'placementGenerate',
  type: 'object',
  additionalProperties: false,
  properties: { notes: optionalLargeText },
} as const;

export const placementTaskCreateSchema = {
  $id: 'placementTaskCreate',
  type: 'object',
  additionalProperties: false,
  required: ['caseId', 'divisionId'],
  properties: { caseId: id, divisionId: id, facilityId: { ...id, type: ['integer', 'null'] } },
} as const;

export const divisionClaimSchema = {
  $id: 'divisionClaim',
  type: 'object',
  additionalProperties: false,
  properties: { resumeTask: { type: ['boolean', 'null'] } },
} as const;

export const callsCardFilterSchema = {
  $id: 'callsCardFilter',
  type: 'object',
  additionalProperties: false,
  properties: { facilityName: optionalMediumText, withinTwoHours: { type: ['boolean', 'null'] } },
} as const;

export const placementLogFilterSchema = objectSchema('placementLogFilter', [], {
  from: { type: ['string', 'null'], format: 'date-time' },
  to: { type: ['string', 'null'], format: 'date-time' },
  facilityIds: { type: ['array', 'null'], items: id, maxItems: 200 },
  results: { type: ['array', 'null'], items: { type: 'string', enum: CALL_RESULTS }, maxItems: 20 },
  coordinatorIds: { type: ['array', 'null'], items: id, maxItems: 200 },
  patientName: optionalMediumText,
});

/** The oldest date a log search may start from (spec 02 §5 log searches). */
export const LOG_MIN_DATE = '1902-01-01T00:00:00.000Z';

/**
 * The placement log search (spec 02 §5): from not before the minimum date (01/01/1902), to not
 * earlier than from. The division log's search adds "not in the future" (logDateProblems).
 */
export const placementLogFilterRules = (d: any): FieldError[] => {
  const errors: FieldError[] = [];
  if (d?.from && Date.parse(d.from) < Date.parse(LOG_MIN_DATE)) errors.push({ field: 'from', key: 'minDate', message: 'From must not be before 01/01/1902' });
  if (d?.from && d?.to && Date.parse(d.to) < Date.parse(d.from)) errors.push({ field: 'to', key: 'crossTime', message: 'To must not be earlier than from' });
  return errors;
};
const DAY_MS = 24 * 3600 * 1000;

/**
 * Date rules of the division log search (spec 02 §5): from not before 01/01/1902 and not in the
 * future; to not before from and not in the future. "Not in the future" is judged by calendar
 * day: the end of the user's today may lie up to one day ahead of UTC now.
 */
export function logDateProblems(f: { from?: string | null; to?: string | null }, now = new Date(), prefix = 'filter.'): FieldError[] {
  const errors: FieldError[] = [];
  const latest = now.getTime() + DAY_MS;
  const from = f.from ? Date.parse(f.from) : null;
  const to = f.to ? Date.parse(f.to) : null;
  if (from !== null && from < Date.parse(LOG_MIN_DATE)) errors.push({ field: `${prefix}from`, key: 'minDate', message: 'From must not be before 01/01/1902' });
  if (from !== null && from > latest) errors.push({ field: `${prefix}from`, key: 'maxDate', message: 'From must not be in the future' });
  if (to !== null && to > latest) errors.push({ field: `${prefix}to`, key: 'maxDate', message: 'To must not be in the future' });
  if (to !== null && from !== null && to < from) errors.push({ field: `${prefix}to`, key: 'crossTime', message: 'To must not be earlier than from' });
  return errors;
}

/** Outcome of a transfer to a referring division, by the division's referring type (the referring side's "close"). */
export const OUTCOME_BY_REFERRING_TYPE: Record<string, CaseOutcome> = {
  MentalHealthInpatient: 'Transferred_MentalHealthInpatient',
  SubstanceAbuseResidential: 'Transferred_SubstanceAbuseResidential',
  DetoxUnit: 'Transferred_DetoxUnit',
  MedPsychUnit: 'Transferred_MedPsychCenter',
  CrisisCenter: 'Transferred_CrisisCenter',
  Outpatient: 'Discharged_MentalHealthOutpatient_Facility',
  IntensiveOutpatient: 'Discharged_IntensiveOutpatient_MentalHealth',
  PartialHospitalization: 'Discharged_PartialHospitalization',
};
