/**
 * Request inputs generated with fast-check from an operation's own JSON Schema (the forms of
 * forms/, served as components.schemas of the OpenAPI document): values the schema accepts, and
 * the same values broken on purpose — a wrong type, a missing or an extra field, huge and unicode
 * strings, NUL characters, deep nesting, huge/negative/fractional numbers, ids of other
 * facilities' rows, a body that is not an object or not JSON at all.
 *
 * Ids are not numbers here but IdRef: the row kind and a pick, resolved when the request is sent
 * (the fuzz's pools of real ids change as it creates rows). Huge strings, deep nesting and raw
 * JSON tokens are markers too, written out only when the body is serialised (serializeBody).
 */
import fc from 'fast-check';

/** A row of some kind: `any` row, a `foreign` one (another facility's), or an `unknown` id. */
export class IdRef {
  constructor(
    readonly kind: string,
    readonly pick: number,
    readonly scope: 'any' | 'foreign' | 'unknown',
  ) {}
}

/** A string of `length` repetitions of `unit`, written out when serialised. */
export class HugeString {
  constructor(readonly unit: string, readonly length: number) {}
  toString() {
    return this.unit.repeat(Math.ceil(this.length / this.unit.length));
  }
}

/** JSON text put into the body as is: deep nesting, numbers JSON.stringify cannot write (1e999). */
export class RawJson {
  constructor(readonly text: string) {}
}

export type Schema = Record<string, any>;
type Components = Record<string, Schema>;

/** Field names that hold row ids, and the kind of row (see the fuzz's pools). */
const ID_FIELDS: Array<[RegExp, string]> = [
  [/^(source|preferred|outcome)?[fF]acilit(y|ies)Ids?$|^facilityIds?$|^excludedFacilities$|^facilities$/, 'facility'],
  [/^(source|referring|outcomeReferring)?[dD]ivisions?Ids?$|^divisionsIds$/, 'division'],
  [/^payerIds?$/, 'payer'],
  [/^tagIds?$/, 'patientTag'],
  [/^placementTaskIds?$|^taskIds?$/, 'placementTask'],
  [/^(evaluation)?[pP]roviderIds?$|^coordinatorIds?$|^userIds?$|^exceptProviderId$/, 'user'],
  [/^patientIds?$/, 'patient'],
  [/^caseIds?$/, 'case'],
  [/^fileIds?$/, 'file'],
  [/^evaluationFormIds?$/, 'evaluationForm'],
  [/^billingCodeIds?$/, 'billingCode'],
  [/^organizationId$/, 'facility'],
];

/** The row kind a field or parameter name refers to, or null. */
export function idKindOf(name: string | undefined): string | null {
  if (!name) return null;
  for (const [re, kind] of ID_FIELDS) if (re.test(name)) return kind;
  return null;
}

const idRef = (kind: string) =>
  fc.tuple(fc.nat(), fc.constantFrom<IdRef['scope']>('any', 'any', 'any', 'foreign', 'unknown')).map(([pick, scope]) => new IdRef(kind, pick, scope));

function deref(schema: Schema, components: Components): Schema {
  let s = schema;
  for (let i = 0; s?.$ref && i < 10; i++) s = components[String(s.$ref).split('/').pop()!] ?? {};
  return s ?? {};
}

const typesOf = (s: Schema): string[] => {
  if (s.type) return ([] as string[]).concat(s.type);
  if (s.properties) return ['object'];
  if (s.items) return ['array'];
  return [];
};

const isoDate = fc.date({ min: new Date('1900-01-01'), max: new Date('2100-01-01'), noInvalidDate: true });

