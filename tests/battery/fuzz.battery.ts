/**
 * Fuzz battery: every operation of the API's OpenAPI document, called with inputs fast-check
 * generates from the operation's own schema (request bodies: the forms' JSON Schemas in
 * components.schemas; path ids: real rows of the demo world, other facilities' rows, unknown and
 * malformed ids; list parameters: sort/range/filter well formed and not), as six roles and
 * anonymously. It proves that no input makes the API answer 5xx, that every refusal is a coded
 * 4xx (body with code, defaultMessage, correlationId, and the x-error header), and that no request
 * hangs.
 *
 * Reading the figures:
 *   operations / inputsPerOperationMin   every operation of the document, and the fewest inputs any got
 *   totalRequests / answers              what was sent and how the API answered, by class
 *   answers5xx / uncoded4xx / hangs      must be 0 (the checks); failingOperations names where not
 *   frameworkAnswersNotCoded             4xx answered by Fastify or Node itself (414 parameter too
 *                                        long, 431 URL too long, 400 bad URL), without our coded body:
 *                                        must be 0 (ALLOW_UNCODED_FRAMEWORK_ANSWERS is false)
 *   answers.oversizeCutOff               uploads over the 21 MB limit whose connection the server closed
 *                                        before the client read its 413: the limit working, not failed
 *   constrainedOperations                operations whose inputs are bounded so that the fuzz leaves
 *                                        the stack usable (STACK_GUARDS; the demo users keep their
 *                                        passwords, sign-in and access; the seed's rows stay as they are)
 *   seed                                 FUZZ_SEED=<seed> replays the same inputs (FUZZ_INPUTS and
 *                                        FUZZ_CONCURRENCY change the count per operation and the
 *                                        requests in flight)
 * Each failure example carries the correlation id it was sent with: grep the API log for it.
 */
import http from 'node:http';
import fc from 'fast-check';
import { UserType, type UserContext } from '@crisis/forms';
import { api } from '../support/api';
import { db } from '../support/db';
import { signInAs } from '../support/oidc-client';
import { listRoutes, openApiDocument, routeKey, type QueryParamInfo, type RouteInfo } from '../support/openapi-routes';
import { RowPools } from '../support/row-pools';
import { createSandbox } from '../support/sandbox';
import { fuzzedArb, idKindOf, IdRef, NASTY_STRINGS, serializeBody, validArb, type Schema } from '../support/schema-inputs';
import { API_URL, QUICK, writeReport, type BatteryCheck } from './support';

const INPUTS_PER_OPERATION = Number(process.env.FUZZ_INPUTS ?? (QUICK ? 3 : 1000));
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 4);
const REQUEST_TIMEOUT_MS = 10_000;
const UPLOAD_CHUNK = 256 * 1024;
const EARLY_ANSWER_WAIT_MS = 200;
/** The API's body limit (main.ts bodyLimit): past it the server may cut the upload off unread. */
const BODY_LIMIT = 21 * 1024 * 1024;
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

/**
 * Fastify's and Node's own refusals (414 parameter too long, 431 URL too long, 400 bad URL) carry
 * the coded body since api/src/server.ts codes them: one without it fails the battery. (true would
 * count them apart instead.)
 */
const ALLOW_UNCODED_FRAMEWORK_ANSWERS = false;

// ------------------------------------------------------------------------------------------------
// Who sends
// ------------------------------------------------------------------------------------------------

type Role = 'IA' | 'FU' | 'FA' | 'IU' | 'IP' | 'GU' | 'anonymous';
type SignedInRole = Exclude<Role, 'anonymous'>;
const ROLE_TYPES: Record<SignedInRole, UserType> = {
  IA: UserType.ItpAdmin,
  FU: UserType.FacilityUser,
  FA: UserType.FacilityAdmin,
  IU: UserType.ItpUser,
  IP: UserType.ItpProvider,
  GU: UserType.GroupUser,
};
/** The ITP admin (may do most) and a facility user (may do least) most of the time, the others now and then. */
const roleArb = fc.oneof(
  { weight: 4, arbitrary: fc.constant<Role>('IA') },
  { weight: 4, arbitrary: fc.constant<Role>('FU') },
  { weight: 3, arbitrary: fc.constantFrom<Role>('FA', 'IU', 'IP', 'GU', 'anonymous') },
);

const contexts = new Map<Role, UserContext>();
async function tokenOf(role: Role): Promise<string | undefined> {
  if (role === 'anonymous') return undefined;
  return (await signInAs(ROLE_TYPES[role])).accessToken; // cached while it has a minute left
}
const facilityOf = (role: Role): number | null => contexts.get(role)?.facilityId ?? null;

// ------------------------------------------------------------------------------------------------
// Keeping the stack usable
// ------------------------------------------------------------------------------------------------

/** The demo users' passwords: never sent as the current password (the change would succeed). */
let demoPasswords = new Set<string>();

interface StackGuard {
  route: RegExp;
  why: string;
  /** Bounds a body in place. */
  body?: (body: any) => void;
}

/**
 * Operations whose inputs are bounded (the rest of the guard is in RowPools.resolve: ids a role
 * may change are rows the fuzz created; the demo world's rows are sent only to roles that must be
 * refused). Each names what it keeps working for the batteries after the fuzz.
 */
