import { getAccessToken } from '../auth/userManager';
import { rememberCodedError } from '../notifications/codedErrorRegistry';
import { codedErrorFrom } from './codedError';
import { httpClient } from './httpClient';

/** The file name of an attachment response, or null when the response is not one (spec 03 §7). */
export function attachmentFileName(contentDisposition: string | null): string | null {
  if (!contentDisposition || !/^\s*attachment/i.test(contentDisposition)) return null;
  const star = /filename\*=(?:UTF-8'')?([^;]+)/i.exec(contentDisposition);
  if (star) return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
  const plain = /filename="?([^";]+)"?/i.exec(contentDisposition);
  return plain ? plain[1].trim() : 'download';
}

/**
 * Downloads a CSV file from the API and saves it under the name the server gives. A response that
 * is not an attachment is refused with 'Incorrect response' (spec 03 §7). Returns the file name.
 */
export async function downloadCsv(url: string): Promise<string> {
  const res = await httpClient(url, { headers: { Accept: 'text/csv' } });
  const fileName = attachmentFileName(res.headers.get('content-disposition'));
  if (!fileName) throw new Error('Incorrect response');
  saveBlob(new Blob([res.body], { type: 'text/csv;charset=utf-8' }), fileName);
  return fileName;
}

/** Hands a blob to the browser as a file download. */
export function saveBlob(blob: Blob, fileName: string) {
  const objectUrl = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = objectUrl;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(objectUrl), 10_000);
}

/** A binary GET with the bearer token; a failure becomes a CodedHttpError as in httpClient. */
async function fetchBlob(url: string, accept?: string): Promise<Response> {
  const token = await getAccessToken();
  const res = await fetch(url, { headers: { ...(accept ? { Accept: accept } : {}), ...(token ? { Authorization: `Bearer ${token}` } : {}) } });
  if (res.status < 200 || res.status >= 300) {
    const error = codedErrorFrom(res.status, res.headers, await res.text());
    if (accept) rememberCodedError(error);
    throw error;
  }
  return res;
}

/**
 * Downloads a PDF attachment and saves it under the server's file name. downloadCsv reads the body
 * as text, which would corrupt a binary PDF, so this reads a Blob; the file-name rule and
 * 'Incorrect response' are the same.
 */
export async function downloadPdf(url: string): Promise<string> {
  const res = await fetchBlob(url, 'application/pdf');
  const fileName = attachmentFileName(res.headers.get('content-disposition'));
  if (!fileName) throw new Error('Incorrect response');
  saveBlob(await res.blob(), fileName);
  return fileName;
}

/** Downloads a stored file (no attachment check) and saves it under the given name. */
export async function downloadFile(url: string, fileName: string): Promise<void> {
  const res = await fetchBlob(url);
  saveBlob(await res.blob(), fileName);
}
