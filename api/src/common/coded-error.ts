import { DEFAULT_MESSAGES, ErrorCode, type FieldError } from '@crisis/forms';

/** A failure the client can act on (spec 03 §8). The exception filter turns it into the wire format. */
export class CodedError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly payload?: unknown,
    readonly fields?: FieldError[],
    message?: string,
  ) {
    super(message ?? DEFAULT_MESSAGES[code] ?? DEFAULT_MESSAGES[ErrorCode.Invalid]);
  }
}

export const invalid = (fields: FieldError[]) => new CodedError(400, ErrorCode.Invalid, undefined, fields);
export const notFound = () => new CodedError(404, ErrorCode.NotFound);
export const forbidden = () => new CodedError(403, ErrorCode.Forbidden);
export const unauthorized = () => new CodedError(401, ErrorCode.Unauthorized);
/** A uniqueness failure, naming the fields to mark (e.g. name with zip for a facility). */
export const notUnique = (fields: string[], message = 'Value is not unique') =>
  new CodedError(
    409,
    ErrorCode.NotUnique,
    undefined,
    fields.map((field) => ({ field, key: 'notUnique', message })),
    message,
  );