const STACK_GUARDS: StackGuard[] = [
  {
    route: /^PUT \/api\/user\/password$/,
    why: 'never the current password: the demo users keep theirs (and their sessions)',
    body: (b) => {
      if (b && typeof b === 'object' && demoPasswords.has(b.currentPassword)) b.currentPassword = 'not-the-password';
    },
  },
  {
    route: /^PUT \/api\/itp-organization$/,
    why: 'MFA for ITP staff stays off: the demo sign-ins stay one step',
    body: (b) => {
      if (b && typeof b === 'object' && b.mfaEnabled === true) b.mfaEnabled = false;
    },
  },
  {
    route: /^PUT \/api\/itp-organization\/external-login-provider-settings$/,
    why: 'single sign-on for ITP staff stays off and password sign-in on',
    body: (b) => {
      if (b && typeof b === 'object') {
        if (b.enabled === true) b.enabled = false;
        if (b.disablePasswordLogin === true) b.disablePasswordLogin = false;
      }
    },
  },
  {
    route: /^PUT \/api\/itp-organization\/\{id\}\/update-ip-whitelist-settings$/,
    why: 'the IP allow-list stays off (it would refuse the fuzz\'s own address)',
    body: (b) => {
      if (b && typeof b === 'object' && b.ipWhiteListEnabled === true) b.ipWhiteListEnabled = false;
    },
  },
  {
    route: /^PUT \/api\/user\/profile\/\{id\}$/,
    why: 'besides the fuzz\'s own users, a role edits only its own profile (names, phone: not sign-in)',
  },
  {
    route: /^(POST|PUT) \/api\/user\/(activate|deactivate|resend-invitation|reset-password|reset-mfa|unlock)$/,
    why: 'the users named in the body are the fuzz\'s own (or, for facility staff, other facilities\')',
  },
];
/** Operations whose body lists rows the call changes (resolved as targets, like path ids). */
const BODY_TARGETS = /^(POST|PUT) \/api\/user\/(activate|deactivate|resend-invitation|reset-password|reset-mfa|unlock)$/;
const guardsOf = (route: RouteInfo) => STACK_GUARDS.filter((g) => g.route.test(routeKey(route)));

// ------------------------------------------------------------------------------------------------
// Inputs
// ------------------------------------------------------------------------------------------------

/** A path segment sent as is (already URL-safe, or deliberately percent-encoded). */
class RawSegment {
  constructor(readonly text: string) {}
}
/** The signed-in user's own id. */
class Self {}

type PathValue = IdRef | RawSegment | Self | string;
type QueryValue = IdRef | RawSegment | string;

type Body =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown; contentType?: string }
  | { kind: 'raw'; text: string; contentType: string }
  | { kind: 'multipart'; file: FilePart | null; fields: Record<string, string> };

interface FilePart {
  content: 'png' | 'csv' | 'text' | 'random' | 'empty' | 'huge';
  seed: number;
  filename: string;
  contentType: string;
}

interface FuzzInput {
  role: Role;
  path: Record<string, PathValue>;
  query: Array<[string, QueryValue]>;
  body: Body;
}

const MALFORMED_SEGMENTS = [
  'abc', '-1', '0', '1.5', '1e3', '0x1F', '%201', '1%20', '99999999999999999999', '2147483648', '%00', '%2e%2e', '%2F',
  '%F0%9F%98%80', 'null', 'undefined', '%27%20OR%201%3D1', '1;DROP', '%E2%80%AE', 'NaN', '-0', '%C0%AF', '%ZZ', 'x'.repeat(300),
  '1'.repeat(5000),
];

/** The row kind of a path parameter: by its name, else by where {id} sits. */
function pathKind(route: RouteInfo, param: string): string | null {
  const byName: Record<string, string> = {
    divisionId: 'division', providerId: 'user', preferredId: 'facility', caseId: 'case', requestId: 'request', taskId: 'placementTask',
    callId: 'call', insuranceId: 'insurance', noteId: 'note', fileId: 'file',
  };
  if (byName[param]) return byName[param];
  if (param !== 'id') return null;
  const p = route.path;
  const prefixes: Array<[RegExp, string]> = [
    [/^\/api\/facilities\//, 'facility'], [/^\/api\/claims\//, 'claim'], [/^\/api\/group-organizations\//, 'group'], [/^\/api\/payers\//, 'payer'],
    [/^\/api\/billing-codes\//, 'billingCode'], [/^\/api\/patient-tags\//, 'patientTag'], [/^\/api\/user\//, 'user'],
    [/^\/api\/audit-log\//, 'auditEntry'], [/^\/api\/itp-organization\//, 'itpOrganization'], [/^\/api\/cases\/inpatient-divisions\//, 'division'],
    [/^\/api\/cases\//, 'case'], [/^\/api\/requests\//, 'request'], [/^\/api\/placement-tasks\/division\//, 'division'],
    [/^\/api\/placement-tasks\/claim\//, 'claim'], [/^\/api\/patients\//, 'patient'],
  ];
  return prefixes.find(([re]) => re.test(p))?.[1] ?? null;
}

const malformedSegment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...MALFORMED_SEGMENTS).map((t) => new RawSegment(t)) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }) },
);
const idRefArb = (kind: string) =>
  fc.tuple(fc.nat(), fc.constantFrom<IdRef['scope']>('any', 'any', 'any', 'foreign', 'unknown')).map(([pick, scope]) => new IdRef(kind, pick, scope));

