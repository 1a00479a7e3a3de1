/**
 * The patient directory and the merge of duplicates (spec 02 §2 "Patients", "Merge page", §5
 * "Past cases and patients", §9): the age-range arithmetic, how duplicates are grouped, the
 * majority rule of the merge page, and the schemas of the calls. Read by the API and the UI.
 */
import { AGE_RANGES, AGE_RANGE_NAMES, GENDERS, type AgeRangeName } from '../cases/enums';
import { US_STATE_CODES } from '../states';
import { id, mediumText, objectSchema, optionalMediumText } from '../schemas/common';

/** Page size of the duplicate groups (spec 02 §9). */
export const MERGE_GROUPS_PAGE_SIZE = 7;

/** Today's date (UTC) as YYYY-MM-DD: ages are counted in whole years on this day. */
export const todayUtc = (now: Date = new Date()): string => now.toISOString().slice(0, 10);

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** `day` minus `years` (YYYY-MM-DD); 29 February becomes the 28th in a year without one. */
export function yearsBefore(day: string, years: number): string {
  const y = Number(day.slice(0, 4)) - years;
  let md = day.slice(5);
  if (md === '02-29' && !isLeap(y)) md = '02-28';
  return `${String(y).padStart(4, '0')}-${md}`;
}

/**
 * The dates of birth of an age range on `today`: a patient is in it when born on or before
 * `bornOnOrBefore` (old enough) and, for a bounded range, after `bornAfter` (not yet max + 1).
 */
export function ageRangeBirthDates(name: AgeRangeName, today: string): { bornOnOrBefore: string; bornAfter: string | null } {
  const range = AGE_RANGES.find((r) => r.name === name);
  if (!range) throw new Error(`Unknown age range ${name}`);
  return { bornOnOrBefore: yearsBefore(today, range.min), bornAfter: range.max === null ? null : yearsBefore(today, range.max + 1) };
}

/** Age in whole years on `today` of someone born on `dateOfBirth` (both YYYY-MM-DD). */
export function ageOn(dateOfBirth: string, today: string): number {
  let age = Number(today.slice(0, 4)) - Number(dateOfBirth.slice(0, 4));
  if (dateOfBirth > yearsBefore(today, age)) age -= 1;
  return age;
}

/** The age ranges a patient is in (Adult and Geriatric overlap from 55). */
export const ageRangesOf = (dateOfBirth: string, today: string): AgeRangeName[] =>
  AGE_RANGE_NAMES.filter((name) => {
    const b = ageRangeBirthDates(name, today);
    return dateOfBirth <= b.bornOnOrBefore && (b.bornAfter === null || dateOfBirth > b.bornAfter);
  });

/**
 * Duplicates (spec 02 §2 "Merge page" /patients/merge?firstName&lastName&dateOfBirth): records of
 * the same first name, last name (ignoring case and surrounding blanks) and date of birth.
 */
export const duplicateKey = (p: { firstName: string; lastName: string; dateOfBirth: string }) =>
  `${p.firstName.trim().toLowerCase()}|${p.lastName.trim().toLowerCase()}|${p.dateOfBirth}`;

/**
 * The merge page's red cells (spec 02 §2): for one column, whether each record's value differs
 * from the majority. A value is the majority if more than half of the records share it; where no
 * value has a majority the records disagree, and every cell of the column is marked.
 */
export function differsFromMajority(values: readonly unknown[]): boolean[] {
  const key = (v: unknown) => JSON.stringify(v ?? null);
  const counts = new Map<string, number>();
  for (const v of values) counts.set(key(v), (counts.get(key(v)) ?? 0) + 1);
  const majority = [...counts.entries()].find(([, n]) => n * 2 > values.length)?.[0];
  return values.map((v) => majority === undefined || key(v) !== majority);
}

/* ---------- Schemas of /api/patients (spec 02 §5 "Past cases and patients", §7) ---------- */

/** ra-data-simple-rest `filter` of GET /api/patients. */
export const patientListFilterSchema = objectSchema('patientListFilter', [], {
  name: optionalMediumText,
  cities: { type: 'array', items: mediumText, maxItems: 100 },
  states: { type: 'array', items: { type: 'string', enum: US_STATE_CODES }, maxItems: 100 },
  ageRanges: { type: 'array', items: { type: 'string', enum: AGE_RANGE_NAMES }, uniqueItems: true },
  genders: { type: 'array', items: { type: 'string', enum: GENDERS }, uniqueItems: true },
  id: { type: 'array', items: id, maxItems: 1000 },
});
export interface PatientListFilter {
  name?: string | null;
  cities?: string[];
  states?: string[];
  ageRanges?: AgeRangeName[];
  genders?: string[];
  id?: number[];
}

/** GET /api/patients/merge/records: one duplicate group. */
export const mergeRecordsQuerySchema = objectSchema('mergeRecordsQuery', ['firstName', 'lastName', 'dateOfBirth'], {
  firstName: mediumText,
  lastName: mediumText,
  dateOfBirth: { type: 'string', format: 'date' },
});

/** POST /api/patients/merge/records and merge/not-needed: at least 2 records (spec 02 §5 "Merge"). */
export const patientIdsSchema = objectSchema('patientIds', ['patientIds'], {
  patientIds: { type: 'array', items: id, minItems: 2, maxItems: 100, uniqueItems: true },
});
export interface PatientIdsInput {
  patientIds: number[];
}

/* ---------- What the API returns ---------- */

export interface PatientDirectoryRow {
  id: number;
  referenceNumber: string;
  firstName: string;
  lastName: string;
  gender: string;
  dateOfBirth: string;
  address: { city: string | null; state: string | null };
  sourceFacilities: Array<{ id: number; name: string; city: string | null; state: string | null }>;
}

export interface MergeGroupRow {
  /** The group's key (duplicateKey), the row id of the list. */
  id: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  recordsCount: number;
}

/** The answer of a merge: the record that remains, and what moved onto it. */
export interface MergeResult {
  survivorId: number;
  mergedIds: number[];
  moved: Record<string, number>;
}
