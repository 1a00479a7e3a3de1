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
  const objectUrl = URL.createObjectURL(new Blob([res.body], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = objectUrl;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(objectUrl), 10_000);
  return fileName;
}