let STATES: string[] = [];

function pathParamArb(route: RouteInfo, param: string): fc.Arbitrary<PathValue> {
  if (param === 'side') return fc.oneof({ weight: 3, arbitrary: fc.constantFrom('front', 'back') }, { weight: 1, arbitrary: malformedSegment });
  if (param === 'stateId') return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...STATES) }, { weight: 1, arbitrary: malformedSegment });
  if (param === 'zip') return fc.oneof({ weight: 3, arbitrary: fc.stringMatching(/^\d{5}$/) }, { weight: 1, arbitrary: malformedSegment });
  if (param === 'reference')
    return fc.oneof(
      { weight: 2, arbitrary: idRefArb('avatar') },
      { weight: 1, arbitrary: fc.uuid().map((u) => `avatar-${u}.png`) },
      { weight: 1, arbitrary: malformedSegment },
    );
  const kind = pathKind(route, param);
  const own = /^PUT \/api\/user\/profile\/\{id\}$/.test(routeKey(route));
  return fc.oneof(
    { weight: 6, arbitrary: kind ? idRefArb(kind) : fc.nat({ max: 100 }).map(String) },
    { weight: own ? 4 : 0, arbitrary: fc.constant(new Self()) },
    { weight: 2, arbitrary: malformedSegment },
  );
}

/** The fields a list's sort accepts, from its documentation ("field one of name, city, ..."). */
const sortFieldsOf = (p: QueryParamInfo) => /field one of ([\w, ]+)/.exec(p.description ?? '')?.[1].split(',').map((s) => s.trim()).filter(Boolean) ?? ['id'];

/** The list filter schema whose fields best match the filter's documentation. */
function filterSchemaOf(p: QueryParamInfo, schemas: Record<string, Schema>): Schema | null {
  const words = new Set((p.description ?? '').match(/[A-Za-z]+/g) ?? []);
  let best: [number, Schema | null] = [0, null];
  for (const [name, s] of Object.entries(schemas)) {
    if (!/Filter$/.test(name)) continue;
    const keys = Object.keys(s.properties ?? {});
    const hits = keys.filter((k) => words.has(k)).length;
    const score = keys.length ? hits / keys.length : 0;
    if (hits >= 2 && score > best[0]) best = [score, s];
  }
  return best[1];
}

const junkQuery = fc.oneof(
  fc.constantFrom(...NASTY_STRINGS),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 10 }),
  fc.constantFrom('x'.repeat(10_000), '[' .repeat(5000), '{"a":'.repeat(2000)),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
);

function queryParamArb(p: QueryParamInfo, schemas: Record<string, Schema>): fc.Arbitrary<QueryValue> {
  const json = (arb: fc.Arbitrary<unknown>) => arb.map((v) => serializeBody(v, () => 0));
  const valid: fc.Arbitrary<QueryValue> = (() => {
    switch (p.name) {
      case 'sort':
        return fc.tuple(fc.constantFrom(...sortFieldsOf(p), 'id', 'name; DROP TABLE users', ''), fc.constantFrom('ASC', 'DESC', 'asc', 'desc', 'UP', 1)).map((v) => JSON.stringify(v));
      case 'range':
        return fc.oneof(
          fc.tuple(fc.nat({ max: 100 }), fc.nat({ max: 50 })).map(([a, n]) => JSON.stringify([a, a + n])),
          fc.constantFrom('[0,1000000]', '[-1,5]', '[5,1]', '[0.5,1]', '["0","1"]', '[0]', '[0,1,2]', '{}', '[1e308,1e309]', '[0,9007199254740993]', '[2147483647,2147483648]'),
        );
      case 'filter': {
        const schema = filterSchemaOf(p, schemas);
        return schema ? json(fuzzedArb(schema, schemas).map((f) => f.value)) : json(fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }));
      }
      case 'tz':
        return fc.constantFrom('America/New_York', 'UTC', 'Europe/Paris', 'Asia/Kolkata', 'Mars/Base', '', 'Etc/GMT+14', '+05:30', '../../etc/passwd');
      case 'dateOfBirth':
        return fc.oneof(
          fc.date({ min: new Date('1900-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
          fc.constantFrom('1985-02-30', '0000-00-00', '1985-03-03T00:00:00Z', '99999-01-01', '03/03/1985', '-1985-03-03'),
        );
      case 'take':
      case 'skip':
      case 'page':
        return fc.oneof(fc.integer({ min: -10, max: 2000 }).map(String), fc.constantFrom('1e9', '1.5', '-0', '9007199254740993', '2147483648', 'abc'));
      case 'fileIds':
        return fc.array(idRefArb('file'), { maxLength: 3 }).map((ids) => new RawSegment(ids.map((r) => `${r.kind}:${r.pick}:${r.scope}`).join(',')));
      default: {
        const kind = idKindOf(p.name);
        if (kind) return idRefArb(kind);
        if (/^(include|showActiveOnly|withinTwoHours|includeTotal)/.test(p.name)) return fc.constantFrom('true', 'false', '1', '0', 'yes', '');
        if (p.name === 'dir') return fc.constantFrom('ASC', 'DESC', 'asc', 'sideways');
        if (p.name === 'fieldId') return fc.constantFrom('performedAt', 'mainAction', 'userName', 'id', 'nope');
        if (p.schema && Object.keys(p.schema).length) return validArb(p.schema, schemas, p.name).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
        return fc.oneof(fc.string({ maxLength: 20, unit: 'grapheme-ascii' }), fc.string({ maxLength: 10, unit: 'grapheme' }));
      }
    }
  })();
  return fc.oneof({ weight: 3, arbitrary: valid }, { weight: 1, arbitrary: junkQuery });
}

function queryArb(route: RouteInfo, schemas: Record<string, Schema>): fc.Arbitrary<Array<[string, QueryValue]>> {
  const perParam = route.queryParams.map((p) =>
    fc.oneof(
      { weight: 2, arbitrary: fc.constant<Array<[string, QueryValue]>>([]) },
      { weight: 5, arbitrary: queryParamArb(p, schemas).map((v): Array<[string, QueryValue]> => [[p.name, v]]) },
      // The key twice: Fastify gives the handler an array.
      { weight: 1, arbitrary: fc.tuple(queryParamArb(p, schemas), queryParamArb(p, schemas)).map(([a, b]): Array<[string, QueryValue]> => [[p.name, a], [p.name, b]]) },
    ),
  );
  const extra = fc.oneof(
    { weight: 5, arbitrary: fc.constant<Array<[string, QueryValue]>>([]) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('__proto__', 'constructor', 'x', 'sort[0]', 'filter[q]', '', 'a'.repeat(300)), junkQuery).map(([k, v]): Array<[string, QueryValue]> => [[k, v]]) },
  );
  return fc.tuple(fc.tuple(...perParam), extra).map(([params, more]) => [...params.flat(), ...more]);
}

