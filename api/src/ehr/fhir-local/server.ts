/**
 * fhir-local: an HTTP server that speaks the part of FHIR R4 and SMART Backend Services the product
 * uses, for development and tests (modelled on ../../messaging/twilio-local). The API keeps using
 * its real adapter (fhir-kit-client + jose), pointed at this server's base URL.
 *
 * FHIR (JSON only, application/fhir+json; every route but /metadata needs a bearer token):
 *   GET  /metadata                                   CapabilityStatement (fhirVersion 4.0.1)
 *   GET  /.well-known/smart-configuration            token_endpoint
 *   POST /oauth2/token                               client_credentials + JWT client assertion (RS384)
 *   GET  /Patient?identifier=…[&ah-department=…]     search
 *   GET  /Encounter/:id, /Organization/:id           read (also the created DocumentReference / Claim)
 *   GET  /Coverage?patient=…[&_include=Coverage:payor]
 *   GET  /InsurancePlan?name:contains=…[&_include=InsurancePlan:owned-by]
 *   POST /DocumentReference, /Claim                  create; conditional with If-None-Exist
 *   GET  /DocumentReference?patient=&encounter=, /Claim?patient=&encounter=
 * Control API (JSON, no token), for tests and the demo:
 *   GET/POST /local/faults     { "DocumentReference.create": { status: 503, times: 2 } }: the next
 *                              2 such requests fail. POST replaces the whole map ({} clears it).
 *                              Keys: token, metadata, <Type>.search, <Type>.read, <Type>.create.
 *   GET/POST /local/clients    register { clientId, jwks } (a public JWKS), list them
 *   GET  /local/resources/:type   everything stored of a type
 *   GET  /local/stats          token requests issued / refused, FHIR requests answered
 *   POST /local/reset-tokens   forgets every issued token (the next FHIR call answers 401)
 *   POST /local/settings       { tokenSeconds } lifetime of the tokens issued from now on
 */
import http from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import { createLocalJWKSet, decodeJwt, jwtVerify, type JSONWebKeySet } from 'jose';
import { DEMO_CLIENT_ID, DEMO_PUBLIC_JWKS } from './demo-client';

export type FhirResource = { resourceType: string; id: string; [k: string]: unknown };

export interface RegisteredClient {
  clientId: string;
  jwks: JSONWebKeySet;
}

export interface Fault {
  status: number;
  times: number;
}

export interface FhirLocalState {
  /** By resource type, oldest first. */
  resources: Record<string, FhirResource[]>;
  clients: RegisteredClient[];
  faults: Record<string, Fault>;
  tokens: Map<string, { clientId: string; scope: string; expiresAt: number }>;
  usedJti: Map<string, number>;
  stats: { tokenRequests: number; tokensIssued: number; tokensRefused: number; fhirRequests: number; unauthorized: number };
  tokenSeconds: number;
}

/**
 * The newest resources of each type kept, in memory and in the state file: a demo or bench server
 * that runs for weeks answers and saves as fast as a new one (every conditional create scanned the
 * whole list, and the state file, megabytes of documents, was written whole after every burst).
 */
export const FHIR_LOCAL_KEPT = 500;
function keepNewest<T>(list: T[]) {
  if (list.length > FHIR_LOCAL_KEPT) list.splice(0, list.length - FHIR_LOCAL_KEPT);
}

export interface FhirLocalOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** Lifetime of issued access tokens (default 300 s). */
  tokenSeconds?: number;
  /** Resources and clients to start from (main.ts loads them from its state file). */
  initialState?: { resources?: Record<string, FhirResource[]>; clients?: RegisteredClient[] };
  /** Called after every change worth keeping (main.ts persists it). */
  onChange?: (state: FhirLocalState) => void;
}

export interface FhirLocal {
  url: string;
  port: number;
  state: FhirLocalState;
  close(): Promise<void>;
}

const FHIR_JSON = 'application/fhir+json';
const MAX_BODY_BYTES = 20 * 1024 * 1024;
export const IDEMPOTENCY_SYSTEM = 'urn:crisis:idempotency';
export const MRN_SYSTEM = 'urn:oid:1.2.840.114350.1.13.0.1.7.5.737384.14';
/** A client assertion may live at most this long (SMART Backend Services: 5 minutes). */
const MAX_ASSERTION_SECONDS = 300;
const CLOCK_SKEW_SECONDS = 60;

class FhirHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(`HTTP ${status}`);
  }
}

export function operationOutcome(code: string, diagnostics: string, severity: 'error' | 'fatal' | 'information' = 'error') {
  return { resourceType: 'OperationOutcome', issue: [{ severity, code, diagnostics }] };
}
const fhirError = (status: number, code: string, diagnostics: string) => new FhirHttpError(status, operationOutcome(code, diagnostics));

/** The demo world: patients with MRNs and encounters, coverages, payers and plans (see seed/src/cases.ts for the demo patients' ids). */
export function seedResources(): Record<string, FhirResource[]> {
  const org = (id: string, name: string, address: { line: string; city: string; state: string; postalCode: string }[]): FhirResource => ({
    resourceType: 'Organization',
    id,
    active: true,
    type: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/organization-type', code: 'pay', display: 'Payer' }] }],
    name,
    address: address.map((a) => ({ use: 'work', line: [a.line], city: a.city, state: a.state, postalCode: a.postalCode })),
  });
  const organizations = [
    org('org-sunshine', 'Sunshine Health', [
      { line: '1301 International Pkwy', city: 'Sunrise', state: 'FL', postalCode: '33323' },
      { line: 'PO Box 459089', city: 'Sunrise', state: 'FL', postalCode: '33345' },
      { line: '400 N Tampa St', city: 'Tampa', state: 'FL', postalCode: '33602' },
    ]),
    org('org-florida-blue', 'Florida Blue', [
      { line: '4800 Deerwood Campus Pkwy', city: 'Jacksonville', state: 'FL', postalCode: '32246' },
      { line: 'PO Box 1798', city: 'Jacksonville', state: 'FL', postalCode: '32231' },
    ]),
    org('org-aetna', 'Aetna Better Health of Florida', [{ line: '9675 NW 117th Ave', city: 'Miami', state: 'FL', postalCode: '33178' }]),
  ];
  const patient = (id: string, mrn: string, given: string, family: string, birthDate: string, gender: string, city: string, zip: string, department = '101'): FhirResource => ({
    resourceType: 'Patient',
    id,
    identifier: [
      { use: 'usual', type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'MR' }] }, system: MRN_SYSTEM, value: mrn },
      { system: 'urn:crisis:ehr-department', value: department },
    ],
    active: true,
    name: [{ use: 'official', family, given: [given] }],
    telecom: [{ system: 'phone', value: '(813) 555-1234', use: 'home' }],
    gender,
    birthDate,
    address: [{ use: 'home', line: ['100 Main St', 'Apt 4'], city, state: 'FL', postalCode: zip }],
  });
  // Tampa Bay General's demo patients (seed/src/cases.ts numbers their EHR ids E100000…), and two
  // patients only the EHR knows (case creation from a new MRN).
  const patients = [
    patient('pat-maria', 'E100000', 'Maria', 'Lopez', '1988-04-12', 'female', 'Tampa', '33606'),
    patient('pat-james', 'E100001', 'James', 'Carter', '1975-09-30', 'male', 'Tampa', '33607'),
    patient('pat-emily', 'E100004', 'Emily', 'Brooks', '2008-11-17', 'female', 'Tampa', '33609'),
    patient('pat-daniel', 'E100005', 'Daniel', 'Reyes', '1983-02-14', 'male', 'Tampa', '33610'),
    patient('pat-thomas', 'E100007', 'Thomas', 'Hale', '1991-03-28', 'male', 'Tampa', '33606'),
    patient('pat-jordan', 'E1001', 'Jordan', 'Rivera', '1990-06-15', 'other', 'Tampa', '33602'),
    patient('pat-casey', 'E1002', 'Casey', 'Morgan', '1979-12-02', 'female', 'St. Petersburg', '33701'),
  ];
  const encounter = (id: string, patientId: string, hoursAgo: number, status = 'in-progress'): FhirResource => ({
    resourceType: 'Encounter',
    id,
    identifier: [{ system: 'urn:crisis:encounter', value: id }],
    status,
    class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'EMER', display: 'emergency' },
    subject: { reference: `Patient/${patientId}` },
    period: { start: new Date(Date.now() - hoursAgo * 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z') },
  });
  const encounters = [
    encounter('E100000-E1', 'pat-maria', 1),
    encounter('E100001-E1', 'pat-james', 2),
    encounter('E100004-E1', 'pat-emily', 7),
    encounter('E100005-E1', 'pat-daniel', 10),
    encounter('E100007-E1', 'pat-thomas', 72, 'finished'),
    encounter('ENC-1001', 'pat-jordan', 1),
    encounter('ENC-2002', 'pat-casey', 3),
  ];
  const coverage = (id: string, patientId: string, payor: string, plan: string, memberId: string, packageId: string): FhirResource => ({
    resourceType: 'Coverage',
    id,
    status: 'active',
    subscriberId: memberId,
    beneficiary: { reference: `Patient/${patientId}` },
    relationship: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/subscriber-relationship', code: 'self' }] },
    payor: [{ reference: `Organization/${payor}` }],
    class: [
      { type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/coverage-class', code: 'plan' }] }, value: packageId, name: plan },
    ],
  });
  const coverages = [
    coverage('cov-jordan-1', 'pat-jordan', 'org-sunshine', 'Sunshine Health Medicaid', 'SH123456789', '1001'),
    coverage('cov-jordan-2', 'pat-jordan', 'org-florida-blue', 'BlueOptions PPO', 'FB987654321', '2002'),
    coverage('cov-maria-1', 'pat-maria', 'org-aetna', 'Aetna Better Health Medicaid', 'AE555000111', '3003'),
  ];
  const plan = (id: string, name: string, owner: string, packageId: string): FhirResource => ({
    resourceType: 'InsurancePlan',
    id,
    identifier: [{ system: 'urn:athena:insurancepackageid', value: packageId }],
    status: 'active',
    name,
    ownedBy: { reference: `Organization/${owner}` },
    administeredBy: { reference: `Organization/${owner}` },
  });
  const plans = [
    plan('plan-sunshine-medicaid', 'Sunshine Health Medicaid', 'org-sunshine', '1001'),
    plan('plan-sunshine-ambetter', 'Ambetter from Sunshine Health', 'org-sunshine', '1004'),
    plan('plan-blueoptions', 'BlueOptions PPO', 'org-florida-blue', '2002'),
    plan('plan-aetna-medicaid', 'Aetna Better Health Medicaid', 'org-aetna', '3003'),
  ];
  return {
    Patient: patients,
    Encounter: encounters,
    Organization: organizations,
    Coverage: coverages,
    InsurancePlan: plans,
    DocumentReference: [],
    Claim: [],
  };
}

const SEARCHABLE = new Set(['Patient', 'Coverage', 'InsurancePlan', 'DocumentReference', 'Claim']);
const READABLE = new Set(['Encounter', 'Organization', 'Patient', 'DocumentReference', 'Claim']);
const CREATABLE = new Set(['DocumentReference', 'Claim']);

const refId = (ref: unknown): string | null => {
  const r = (ref as { reference?: string } | undefined)?.reference;
  return typeof r === 'string' ? (r.split('/').pop() ?? null) : null;
};

/** `system|value`, `|value` or `value` against a resource's identifiers. */
function hasIdentifier(resource: FhirResource, token: string): boolean {
  const ids = (resource.identifier as { system?: string; value?: string }[] | undefined) ?? [];
  const bar = token.indexOf('|');
  const system = bar >= 0 ? token.slice(0, bar) : null;
  const value = bar >= 0 ? token.slice(bar + 1) : token;
  return ids.some((i) => i.value === value && (system === null || system === '' || i.system === system));
}

function bundle(matches: FhirResource[], included: FhirResource[], selfUrl: string) {
  return {
    resourceType: 'Bundle',
    id: randomUUID(),
    type: 'searchset',
    total: matches.length,
    link: [{ relation: 'self', url: selfUrl }],
    entry: [
      ...matches.map((r) => ({ fullUrl: `${r.resourceType}/${r.id}`, resource: r, search: { mode: 'match' } })),
      ...included.map((r) => ({ fullUrl: `${r.resourceType}/${r.id}`, resource: r, search: { mode: 'include' } })),
    ],
  };
}

export function capabilityStatement(baseUrl: string) {
  const type = (t: string, interactions: string[], searchParam: string[] = []) => ({
    type: t,
    interaction: interactions.map((code) => ({ code })),
    ...(searchParam.length ? { searchParam: searchParam.map((name) => ({ name, type: 'token' })) } : {}),
    ...(t === 'DocumentReference' || t === 'Claim' ? { conditionalCreate: true } : {}),
  });
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: '2026-11-27',
    kind: 'instance',
    software: { name: 'crisis fhir-local', version: '1.0' },
    implementation: { description: 'Local FHIR R4 server for development and tests', url: baseUrl },
    fhirVersion: '4.0.1',
    format: ['json'],
    rest: [
      {
        mode: 'server',
        security: {
          service: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/restful-security-service', code: 'SMART-on-FHIR' }] }],
          extension: [
            {
              url: 'http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris',
              extension: [{ url: 'token', valueUri: `${baseUrl}/oauth2/token` }],
            },
          ],
        },
        resource: [
          type('Patient', ['read', 'search-type'], ['identifier', 'ah-department']),
          type('Encounter', ['read']),
          type('Coverage', ['search-type'], ['patient']),
          type('Organization', ['read']),
          type('InsurancePlan', ['search-type'], ['name']),
          type('DocumentReference', ['create', 'read', 'search-type'], ['patient', 'encounter', 'identifier']),
          type('Claim', ['create', 'read', 'search-type'], ['patient', 'encounter', 'identifier']),
        ],
      },
    ],
  };
}

