import { formatPhone, formatZip } from '@crisis/forms/core';

/** As-you-type US phone mask: "5551234567" → "(555) 123-4567"; no trailing separators, so deleting works. */
export function maskPhone(input: string | null | undefined, international = false): string {
  if (!input) return '';
  if (international && /^\s*\+(?!1)/.test(input)) return input.replace(/[^\d+\s()-]/g, '');
  let d = input.replace(/\D/g, '');
  if (d.length > 10 && d.startsWith('1')) d = d.slice(1);
  d = d.slice(0, 10);
  if (d.length === 0) return '';
  if (d.length <= 3) return `(${d}`;
  if (d.length <= 6) return `(${d.slice(0, 3)}) ${d.slice(3)}`;
  return `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`;
}

/** Stored "+15551234567" shown as "(555) 123-4567". */
export const showPhone = (value: string | null | undefined) => (value ? formatPhone(value) : '');

/** Zip: 5 digits plus optional 4, "123456789" → "12345-6789". */
export function maskZip(input: string | null | undefined): string {
  if (!input) return '';
  const d = input.replace(/\D/g, '').slice(0, 9);
  return d.length > 5 ? `${d.slice(0, 5)}-${d.slice(5)}` : d;
}

export const showZip = (value: string | null | undefined) => (value ? formatZip(value) : '');

export const digitsOnly = (input: string | null | undefined, max = 10) => (input ?? '').replace(/\D/g, '').slice(0, max);