const MALFORMED_JSON = ['{"name": ', '{', '[', '"', 'nul', '{"a":1,}', "{'a':1}", '\u0000', '{"a":"\\ud800"}', '{"a":1}{"b":2}', '\ufeff{}', ' ', 'NaN', '{"a":01}', '{"__proto__":{"isAdmin":true}}'];
const WRONG_CONTENT_TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'application/json; charset=utf-16', 'application/vnd.api+json', 'multipart/form-data; boundary=x', ''];

const filePartArb: fc.Arbitrary<FilePart> = fc.record({
  content: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom<FilePart['content']>('png', 'csv', 'text', 'random', 'empty') },
    // Above the 20 MB limit: rare, it is slow to send.
    { weight: QUICK ? 0 : 1, arbitrary: fc.constant<FilePart['content']>('huge') },
  ),
  seed: fc.nat(),
  filename: fc.oneof(fc.constantFrom('a.png', 'users.csv', 'note.pdf', 'x.webp', '../../etc/passwd', '', '.png', 'a'.repeat(300) + '.png', 'ñ😀.png', 'a\u0000.png'), fc.string({ maxLength: 20 })),
  contentType: fc.constantFrom('image/png', 'text/csv', 'application/pdf', 'application/octet-stream', 'image/webp', 'text/html', ''),
});

function bodyArb(route: RouteInfo, schemas: Record<string, Schema>): fc.Arbitrary<Body> {
  const junkJson = fc.oneof(
    fc.constantFrom(...MALFORMED_JSON).map((text): Body => ({ kind: 'raw', text, contentType: 'application/json' })),
    fc.jsonValue({ maxDepth: 2 }).map((value): Body => ({ kind: 'json', value })),
  );
  if (route.bodyTypes.includes('multipart/form-data'))
    return fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record({
          kind: fc.constant('multipart' as const),
          file: fc.option(filePartArb, { freq: 8 }),
          fields: fc.dictionary(fc.constantFrom('title', 'note', 'file', 'x', '__proto__'), fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom(...NASTY_STRINGS)), { maxKeys: 2 }),
        }),
      },
      { weight: 1, arbitrary: junkJson },
    );
  if (route.bodySchema && schemas[route.bodySchema]) {
    const schema = schemas[route.bodySchema];
    return fc.oneof(
      { weight: 16, arbitrary: fuzzedArb(schema, schemas, route.bodySchema).map((f): Body => ({ kind: 'json', value: f.value })) },
      { weight: 1, arbitrary: junkJson },
      {
        weight: 1,
        arbitrary: fc.tuple(validArb(schema, schemas, route.bodySchema), fc.constantFrom(...WRONG_CONTENT_TYPES)).map(([value, contentType]): Body => ({ kind: 'json', value, contentType })),
      },
    );
  }
  // A bodyless operation: now and then a body it does not expect.
  return fc.oneof({ weight: 6, arbitrary: fc.constant<Body>({ kind: 'none' }) }, { weight: 1, arbitrary: junkJson });
}

function inputArb(route: RouteInfo, schemas: Record<string, Schema>): fc.Arbitrary<FuzzInput> {
  const pathEntries = route.pathParams.map((p) => pathParamArb(route, p).map((v) => [p, v] as const));
  return fc.record({
    role: roleArb,
    path: fc.tuple(...pathEntries).map((entries) => Object.fromEntries(entries)),
    query: queryArb(route, schemas),
    body: bodyArb(route, schemas),
  });
}

// ------------------------------------------------------------------------------------------------
// Sending
// ------------------------------------------------------------------------------------------------

const pools = new RowPools();
let importTemplate = 'Email,Phone,First Name,Last Name\n';
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A pseudo-random byte string (deterministic per seed). */
function bytes(seed: number, length: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}
const PNG_1x1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