/** Strings a schema with this (look-ahead) pattern accepts: fast-check's stringMatching has no look-aheads. */
function patternArb(pattern: string, maxLength: number): fc.Arbitrary<string> {
  if (/\(\?[=!<]/.test(pattern)) return fc.string({ minLength: 5, maxLength: Math.min(maxLength - 3, 20) }).map((s) => `Aa1${s}`);
  return fc.stringMatching(new RegExp(pattern)).filter((s) => s.length <= maxLength);
}

function stringArb(s: Schema): fc.Arbitrary<string> {
  const max = s.maxLength ?? 255;
  const min = s.minLength ?? 0;
  if (s.format === 'date') return isoDate.map((d) => d.toISOString().slice(0, 10));
  if (s.format === 'date-time') return isoDate.map((d) => d.toISOString());
  if (s.format === 'email') return fc.emailAddress().filter((e) => e.length <= max);
  if (s.pattern) return patternArb(s.pattern, max);
  const short = Math.max(min, Math.min(max, 40));
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength: min, maxLength: short, unit: 'grapheme-ascii' }) },
    { weight: 1, arbitrary: fc.string({ minLength: min, maxLength: short, unit: 'grapheme' }) },
    { weight: 1, arbitrary: fc.string({ minLength: Math.min(max, Math.max(min, max - 2)), maxLength: max, unit: 'grapheme-ascii' }) },
  );
}

/**
 * A value the schema accepts (as far as its keywords say: the API's own rules may still refuse
 * it). `name` is the field the value is for: integer fields named like ids get IdRefs.
 */
export function validArb(schema: Schema, components: Components, name?: string, depth = 0): fc.Arbitrary<unknown> {
  const s = deref(schema, components);
  if (depth > 8) return fc.constant(null);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((a: Schema) => validArb(a, components, name, depth + 1)));
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const types = typesOf(s);
  if (!types.length) return fc.jsonValue({ maxDepth: 2 });
  const arbs = types.map((t) => {
    switch (t) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'string':
        return stringArb(s);
      case 'integer': {
        const kind = idKindOf(name);
        if (kind) return idRef(kind);
        const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -1000);
        const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : Math.max(min, 0) + 1000);
        return fc.integer({ min, max });
      }
      case 'number': {
        const min = s.minimum ?? s.exclusiveMinimum ?? -1e6;
        const max = s.maximum ?? s.exclusiveMaximum ?? 1e6;
        return fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).filter((n) => n !== s.exclusiveMinimum && n !== s.exclusiveMaximum && !Object.is(n, -0));
      }
      case 'array': {
        const item = validArb(s.items ?? {}, components, name, depth + 1);
        const constraints = { minLength: s.minItems ?? 0, maxLength: Math.max(s.minItems ?? 0, Math.min(s.maxItems ?? 4, 4)) };
        return s.uniqueItems ? fc.uniqueArray(item, { ...constraints, selector: (v) => JSON.stringify(v) }) : fc.array(item, constraints);
      }
      case 'object': {
        const props = Object.entries<Schema>(s.properties ?? {}).filter(([, p]) => !deref(p, components).readOnly);
        if (!props.length) return s.additionalProperties === false ? fc.constant({}) : fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
        const model = Object.fromEntries(props.map(([k, p]) => [k, validArb(p, components, k, depth + 1)]));
        const required = ((s.required ?? []) as string[]).filter((k) => k in model);
        return fc.record(model, { requiredKeys: required });
      }
      default:
        return fc.constant(null);
    }
  });
  return arbs.length === 1 ? arbs[0] : fc.oneof(...arbs);
}

// ------------------------------------------------------------------------------------------------
// Breaking a valid value
// ------------------------------------------------------------------------------------------------

/** Strings that have broken parsers, logs, SQL and PDFs before. */
export const NASTY_STRINGS = [
  '', ' ', '\t\n\r', '\u0000', 'a\u0000b', '\ud800', '\udfff', '\ufeff', '\u202eevil', 'Ω≈ç√∫˜µ≤≥÷', '𝕳𝖊𝖑𝖑𝖔', '👩‍👩‍👧‍👦',
  'ﷺ', 'Z̴̡̢̛͔̗͍a̷l̸g̶o̷', '田中さんにあげて下さい', '../../../../etc/passwd', "' OR 1=1 --", '"; DROP TABLE users; --',
  '%00', '%s%s%s%n', '${jndi:ldap://x}', '{{7*7}}', '<script>alert(1)</script>', 'NaN', 'Infinity', '-0', '1e309',
  'null', 'undefined', 'true', '[]', '{}', '0x10', '-1', '2147483648', '99999999999999999999', 'ǅ', '\\', '\\u0000',
];

