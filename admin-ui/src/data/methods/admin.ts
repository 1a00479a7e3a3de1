import type { AuditLogEntryDetail, EhrPlanResult, SmsNotificationsStartInput, SmsState, UserLookup } from '@crisis/forms/core';
import { downloadCsv } from '../download';
import { http, tz } from './http';

const AUDIT = '/api/audit-log';

/** The audit log's lookups and CSV export, and the user's SMS receiving (spec 03 §7). */
export const adminMethods = {
  /** The EHR's insurance plans by plan name, for a payer's plan package id (spec 03 §3 Payer). */
  ehrPlanSearch: (planName: string) => http.get<EhrPlanResult[]>(`/api/payers/ehr-search?${new URLSearchParams({ planName })}`),
  auditMainActions: () => http.get<string[]>(`${AUDIT}/main-actions`),
  auditEntry: (id: string | number) => http.get<AuditLogEntryDetail>(`${AUDIT}/audit-log-value/${encodeURIComponent(String(id))}`),
  /** GET /api/user/lookups by name or e-mail (3+ characters) or by ids. */
  lookupUsers: (params: { nameOrEmail?: string; id?: number[] }): Promise<UserLookup[]> => {
    const q = new URLSearchParams();
    if (params.nameOrEmail) q.set('nameOrEmail', params.nameOrEmail);
    params.id?.forEach((id) => q.append('id', String(id)));
    return http.get<UserLookup[] | { items: UserLookup[] }>(`/api/user/lookups?${q}`).then((r) => (Array.isArray(r) ? r : r?.items ?? []));
  },
  /**
   * Downloads the filtered audit log as CSV. The response must be an attachment, else the download
   * is refused with 'Incorrect response'; the file name comes from the header.
   */
  downloadAuditCsv: (filter: Record<string, unknown>, sort: { field: string; order: string }): Promise<string> => {
    const q = new URLSearchParams({ filter: JSON.stringify(filter), fieldId: sort.field, dir: sort.order.toLowerCase(), tz: tz() });
    return downloadCsv(`${AUDIT}/csv?${q}`);
  },
  smsStart: (body: SmsNotificationsStartInput) => http.post<SmsState>('/api/user/sms-notifications-receiving/start', body),
  smsStop: () => http.post<SmsState>('/api/user/sms-notifications-receiving/stop', undefined),
};