function fileContent(f: FilePart): Uint8Array {
  switch (f.content) {
    case 'png':
      return PNG_1x1;
    case 'csv':
      return Buffer.from(importTemplate + `fuzz${f.seed}@sandbox.example.org,(813) 555-0101,Fuzz,User ${f.seed}\n` + NASTY_STRINGS[f.seed % NASTY_STRINGS.length] + ',,,\n');
    case 'text':
      return Buffer.from(NASTY_STRINGS.join('\n'));
    case 'random':
      return bytes(f.seed, 1 + (f.seed % 4096));
    case 'empty':
      return new Uint8Array(0);
    case 'huge':
      return new Uint8Array(21 * 1024 * 1024 + 1);
  }
}

/** The value with every number (or numeric string) that names a user the role may not change replaced by an unknown id. */
function shieldUsers(value: unknown, facility: number | null): unknown {
  if ((typeof value === 'number' || (typeof value === 'string' && /^\s*\d+(\.0*)?\s*$/.test(value))) && pools.isProtected('user', Number(value), facility)) return 987654321;
  if (Array.isArray(value)) return value.map((v) => shieldUsers(v, facility));
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    for (const k of Object.keys(value)) (value as any)[k] = shieldUsers((value as any)[k], facility);
  return value;
}

/**
 * Percent-encoding that takes any string: encodeURIComponent throws on half a surrogate pair, whose
 * UTF-8 form (ED A0 80) is sent byte for byte instead, as a careless client would.
 */
function pct(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    let out = '';
    for (const ch of s) {
      const code = ch.codePointAt(0)!;
      if (code >= 0xd800 && code <= 0xdfff) out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
      else out += encodeURIComponent(ch);
    }
    return out;
  }
}

interface Prepared {
  method: string;
  /** Path and query, as sent. */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** What was sent, short enough for a report. */
  shown: string;
}

async function prepare(route: RouteInfo, input: FuzzInput, correlationId: string, token: string | undefined): Promise<Prepared> {
  const facility = facilityOf(input.role);
  const mutating = MUTATING.has(route.method);
  const idOf = (ref: IdRef, target: boolean) => pools.resolve(ref, facility, target);
  let path = route.path;
  for (const [param, v] of Object.entries(input.path)) {
    const segment =
      v instanceof RawSegment ? v.text
      : v instanceof Self ? String(contexts.get(input.role)?.id ?? 1)
      : v instanceof IdRef ? pct(String(idOf(v, mutating)))
      : pct(v);
    path = path.replace(`{${param}}`, segment);
  }
  const query = input.query
    .map(([k, v]) => {
      let value: string;
      if (v instanceof IdRef) value = String(idOf(v, false));
      else if (v instanceof RawSegment) {
        // fileIds: "kind:pick:scope,..." → resolved ids.
        value = v.text.split(',').filter(Boolean).map((part) => {
          const [kind, pick, scope] = part.split(':');
          return String(idOf(new IdRef(kind, Number(pick), scope as IdRef['scope']), false));
        }).join(',');
      } else value = v;
      // Past 16 kB the request line is refused by Node before the API sees it (431): kept shorter, so the API reads it.
      return `${pct(k)}=${pct(value)}`.slice(0, 4000);
    })
    .join('&');
  const target = `${path}${query ? `?${query}` : ''}`;
  const headers: Record<string, string> = { 'x-correlation-id': correlationId };
  if (token) headers.authorization = `Bearer ${token}`;
  let body: string | Buffer | undefined;
  let shownBody = '';
  const b = input.body;
  if (b.kind === 'json') {
    for (const g of guardsOf(route)) g.body?.(b.value);
    const targets = BODY_TARGETS.test(routeKey(route));
    // Any number in such a body names a user, IdRef or not (a mutation may put 1 there: the ITP admin).
    const value = targets ? shieldUsers(b.value, facility) : b.value;
    const text = serializeBody(value, (ref) => idOf(ref, targets));
    body = text;
    headers['content-type'] = b.contentType ?? 'application/json';
    if (headers['content-type'] === '') delete headers['content-type'];
    shownBody = text;
  } else if (b.kind === 'raw') {
    body = b.text;
    headers['content-type'] = b.contentType;
    shownBody = b.text;
  } else if (b.kind === 'multipart') {
    const form = new FormData();
    for (const [k, v] of Object.entries(b.fields)) form.append(k, v);
    if (b.file) form.append('file', new Blob([new Uint8Array(fileContent(b.file))], b.file.contentType ? { type: b.file.contentType } : {}), b.file.filename);
    // The multipart encoding (boundary and all) as a browser would send it.
    const encoded = new Response(form);
    body = Buffer.from(await encoded.arrayBuffer());
    headers['content-type'] = encoded.headers.get('content-type')!;
    shownBody = `multipart ${JSON.stringify(b.fields)} file=${b.file ? `${b.file.content} "${b.file.filename}" ${b.file.contentType}` : 'none'}`;
  }
  const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s);
  return {
    method: route.method,
    path: target,
    headers,
    body,
    shown: `${input.role} ${route.method} ${cut(target, 300)}${shownBody ? ` body=${cut(shownBody, 400)}` : ''}`,
  };
}

type Outcome = 'ok' | 'coded4xx' | 'uncoded4xx' | 'framework4xx' | 'oversizeCutOff' | '5xx' | 'hang' | 'networkError';

