import { useCallback, useEffect, useState } from 'react';
import { formatDateTime } from '@crisis/forms';
import { api, httpClient } from '../../../data/httpClient';
import { getAccessToken } from '../../../auth/userManager';
import { codedErrorFrom } from '../../../data/codedError';

/** The calls of the case-record cards (spec 01 §7 under /api/cases/{id}). */
export interface Author {
  id: number;
  fullName: string;
  organizationType: string;
}

export interface VitalsRow {
  id: number;
  submittedOn: string;
  pulse: number | null;
  bloodPressure: { systolic: number | null; diastolic: number | null };
  /** Percent. */
  oxygenSaturation: number | null;
  bodyTemperature: number | null;
  respirationRate: number | null;
  createdBy: Author | null;
}

export interface ProgressNoteRow {
  id: number;
  note: string;
  submittedOn: string;
  createdAt: string;
  createdBy: Author | null;
}

export interface CaseNoteRow {
  id: number;
  note: string;
  hidden: boolean;
  kind: 'user' | 'evaluation';
  reason: string | null;
  createdBy: Author | null;
  createdAt: string;
  modifiedAt: string;
  canEdit: boolean;
  canHide: boolean;
}

export interface PatientFileRow {
  id: number;
  title: string;
  note: string | null;
  fileName: string;
  size: number;
  hidden: boolean;
  submittedOn: string;
  submittedBy: Author | null;
}

export interface TagsPayload {
  tags: Array<{ id: number; name: string }>;
  available: Array<{ id: number; name: string }>;
}

export interface FeedbackRow {
  id: number;
  rating: number;
  note: string | null;
  confirmation: boolean;
  cantAttest: boolean;
}

const base = (id: number) => `/api/cases/${id}`;
const del = <T,>(url: string) => httpClient(url, { method: 'DELETE' }).then((r) => r.json as T);

export const recordsApi = {
  vitals: (id: number) => api.get<VitalsRow[]>(`${base(id)}/vitals`),
  addVitals: (id: number, body: unknown) => api.post<{ id: number }>(`${base(id)}/vitals`, body),
  progressNotes: (id: number) => api.get<ProgressNoteRow[]>(`${base(id)}/progress-notes`),
  addProgressNote: (id: number, body: unknown) => api.post<{ id: number }>(`${base(id)}/progress-notes`, body),
  notes: (id: number) => api.get<CaseNoteRow[]>(`${base(id)}/notes`),
  addNote: (id: number, body: unknown) => api.post<{ id: number }>(`${base(id)}/notes`, body),
  updateNote: (id: number, noteId: number, body: unknown) => api.put<{ id: number }>(`${base(id)}/notes/${noteId}`, body),
  removeNote: (id: number, noteId: number) => del<{ id: number }>(`${base(id)}/notes/${noteId}`),
  setNoteHidden: (id: number, noteId: number, hidden: boolean) => api.post<{ id: number }>(`${base(id)}/notes/${noteId}`, { hidden }),
  files: (id: number) => api.get<PatientFileRow[]>(`${base(id)}/files`),
  /** Title and note go before the file: the server reads them before streaming the file. */
  uploadFile: (id: number, file: File, title: string | null, note: string | null) => {
    const form = new FormData();
    if (title) form.append('title', title);
    if (note) form.append('note', note);
    form.append('file', file, file.name);
    return httpClient(`${base(id)}/files`, { method: 'POST', body: form }).then((r) => r.json as { id: number; title: string });
  },
  updateFile: (id: number, fileId: number, body: unknown) => api.put<{ id: number }>(`${base(id)}/files/${fileId}`, body),
  setFileHidden: (id: number, fileId: number, hidden: boolean) => api.post<{ id: number }>(`${base(id)}/files/${fileId}/hidden`, { hidden }),
  tags: (id: number) => api.get<TagsPayload>(`${base(id)}/tags`),
  setTags: (id: number, tagIds: number[]) => api.put<TagsPayload>(`${base(id)}/tags`, { tagIds }),
  feedback: (id: number) => api.get<FeedbackRow | null>(`${base(id)}/feedback`),
  saveFeedback: (id: number, body: unknown) => api.post<{ id: number; created: boolean }>(`${base(id)}/feedback`, body),
};

/** Downloads a patient file with the bearer token and hands it to the browser as a file. */
export async function downloadPatientFile(caseId: number, file: PatientFileRow): Promise<void> {
  const token = await getAccessToken();
  const res = await fetch(`${base(caseId)}/files/${file.id}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  if (!res.ok) throw codedErrorFrom(res.status, res.headers, await res.text());
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = file.fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Loads a card's rows and reloads them on demand; `error` when the load failed. */
export function useRecords<T>(load: () => Promise<T>, deps: unknown[]) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(() => {
    load()
      .then((d) => {
        setData(d);
        setError(null);
      })
      .catch((e) => setError((e as Error)?.message ?? 'Could not load'));
  }, deps);
  useEffect(() => reload(), [reload]);
  return { data, error, reload };
}

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
