import { format as formatDate } from 'date-fns';

/** Display formats of spec 03 §9. */
export const DATE_FORMAT = 'MM/dd/yyyy';
export const DATE_TIME_FORMAT = 'MM/dd/yyyy hh:mm aa';

export const formatCaseNumber = (id: number): string => `#${String(id).padStart(6, '0')}`;
export const formatPatientNumber = (id: number): string => String(id).padStart(5, '0');
export const formatDay = (d: Date | string | number): string => formatDate(new Date(d), DATE_FORMAT);
export const formatDateTime = (d: Date | string | number): string => formatDate(new Date(d), DATE_TIME_FORMAT);

/** "+15551234567" or "5551234567" → "(555) 123-4567"; anything else is returned as given. */
export function formatPhone(phone: string | null | undefined): string {
  if (!phone) return '';
  const digits = phone.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '');
  return digits.length === 10 ? `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}` : phone;
}

/** Stored form of a US phone: the leading 1 re-added and a plus in front (spec 03 §5). */
export function toStoredPhone(phone: string | null | undefined): string | null {
  if (!phone) return null;
  const digits = phone.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '');
  return digits.length === 10 ? `+1${digits}` : phone;
}

/** Zip shown as 5 digits plus optional 4. */
export function formatZip(zip: string | null | undefined): string {
  if (!zip) return '';
  const d = zip.replace(/\D/g, '');
  return d.length === 9 ? `${d.slice(0, 5)}-${d.slice(5)}` : zip;
}
