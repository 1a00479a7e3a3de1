/**
 * The patient directory and the merge of duplicates (spec 02 §2 "Patients", "Merge page", §5
 * "Past cases and patients", §9): the age-range arithmetic, how duplicates are grouped, the
 * majority rule of the merge page, and the schemas of the calls. Read by the API and the UI.
 */
import { AGE_RANGES, AGE_RANGE_NAMES, GENDERS, type AgeRangeName } from '../cases/enums';
import { AGE_BANDS } from '../enums';
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

/**
 * The one age of a patient everywhere (provider lists, placement matching, queues): whole years on
 * `at` (default now), the day counted in UTC. Takes 'YYYY-MM-DD' (a longer ISO string is cut) or a Date.
 */
export function ageInYears(dateOfBirth: string | Date, at: Date | string = new Date()): number {
  const dob = typeof dateOfBirth === 'string' ? dateOfBirth.slice(0, 10) : todayUtc(dateOfBirth);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(dob)) return NaN;
  return ageOn(dob, typeof at === 'string' ? at.slice(0, 10) : todayUtc(at));
}

/** A band of an accepted-patients record (spec 03 §3): active, with its from and to in years. */
type AcceptedBand = { isActive?: boolean; from?: number | null; to?: number | null } | null | undefined;
/** The accepted-patients record of a referring division or a credentialed provider (spec 03 §3). */
export type AcceptedAges = { allAges?: boolean; adolescent?: AcceptedBand; adult?: AcceptedBand; geriatric?: AcceptedBand } | null | undefined;

/**
 * The one rule for "accepts this patient's age", read by the provider list of a request (spec 01
 * §5), the placement matching (spec 02 §3) and the call log's accept grid (spec 02 §5): all ages,
 * or an active band with from ≤ age ≤ to (an empty end is open). A record that is absent sets no
 * age limit (a referring division saved before the field was required; credentialed providers
 * always carry one); an unknown age is not refused.
 */
export function acceptsAge(ap: AcceptedAges, age: number | null | undefined): boolean {
  if (!ap || ap.allAges) return true;
  if (age === null || age === undefined || Number.isNaN(age)) return true;
  return AGE_BANDS.some((band) => {
    const b = ap[band];
    return !!b?.isActive && (b.from == null || age >= b.from) && (b.to == null || age <= b.to);
  });
}

/** Whether a record accepts some age of one band at all (a cell of the call log's accept grid). */
export const acceptsBand = (ap: AcceptedAges, band: (typeof AGE_BANDS)[number]): boolean => !ap || !!ap.allAges || !!ap[band]?.isActive;

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
