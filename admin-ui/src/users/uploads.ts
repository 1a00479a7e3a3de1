import { USER_IMPORT_TEMPLATE_FILE } from '@crisis/forms/core';
import { getAccessToken } from '../auth/userManager';
import { httpClient } from '../data/httpClient';
import { downloadCsv } from '../data/download';

/** Multipart upload of one file (field "file"); coded failures throw like every other call. */
export async function uploadFile<T>(url: string, file: File): Promise<T> {
  const form = new FormData();
  form.append('file', file, file.name);
  const res = await httpClient(url, { method: 'POST', body: form });
  return res.json as T;
}

export const importApi = {
  validate: (file: File) => uploadFile<string[]>('/api/user/import/validate', file),
  import: (file: File) => uploadFile<{ imported: number; ids: number[] }>('/api/user/import', file),
  /** GET /Users_Import_Template.csv: must be an attachment, else 'Incorrect response' (spec 03 §7). */
  downloadTemplate: () => downloadCsv(`/${USER_IMPORT_TEMPLATE_FILE}`),
};

export const avatarApi = {
  store: (file: File) => uploadFile<{ avatar: string }>('/api/user/avatar', file),
};

/**
 * Object URLs of fetched avatars, by reference (references are immutable: a new image gets a new
 * one). Bounded: an evicted image's object URL is released.
 */
const AVATARS_CACHED = 500;
const cache = new Map<string, Promise<string | null>>();

/** The cached avatar, now the most recently used (a Map keeps its insertion order). */
function cached(reference: string): Promise<string | null> | undefined {
  const hit = cache.get(reference);
  if (hit) {
    cache.delete(reference);
    cache.set(reference, hit);
  }
  return hit;
}

function remember(reference: string, url: Promise<string | null>): void {
  cache.set(reference, url);
  if (cache.size <= AVATARS_CACHED) return;
  const [oldest, evicted] = cache.entries().next().value!;
  cache.delete(oldest);
  void evicted.then((u) => u && URL.revokeObjectURL(u));
}

/** GET /api/avatar/{reference} with the bearer token, as an object URL (null when missing). */
export function avatarUrl(reference: string): Promise<string | null> {
  let hit = cached(reference);
  if (!hit) {
    hit = (async () => {
      const token = await getAccessToken();
      const res = await fetch(`/api/avatar/${encodeURIComponent(reference)}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
      if (!res.ok) return null;
      return URL.createObjectURL(await res.blob());
    })().catch(() => null);
    remember(reference, hit);
  }
  return hit;
}
