import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { SignJWT, importPKCS8 } from 'jose';
import type { Client as FhirClient } from 'fhir-kit-client';
import {
  EhrError,
  type EhrAddress,
  type EhrClaim,
  type EhrConnection,
  type EhrCoverage,
  type EhrDocument,
  type EhrEncounter,
  type EhrPatient,
  type EhrPlan,
  type EhrPort,
} from './ehr.port';

/** fhir-kit-client 2.x is ESM-only: a real dynamic import() (not rewritten to require by tsc). */
const load = new Function('m', 'return import(m)') as (m: string) => Promise<typeof import('fhir-kit-client')>;
let fhirKit: Promise<typeof import('fhir-kit-client')> | undefined;

/** The identifier system carried by every resource the product creates (conditional create). */
export const IDEMPOTENCY_SYSTEM = 'urn:crisis:idempotency';
/** SMART system scopes the product's features need (README "EHR (FHIR R4)"). */
export const EHR_SCOPES = [
  'system/Patient.read',
  'system/Encounter.read',
  'system/Coverage.read',
  'system/Organization.read',
  'system/InsurancePlan.read',
  'system/DocumentReference.write',
  'system/DocumentReference.read',
  'system/Claim.write',
  'system/Claim.read',
].join(' ');
/** Tokens are renewed this long before the EHR says they expire (at most half their lifetime). */
const TOKEN_MARGIN_SECONDS = 60;
const REQUEST_TIMEOUT_MS = 20_000;

interface CachedToken {
  accessToken: string;
  /** epoch ms after which a new token is fetched */
  renewAt: number;
}

type Bundle = fhir4.Bundle;
type FhirFailure = Error & { response?: { status?: number; data?: unknown } };

/**
 * The one adapter of the EHR port: FHIR R4 over fhir-kit-client, authorised with SMART Backend
 * Services (a JWT client assertion signed with the facility's RS384 key, exchanged for a bearer
 * token that is cached per facility, client and key until shortly before it expires).
 */
@Injectable()
export class FhirEhrAdapter implements EhrPort {
  private readonly tokens = new Map<string, CachedToken>();
  /** Token requests in flight, so that parallel calls of one facility share one request. */
  private readonly pendingTokens = new Map<string, Promise<CachedToken>>();

  async testConnection(conn: EhrConnection): Promise<{ fhirVersion: string; software: string | null }> {
    this.check(conn);
    // A fresh token proves the key, whatever is cached.
    this.tokens.delete(this.tokenKey(conn));
    const cs = (await this.call(conn, 'read the CapabilityStatement', (c) => c.capabilityStatement())) as unknown as fhir4.CapabilityStatement;
    if (cs?.resourceType !== 'CapabilityStatement') throw new EhrError('unavailable', `The server at ${conn.baseUrl} did not answer /metadata with a CapabilityStatement`);
    const software = cs.software ? [cs.software.name, cs.software.version].filter(Boolean).join(' ') : null;
    return { fhirVersion: cs.fhirVersion ?? 'unknown', software: software || null };
  }

  async findPatient(conn: EhrConnection, patientId: string, o: { withInsurances?: boolean } = {}): Promise<EhrPatient | null> {
    this.check(conn);
    const searchParams: Record<string, string> = { identifier: patientId };
    if (conn.dialect === 'athena') {
      if (!conn.departmentId) throw new EhrError('misconfigured', 'athenahealth needs the facility\'s EHR department id (ah-department)');
      searchParams['ah-department'] = conn.departmentId;
    }
    const bundle = (await this.call(conn, 'search patients', (c) => c.search({ resourceType: 'Patient', searchParams }))) as unknown as Bundle;
    const patient = matches<fhir4.Patient>(bundle, 'Patient')[0];
    if (!patient?.id) return null;
    const found = toEhrPatient(patient, patientId);
    if (o.withInsurances) found.insurances = await this.coverages(conn, patient.id);
    return found;
  }

  async readEncounter(conn: EhrConnection, encounterId: string): Promise<EhrEncounter | null> {
    this.check(conn);
    try {
      const e = (await this.call(conn, 'read the encounter', (c) => c.read({ resourceType: 'Encounter', id: encounterId }))) as unknown as fhir4.Encounter;
      return {
        fhirId: e.id ?? encounterId,
        patientFhirId: refId(e.subject?.reference) ?? '',
        status: e.status,
        start: e.period?.start ?? null,
      };
    } catch (err) {
      if (err instanceof EhrError && (err.status === 404 || err.status === 410)) return null;
      throw err;
    }
  }

