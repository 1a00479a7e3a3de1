import { format as formatDate } from 'date-fns';
import { TZDate } from '@date-fns/tz';

/** Display formats of spec 03 §9. */
export const DATE_FORMAT = 'MM/dd/yyyy';
export const DATE_TIME_FORMAT = 'MM/dd/yyyy hh:mm aa';

export const formatCaseNumber = (id: number): string => `#${String(id).padStart(6, '0')}`;
export const formatPatientNumber = (id: number): string => String(id).padStart(5, '0');
export const formatDay = (d: Date | string | number): string => formatDate(new Date(d), DATE_FORMAT);
export const formatDateTime = (d: Date | string | number): string => formatDate(new Date(d), DATE_TIME_FORMAT);
/** A date and time as seen in an IANA time zone (exports made on the server for a browser's zone). */
export const formatDateTimeIn = (d: Date | string | number, timeZone: string): string => formatDate(new TZDate(new Date(d).getTime(), timeZone), DATE_TIME_FORMAT);

/** Zip shown as 5 digits plus optional 4. */
export function formatZip(zip: string | null | undefined): string {
  if (!zip) return '';
  const d = zip.replace(/\D/g, '');
  return d.length === 9 ? `${d.slice(0, 5)}-${d.slice(5)}` : zip;
}

/** A percentage typed by a person as the fraction the API carries (97 → 0.97), and back, without float noise. */
export const percentToFraction = (percent: number | null): number | null => (percent === null || !Number.isFinite(percent) ? null : Math.round(percent * 1e4) / 1e6);
export function fractionToPercent(fraction: number | null | undefined): number | null {
  return typeof fraction === 'number' ? Math.round(fraction * 1e6) / 1e4 : null;
}
