/**
 * Reads a failed call's coded error by shape, not by class: react-admin's HttpError constructor
 * resets the prototype to HttpError.prototype, so `instanceof CodedHttpError` (data/codedError's
 * isCodedError) is false for every error and cannot be relied on.
 */
export const codeOf = (e: unknown): string | undefined => {
  const code = (e as { code?: unknown; body?: { code?: unknown } } | null)?.code ?? (e as any)?.body?.code;
  return typeof code === 'string' ? code : undefined;
};

/** Field errors of a coded error as react-admin submission errors ({ name: message }), if any. */
export const fieldErrorsOf = (e: unknown): Record<string, unknown> | undefined => {
  const errors = (e as { body?: { errors?: unknown } } | null)?.body?.errors;
  return errors && typeof errors === 'object' && Object.keys(errors).length ? (errors as Record<string, unknown>) : undefined;
};