const wrongTypeValue = fc.oneof(
  fc.string({ maxLength: 10 }),
  fc.integer(),
  fc.double({ noDefaultInfinity: true, noNaN: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
  fc.constantFrom(...NASTY_STRINGS),
);

const badNumber = fc.oneof(
  fc.constantFrom<unknown>(-1, 0, -0, 0.5, 1.5, -2147483649, 2147483648, 2 ** 53 + 2, -(2 ** 53) - 2, 1e308, -1e308, 5e-324, 1e21, '1', '1.0', '0x1', ''),
  fc.constantFrom('1e999', '-1e999', '123456789012345678901234567890', '1E400', '0.0000000000000000000000000001').map((t) => new RawJson(t)),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 }),
);

const hugeString = fc
  .tuple(fc.constantFrom('x', 'é', '😀', '\u202e', 'a\u0000', '%', ' '), fc.constantFrom(256, 6001, 70_000, 1_000_000))
  .map(([unit, length]) => new HugeString(unit, length));

/** Nesting deeper than any form (and deeper than a recursive walk's stack). */
const deepNesting = fc
  .tuple(fc.constantFrom('[', '{"a":'), fc.constantFrom(64, 1000, 20_000, 200_000))
  .map(([open, depth]) => new RawJson(open.repeat(depth) + '1' + (open === '[' ? ']' : '}').repeat(depth)));

const extraKey = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'id', 'isAdmin', 'userType', 'createdAt', ''), fc.string({ maxLength: 12 }));

