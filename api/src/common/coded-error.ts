import { CodedError, ErrorCode, type FieldError } from '@crisis/forms';

/** The registry's coded error (forms/src/errors.ts): its code decides the HTTP status. */
export { CodedError };

export const invalid = (fields: FieldError[]) => new CodedError(ErrorCode.Invalid, undefined, fields);
export const notFound = () => new CodedError(ErrorCode.NotFound);
export const forbidden = () => new CodedError(ErrorCode.Forbidden);
export const unauthorized = () => new CodedError(ErrorCode.Unauthorized);
/** A uniqueness failure, naming the fields to mark (e.g. name with zip for a facility). */
export const notUnique = (fields: string[], message = 'Value is not unique') =>
  new CodedError(
    ErrorCode.NotUnique,
    undefined,
    fields.map((field) => ({ field, key: 'notUnique', message })),
    message,
  );