  async searchPlans(conn: EhrConnection, planName: string): Promise<EhrPlan[]> {
    this.check(conn);
    const bundle = (await this.call(conn, 'search insurance plans', (c) =>
      c.search({ resourceType: 'InsurancePlan', searchParams: { 'name:contains': planName, _include: 'InsurancePlan:owned-by' } }),
    )) as unknown as Bundle;
    const orgs = included<fhir4.Organization>(bundle, 'Organization');
    return matches<fhir4.InsurancePlan>(bundle, 'InsurancePlan').map((p) => {
      const owners = [p.ownedBy, p.administeredBy].map((r) => orgs.get(refId(r?.reference) ?? '')).filter((o): o is fhir4.Organization => !!o);
      const unique = [...new Set(owners)];
      const addresses = [
        ...unique.flatMap((o) => o.address ?? []),
        ...unique.flatMap((o) => (o.contact ?? []).map((c) => c.address).filter((a): a is fhir4.Address => !!a)),
        ...(p.contact ?? []).map((c) => c.address).filter((a): a is fhir4.Address => !!a),
      ];
      return {
        insurancePackageId: p.identifier?.[0]?.value ?? p.id ?? '',
        insurancePlanName: p.name ?? '',
        affiliations: unique.map((o) => o.name).filter((n): n is string => !!n),
        addressList: [...new Set(addresses.map(formatAddress).filter((a) => a.length > 0))],
      };
    });
  }

  async uploadDocument(conn: EhrConnection, doc: EhrDocument): Promise<{ id: string }> {
    this.check(conn);
    const resource: fhir4.DocumentReference = {
      resourceType: 'DocumentReference',
      identifier: [{ system: IDEMPOTENCY_SYSTEM, value: doc.idempotencyKey }],
      status: 'current',
      docStatus: 'final',
      type: { coding: [{ system: 'http://loinc.org', code: '11488-4', display: 'Consult note' }], text: doc.title },
      subject: { reference: `Patient/${doc.patientFhirId}` },
      date: doc.date,
      description: doc.title,
      content: [{ attachment: { contentType: doc.contentType, data: doc.content.toString('base64'), title: doc.title, creation: doc.date } }],
      context: { encounter: [{ reference: `Encounter/${doc.encounterFhirId}` }] },
    };
    return this.conditionalCreate(conn, 'DocumentReference', resource, doc.idempotencyKey);
  }

  async createClaim(conn: EhrConnection, claim: EhrClaim): Promise<{ id: string }> {
    this.check(conn);
    const encounter = { reference: `Encounter/${claim.encounterFhirId}` };
    const resource: fhir4.Claim = {
      resourceType: 'Claim',
      identifier: [{ system: IDEMPOTENCY_SYSTEM, value: claim.idempotencyKey }],
      status: 'active',
      type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/claim-type', code: 'professional' }] },
      use: 'claim',
      patient: { reference: `Patient/${claim.patientFhirId}` },
      created: new Date().toISOString(),
      billablePeriod: { start: claim.serviceDate, end: claim.serviceDate },
      provider: claim.providerNpi
        ? { identifier: { system: 'http://hl7.org/fhir/sid/us-npi', value: claim.providerNpi } }
        : { display: 'Integrated telehealth partner' },
      priority: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/processpriority', code: 'normal' }] },
      insurance: [{ sequence: 1, focal: true, coverage: { display: 'Coverage on file' } }],
      diagnosis: claim.diagnosisCodes.map((code, i) => ({
        sequence: i + 1,
        diagnosisCodeableConcept: { coding: [{ system: 'http://hl7.org/fhir/sid/icd-10-cm', code }] },
        type: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/ex-diagnosistype', code: i === 0 ? 'principal' : 'secondary' }] }],
      })),
      item: [
        {
          sequence: 1,
          diagnosisSequence: claim.diagnosisCodes.map((_, i) => i + 1),
          productOrService: { coding: [{ system: 'http://www.ama-assn.org/go/cpt', code: claim.serviceCode }] },
          servicedDate: claim.serviceDate,
          encounter: [encounter],
        },
      ],
    };
    return this.conditionalCreate(conn, 'Claim', resource, claim.idempotencyKey);
  }

  // ---------------------------------------------------------------- internals

  private async coverages(conn: EhrConnection, patientFhirId: string): Promise<EhrCoverage[]> {
    const bundle = (await this.call(conn, 'search coverages', (c) =>
      c.search({ resourceType: 'Coverage', searchParams: { patient: patientFhirId, _include: 'Coverage:payor' } }),
    )) as unknown as Bundle;
    const orgs = included<fhir4.Organization>(bundle, 'Organization');
    return matches<fhir4.Coverage>(bundle, 'Coverage').map((cov) => {
      const payer = cov.payor?.map((r) => orgs.get(refId(r.reference) ?? '')?.name ?? r.display).find(Boolean) ?? null;
      const plan = cov.class?.find((k) => k.type?.coding?.some((c) => c.code === 'plan'));
      return {
        payerName: payer ?? null,
        planName: plan?.name ?? null,
        memberId: cov.subscriberId ?? cov.identifier?.[0]?.value ?? null,
        planPackageId: plan?.value ?? null,
      };
    });
  }

