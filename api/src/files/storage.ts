import fs from 'fs';
import path from 'path';
import { randomUUID } from 'crypto';
import { pipeline } from 'stream/promises';
import { Transform, type Readable } from 'stream';
import type { FastifyReply } from 'fastify';

/**
 * The storage port for uploaded files (ARCHITECTURE "Files"): streamed in, never buffered whole;
 * the size limit is enforced while streaming. Local disk by default (FILES_DIR, `.data/files`);
 * an S3-compatible implementation can take its place behind the same interface.
 */
export interface FileStorage {
  /** Streams `source` to `area/key`; throws FileTooLargeError past maxBytes (nothing is kept). Returns the byte count. */
  put(area: string, key: string, source: Readable, maxBytes: number): Promise<number>;
  /** A readable stream of the stored file, or null when it does not exist. */
  get(area: string, key: string): Promise<{ stream: Readable; size: number } | null>;
  remove(area: string, key: string): Promise<void>;
}

export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`File is larger than ${maxBytes} bytes`);
  }
}

const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;
const SAFE_AREA = /^[a-z][a-z0-9-]{0,40}$/;

export class LocalDiskStorage implements FileStorage {
  constructor(private readonly root: string) {}

  private file(area: string, key: string): string {
    if (!SAFE_AREA.test(area) || !SAFE_KEY.test(key) || key.includes('..')) throw new Error('Invalid storage key');
    return path.join(this.root, area, key);
  }

  async put(area: string, key: string, source: Readable, maxBytes: number): Promise<number> {
    const target = this.file(area, key);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    const partial = `${target}.${randomUUID()}.part`;
    let size = 0;
    const limit = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > maxBytes) return done(new FileTooLargeError(maxBytes));
        done(null, chunk);
      },
    });
    try {
      await pipeline(source, limit, fs.createWriteStream(partial, { flags: 'wx' }));
      await fs.promises.rename(partial, target);
      return size;
    } catch (err) {
      await fs.promises.rm(partial, { force: true });
      throw err;
    }
  }

  async get(area: string, key: string) {
    const file = this.file(area, key);
    try {
      const stat = await fs.promises.stat(file);
      if (!stat.isFile()) return null;
      return { stream: fs.createReadStream(file), size: stat.size };
    } catch {
      return null;
    }
  }

  async remove(area: string, key: string) {
    await fs.promises.rm(this.file(area, key), { force: true });
  }
}

/** FILES_DIR, or `.data/files` at the repository root. */
export const FILES_DIR = path.resolve(process.env.FILES_DIR || path.resolve(__dirname, '../../../.data/files'));
export const FILE_STORAGE = Symbol('FileStorage');
export const defaultStorage = (): FileStorage => new LocalDiskStorage(FILES_DIR);

/**
 * Sends a stored file as the response: its type and size, a private Cache-Control and no type
 * sniffing; other headers (Content-Disposition) are set by the caller before.
 */
export function sendStored(reply: FastifyReply, file: { stream: Readable; size: number }, contentType: string, cacheControl = 'private, no-store') {
  return reply
    .header('Content-Type', contentType)
    .header('Content-Length', String(file.size))
    .header('Cache-Control', cacheControl)
    .header('X-Content-Type-Options', 'nosniff')
    .send(file.stream);
}
