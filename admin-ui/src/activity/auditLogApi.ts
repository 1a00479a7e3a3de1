import type { AuditLogEntryDetail } from '@crisis/forms';
import { downloadCsv } from '../data/download';
import { api } from '../data/httpClient';

const BASE = '/api/audit-log';

export const fetchMainActions = () => api.get<string[]>(`${BASE}/main-actions`);
export const fetchAuditEntry = (id: string | number) => api.get<AuditLogEntryDetail>(`${BASE}/audit-log-value/${encodeURIComponent(String(id))}`);

export interface UserLookup {
  id: number;
  fullName?: string;
  firstName?: string;
  lastName?: string;
  email?: string;
}

/** GET /api/user/lookups by name or e-mail (3+ characters) or by ids. */
export function lookupUsers(params: { nameOrEmail?: string; id?: number[] }): Promise<UserLookup[]> {
  const q = new URLSearchParams();
  if (params.nameOrEmail) q.set('nameOrEmail', params.nameOrEmail);
  params.id?.forEach((id) => q.append('id', String(id)));
  return api.get<UserLookup[] | { items: UserLookup[] }>(`/api/user/lookups?${q}`).then((r) => (Array.isArray(r) ? r : r?.items ?? []));
}

export const userLabel = (u: UserLookup) =>
  `${u.fullName ?? [u.firstName, u.lastName].filter(Boolean).join(' ')}${u.email ? ` (${u.email})` : ''}`.trim();

/**
 * Downloads the filtered audit log as CSV. The response must be an attachment, else the download
 * is refused with 'Incorrect response'; the file name comes from the header.
 */
export async function downloadAuditCsv(filter: Record<string, unknown>, sort: { field: string; order: string }): Promise<string> {
  const q = new URLSearchParams({
    filter: JSON.stringify(filter),
    fieldId: sort.field,
    dir: sort.order.toLowerCase(),
    tz: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
  });
  return downloadCsv(`${BASE}/csv?${q}`);
}