export type Mutation =
  | { kind: 'wrongType'; pick: number; value: unknown }
  | { kind: 'dropRequired'; pick: number }
  | { kind: 'extraField'; pick: number; key: string; value: unknown }
  | { kind: 'hugeString'; pick: number; value: HugeString }
  | { kind: 'nastyString'; pick: number; value: string }
  | { kind: 'nul'; pick: number; at: number }
  | { kind: 'deepNesting'; pick: number; value: RawJson }
  | { kind: 'badNumber'; pick: number; value: unknown }
  | { kind: 'null'; pick: number }
  | { kind: 'foreignId'; pick: number };

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('wrongType' as const), pick: fc.nat(), value: wrongTypeValue }),
  fc.record({ kind: fc.constant('dropRequired' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('extraField' as const), pick: fc.nat(), key: extraKey, value: wrongTypeValue }),
  fc.record({ kind: fc.constant('hugeString' as const), pick: fc.nat(), value: hugeString }),
  fc.record({ kind: fc.constant('nastyString' as const), pick: fc.nat(), value: fc.oneof(fc.constantFrom(...NASTY_STRINGS), fc.string({ unit: 'binary', maxLength: 20 })) }),
  fc.record({ kind: fc.constant('nul' as const), pick: fc.nat(), at: fc.nat() }),
  fc.record({ kind: fc.constant('deepNesting' as const), pick: fc.nat(), value: deepNesting }),
  fc.record({ kind: fc.constant('badNumber' as const), pick: fc.nat(), value: badNumber }),
  fc.record({ kind: fc.constant('null' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('foreignId' as const), pick: fc.nat() }),
);

interface Slot {
  /** The container and the key of the value (null container: the root). */
  parent: any;
  key: string | number | null;
  value: unknown;
}

/** Every value inside `root`, with where it sits. */
function slotsOf(root: unknown): Slot[] {
  const out: Slot[] = [{ parent: null, key: null, value: root }];
  const walk = (v: unknown) => {
    if (Array.isArray(v))
      v.forEach((item, i) => {
        out.push({ parent: v, key: i, value: item });
        walk(item);
      });
    else if (v && typeof v === 'object' && !(v instanceof IdRef) && !(v instanceof HugeString) && !(v instanceof RawJson))
      for (const [k, item] of Object.entries(v)) {
        out.push({ parent: v, key: k, value: item });
        walk(item);
      }
  };
  walk(root);
  return out;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof IdRef) && !(v instanceof HugeString) && !(v instanceof RawJson);

/** Applies one mutation to a (copied) value; returns the new root. */
export function applyMutation(root: unknown, m: Mutation): unknown {
  const slots = slotsOf(root);
  const pickFrom = (pred: (s: Slot) => boolean) => {
    const fits = slots.filter(pred);
    return fits.length ? fits[m.pick % fits.length] : null;
  };
  const put = (slot: Slot, value: unknown) => {
    if (slot.parent === null) return value;
    slot.parent[slot.key as any] = value;
    return root;
  };
  switch (m.kind) {
    case 'wrongType': {
      const slot = slots[m.pick % slots.length];
      return put(slot, m.value);
    }
    case 'dropRequired': {
      const slot = pickFrom((s) => isPlainObject(s.parent));
      if (slot) delete slot.parent[slot.key as string];
      return root;
    }
    case 'extraField': {
      const slot = pickFrom((s) => isPlainObject(s.value));
      if (!slot) return root;
      // An own property even for __proto__, so that it is serialised.
      Object.defineProperty(slot.value, m.key, { value: m.value, enumerable: true, configurable: true, writable: true });
      return root;
    }
    case 'hugeString':
    case 'nastyString': {
      const slot = pickFrom((s) => typeof s.value === 'string') ?? slots[m.pick % slots.length];
      return put(slot, m.value);
    }
    case 'nul': {
      const slot = pickFrom((s) => typeof s.value === 'string');
      if (!slot) return put(slots[m.pick % slots.length], '\u0000');
      const v = slot.value as string;
      const at = m.at % (v.length + 1);
      return put(slot, v.slice(0, at) + '\u0000' + v.slice(at));
    }
    case 'deepNesting':
      return put(slots[m.pick % slots.length], m.value);
    case 'badNumber': {
      const slot = pickFrom((s) => typeof s.value === 'number' || s.value instanceof IdRef) ?? slots[m.pick % slots.length];
      return put(slot, m.value);
    }
    case 'null':
      return put(slots[m.pick % slots.length], null);
    case 'foreignId': {
      const slot = pickFrom((s) => s.value instanceof IdRef);
      if (!slot) return root;
      const ref = slot.value as IdRef;
      return put(slot, new IdRef(ref.kind, ref.pick, 'foreign'));
    }
  }
}

/** A deep copy that keeps the markers (IdRef, HugeString, RawJson) as they are. */
export function copyValue<T>(v: T): T {
  if (Array.isArray(v)) return v.map(copyValue) as T;
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, item] of Object.entries(v)) Object.defineProperty(out, k, { value: copyValue(item), enumerable: true, configurable: true, writable: true });
    return out as T;
  }
  return v;
}

/** A value the schema accepts, or that value with one to three mutations. `name`: the body's schema name (userIds: ids of users). */
export function fuzzedArb(schema: Schema, components: Components, name?: string): fc.Arbitrary<{ value: unknown; mutations: Mutation[] }> {
  return fc
    .tuple(validArb(schema, components, name), fc.oneof({ weight: 1, arbitrary: fc.constant<Mutation[]>([]) }, { weight: 4, arbitrary: fc.array(mutationArb, { minLength: 1, maxLength: 3 }) }))
    .map(([valid, mutations]) => ({ value: mutations.reduce((v, m) => applyMutation(v, m), copyValue(valid) as unknown), mutations }));
}

/**
 * JSON text of a value with its markers written out: IdRefs by `resolveId`, HugeStrings as
 * strings, RawJson as is (so the text may be JSON that JSON.stringify could never produce).
 */
export function serializeBody(value: unknown, resolveId: (ref: IdRef) => number | string): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, function (_key, v) {
    if (v instanceof IdRef) return resolveId(v);
    if (v instanceof HugeString) return v.toString();
    if (v instanceof RawJson) {
      raws.push(v.text);
      return `\u0001RAW${raws.length - 1}\u0001`;
    }
    return v;
  });
  if (text === undefined) return '';
  return raws.length ? text.replace(/"\\u0001RAW(\d+)\\u0001"/g, (_m, i) => raws[Number(i)]) : text;
}
