import { CodedError as RegisteredError, ErrorCode, type ErrorCodeName, type FieldError } from '@crisis/forms';

/**
 * Transitional: the older constructor that names its HTTP status at the call site. New code
 * calls `fail(code, …)` from @crisis/forms, whose registry decides the status.
 */
export class CodedError extends RegisteredError {
  constructor(status: number, code: string, payload?: unknown, fields?: FieldError[], message?: string) {
    super(code as ErrorCodeName, payload, fields, message);
    (this as { status: number }).status = status;
  }

  /** Any coded error of the registry counts as one (callers still test `instanceof` this class). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof RegisteredError;
  }
}

export const invalid = (fields: FieldError[]) => new RegisteredError(ErrorCode.Invalid, undefined, fields);
export const notFound = () => new RegisteredError(ErrorCode.NotFound);
export const forbidden = () => new RegisteredError(ErrorCode.Forbidden);
export const unauthorized = () => new RegisteredError(ErrorCode.Unauthorized);
/** A uniqueness failure, naming the fields to mark (e.g. name with zip for a facility). */
export const notUnique = (fields: string[], message = 'Value is not unique') =>
  new RegisteredError(
    ErrorCode.NotUnique,
    undefined,
    fields.map((field) => ({ field, key: 'notUnique', message })),
    message,
  );