  /** FHIR conditional create: the identifier makes a retried create answer the first resource. */
  private async conditionalCreate(conn: EhrConnection, resourceType: 'DocumentReference' | 'Claim', body: fhir4.DocumentReference | fhir4.Claim, key: string) {
    if (!key) throw new EhrError('misconfigured', `A ${resourceType} needs an idempotency key`);
    const created = (await this.call(conn, `create the ${resourceType}`, (c) =>
      c.create({
        resourceType,
        body: body as unknown as import('fhir-kit-client').FhirResource,
        options: { headers: { 'If-None-Exist': `identifier=${IDEMPOTENCY_SYSTEM}|${key}` } },
      }),
    )) as unknown as { id?: string };
    if (!created?.id) throw new EhrError('rejected', `The EHR accepted the ${resourceType} but did not return its id`);
    return { id: created.id };
  }

  private check(conn: EhrConnection) {
    const missing = (['baseUrl', 'tokenUrl', 'clientId', 'keyId', 'privateKeyPem'] as const).filter((k) => !conn[k]);
    if (missing.length) throw new EhrError('misconfigured', `The facility's EHR connection is incomplete: ${missing.join(', ')} missing`);
  }

  private tokenKey(conn: EhrConnection) {
    return `${conn.facilityId} ${conn.clientId} ${conn.keyId} ${conn.tokenUrl}`;
  }

  /**
   * Runs one FHIR interaction with a bearer token; on a 401 the token is dropped and the call
   * retried once with a new one. Failures become EhrError.
   */
  private async call<T>(conn: EhrConnection, what: string, fn: (client: FhirClient) => Promise<T>): Promise<T> {
    const { Client } = await (fhirKit ??= load('fhir-kit-client'));
    for (let attempt = 0; ; attempt++) {
      const token = await this.token(conn);
      const client = new Client({ baseUrl: conn.baseUrl, bearerToken: token.accessToken, customHeaders: { Accept: 'application/fhir+json' } });
      try {
        return await withTimeout(fn(client), `${what} at ${conn.baseUrl}`);
      } catch (err) {
        const status = (err as FhirFailure).response?.status;
        if (status === 401 && attempt === 0) {
          this.tokens.delete(this.tokenKey(conn));
          continue;
        }
        throw toEhrError(err, what, conn);
      }
    }
  }

  private async token(conn: EhrConnection): Promise<CachedToken> {
    const key = this.tokenKey(conn);
    const cached = this.tokens.get(key);
    if (cached && cached.renewAt > Date.now()) return cached;
    let pending = this.pendingTokens.get(key);
    if (!pending) {
      pending = this.requestToken(conn).finally(() => this.pendingTokens.delete(key));
      this.pendingTokens.set(key, pending);
    }
    const fresh = await pending;
    this.tokens.set(key, fresh);
    return fresh;
  }

  private async requestToken(conn: EhrConnection): Promise<CachedToken> {
    let key: Awaited<ReturnType<typeof importPKCS8>>;
    try {
      key = await importPKCS8(conn.privateKeyPem, 'RS384');
    } catch {
      throw new EhrError('misconfigured', 'The stored private key is not a valid PKCS#8 RSA key: generate a new key');
    }
    const assertion = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS384', kid: conn.keyId, typ: 'JWT' })
      .setIssuer(conn.clientId)
      .setSubject(conn.clientId)
      .setAudience(conn.tokenUrl)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(key);
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: assertion,
      scope: EHR_SCOPES,
    });
    let res: Response;
    try {
      res = await fetch(conn.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form.toString(),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (err) {
      throw new EhrError('unavailable', `The EHR's token endpoint ${conn.tokenUrl} could not be reached (${(err as Error).message})`);
    }
    const text = await res.text();
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      /* not JSON */
    }
    if (res.status === 429 || res.status >= 500) throw new EhrError('unavailable', `The EHR's token endpoint answered ${res.status}: try again later`, res.status);
    if (!res.ok) {
      const description = typeof body.error_description === 'string' ? ` (${body.error_description})` : '';
      if (body.error === 'invalid_client' || res.status === 401)
        throw new EhrError(
          'unauthorized',
          `The EHR refused the client assertion: the key does not match the public key registered for client ${conn.clientId}` +
            ` (key id ${conn.keyId}), or the client id is not known to the EHR${description}`,
          res.status,
        );
      throw new EhrError('unauthorized', `The EHR refused the token request with ${res.status} ${String(body.error ?? '')}${description}`, res.status);
    }
    if (typeof body.access_token !== 'string') throw new EhrError('unavailable', 'The EHR\'s token endpoint answered without an access_token');
    const expiresIn = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 300;
    const margin = Math.min(TOKEN_MARGIN_SECONDS, expiresIn / 2);
    return { accessToken: body.access_token, renewAt: Date.now() + (expiresIn - margin) * 1000 };
  }
}