/** Fastify's default error body (its own 404/413/414 answers), not ours. */
const isFrameworkAnswer = (text: string) => {
  try {
    const b = JSON.parse(text);
    return b && typeof b === 'object' && 'statusCode' in b && 'error' in b && !('code' in b && 'correlationId' in b);
  } catch {
    return text.trim() === '';
  }
};


/**
 * Sends with node:http rather than fetch: the path goes out byte for byte (fetch would resolve
 * "%2e%2e" segments) and a GET may carry a body, as any client but a browser can send.
 */
function rawRequest(p: Prepared): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(API_URL);
    // A connection per request (a refused one closes it: no other request may be caught in that).
    // Node sends no length of its own for a GET or DELETE body: without one the body would be read as the next request.
    const headers = p.body === undefined ? p.headers : { ...p.headers, 'content-length': String(Buffer.byteLength(p.body)) };
    let answered = false;
    const req = http.request(
      { host: url.hostname, port: url.port, path: p.path, method: p.method, headers, agent: false, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        const done = () => {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') });
          req.destroy();
        };
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', done);
        res.on('close', done); // an early answer whose connection closed under the upload
        res.on('error', () => undefined);
      },
    );
    req.on('error', (err: any) => {
      if (!answered) reject(err);
    });
    const body = typeof p.body === 'string' ? Buffer.from(p.body) : p.body;
    if (!body || body.length <= UPLOAD_CHUNK) {
      req.end(body);
      return;
    }
    // A large body: the server may answer (401, 414, a bad URL, …) on the headers alone and close
    // the connection, as HTTP allows; the answer is read first, not lost under the upload's EPIPE.
    // So the headers go first, then the body in chunks until the server answers.
    req.flushHeaders();
    void (async () => {
      await new Promise((wait) => setTimeout(wait, EARLY_ANSWER_WAIT_MS));
      for (let at = 0; at < body.length && !answered && !req.destroyed; at += UPLOAD_CHUNK) {
        if (!req.write(body.subarray(at, at + UPLOAD_CHUNK)))
          await new Promise<void>((go) => {
            const on = () => {
              req.off('drain', on);
              req.off('close', on);
              go();
            };
            req.on('drain', on);
            req.on('close', on);
          });
      }
      if (!answered && !req.destroyed) req.end();
    })();
  });
}

async function send(p: Prepared): Promise<{ outcome: Outcome; status: number; detail: string }> {
  let res: Awaited<ReturnType<typeof rawRequest>>;
  try {
    res = await rawRequest(p);
  } catch (err: any) {
    if (err?.name === 'AbortError' || err?.name === 'TimeoutError') return { outcome: 'hang', status: 0, detail: `no answer in ${REQUEST_TIMEOUT_MS / 1000} s` };
    // Over the limit, the server refuses (413) and closes while the rest is still being sent: the
    // client may see the closed connection before the answer. That is the limit working.
    if (['EPIPE', 'ECONNRESET'].includes(err?.code) && p.body && Buffer.byteLength(p.body) > BODY_LIMIT)
      return { outcome: 'oversizeCutOff', status: 0, detail: String(err.code) };
    return { outcome: 'networkError', status: 0, detail: String(err?.code ?? err?.message ?? err) };
  }
  const { status, text } = res;
  if (status >= 500) return { outcome: '5xx', status, detail: text.slice(0, 200) };
  if (status < 400) return { outcome: 'ok', status, detail: '' };
  let header: any = null;
  let body: any = null;
  try {
    header = JSON.parse(String(res.headers['x-error'] ?? 'null'));
    body = JSON.parse(text);
  } catch {
    /* not coded */
  }
  const coded =
    !!header?.code && !!header?.defaultMessage && !!body?.code && !!body?.defaultMessage && !!body?.correlationId && body.code === header.code;
  if (coded) return { outcome: 'coded4xx', status, detail: '' };
  if (!header && isFrameworkAnswer(text)) return { outcome: 'framework4xx', status, detail: text.slice(0, 200) };
  return { outcome: 'uncoded4xx', status, detail: text.slice(0, 200) };
}

// ------------------------------------------------------------------------------------------------
// The stack before and after
// ------------------------------------------------------------------------------------------------

/** What the other batteries rely on: the demo users' access, the seed's facilities and settings. */
async function stackFingerprint(): Promise<Record<string, unknown>> {
  const seedMax = (kind: string) => Math.max(0, ...pools.all(kind).filter((r) => !r.owned).map((r) => Number(r.id)));
  const users = await db.query(
    `SELECT email, is_active, password_locked_out, locked_due_inactivity, md5(coalesce(password_hash, '')) AS password_digest,
            tokens_valid_after, mfa_method, disabled_password_login, user_type, organization_id
       FROM users WHERE id <= $1 ORDER BY id`,
    [seedMax('user')],
  );
  const facilities = await db.query(
    `SELECT id, name, is_active, is_mfa_enabled, ip_white_list_enabled FROM facilities WHERE id <= $1 ORDER BY id`,
    [seedMax('facility')],
  );
  const divisions = await db.query(
    `SELECT id, name, is_active FROM divisions WHERE id <= $1 ORDER BY id`,
    [seedMax('division')],
  );
  const itp = await db.query('SELECT mfa_enabled, ip_white_list_enabled FROM itp_organization');
  const sso = await db.query(
    `SELECT facility_id, enabled, disable_password_login FROM external_login_settings
      WHERE (enabled OR disable_password_login) AND (facility_id IS NULL OR facility_id <= $1) ORDER BY id`,
    [seedMax('facility')],
  );
  return { users: users.rows, facilities: facilities.rows, divisions: divisions.rows, itp: itp.rows, sso: sso.rows };
}

