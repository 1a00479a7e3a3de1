import type { FieldError } from '../errors';
import { id, optionalMediumText, objectSchema } from './common';

/** Spec 03 §4: the audit log's default range is the last day up to now. */
export const AUDIT_LOG_DEFAULT_RANGE_MS = 24 * 60 * 60 * 1000;
/** Clock skew tolerated before a time counts as "in the future" (the UI's "now" is a little old). */
export const AUDIT_LOG_FUTURE_TOLERANCE_MS = 5 * 60 * 1000;
/** Spec 03 §9: the audit log's default sort. */
export const AUDIT_LOG_DEFAULT_SORT = { field: 'performedAt', order: 'DESC' } as const;
export const AUDIT_LOG_SORTABLE = ['performedAt', 'mainAction', 'kind', 'userName', 'email', 'userType', 'organization', 'division', 'success'] as const;
export type AuditLogSortField = (typeof AUDIT_LOG_SORTABLE)[number];
export const CROSS_TIME_MESSAGE = "Cross time: 'To' must not be before 'From'";
export const FUTURE_TIME_MESSAGE = 'Must not be in the future';

/** Spec 03 §5 Audit log filter: a time range, the main action, the user (id, or name/e-mail contains) and success. */
export const auditLogFilterSchema = objectSchema('auditLogFilter', [], {
  from: { type: ['string', 'null'], format: 'date-time' },
  to: { type: ['string', 'null'], format: 'date-time' },
  mainAction: optionalMediumText,
  userId: { anyOf: [id, { type: 'null' }] },
  /** Name or e-mail contains (when no user lookup is at hand). */
  user: optionalMediumText,
  success: { type: ['boolean', 'null'] },
});

export interface AuditLogFilter {
  from?: string | null;
  to?: string | null;
  mainAction?: string | null;
  userId?: number | null;
  user?: string | null;
  success?: boolean | null;
}

/** 'To' not before 'From' (cross time) and neither in the future. `now` is injectable for tests. */
export function auditLogFilterRules(f: AuditLogFilter, now = Date.now()): FieldError[] {
  const errors: FieldError[] = [];
  const from = f.from ? Date.parse(f.from) : NaN;
  const to = f.to ? Date.parse(f.to) : NaN;
  const limit = now + AUDIT_LOG_FUTURE_TOLERANCE_MS;
  if (!Number.isNaN(from) && from > limit) errors.push({ field: 'from', key: 'future', message: FUTURE_TIME_MESSAGE });
  if (!Number.isNaN(to) && to > limit) errors.push({ field: 'to', key: 'future', message: FUTURE_TIME_MESSAGE });
  if (!Number.isNaN(from) && !Number.isNaN(to) && to < from) errors.push({ field: 'to', key: 'crossTime', message: CROSS_TIME_MESSAGE });
  return errors;
}

/**
 * The audit log's total is counted up to this many entries ("1,000+ found" beyond): a busy day
 * holds tens of thousands, and counting them all for every page cost more than the page. The CSV
 * holds every entry of the range.
 */
export const AUDIT_LOG_COUNT_CAP = 1_000;

/** The range a filter means: missing ends default to the last day up to now. */
export function auditLogRange(f: AuditLogFilter, now = Date.now()): { from: Date; to: Date } {
  const to = f.to ? new Date(f.to) : new Date(now);
  const from = f.from ? new Date(f.from) : new Date(to.getTime() - AUDIT_LOG_DEFAULT_RANGE_MS);
  return { from, to };
}

/** One row of the audit log list (spec 03 §3 Audit log entry). */
export interface AuditLogRecord {
  id: number;
  performedAt: string;
  mainAction: string;
  kind: string;
  userId: number | null;
  userName: string | null;
  email: string | null;
  userType: string | null;
  organization: string | null;
  facilityId: number | null;
  division: string | null;
  success: boolean;
}

/** GET /api/audit-log/audit-log-value/{id}: the entry with its body and its values as path/value pairs. */
export interface AuditLogEntryDetail extends AuditLogRecord {
  method: string | null;
  path: string | null;
  statusCode: number | null;
  correlationId: string | null;
  body: unknown;
  values: Array<{ path: string; value: string }>;
}

/** Flattens nested values to path/value pairs: {a:{b:1},c:[2]} → a.b=1, c[0]=2. */
export function flattenValues(value: unknown, prefix = ''): Array<{ path: string; value: string }> {
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value)
      ? value.map((v, i) => [`${prefix}[${i}]`, v] as const)
      : Object.entries(value as Record<string, unknown>).map(([k, v]) => [prefix ? `${prefix}.${k}` : k, v] as const);
    if (entries.length === 0) return prefix ? [{ path: prefix, value: Array.isArray(value) ? '[]' : '{}' }] : [];
    return entries.flatMap(([p, v]) => flattenValues(v, p));
  }
  return [{ path: prefix, value: value === null || value === undefined ? 'null' : String(value) }];
}
