import { Readable } from 'stream';
import type { FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { CodedError, EMPTY_FILE, ErrorCode, FILE_TOO_BIG, UPLOAD_MAX_BYTES } from '@crisis/forms';
import { FileTooLargeError, type FileStorage } from './storage';

export const fileError = (key: string, message: string) =>
  new CodedError(ErrorCode.Invalid, undefined, [{ field: 'file', key, message }], message);
export const fileTooBig = () => fileError('fileMaxSize', FILE_TOO_BIG);
export const emptyFile = () => fileError('emptyFile', EMPTY_FILE);

/** The one file part of a multipart request (field name free); a coded 400 when there is none. */
export async function singleFile(req: FastifyRequest): Promise<MultipartFile> {
  const r = req as FastifyRequest & { isMultipart?: () => boolean; file?: (o?: object) => Promise<MultipartFile | undefined> };
  if (!r.isMultipart?.() || !r.file) throw fileError('required', 'This field is required');
  let part: MultipartFile | undefined;
  try {
    // One byte over the limit tells "too big" from "exactly the limit".
    part = await r.file({ limits: { fileSize: UPLOAD_MAX_BYTES + 1, files: 1, fields: 10 } });
  } catch {
    throw fileError('invalid', 'The upload could not be read');
  }
  if (!part) throw fileError('required', 'This field is required');
  return part;
}

/** Reads a (small) uploaded file whole, enforcing the upload limit. */
export async function readWhole(part: MultipartFile, maxBytes = UPLOAD_MAX_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of part.file as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) {
        part.file.resume();
        throw fileTooBig();
      }
      chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof CodedError) throw err;
    throw fileTooBig();
  }
  if (part.file.truncated) throw fileTooBig();
  if (!size) throw emptyFile();
  return Buffer.concat(chunks);
}

/**
 * The first `bytes` of an uploaded file, to tell its type by content, and a stream of the whole
 * file (those bytes included) to hand to the storage port. Empty → 'You can't upload empty file';
 * a read failure (the multipart size limit) → too big.
 */
export async function peekUpload(part: MultipartFile, bytes: number): Promise<{ head: Buffer; source: Readable }> {
  const it = (part.file as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  let head = Buffer.alloc(0);
  try {
    while (head.length < bytes) {
      const next = await it.next();
      if (next.done) break;
      head = Buffer.concat([head, next.value]);
    }
  } catch {
    throw fileTooBig();
  }
  if (!head.length) throw emptyFile();
  const source = Readable.from(
    (async function* () {
      yield head;
      for (;;) {
        const next = await it.next();
        if (next.done) return;
        yield next.value;
      }
    })(),
  );
  return { head, source };
}

/**
 * Streams an upload to storage within `maxBytes` (never buffered whole); a file over the limit is
 * removed again and refused with 'File size bigger than allowed max size'. Returns its size.
 */
export async function storeUpload(
  storage: FileStorage,
  area: string,
  key: string,
  part: MultipartFile,
  source: Readable,
  maxBytes: number,
): Promise<number> {
  let size: number;
  try {
    size = await storage.put(area, key, source, maxBytes);
  } catch (err) {
    part.file.resume();
    if (err instanceof FileTooLargeError || part.file.truncated || (err as { code?: string })?.code === 'FST_REQ_FILE_TOO_LARGE') throw fileTooBig();
    throw err;
  }
  if (part.file.truncated) {
    await storage.remove(area, key);
    throw fileTooBig();
  }
  return size;
}
