import { api, httpClient } from '../httpClient';

/** The shorthands the custom data-provider methods share (same client, headers and errors as simple-rest). */
export const http = {
  ...api,
  del: <T>(url: string) => httpClient(url, { method: 'DELETE' }).then((r) => r.json as T),
  /** A multipart POST (the browser sets the boundary). */
  upload: <T>(url: string, form: FormData) => httpClient(url, { method: 'POST', body: form }).then((r) => r.json as T),
  /** A simple-rest style page: rows and the total of the Content-Range header. */
  page: async <T>(url: string): Promise<{ rows: T[]; total: number }> => {
    const res = await httpClient(url);
    const range = res.headers.get('Content-Range');
    return { rows: res.json as T[], total: range ? Number(range.split('/').pop()) || 0 : (res.json as unknown[]).length };
  },
};

export const enc = (v: unknown) => encodeURIComponent(JSON.stringify(v));

/** The user's IANA zone, so printed and exported times are the ones the screens show. */
export const tz = () => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
};
