import { execFileSync } from 'child_process';
import { join } from 'path';
import { ErrorCode, UserType } from '@crisis/forms';
import { api } from '../support/api';
import { db } from '../support/db';
import { signInAs } from '../support/oidc-client';

/**
 * The EHR core (issue 16): the FHIR R4 adapter against the real local FHIR server the test stack
 * starts (api/src/ehr/fhir-local, EHR_LOCAL_BASE_URL), through the API's routes — the facility's
 * EHR connection (key generation, test button), the case-creation look-ups (spec 01 §5, §8) and
 * the payer search — and, for the conditional creates no route of this part exposes yet, through
 * the compiled adapter run by plain Node.
 */
const EHR = process.env.EHR_LOCAL_BASE_URL!;
const ROOT = join(__dirname, '..', '..');
const TAMPA = 'Tampa Bay General Hospital';

const local = async <T = any>(method: string, path: string, body?: unknown): Promise<T> => {
  const res = await fetch(`${EHR}${path}`, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
};
const stats = () => local<{ tokenRequests: number; tokensIssued: number; tokensRefused: number; unauthorized: number }>('GET', '/local/stats');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let admin: string;
let facilityUser: string;
let groupUser: string;
let facilityAdmin: string;
let facilityId: number;
let erDivisionId: number;
let otherDivisionId: number;
let clientId: string;

const searchPatient = (patientId: string, o: { token?: string; divisionId?: number; needInsurances?: boolean } = {}) =>
  api('GET', `/api/cases/search-patient-in-ehr?divisionId=${o.divisionId ?? erDivisionId}&patientId=${encodeURIComponent(patientId)}${o.needInsurances ? '&needInsurances=true' : ''}`, {
    token: o.token ?? facilityUser,
  });
const validateEncounter = (patientId: string, encounterId: string, token = facilityUser) =>
  api('GET', `/api/cases/validate-patientencounter-identifierid/${erDivisionId}/${encodeURIComponent(patientId)}/${encodeURIComponent(encounterId)}`, { token });

/** Runs the compiled adapter (api/dist) in plain Node: fhir-kit-client is ESM-only, as in the worker. */
function adapter<T>(script: string): T {
  const code = `
    const { FhirEhrAdapter } = require(${JSON.stringify(join(ROOT, 'api/dist/ehr/fhir-ehr.adapter.js'))});
    const demo = require(${JSON.stringify(join(ROOT, 'api/dist/ehr/fhir-local/demo-client.js'))});
    const ehr = new FhirEhrAdapter();
    const conn = { facilityId: 1, dialect: 'epic', baseUrl: ${JSON.stringify(EHR)}, tokenUrl: ${JSON.stringify(`${EHR}/oauth2/token`)},
      clientId: demo.DEMO_CLIENT_ID, keyId: demo.DEMO_KEY_ID, privateKeyPem: demo.DEMO_PRIVATE_KEY_PEM, departmentId: '101' };
    const settle = (p) => p.then((value) => ({ value }), (e) => ({ error: { name: e.name, kind: e.kind, status: e.status, message: e.message } }));
    (async () => { ${script} })().then((r) => { process.stdout.write(JSON.stringify(r)); }, (e) => { console.error(e); process.exit(1); });
  `;
  return JSON.parse(execFileSync(process.execPath, ['-e', code], { encoding: 'utf8', timeout: 60_000 })) as T;
}

beforeAll(async () => {
  [admin, facilityUser, groupUser, facilityAdmin] = (
    await Promise.all([signInAs(UserType.ItpAdmin), signInAs(UserType.FacilityUser), signInAs(UserType.GroupUser), signInAs(UserType.FacilityAdmin)])
  ).map((r) => r.accessToken);
  facilityId = (await db.query('SELECT id FROM facilities WHERE name = $1', [TAMPA])).rows[0].id;
  erDivisionId = (await db.query(`SELECT id FROM divisions WHERE facility_id = $1 AND name = 'Emergency Department'`, [facilityId])).rows[0].id;
  otherDivisionId = (
    await db.query(`SELECT d.id FROM divisions d JOIN facilities f ON f.id = d.facility_id WHERE f.name = 'Orlando Lakeside Medical Center' AND d.type = 'Source' LIMIT 1`)
  ).rows[0].id;
  await local('POST', '/local/faults', {});
  await local('POST', '/local/settings', { tokenSeconds: 300 });

  // The hospital side of the set-up, as an ITP admin does it: the connection, a new key, its JWKS
  // registered with the EHR under the client id (another suite may have replaced the seeded demo key).
  clientId = `crisis-test-${Date.now()}`;
  const saved = await api('PUT', `/api/facilities/${facilityId}/ehr-connection`, {
    token: admin,
    body: { dialect: 'epic', baseUrl: EHR, tokenUrl: `${EHR}/oauth2/token`, clientId, keyId: null },
  });
  expect(saved.status).toBe(200);
  const key = await api('POST', `/api/facilities/${facilityId}/ehr-connection/key`, { token: admin });
  expect(key.status).toBe(201);
  await local('POST', '/local/clients', { clientId, jwks: key.body.jwks });
}, 60_000);

afterAll(async () => {
  await local('POST', '/local/faults', {}).catch(() => undefined);
  await local('POST', '/local/settings', { tokenSeconds: 300 }).catch(() => undefined);
  await db.end();
});

describe('facility EHR connection (ITP admin)', () => {
  it('tests the connection: a token with the stored key, then the CapabilityStatement', async () => {
    const res = await api('POST', `/api/facilities/${facilityId}/ehr-connection/test`, { token: admin });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ ok: true, fhirVersion: '4.0.1', software: expect.stringContaining('fhir-local') });
  });

  it('never answers the private key: GET says hasPrivateKey, the key generation answers the public JWKS only', async () => {
    const res = await api('GET', `/api/facilities/${facilityId}/ehr-connection`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ facilityId, dialect: 'epic', baseUrl: EHR, clientId, hasPrivateKey: true, departmentId: '101', isIntegrated: true });
    const text = JSON.stringify(res.body);
    expect(text).not.toMatch(/PRIVATE KEY/);
    expect(Object.keys(res.body)).not.toContain('privateKeyPem');
    const { rows } = await db.query('SELECT private_key_pem FROM facility_ehr_connections WHERE facility_id = $1', [facilityId]);
    // Stored sealed (AES-256-GCM under APP_SECRET), not as a readable PEM.
    expect(rows[0].private_key_pem).toMatch(/^v1\./);
    expect(rows[0].private_key_pem).not.toMatch(/PRIVATE KEY/);
    // Nor does any audit entry of these routes hold it.
    const audit = await db.query(`SELECT count(*)::int AS n FROM audit_log WHERE path LIKE '%/ehr-connection%' AND ("values"::text LIKE '%PRIVATE KEY%' OR body::text LIKE '%PRIVATE KEY%')`);
    expect(audit.rows[0].n).toBe(0);
  });

  it('refuses other roles (403 FRBD)', async () => {
    for (const token of [facilityAdmin, facilityUser]) {
      const res = await api('GET', `/api/facilities/${facilityId}/ehr-connection`, { token });
      expect(res.status).toBe(403);
      expect(res.error?.code).toBe(ErrorCode.Forbidden);
    }
  });

  it('validates the settings with the coded INV and field errors', async () => {
    const res = await api('PUT', `/api/facilities/${facilityId}/ehr-connection`, { token: admin, body: { dialect: 'cerner', baseUrl: 'not a url', tokenUrl: null, clientId: '' } });
    expect(res.status).toBe(400);
    expect(res.error?.code).toBe(ErrorCode.Invalid);
    expect(res.body.fields.map((f: { field: string }) => f.field).sort()).toEqual(['baseUrl', 'clientId', 'dialect', 'tokenUrl']);
  });
});

