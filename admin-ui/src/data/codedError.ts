import { HttpError } from 'react-admin';
import { DEFAULT_MESSAGES, ErrorCode, type CodedErrorBody, type FieldError } from '@crisis/forms/core';

/** The message shown for a code (spec 03 §8); unknown codes fall back to the server's default text. */
export function messageForCode(code: string, defaultMessage?: string): string {
  return DEFAULT_MESSAGES[code] ?? defaultMessage ?? DEFAULT_MESSAGES[ErrorCode.Unexpected];
}

/** `[{field:'address.zipCode', message}]` → `{ address: { zipCode: message } }` (react-admin submission errors). */
export function fieldErrorsToObject(fields: FieldError[]): Record<string, any> {
  const out: Record<string, any> = {};
  for (const { field, message } of fields) {
    if (!field) continue;
    const parts = field.split('.');
    let node = out;
    parts.slice(0, -1).forEach((p) => {
      if (typeof node[p] !== 'object' || node[p] === null) node[p] = {};
      node = node[p];
    });
    const last = parts[parts.length - 1];
    if (node[last] === undefined) node[last] = message; // the first problem of a field wins
  }
  return out;
}

/**
 * A failed API call carrying the coded error of spec 03 §8. It is a react-admin HttpError, so its
 * `body.errors` (from `fields`) become field errors in react-admin forms.
 */
export class CodedHttpError extends HttpError {
  readonly code: string;
  readonly defaultMessage: string;
  readonly payload: unknown;
  readonly fields: FieldError[];
  readonly correlationId: string | undefined;

  constructor(status: number, coded: CodedErrorBody) {
    const fields = coded.fields ?? [];
    super(messageForCode(coded.code, coded.defaultMessage), status, {
      ...coded,
      ...(fields.length > 0 ? { errors: fieldErrorsToObject(fields) } : {}),
    });
    // HttpError resets the prototype to its own; restore ours so `instanceof CodedHttpError` holds.
    Object.setPrototypeOf(this, CodedHttpError.prototype);
    this.name = 'CodedHttpError';
    this.code = coded.code;
    this.defaultMessage = coded.defaultMessage;
    this.payload = coded.payload;
    this.fields = fields;
    this.correlationId = coded.correlationId;
  }
}

export const isCodedError = (e: unknown): e is CodedHttpError => e instanceof CodedHttpError;

function decodePayload(payload: unknown): unknown {
  if (typeof payload !== 'string') return payload;
  try {
    return JSON.parse(decodeURIComponent(payload));
  } catch {
    return payload;
  }
}

/** Reads the coded error from the body, else the x-error header, else the status fallbacks. */
export function codedErrorFrom(status: number, headers: Headers, text: string): CodedHttpError {
  const correlationId = headers.get('x-correlation-id') ?? undefined;
  let body: Partial<CodedErrorBody> | undefined;
  try {
    const parsed = text ? JSON.parse(text) : undefined;
    if (parsed && typeof parsed === 'object' && typeof parsed.code === 'string') body = parsed;
  } catch {
    /* not JSON */
  }
  if (!body) {
    const header = headers.get('x-error');
    if (header) {
      try {
        const parsed = JSON.parse(header);
        body = { ...parsed, payload: decodePayload(parsed.payload) };
      } catch {
        /* malformed header */
      }
    }
  }
  if (!body) {
    const code =
      status === 401 ? ErrorCode.Unauthorized : status === 403 ? ErrorCode.Forbidden : status === 404 ? ErrorCode.NotFound : ErrorCode.Unexpected;
    const firstLine = text.split(/\r?\n/)[0]?.slice(0, 300);
    body = { code, defaultMessage: code === ErrorCode.Unexpected && firstLine ? firstLine : DEFAULT_MESSAGES[code] };
  }
  return new CodedHttpError(status, {
    code: body.code ?? ErrorCode.Unexpected,
    defaultMessage: body.defaultMessage ?? '',
    payload: body.payload,
    fields: body.fields,
    correlationId: body.correlationId ?? correlationId,
  });
}