/** Releases the edit and division claims the fuzz's users still hold (they would block the next batteries). */
async function releaseClaims(): Promise<number> {
  let released = 0;
  for (const role of Object.keys(ROLE_TYPES) as SignedInRole[]) {
    const ctx = contexts.get(role);
    const token = await tokenOf(role);
    if (!ctx || !token) continue;
    const { rows } = await db.query('SELECT id, object_type FROM claims WHERE subject_id = $1 AND released_at IS NULL', [ctx.id]);
    for (const c of rows) {
      const path = c.object_type === 'Division' ? `/api/placement-tasks/claim/${c.id}/release` : `/api/claims/${c.id}/release`;
      const res = await api('PUT', path, { token });
      if (res.status < 300) released++;
    }
  }
  return released;
}

// ------------------------------------------------------------------------------------------------
// The run
// ------------------------------------------------------------------------------------------------

interface OperationTally {
  inputs: number;
  outcomes: Partial<Record<Outcome, number>>;
  examples: string[];
}

async function main() {
  const started = Date.now();
  const doc = await openApiDocument();
  const schemas: Record<string, Schema> = doc.components?.schemas ?? {};
  STATES = schemas.facility?.properties?.address?.properties?.state?.enum ?? ['FL'];
  const routes = await listRoutes(doc);
  const { demoUsers } = (await import('../../seed/src/demo-users')) as { demoUsers: Array<{ password: string }> };
  demoPasswords = new Set(demoUsers.map((u) => u.password));

  for (const role of Object.keys(ROLE_TYPES) as SignedInRole[]) {
    const token = (await tokenOf(role))!;
    contexts.set(role, (await api<UserContext>('GET', '/api/user/context', { token })).body);
  }
  const template = await api('GET', '/Users_Import_Template.csv', { token: await tokenOf('IA') });
  if (template.status === 200 && typeof template.body === 'string') importTemplate = template.body;

  await pools.refresh(); // fixes which rows are the demo world's
  const before = await stackFingerprint();
  await createSandbox('Fuzz', { itpAdmin: (await tokenOf('IA'))!, facilityUser: (await tokenOf('FU'))! });
  await pools.refresh();
  const refresher = setInterval(() => void pools.refresh().catch(() => undefined), 5000);
  refresher.unref();

  const tallies = new Map<string, OperationTally>();
  let sent = 0;
  let apiDown = false;
  const frameworkExamples: string[] = [];
  const frameworkStatuses: Record<string, number> = {};
  // Inputs one operation after another (the order shuffled by the seed), CONCURRENCY requests at a time.
  const order = fc.sample(fc.shuffledSubarray(routes, { minLength: routes.length, maxLength: routes.length }), { numRuns: 1, seed: SEED })[0];
  function* work(): Generator<{ route: RouteInfo; input: FuzzInput; n: number }> {
    for (const [i, route] of order.entries()) {
      const inputs = fc.sample(inputArb(route, schemas), { numRuns: INPUTS_PER_OPERATION, seed: SEED + i });
      for (const [n, input] of inputs.entries()) yield { route, input, n };
    }
  }
  const queue = work();
  async function worker() {
    for (let next = queue.next(); !next.done && !apiDown; next = queue.next()) {
      const { route, input, n } = next.value;
      const key = routeKey(route);
      const tally = tallies.get(key) ?? { inputs: 0, outcomes: {}, examples: [] };
      tallies.set(key, tally);
      const correlationId = `fuzz-${SEED}-${sent++}`;
      const prepared = await prepare(route, input, correlationId, await tokenOf(input.role));
      const { outcome, status, detail } = await send(prepared);
      tally.inputs++;
      tally.outcomes[outcome] = (tally.outcomes[outcome] ?? 0) + 1;
      const failing = outcome === '5xx' || outcome === 'uncoded4xx' || outcome === 'hang' || outcome === 'networkError';
      if (outcome === 'framework4xx') frameworkStatuses[status] = (frameworkStatuses[status] ?? 0) + 1;
      if (outcome === 'framework4xx' && frameworkExamples.length < 10) frameworkExamples.push(`${key}: ${status} ${detail.slice(0, 100)} ← ${prepared.shown.slice(0, 200)}`);
      if (failing && tally.examples.length < 3) tally.examples.push(`${status} ${detail.slice(0, 120)} ← ${prepared.shown} [${correlationId}, input ${n}]`);
      if (outcome === 'networkError' && !(await alive())) apiDown = true;
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  clearInterval(refresher);

  const released = await releaseClaims();
  await pools.refresh();
  const after = await stackFingerprint();
  const signInsWork = await Promise.all(
    (Object.keys(ROLE_TYPES) as SignedInRole[]).map(async (role) => {
      try {
        const fresh = await signInAs(ROLE_TYPES[role], { fresh: true });
        return (await api('GET', '/api/user/context', { token: fresh.accessToken })).status === 200;
      } catch {
        return false;
      }
    }),
  );

  const count = (o: Outcome) => [...tallies.values()].reduce((n, t) => n + (t.outcomes[o] ?? 0), 0);
  const failingOperations = [...tallies.entries()]
    .filter(([, t]) => t.outcomes['5xx'] || t.outcomes.uncoded4xx || t.outcomes.hang || t.outcomes.networkError)
    .map(([key, t]) => `${key}: ${Object.entries(t.outcomes).filter(([o]) => !['ok', 'coded4xx', 'framework4xx', 'oversizeCutOff'].includes(o)).map(([o, n]) => `${n}× ${o}`).join(', ')}`);
  const frameworkOperations = [...tallies.entries()].filter(([, t]) => t.outcomes.framework4xx).map(([key, t]) => `${key}: ${t.outcomes.framework4xx}`);
  const examples = [...tallies.entries()].flatMap(([key, t]) => t.examples.map((e) => `${key}: ${e}`));
  const inputsMin = Math.min(...routes.map((r) => tallies.get(routeKey(r))?.inputs ?? 0));
  const fingerprintDiff = JSON.stringify(before) === JSON.stringify(after) ? '' : diffSummary(before, after);

  const checks: BatteryCheck[] = [
    { name: `every operation fuzzed with at least ${INPUTS_PER_OPERATION} inputs`, ok: inputsMin >= INPUTS_PER_OPERATION && !apiDown, detail: apiDown ? 'the API stopped answering' : `min ${inputsMin}` },
    { name: 'no answer is a 5xx', ok: count('5xx') === 0, detail: `${count('5xx')} answers` },
    {
      name: 'every 4xx carries the coded body (code, defaultMessage, correlationId) and x-error header',
      ok: count('uncoded4xx') === 0 && (ALLOW_UNCODED_FRAMEWORK_ANSWERS || count('framework4xx') === 0),
      detail: `${count('uncoded4xx')} uncoded${ALLOW_UNCODED_FRAMEWORK_ANSWERS ? `; ${count('framework4xx')} framework answers not coded, allowed for now` : ''}`,
    },
    { name: `no request hangs (${REQUEST_TIMEOUT_MS / 1000} s) or loses its connection`, ok: count('hang') + count('networkError') === 0, detail: `${count('hang')} hangs, ${count('networkError')} connection errors` },
    {
      name: 'the stack is still usable: the demo users sign in, the seed\'s users, facilities and settings unchanged',
      ok: signInsWork.every(Boolean) && !fingerprintDiff,
      detail: [signInsWork.every(Boolean) ? '' : `sign-in failed for ${(Object.keys(ROLE_TYPES) as SignedInRole[]).filter((_, i) => !signInsWork[i]).join(', ')}`, fingerprintDiff].filter(Boolean).join('; '),
    },
  ];
  writeReport({
    name: 'fuzz',
    checks,
    figures: {
      operations: routes.length,
      inputsPerOperationMin: inputsMin,
      totalRequests: sent,
      answers: Object.fromEntries((['ok', 'coded4xx', 'framework4xx', 'oversizeCutOff', 'uncoded4xx', '5xx', 'hang', 'networkError'] as Outcome[]).map((o) => [o, count(o)])),
      answers5xx: count('5xx'),
      uncoded4xx: count('uncoded4xx'),
      frameworkAnswersNotCoded: count('framework4xx'),
      frameworkAnswersByStatus: frameworkStatuses,
      hangs: count('hang'),
      failingOperations: failingOperations.length ? failingOperations.join(' | ') : 'none',
      frameworkAnswersByOperation: frameworkOperations.length ? frameworkOperations.join(' | ') : 'none',
      frameworkAnswerExamples: frameworkExamples.length ? frameworkExamples.join(' || ') : 'none',
      failureExamples: examples.length ? examples.slice(0, 30).join(' || ') : 'none',
      constrainedOperations: STACK_GUARDS.map((g) => `${g.route.source}: ${g.why}`).join(' | ') +
        ' | every mutating operation: ids a role may change are rows the fuzz created; demo-world rows only where the role must be refused',
      skippedOperations: 'none',
      roles: 'ITP admin, facility user (most inputs); facility admin, ITP user, provider, group user, anonymous',
      claimsReleasedAfter: released,
      seed: SEED,
      seconds: Math.round((Date.now() - started) / 1000),
    },
  });
  await db.end();
}

async function alive(): Promise<boolean> {
  try {
    return (await fetch(`${API_URL}/api/health`, { signal: AbortSignal.timeout(5000) })).ok;
  } catch {
    return false;
  }
}

/** The first differences between two fingerprints, for the report. */
function diffSummary(a: Record<string, unknown>, b: Record<string, unknown>): string {
  const out: string[] = [];
  for (const k of Object.keys(a)) {
    const x = a[k] as any[];
    const y = b[k] as any[];
    if (JSON.stringify(x) === JSON.stringify(y)) continue;
    const changed = x.filter((row, i) => JSON.stringify(row) !== JSON.stringify(y[i])).slice(0, 3);
    out.push(`${k} changed: ${changed.map((r) => JSON.stringify(r).slice(0, 150)).join(', ')} (rows ${x.length} → ${y.length})`);
  }
  return out.join('; ');
}

main().catch(async (err) => {
  writeReport({ name: 'fuzz', checks: [{ name: 'ran to the end', ok: false, detail: String(err?.stack ?? err).slice(0, 1500) }], figures: {} });
  await db.end().catch(() => undefined);
  process.exit(1);
});
