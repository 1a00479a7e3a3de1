/** Display helpers of the case domain (spec 01 §5, §9). */
import { TZDate } from '@date-fns/tz';
import { differenceInCalendarDays } from 'date-fns';
import { formatCaseNumber, formatPatientNumber } from '../format';

/** Case reference: '#' plus the id zero-padded to 6 digits ('#000123'). */
export const caseReference = (id: number): string => formatCaseNumber(id);
/** Patient reference: the id zero-padded to 5 digits ('00012'). */
export const patientReference = (id: number): string => formatPatientNumber(id);

/**
 * Names are trimmed and capitalised (spec 01 §5 patient search): the first letter of every word,
 * and of every part after a hyphen or an apostrophe, is upper-cased; the rest is kept as typed
 * ("mcDonald" stays "McDonald", "o'neil-smith" becomes "O'Neil-Smith").
 */
export function capitalizeName<T extends string | null | undefined>(name: T): T {
  if (typeof name !== 'string') return name;
  return name
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/(^|[\s'\-])(\p{L})/gu, (_m, sep: string, ch: string) => sep + ch.toLocaleUpperCase()) as T;
}

/** A month and a year as spec 03 §9 counts them: 43,829.1 and 525,949.2 minutes (average lengths). */
const MONTH_MS = 43_829.1 * 60_000;
const YEAR_MS = 525_949.2 * 60_000;
const UNITS: Array<[string, number]> = [
  ['y', YEAR_MS],
  ['mo', MONTH_MS],
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1_000],
];

/** A duration as its two largest non-zero units: '1y 2mo', '1mo 9d', '2d 3h', '5h 12m', '45s' (spec 01 §9, 03 §9); '0s' below a second. */
export function durationTwoUnits(ms: number | null | undefined): string {
  let rest = Math.max(0, Math.floor(Number(ms) || 0));
  const parts: string[] = [];
  for (const [unit, size] of UNITS) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0 && parts.length < 2) parts.push(`${n}${unit}`);
  }
  return parts.length ? parts.join(' ') : '0s';
}

export const RECENCY_CLASSES = ['today', 'yesterday', 'within90', 'over90', 'over180'] as const;
export type RecencyClass = (typeof RECENCY_CLASSES)[number];

/**
 * Past-case recency class by calendar days between the date and now (spec 01 §9), counted in the
 * viewer's time zone `tz` (an IANA name; the process's own zone when absent): just after midnight
 * in New York, a case of 11 p.m. is yesterday's there, whatever the server's clock says.
 */
export function recencyClass(date: Date | string | number, now: Date | string | number = new Date(), tz?: string): RecencyClass {
  const at = (d: Date | string | number) => (tz ? new TZDate(new Date(d).getTime(), tz) : new Date(d));
  const days = differenceInCalendarDays(at(now), at(date));
  if (days <= 0) return 'today';
  if (days === 1) return 'yesterday';
  if (days <= 90) return 'within90';
  if (days <= 180) return 'over90';
  return 'over180';
}
