import type { PastCaseExport, PastCaseFilter } from '@crisis/forms/core';
import { downloadCsv } from '../download';
import { http, tz } from './http';

export interface PastCaseFilterOptions {
  referringFacilities: Array<{ id: number; name: string; city: string; state: string }>;
  counties: string[];
}

const CSV_PATHS: Record<PastCaseExport, string> = { csv: 'csv', billing: 'billing/csv', diagnostics: 'athena/csv' };

/** Past cases (spec 02 §7 GET past/filter-options, past/csv, past/billing/csv, past/athena/csv). */
export const pastCaseMethods = {
  pastCaseFilterOptions: () => http.get<PastCaseFilterOptions>('/api/cases/past/filter-options'),
  /** Downloads an export of the search the page shows; its days read in the browser's zone. */
  downloadPastCases: (kind: PastCaseExport, filter: PastCaseFilter) =>
    downloadCsv(`/api/cases/past/${CSV_PATHS[kind]}?${new URLSearchParams({ filter: JSON.stringify(filter), tz: tz() })}`),
  /** Starts the failed EHR claims of these cases again (spec 01 §7 "retry of an EHR claim"). */
  retryEhrClaims: (referenceNumbers: string[]) =>
    http.put<{ retried: string[]; nothingToRetry: string[]; notFound: string[] }>('/api/cases/retry', { referenceNumbers }),
};