describe('case creation look-ups in the EHR (spec 01 §5, §8)', () => {
  it('finds a patient by MRN, with the insurances when asked', async () => {
    const res = await searchPatient('E1001', { needInsurances: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ fhirId: 'pat-jordan', patientId: 'E1001', firstName: 'Jordan', lastName: 'Rivera', dateOfBirth: '1990-06-15', gender: 'Other' });
    expect(res.body.address).toMatchObject({ streetLine: '100 Main St', city: 'Tampa', state: 'FL', zipCode: '33602' });
    expect(res.body.insurances).toEqual([
      { payerName: 'Sunshine Health', planName: 'Sunshine Health Medicaid', memberId: 'SH123456789', planPackageId: '1001' },
      { payerName: 'Florida Blue', planName: 'BlueOptions PPO', memberId: 'FB987654321', planPackageId: '2002' },
    ]);
    const plain = await searchPatient('E1001');
    expect(plain.body.insurances).toBeUndefined();
    const audit = await db.query(`SELECT success FROM audit_log WHERE main_action = 'Case.SearchPatientInEhr' ORDER BY id DESC LIMIT 1`);
    expect(audit.rows[0].success).toBe(true);
  });

  it('answers the patient-id-not-found error for an unknown id', async () => {
    const res = await searchPatient('NO-SUCH-MRN');
    expect(res.status).toBe(404);
    expect(res.error).toMatchObject({ code: ErrorCode.EhrPatientNotFound, defaultMessage: 'Patient EPIC ID or MRN not found in the EHR' });
  });

  it('accepts the encounter of the patient', async () => {
    const res = await validateEncounter('E1001', 'ENC-1001');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ valid: true, encounter: { fhirId: 'ENC-1001', patientFhirId: 'pat-jordan', status: 'in-progress' } });
  });

  it("refuses an encounter of another patient, an unknown encounter, and an encounter before the patient id", async () => {
    const other = await validateEncounter('E1001', 'ENC-2002');
    expect(other.status).toBe(409);
    expect(other.error).toMatchObject({ code: ErrorCode.EhrEncounterOtherPatient, defaultMessage: 'The Patient Encounter ID belongs to another patient' });
    const unknown = await validateEncounter('E1001', 'ENC-0000');
    expect(unknown.status).toBe(404);
    expect(unknown.error).toMatchObject({ code: ErrorCode.EhrEncounterNotFound, defaultMessage: 'Patient Encounter ID not found in the EHR' });
    const before = await validateEncounter('null', 'ENC-1001');
    expect(before.status).toBe(400);
    expect(before.error).toMatchObject({ code: ErrorCode.EhrPatientIdRequired, defaultMessage: 'Patient EPIC ID or MRN is required' });
  });

  it('refuses a division that is not EHR-integrated, and callers outside the division', async () => {
    const res = await searchPatient('E1001', { token: admin, divisionId: otherDivisionId });
    expect(res.status).toBe(409);
    expect(res.error?.code).toBe(ErrorCode.DivisionNotEhrIntegrated);
    // A facility user of Tampa asks about Orlando's division: not hers.
    expect((await searchPatient('E1001', { divisionId: otherDivisionId })).status).toBe(403);
    expect((await searchPatient('E1001', { token: groupUser })).status).toBe(403);
  });
});

