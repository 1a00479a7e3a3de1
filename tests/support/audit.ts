/** Helpers for suites that check the audit entry of each call (spec 03 §2 /activity). */
import { randomUUID } from 'crypto';
import { api, type ApiResponse } from './api';
import { db } from './db';

/** A JSON value as a query-string parameter. */
export const enc = (v: unknown) => encodeURIComponent(JSON.stringify(v));

/** The field names of a 400's `fields`, sorted. */
export const fieldsOf = (res: ApiResponse) => (res.body?.fields ?? []).map((f: { field: string }) => f.field).sort();

/** A call with its own correlation id (the API adopts it), so its audit entry can be found. */
export async function audited(method: string, path: string, opts: { token: string; body?: unknown }) {
  const cid = `qa-${randomUUID()}`;
  const res = await api(method, path, { ...opts, headers: { 'x-correlation-id': cid } });
  return Object.assign(res, { cid });
}

/** The one audit entry of a call made with `audited`. */
export async function auditEntry(res: { cid: string }) {
  const { rows } = await db.query('SELECT * FROM audit_log WHERE correlation_id = $1', [res.cid]);
  expect(rows).toHaveLength(1);
  return rows[0];
}
