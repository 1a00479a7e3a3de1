import type { CodedHttpError } from '../data/codedError';

interface Remembered {
  message: string;
  code: string;
  defaultMessage: string;
  correlationId?: string;
  at: number;
}

const recent: Remembered[] = [];
const KEEP_MS = 30_000;

/**
 * Every coded error is remembered for a short while, so that when react-admin (or a page) toasts
 * its message the toast can offer the details (correlation id and default message).
 */
export function rememberCodedError(e: CodedHttpError) {
  const now = Date.now();
  while (recent.length && now - recent[0].at > KEEP_MS) recent.shift();
  recent.push({ message: e.message, code: e.code, defaultMessage: e.defaultMessage, correlationId: e.correlationId, at: now });
}

export function findCodedError(message: string): Remembered | undefined {
  const now = Date.now();
  for (let i = recent.length - 1; i >= 0; i--)
    if (recent[i].message === message && now - recent[i].at <= KEEP_MS) return recent.splice(i, 1)[0];
  return undefined;
}