describe('the access token', () => {
  it('is cached: two look-ups make one token request (the EHR had forgotten the old token: 401, renewed once)', async () => {
    await local('POST', '/local/reset-tokens');
    const before = await stats();
    expect((await searchPatient('E1001')).status).toBe(200);
    expect((await searchPatient('E100000')).status).toBe(200);
    const after = await stats();
    expect(after.tokenRequests - before.tokenRequests).toBe(1);
    expect(after.tokensIssued - before.tokensIssued).toBe(1);
    expect(after.unauthorized - before.unauthorized).toBe(1);
  });

  it('is renewed before it expires', async () => {
    await local('POST', '/local/settings', { tokenSeconds: 2 });
    await local('POST', '/local/reset-tokens');
    expect((await searchPatient('E1001')).status).toBe(200); // 401, then a 2-second token (renewed after 1 s)
    const before = await stats();
    expect((await searchPatient('E1001')).status).toBe(200); // still cached
    expect((await stats()).tokenRequests).toBe(before.tokenRequests);
    await sleep(1300);
    expect((await searchPatient('E1001')).status).toBe(200);
    const after = await stats();
    expect(after.tokenRequests - before.tokenRequests).toBe(1);
    expect(after.unauthorized - before.unauthorized).toBe(0); // renewed ahead, not after a refusal
    await local('POST', '/local/settings', { tokenSeconds: 300 });
  });
});