export async function createFhirLocal(o: FhirLocalOptions = {}): Promise<FhirLocal> {
  const seeded = seedResources();
  const resources: Record<string, FhirResource[]> = { ...seeded };
  // Created resources (and only those) come back from the state file: the seed is always today's.
  for (const type of CREATABLE) if (o.initialState?.resources?.[type]) resources[type] = o.initialState.resources[type].slice(-FHIR_LOCAL_KEPT);
  const clients = new Map<string, RegisteredClient>();
  for (const c of o.initialState?.clients ?? []) clients.set(c.clientId, c);
  // The demo facility's client is always there (demo-client.ts), whatever the state file says.
  clients.set(DEMO_CLIENT_ID, { clientId: DEMO_CLIENT_ID, jwks: DEMO_PUBLIC_JWKS as JSONWebKeySet });

  const state: FhirLocalState = {
    resources,
    get clients() {
      return [...clients.values()];
    },
    faults: {},
    tokens: new Map(),
    usedJti: new Map(),
    stats: { tokenRequests: 0, tokensIssued: 0, tokensRefused: 0, fhirRequests: 0, unauthorized: 0 },
    tokenSeconds: o.tokenSeconds ?? 300,
  } as FhirLocalState;
  const changed = () => o.onChange?.(state);
  let baseUrl = '';

  /** Throws the fault configured for `key` (and counts it down), if any. */
  const maybeFault = (key: string) => {
    const f = state.faults[key];
    if (!f || f.times <= 0) return;
    f.times -= 1;
    if (f.times <= 0) delete state.faults[key];
    const headers: Record<string, string> = f.status === 429 ? { 'retry-after': '1' } : {};
    throw new FhirHttpError(f.status, operationOutcome(f.status >= 500 ? 'transient' : 'processing', `Injected fault (${key})`), headers);
  };

  async function token(req: http.IncomingMessage, body: string) {
    state.stats.tokenRequests += 1;
    const refuse = (error: string, description: string, status = 400): never => {
      state.stats.tokensRefused += 1;
      throw new FhirHttpError(status, { error, error_description: description });
    };
    maybeFault('token');
    const form = new URLSearchParams(body);
    if (form.get('grant_type') !== 'client_credentials') refuse('unsupported_grant_type', 'grant_type must be client_credentials');
    if (form.get('client_assertion_type') !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer')
      refuse('invalid_request', 'client_assertion_type must be urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
    const assertion = form.get('client_assertion') ?? '';
    let claims: ReturnType<typeof decodeJwt>;
    try {
      claims = decodeJwt(assertion);
    } catch {
      return refuse('invalid_client', 'The client assertion is not a JWT');
    }
    const clientId = typeof claims.iss === 'string' ? claims.iss : '';
    const client = clients.get(clientId);
    if (!client) return refuse('invalid_client', `Unknown client ${clientId || '(no iss)'}: register its JWKS first`);
    const expectedAud = [`${baseUrl}/oauth2/token`, `http://${req.headers.host}/oauth2/token`];
    let payload;
    try {
      ({ payload } = await jwtVerify(assertion, createLocalJWKSet(client.jwks), {
        algorithms: ['RS384'],
        issuer: clientId,
        subject: clientId,
        audience: expectedAud,
        clockTolerance: CLOCK_SKEW_SECONDS,
        requiredClaims: ['exp', 'jti'],
      }));
    } catch (e) {
      const code = (e as { code?: string }).code ?? '';
      if (code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' || code === 'ERR_JWKS_NO_MATCHING_KEY' || code === 'ERR_JWKS_MULTIPLE_MATCHING_KEYS')
        return refuse('invalid_client', `The client assertion's signature does not match any public key registered for client ${clientId}`);
      return refuse('invalid_client', `The client assertion was refused: ${(e as Error).message}`);
    }
    const now = Math.floor(Date.now() / 1000);
    if ((payload.exp ?? 0) > now + MAX_ASSERTION_SECONDS + CLOCK_SKEW_SECONDS) refuse('invalid_client', 'The client assertion expires more than 5 minutes from now');
    const jti = String(payload.jti);
    for (const [j, exp] of state.usedJti) if (exp < now - CLOCK_SKEW_SECONDS) state.usedJti.delete(j);
    if (state.usedJti.has(`${clientId} ${jti}`)) refuse('invalid_client', 'The client assertion was already used (jti replayed)');
    state.usedJti.set(`${clientId} ${jti}`, payload.exp ?? now);
    const scope = form.get('scope') ?? '';
    const accessToken = randomBytes(24).toString('base64url');
    state.tokens.set(accessToken, { clientId, scope, expiresAt: Date.now() + state.tokenSeconds * 1000 });
    state.stats.tokensIssued += 1;
    return { status: 200, contentType: 'application/json', body: { access_token: accessToken, token_type: 'bearer', expires_in: state.tokenSeconds, scope } };
  }

  const requireToken = (req: http.IncomingMessage) => {
    const auth = req.headers.authorization ?? '';
    const m = /^Bearer\s+(\S+)$/i.exec(auth);
    const t = m ? state.tokens.get(m[1]) : undefined;
    if (!t || t.expiresAt <= Date.now()) {
      if (t) state.tokens.delete(m![1]);
      state.stats.unauthorized += 1;
      throw new FhirHttpError(401, operationOutcome('login', m ? 'The access token is unknown or expired' : 'A bearer token is required'), {
        'www-authenticate': 'Bearer error="invalid_token"',
      });
    }
  };

  const all = (type: string) => (resources[type] ??= []);
  const byId = (type: string, id: string) => all(type).find((r) => r.id === id);

  function search(type: string, q: URLSearchParams, selfUrl: string) {
    maybeFault(`${type}.search`);
    let matches = [...all(type)];
    const included: FhirResource[] = [];
    const include = (refs: (string | null)[]) => {
      for (const id of refs) {
        const org = id ? byId('Organization', id) : undefined;
        if (org && !included.includes(org)) included.push(org);
      }
    };
    for (const [name, value] of q) {
      if (name === '_include' || name === '_count' || name === '_format') continue;
      if (name === 'identifier') matches = matches.filter((r) => hasIdentifier(r, value));
      else if (type === 'Patient' && name === 'ah-department') matches = matches.filter((r) => hasIdentifier(r, `urn:crisis:ehr-department|${value}`));
      else if (name === 'patient')
        matches = matches.filter((r) => [r.patient, r.beneficiary, r.subject].some((ref) => refId(ref) === value.split('/').pop()));
      else if (name === 'encounter')
        matches = matches.filter((r) => {
          const ctx = r.context as { encounter?: unknown[] } | undefined;
          const refs = [...(ctx?.encounter ?? []), ...((r.item as { encounter?: unknown[] }[] | undefined)?.flatMap((i) => i.encounter ?? []) ?? [])];
          return refs.some((ref) => refId(ref) === value.split('/').pop());
        });
      else if (name === 'name:contains') matches = matches.filter((r) => String(r.name ?? '').toLowerCase().includes(value.toLowerCase()));
      else if (name === 'name') matches = matches.filter((r) => String(r.name ?? '').toLowerCase().startsWith(value.toLowerCase()));
      else throw fhirError(400, 'not-supported', `Search parameter ${name} is not supported on ${type}`);
    }
    for (const inc of q.getAll('_include')) {
      if (inc === 'Coverage:payor' && type === 'Coverage') include(matches.flatMap((r) => ((r.payor as unknown[]) ?? []).map(refId)));
      else if (inc === 'InsurancePlan:owned-by' && type === 'InsurancePlan') include(matches.map((r) => refId(r.ownedBy)));
      else throw fhirError(400, 'not-supported', `_include=${inc} is not supported on ${type}`);
    }
    return bundle(matches, included, selfUrl);
  }

  function create(type: string, resource: FhirResource, ifNoneExist: string | undefined) {
    maybeFault(`${type}.create`);
    if (!resource || typeof resource !== 'object' || resource.resourceType !== type)
      throw fhirError(400, 'invalid', `The body must be a ${type} resource`);
    const problems = validateCreated(type, resource);
    if (problems.length) throw fhirError(422, 'required', problems.join('; '));
    if (ifNoneExist) {
      const q = new URLSearchParams(ifNoneExist);
      const identifier = q.get('identifier');
      if (!identifier || [...q.keys()].some((k) => k !== 'identifier'))
        throw fhirError(400, 'not-supported', 'If-None-Exist supports identifier=system|value only');
      const existing = all(type).filter((r) => hasIdentifier(r, identifier));
      if (existing.length > 1) throw fhirError(412, 'duplicate', `More than one ${type} matches ${ifNoneExist}`);
      if (existing.length === 1) return { status: 200, resource: existing[0], created: false };
    }
    const stored = { ...resource, id: randomUUID(), meta: { versionId: '1', lastUpdated: new Date().toISOString() } } as FhirResource;
    all(type).push(stored);
    keepNewest(all(type));
    changed();
    return { status: 201, resource: stored, created: true };
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', baseUrl);
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const method = req.method ?? 'GET';
    const body = method === 'POST' || method === 'PUT' ? await readBody(req) : '';
    const json = () => {
      if (!body) return {};
      try {
        return JSON.parse(body) as Record<string, unknown>;
      } catch {
        throw fhirError(400, 'invalid', 'The body is not JSON');
      }
    };

    // ---- control API
    if (path.startsWith('/local/')) {
      if (path === '/local/faults' && method === 'GET') return send(res, 200, state.faults, 'application/json');
      if (path === '/local/faults' && method === 'POST') {
        const next: Record<string, Fault> = {};
        for (const [k, v] of Object.entries(json())) {
          const f = v as Partial<Fault> | null;
          if (f && Number.isInteger(f.status) && (f.times ?? 1) > 0) next[k] = { status: Number(f.status), times: Number(f.times ?? 1) };
        }
        state.faults = next;
        return send(res, 200, state.faults, 'application/json');
      }
      if (path === '/local/clients' && method === 'GET') return send(res, 200, [...clients.values()], 'application/json');
      if (path === '/local/clients' && method === 'POST') {
        const b = json() as { clientId?: unknown; jwks?: { keys?: unknown } };
        if (typeof b.clientId !== 'string' || !b.clientId || !b.jwks || !Array.isArray(b.jwks.keys))
          return send(res, 400, { error: 'clientId (string) and jwks ({ keys: [...] }) are required' }, 'application/json');
        const publicOnly = (b.jwks.keys as Record<string, unknown>[]).every((k) => k && typeof k === 'object' && !('d' in k));
        if (!publicOnly) return send(res, 400, { error: 'register the PUBLIC keys only (a JWKS without private parts)' }, 'application/json');
        clients.set(b.clientId, { clientId: b.clientId, jwks: b.jwks as JSONWebKeySet });
        changed();
        return send(res, 201, clients.get(b.clientId), 'application/json');
      }
      const typeMatch = /^\/local\/resources\/([A-Za-z]+)$/.exec(path);
      if (typeMatch && method === 'GET') return send(res, 200, all(typeMatch[1]), 'application/json');
      if (path === '/local/stats' && method === 'GET') return send(res, 200, { ...state.stats, activeTokens: state.tokens.size, tokenSeconds: state.tokenSeconds }, 'application/json');
      if (path === '/local/reset-tokens' && method === 'POST') {
        state.tokens.clear();
        return send(res, 200, { ok: true }, 'application/json');
      }
      if (path === '/local/settings' && method === 'POST') {
        const b = json() as { tokenSeconds?: unknown };
        if (b.tokenSeconds !== undefined) {
          if (!(typeof b.tokenSeconds === 'number' && b.tokenSeconds > 0)) return send(res, 400, { error: 'tokenSeconds must be a positive number' }, 'application/json');
          state.tokenSeconds = b.tokenSeconds;
        }
        return send(res, 200, { tokenSeconds: state.tokenSeconds }, 'application/json');
      }
      return send(res, 404, { error: `no control route ${method} ${path}` }, 'application/json');
    }

    // ---- SMART
    if (path === '/.well-known/smart-configuration' && method === 'GET')
      return send(res, 200, {
        token_endpoint: `${baseUrl}/oauth2/token`,
        token_endpoint_auth_methods_supported: ['private_key_jwt'],
        token_endpoint_auth_signing_alg_values_supported: ['RS384'],
        grant_types_supported: ['client_credentials'],
        scopes_supported: ['system/*.read', 'system/*.write'],
        capabilities: ['client-confidential-asymmetric'],
      }, 'application/json');
    if (path === '/oauth2/token') {
      if (method !== 'POST') throw fhirError(405, 'not-supported', 'POST the token request');
      const r = await token(req, body);
      return send(res, r.status, r.body, r.contentType, { 'cache-control': 'no-store' });
    }

    // ---- FHIR
    state.stats.fhirRequests += 1;
    if (path === '/metadata' && method === 'GET') {
      maybeFault('metadata');
      return send(res, 200, capabilityStatement(baseUrl));
    }
    requireToken(req);
    const parts = path.split('/').filter(Boolean);
    const [type, id] = parts;
    if (parts.length === 1 && method === 'GET' && SEARCHABLE.has(type)) return send(res, 200, search(type, url.searchParams, url.toString()));
    if (parts.length === 2 && method === 'GET' && READABLE.has(type)) {
      maybeFault(`${type}.read`);
      const found = byId(type, decodeURIComponent(id));
      if (!found) throw fhirError(404, 'not-found', `${type}/${id} is not known`);
      return send(res, 200, found);
    }
    if (parts.length === 1 && method === 'POST' && CREATABLE.has(type)) {
      const ifNoneExist = req.headers['if-none-exist'];
      const r = create(type, json() as FhirResource, Array.isArray(ifNoneExist) ? ifNoneExist[0] : ifNoneExist);
      return send(res, r.status, r.resource, FHIR_JSON, r.created ? { location: `${baseUrl}/${type}/${r.resource.id}/_history/1` } : {});
    }
    throw fhirError(404, 'not-supported', `${method} ${path} is not supported by this server`);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (e instanceof FhirHttpError) {
        const isOAuth = !!(e.body && typeof e.body === 'object' && 'error' in (e.body as object));
        return send(res, e.status, e.body, isOAuth ? 'application/json' : FHIR_JSON, e.headers);
      }
      send(res, 500, operationOutcome('exception', (e as Error).message ?? 'internal error'));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, o.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  baseUrl = `http://${o.host ?? '127.0.0.1'}:${port}`;
  return {
    url: baseUrl,
    port,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections?.();
      }),
  };
}

/** What a created DocumentReference or Claim must carry for this server to accept it. */
function validateCreated(type: string, r: FhirResource): string[] {
  const problems: string[] = [];
  if (type === 'DocumentReference') {
    if (!r.status) problems.push('DocumentReference.status is required');
    if (!refId(r.subject)) problems.push('DocumentReference.subject is required');
    const content = r.content as { attachment?: { contentType?: string; data?: string } }[] | undefined;
    if (!content?.[0]?.attachment?.contentType) problems.push('DocumentReference.content[0].attachment.contentType is required');
  }
  if (type === 'Claim') {
    for (const field of ['status', 'use', 'patient', 'created', 'provider', 'priority']) if (!r[field]) problems.push(`Claim.${field} is required`);
    if (!Array.isArray(r.item) || !r.item.length) problems.push('Claim.item is required');
  }
  return problems;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        reject(fhirError(413, 'too-costly', 'The body is too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: http.ServerResponse, status: number, body: unknown, contentType = FHIR_JSON, headers: Record<string, string> = {}) {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': `${contentType}; charset=utf-8`, ...headers });
  res.end(JSON.stringify(body));
}
