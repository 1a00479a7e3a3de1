import { attachmentFileName, downloadCsv } from '../../data/download';
import { codedErrorFrom } from '../../data/codedError';
import { getAccessToken } from '../../auth/userManager';
import { rememberCodedError } from '../../notifications/codedErrorRegistry';
import { api } from '../../data/httpClient';

/** The case's exports (spec 01 §7): GET /api/cases/{id}/pdf, summary/pdf, notes/pdf, activity/report/pdf|csv. */
export interface CasePdfExportOptions {
  includeEvaluations: boolean;
  includeCaseNotes: boolean;
  includePatientFiles: boolean;
  /** Only these files; null = every file the user may see. */
  fileIds: number[] | null;
}

export interface ActivityReportRow {
  id: number;
  status: string;
  statusGroup: string;
  initiatorName: string | null;
  startedAt: string;
  endedAt: string | null;
  durationSeconds: number;
}
export interface ActivityReport {
  caseId: number;
  totalSeconds: number;
  groups: Array<{ group: string; totalSeconds: number; activities: ActivityReportRow[] }>;
}

export interface PatientFileOption {
  id: number;
  title: string;
  fileName: string;
  hidden: boolean;
}

/** The user's IANA zone, so the printed times are the ones the screens show. */
const tz = () => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
};

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

/**
 * Downloads a PDF attachment and saves it under the server's file name. The shared helper
 * (data/download.ts downloadCsv) reads the body as text, which would corrupt a binary PDF, so
 * this reads a Blob; the file-name rule and 'Incorrect response' are the same.
 */
export async function downloadPdf(url: string): Promise<string> {
  const token = await getAccessToken();
  const res = await fetch(url, { headers: { Accept: 'application/pdf', ...(token ? { Authorization: `Bearer ${token}` } : {}) } });
  if (res.status < 200 || res.status >= 300) {
    const error = codedErrorFrom(res.status, res.headers, await res.text());
    rememberCodedError(error);
    throw error;
  }
  const fileName = attachmentFileName(res.headers.get('content-disposition'));
  if (!fileName) throw new Error('Incorrect response');
  const objectUrl = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = objectUrl;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(objectUrl), 10_000);
  return fileName;
}

export const exportsApi = {
  activityReport: (caseId: number) => api.get<ActivityReport>(`/api/cases/${caseId}/activity/report`),
  files: (caseId: number) => api.get<PatientFileOption[]>(`/api/cases/${caseId}/files`),
  downloadCsv,
  downloadPdf,
};