describe('payer search in the EHR (ITP admin)', () => {
  it('answers the InsurancePlans with their organizations and addresses', async () => {
    const res = await api('GET', '/api/payers/ehr-search?planName=sunshine', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        insurancePackageId: '1001',
        insurancePlanName: 'Sunshine Health Medicaid',
        affiliations: ['Sunshine Health'],
        addressList: ['1301 International Pkwy, Sunrise, FL 33323', 'PO Box 459089, Sunrise, FL 33345', '400 N Tampa St, Tampa, FL 33602'],
      },
      expect.objectContaining({ insurancePackageId: '1004', insurancePlanName: 'Ambetter from Sunshine Health' }),
    ]);
  });

  it("requires the plan name ('Plan Name is required')", async () => {
    const res = await api('GET', '/api/payers/ehr-search?planName=', { token: admin });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual([{ field: 'planName', key: 'required', message: 'Plan Name is required' }]);
  });
});

describe('documents and claims: conditional create', () => {
  it('makes one DocumentReference for two uploads with the same key, and one Claim for two creates', () => {
    const key = `test-doc-${Date.now()}`;
    const r = adapter<{ first: { id: string }; second: { id: string }; c1: { id: string }; c2: { id: string } }>(`
      const doc = { patientFhirId: 'pat-jordan', encounterFhirId: 'ENC-1001', title: 'Tele-psych Initial Assessment', contentType: 'application/pdf',
        content: Buffer.from('%PDF-1.4 test'), idempotencyKey: ${JSON.stringify(key)}, date: '2026-11-27T03:00:00Z' };
      const first = await ehr.uploadDocument(conn, doc);
      const second = await ehr.uploadDocument(conn, doc);
      const claim = { patientFhirId: 'pat-jordan', encounterFhirId: 'ENC-1001', diagnosisCodes: ['F32.9', 'F41.1'], serviceCode: '90792',
        serviceDate: '2026-11-27', providerNpi: '1234567893', idempotencyKey: ${JSON.stringify(`${key}-claim`)} };
      return { first, second, c1: await ehr.createClaim(conn, claim), c2: await ehr.createClaim(conn, claim) };
    `);
    expect(r.second.id).toBe(r.first.id);
    expect(r.c2.id).toBe(r.c1.id);
    return Promise.all([local<any[]>('GET', '/local/resources/DocumentReference'), local<any[]>('GET', '/local/resources/Claim')]).then(([docs, claims]) => {
      const mine = docs.filter((d) => d.identifier?.some((i: { value: string }) => i.value === key));
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({
        status: 'current',
        type: { coding: [{ system: 'http://loinc.org', code: '11488-4' }] },
        subject: { reference: 'Patient/pat-jordan' },
        context: { encounter: [{ reference: 'Encounter/ENC-1001' }] },
        description: 'Tele-psych Initial Assessment',
        content: [{ attachment: { contentType: 'application/pdf', data: Buffer.from('%PDF-1.4 test').toString('base64'), title: 'Tele-psych Initial Assessment' } }],
      });
      const myClaims = claims.filter((c) => c.identifier?.some((i: { value: string }) => i.value === `${key}-claim`));
      expect(myClaims).toHaveLength(1);
      expect(myClaims[0]).toMatchObject({ status: 'active', use: 'claim', patient: { reference: 'Patient/pat-jordan' }, item: [{ productOrService: { coding: [{ code: '90792' }] } }] });
      expect(myClaims[0].diagnosis.map((d: any) => d.diagnosisCodeableConcept.coding[0].code)).toEqual(['F32.9', 'F41.1']);
    });
  });

  it('reports a 503 as unavailable, and the retry with the same key still makes one DocumentReference', async () => {
    const key = `test-retry-${Date.now()}`;
    await local('POST', '/local/faults', { 'DocumentReference.create': { status: 503, times: 1 } });
    const r = adapter<{ failed: { error?: { kind: string; status: number } }; retried: { value?: { id: string } } }>(`
      const doc = { patientFhirId: 'pat-casey', encounterFhirId: 'ENC-2002', title: 'Tele-psych Initial Assessment', contentType: 'text/plain',
        content: Buffer.from('note'), idempotencyKey: ${JSON.stringify(key)}, date: '2026-11-27T03:00:00Z' };
      return { failed: await settle(ehr.uploadDocument(conn, doc)), retried: await settle(ehr.uploadDocument(conn, doc)), again: await settle(ehr.uploadDocument(conn, doc)) };
    `);
    expect(r.failed.error).toMatchObject({ kind: 'unavailable', status: 503 });
    expect(r.retried.value?.id).toBeTruthy();
    const docs = await local<any[]>('GET', '/local/resources/DocumentReference');
    expect(docs.filter((d) => d.identifier?.some((i: { value: string }) => i.value === key))).toHaveLength(1);
  });

  it('reports an EHR refusal of the resource as rejected, with the OperationOutcome text', () => {
    const r = adapter<{ error?: { kind: string; status: number; message: string } }>(`
      return settle(ehr.uploadDocument(conn, { patientFhirId: '', encounterFhirId: 'ENC-2002', title: 't', contentType: 'text/plain',
        content: Buffer.from('x'), idempotencyKey: 'k-${Date.now()}', date: '2026-11-27T03:00:00Z' }));
    `);
    expect(r.error).toMatchObject({ kind: 'rejected', status: 422 });
    expect(r.error?.message).toContain('DocumentReference.subject is required');
  });
});

