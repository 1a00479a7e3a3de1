import { REQUIRED_MESSAGE, normalizeInput, setInternationalPhones, type FieldError } from '@crisis/forms/core';
import { SCHEMAS, validate as validateSchema, type SchemaName } from '@crisis/forms/validators';
import { fieldErrorsToObject } from '../data/codedError';
import { internationalPhonesSetting } from './phone';

/**
 * `validate` of @crisis/forms/validators under the international-phones setting: the phone checks
 * read it from @crisis/forms, which only the pages that validate load (the setting is kept by
 * common/phone.tsx until then). Every validation of the admin UI goes through here.
 */
export function validate(name: SchemaName, data: unknown): FieldError[] {
  setInternationalPhones(internationalPhonesSetting());
  return validateSchema(name, data);
}

function valueAt(data: unknown, path: string): unknown {
  return path.split('.').reduce<any>((node, key) => (node == null ? undefined : node[key]), data);
}

/**
 * A blank field arrives as null (spec 03 §5); for a required schema field the schema then says
 * "must be string/number". The user should read "This field is required".
 */
function nullAsRequired(errors: FieldError[], data: unknown): FieldError[] {
  return errors.map((e) =>
    e.key === 'type' && valueAt(data, e.field) == null ? { ...e, key: 'required', message: REQUIRED_MESSAGE } : e,
  );
}

/**
 * `validate` runs a schema's extra rules only once the schema passes; a form should show every
 * problem at once, so the rules also run here (for the fields the schema did not flag).
 */
function withRules(name: SchemaName, errors: FieldError[], data: unknown): FieldError[] {
  const rules = (SCHEMAS[name] as { rules?: (d: unknown) => FieldError[] }).rules;
  if (!rules || errors.length === 0) return errors;
  let extra: FieldError[] = [];
  try {
    extra = rules(data);
  } catch {
    /* the data is too malformed for the rules; the schema errors say why */
  }
  const flagged = new Set(errors.map((e) => e.field));
  return [...errors, ...extra.filter((e) => !flagged.has(e.field))];
}

/** Normalises the payload (trim, blank → null) and validates it with the shared schema and rules. */
export function validatePayload(name: SchemaName, payload: unknown): FieldError[] {
  const data = normalizeInput(structuredClone(payload));
  return withRules(name, nullAsRequired(validate(name, data), data), data);
}

/** A react-admin form `validate` function built on a shared schema. */
export function schemaValidator<T>(name: SchemaName, toPayload: (values: T) => unknown) {
  return (values: T) => {
    const errors = validatePayload(name, toPayload(values));
    return errors.length ? fieldErrorsToObject(errors) : {};
  };
}

/** Message of a react-hook-form error produced by react-admin's resolver or by the server. */
export function errorText(error: any): string | undefined {
  if (!error) return undefined;
  const m = error.message;
  if (typeof m === 'string') return m;
  if (m && typeof m.message === 'string') return m.message;
  return undefined;
}