// ---------------------------------------------------------------- mapping helpers

function withTimeout<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new EhrError('unavailable', `No answer within ${REQUEST_TIMEOUT_MS / 1000} s to ${what}`)), REQUEST_TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** The diagnostics of an OperationOutcome (or the raw text) of a failed FHIR call. */
function diagnostics(data: unknown): string {
  let body = data;
  if (typeof data === 'string') {
    try {
      body = JSON.parse(data);
    } catch {
      return data.slice(0, 500);
    }
  }
  const oo = body as fhir4.OperationOutcome | undefined;
  if (oo?.resourceType === 'OperationOutcome')
    return (oo.issue ?? []).map((i) => i.diagnostics ?? i.details?.text ?? i.code).filter(Boolean).join('; ');
  return '';
}

function toEhrError(err: unknown, what: string, conn: EhrConnection): EhrError {
  if (err instanceof EhrError) return err;
  const failure = err as FhirFailure;
  const status = failure.response?.status;
  if (status === undefined) return new EhrError('unavailable', `The EHR at ${conn.baseUrl} could not be reached to ${what} (${failure.message})`);
  const detail = diagnostics(failure.response?.data);
  const suffix = detail ? `: ${detail}` : '';
  if (status === 429 || status >= 500) return new EhrError('unavailable', `The EHR answered ${status} to ${what}${suffix}`, status);
  if (status === 401 || status === 403)
    return new EhrError('unauthorized', `The EHR refused the access token to ${what} (${status}): check the scopes granted to client ${conn.clientId}${suffix}`, status);
  if (status === 404) return new EhrError('not-found', `The EHR has no such resource (${what})${suffix}`, status);
  return new EhrError('rejected', `The EHR refused to ${what} (${status})${suffix}`, status);
}

function matches<T extends fhir4.Resource>(bundle: Bundle | undefined, type: T['resourceType']): T[] {
  return (bundle?.entry ?? [])
    .filter((e) => e.resource?.resourceType === type && (e.search?.mode ?? 'match') === 'match')
    .map((e) => e.resource as T);
}

function included<T extends fhir4.Resource>(bundle: Bundle | undefined, type: T['resourceType']): Map<string, T> {
  const out = new Map<string, T>();
  for (const e of bundle?.entry ?? []) if (e.resource?.resourceType === type && e.resource.id) out.set(e.resource.id, e.resource as T);
  return out;
}

const refId = (ref: string | undefined): string | null => (ref ? (ref.split('/').filter(Boolean).pop() ?? null) : null);

/** "street, city, ST zip" (the payer search's address list). */
export function formatAddress(a: fhir4.Address): string {
  const street = (a.line ?? []).join(' ').trim();
  const cityPart = a.city?.trim() ?? '';
  const stateZip = [a.state, a.postalCode].filter(Boolean).join(' ');
  return [street, cityPart, stateZip].filter((s) => s.length > 0).join(', ');
}

const GENDERS: Record<string, EhrPatient['gender']> = { male: 'Male', female: 'Female', other: 'Other' };

export function toEhrPatient(p: fhir4.Patient, typedId: string): EhrPatient {
  const name = p.name?.find((n) => n.use === 'official') ?? p.name?.[0];
  const phone = p.telecom?.find((t) => t.system === 'phone' && t.value)?.value ?? null;
  const home = p.address?.find((a) => a.use === 'home') ?? p.address?.[0];
  const echoed = p.identifier?.find((i) => i.value === typedId)?.value ?? typedId;
  const address: EhrAddress | null = home
    ? {
        streetLine: home.line?.[0] ?? null,
        apartmentNumber: home.line && home.line.length > 1 ? home.line.slice(1).join(' ') : null,
        city: home.city ?? null,
        state: home.state ?? null,
        zipCode: home.postalCode ?? null,
      }
    : null;
  return {
    fhirId: p.id!,
    patientId: echoed,
    firstName: name?.given?.[0] ?? null,
    lastName: name?.family ?? null,
    dateOfBirth: p.birthDate ?? null,
    gender: p.gender ? (GENDERS[p.gender] ?? null) : null,
    phone,
    address,
  };
}