describe('a key the EHR does not hold', () => {
  it('makes the test button answer the coded key-refused error with a message for the hospital IT', async () => {
    // A new key, not registered with the EHR.
    const key = await api('POST', `/api/facilities/${facilityId}/ehr-connection/key`, { token: admin });
    expect(key.status).toBe(201);
    expect(key.body.jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS384', kid: key.body.keyId });
    expect(key.body.jwks.keys[0].d).toBeUndefined();
    const before = await stats();
    const res = await api('POST', `/api/facilities/${facilityId}/ehr-connection/test`, { token: admin });
    expect(res.status).toBe(422);
    expect(res.error?.code).toBe(ErrorCode.EhrKeyRefused);
    expect(res.error?.defaultMessage).toContain(`The EHR refused the client assertion: the key does not match the public key registered for client ${clientId}`);
    expect((await stats()).tokensRefused - before.tokensRefused).toBe(1);
    // The look-ups fail the same way, never with a 500.
    const lookup = await searchPatient('E1001');
    expect(lookup.status).toBe(422);
    expect(lookup.error?.code).toBe(ErrorCode.EhrKeyRefused);
    // Registered, it works again.
    await local('POST', '/local/clients', { clientId, jwks: key.body.jwks });
    expect((await api('POST', `/api/facilities/${facilityId}/ehr-connection/test`, { token: admin })).status).toBe(201);
  });
});
