import { formatDateTime, type Author } from '@crisis/forms/core';

/** 'YYYY-MM-DDThh:mm' of now in local time, for a datetime-local input. */
export function nowLocalInput(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local value as an ISO string (null when empty or unreadable). */
export function localInputToIso(value: string): string | null {
  if (!value) return null;
  const t = new Date(value);
  return Number.isNaN(t.getTime()) ? value : t.toISOString();
}

/** A number input's value: null when blank, NaN stays a string so the schema reports it. */
export function numberOrNull(value: string): number | string | null {
  if (value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : value;
}

export const when = (iso: string | null | undefined) => (iso ? formatDateTime(iso) : '');
export const authorName = (a: Author | null) => a?.fullName ?? '';
