/**
 * Past cases (spec 02 §2 "Past cases", §5 "Past cases and patients", §7 GET past and its CSVs; 01 §9
 * default sort and recency classes): the filter, its rules, the sorts and the rows. The API's
 * query and CSVs and the UI's page read these; nothing else decides them.
 */
import type { FieldError } from '../errors';
import { idsFilter, objectSchema, optionalMediumText } from '../schemas/common';
import { CASE_OUTCOMES } from './enums';
import { MIN_DATE, MIN_DATE_MESSAGE } from './schemas';
import type { RecencyClass } from './format';

/** Spec 02 §9: active-case hours at most 99. */
export const MAX_ACTIVE_CASE_HOURS = 99;
export const PAST_CASES_PAGE_SIZE = 25;
/** The page's total is counted up to here ("1,000+ found" beyond): see the API's listPastCases. */
export const PAST_CASES_COUNT_CAP = 1_000;

export const PAST_CASE_SORTABLE = ['createdAt', 'closedAt', 'patient', 'sourceFacility', 'locatingServices', 'id'] as const;
export type PastCaseSort = (typeof PAST_CASE_SORTABLE)[number];
/** Spec 02 §9: past cases by createdAt descending. */
export const PAST_CASE_DEFAULT_SORT: [PastCaseSort, 'ASC' | 'DESC'] = ['createdAt', 'DESC'];

/**
 * The past-case search. Without `activeOnly` the list holds closed cases; with it, the cases still
 * open — of the last `activeCaseHours` hours when that is given (the spec's "active cases only"
 * tick enabling an active-hours field).
 * `from` and `to` are calendar days (yyyy-mm-dd) of the case's creation, read in the caller's time
 * zone (the `tz` query parameter, UTC by default), both ends included.
 */
export interface PastCaseFilter {
  patientOrCase?: string | null;
  from?: string | null;
  to?: string | null;
  referringFacilityIds?: number[] | null;
  outcomes?: string[] | null;
  /** Counties the case was sent from or placed in (group users' filter). */
  counties?: string[] | null;
  activeOnly?: boolean | null;
  activeCaseHours?: number | null;
}

const day = { type: ['string', 'null'], format: 'date' } as const;
export const pastCaseFilterSchema = objectSchema('pastCaseFilter', [], {
  patientOrCase: optionalMediumText,
  from: day,
  to: day,
  referringFacilityIds: { anyOf: [idsFilter, { type: 'null' }] },
  outcomes: { anyOf: [{ type: 'array', items: { type: 'string', enum: [...CASE_OUTCOMES] }, maxItems: CASE_OUTCOMES.length }, { type: 'null' }] },
  counties: { anyOf: [{ type: 'array', items: { type: 'string', maxLength: 100 }, maxItems: 500 }, { type: 'null' }] },
  activeOnly: { type: ['boolean', 'null'] },
  activeCaseHours: { anyOf: [{ type: 'integer', minimum: 1, maximum: MAX_ACTIVE_CASE_HOURS }, { type: 'null' }] },
});

export const PAST_CASE_FUTURE_MESSAGE = 'Date must not be in the future';
export const PAST_CASE_CROSS_MESSAGE = "'To' must not be before 'From'";
export const ACTIVE_HOURS_NEED_TICK_MESSAGE = "Active hours apply with 'Active cases only'";

/**
 * Spec 02 §5: from not before the minimum date and not future; to not before from and not future
 * (for group users too: "not after now"). `today` is the caller's calendar day (yyyy-mm-dd).
 */
export function pastCaseFilterRules(f: PastCaseFilter, today: string = new Date().toISOString().slice(0, 10)): FieldError[] {
  const errors: FieldError[] = [];
  for (const field of ['from', 'to'] as const) {
    const v = f[field];
    if (!v) continue;
    if (v < MIN_DATE) errors.push({ field, key: 'minDate', message: MIN_DATE_MESSAGE });
    // A day ahead of UTC's is still "today" somewhere: the API checks against the latest zone.
    else if (v > today) errors.push({ field, key: 'future', message: PAST_CASE_FUTURE_MESSAGE });
  }
  if (f.from && f.to && f.to < f.from) errors.push({ field: 'to', key: 'crossTime', message: PAST_CASE_CROSS_MESSAGE });
  if (f.activeCaseHours && !f.activeOnly) errors.push({ field: 'activeCaseHours', key: 'needsActiveOnly', message: ACTIVE_HOURS_NEED_TICK_MESSAGE });
  return errors;
}

/** The calendar day of the latest time zone (UTC+14): no caller's "today" is later. */
export const latestToday = (now = Date.now()): string => new Date(now + 14 * 3_600_000).toISOString().slice(0, 10);

/** One row of the past-case table (spec 02 §2 columns). */
export interface PastCaseItem {
  id: number;
  referenceNumber: number;
  createdAt: string;
  closedAt: string | null;
  status: string;
  statusLabel: string;
  recency: RecencyClass;
  patient: { id: number; firstName: string; lastName: string; dateOfBirth: string };
  sourceFacility: { id: number; name: string; county: string | null };
  sourceDivision: { id: number; name: string };
  referringFacility: { id: number; name: string; divisionName: string } | null;
  outcome: string | null;
  /** Seconds the case spent locating services (placement), running when still placing. */
  locatingServicesSeconds: number;
  providers: string[];
  payers: string[];
  /** 'uninsured' when the case says so, 'notProvided' when it has no insurance and no answer. */
  insurance: 'insured' | 'uninsured' | 'notProvided';
}

/** The past-case CSV exports (spec 02 §2 "Exports: CSV for all; ITP admins also billing CSV and a claim-diagnostics CSV"). */
export const PAST_CASE_EXPORTS = ['csv', 'billing', 'diagnostics'] as const;
export type PastCaseExport = (typeof PAST_CASE_EXPORTS)[number];

export const PAST_CASE_CSV_COLUMNS = [
  'Created at', 'Reference number', 'Status', 'Closed at', 'Patient', 'Date of birth', 'Source facility', 'Source division',
  'Source county', 'Referring facility', 'Referring division', 'Outcome', 'Locating services time', 'Providers', 'Payers',
] as const;
/** One line per completed evaluation: what the billing office needs to bill it. */
export const BILLING_CSV_COLUMNS = [
  'Reference number', 'Request id', 'Request type', 'Evaluation completed at', 'Provider', 'Patient last name', 'Patient first name',
  'Date of birth', 'Gender', 'Street', 'City', 'State', 'Zip code', 'EHR patient id', 'Encounter id', 'Source facility', 'Source division',
  'Billed to EHR', 'Billing codes', 'Primary payer', 'Member id', 'Group id', 'Secondary payers', 'Uninsured',
] as const;
/** One line per diagnosis of a completed evaluation: the claim's diagnosis lines. */
export const DIAGNOSTICS_CSV_COLUMNS = [
  'Reference number', 'Request id', 'EHR patient id', 'Encounter id', 'Evaluation completed at', 'Provider', 'Source facility',
  'Diagnosis order', 'Diagnosis code', 'Diagnosis description', 'Primary', 'EHR claim', 'EHR claim error',
] as const;
