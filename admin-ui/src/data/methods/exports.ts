import type { CasePdfExportOptions } from '@crisis/forms/core';
import { downloadCsv, downloadPdf } from '../download';
import { tz } from './http';

/** The case's export addresses (spec 01 §7): GET /api/cases/{id}/pdf, summary/pdf, notes/pdf, activity/report/pdf|csv. */
export function casePdfUrl(caseId: number, o: CasePdfExportOptions): string {
  const q = new URLSearchParams();
  q.set('includeEvaluations', String(o.includeEvaluations));
  q.set('includeCaseNotes', String(o.includeCaseNotes));
  q.set('includePatientFiles', String(o.includePatientFiles));
  if (o.includePatientFiles && o.fileIds) q.set('fileIds', o.fileIds.join(','));
  q.set('tz', tz());
  return `/api/cases/${caseId}/pdf?${q}`;
}

export const exportUrls = {
  summary: (caseId: number) => `/api/cases/${caseId}/summary/pdf?tz=${encodeURIComponent(tz())}`,
  notes: (caseId: number) => `/api/cases/${caseId}/notes/pdf?tz=${encodeURIComponent(tz())}`,
  activityPdf: (caseId: number) => `/api/cases/${caseId}/activity/report/pdf?tz=${encodeURIComponent(tz())}`,
  activityCsv: (caseId: number) => `/api/cases/${caseId}/activity/report/csv?tz=${encodeURIComponent(tz())}`,
};

/** Attachment downloads (CSV and PDF): saved under the server's file name, which they answer. */
export const exportMethods = { downloadCsv, downloadPdf };
