import { LRUCache } from 'lru-cache';
import { USER_IMPORT_TEMPLATE_FILE } from '@crisis/forms';
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
const cache = new LRUCache<string, Promise<string | null>>({
  max: 500,
  dispose: (url) => void url.then((u) => u && URL.revokeObjectURL(u)),
});

/** GET /api/avatar/{reference} with the bearer token, as an object URL (null when missing). */
export function avatarUrl(reference: string): Promise<string | null> {
  let hit = cache.get(reference);
  if (!hit) {
    hit = (async () => {
      const token = await getAccessToken();
      const res = await fetch(`/api/avatar/${encodeURIComponent(reference)}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
      if (!res.ok) return null;
      return URL.createObjectURL(await res.blob());
    })().catch(() => null);
    cache.set(reference, hit);
  }
  return hit;
}
