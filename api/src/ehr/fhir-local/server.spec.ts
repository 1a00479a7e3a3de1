import { randomUUID } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair, importPKCS8 } from 'jose';
import { createFhirLocal, type FhirLocal } from './server';
import { DEMO_CLIENT_ID, DEMO_KEY_ID, DEMO_PRIVATE_KEY_PEM } from './demo-client';

/** fhir-local's SMART Backend Services checks: what a real EHR refuses, it refuses too. */
describe('fhir-local token endpoint', () => {
  let server: FhirLocal;
  beforeAll(async () => {
    server = await createFhirLocal({ port: 0 });
  });
  afterAll(() => server.close());

  const assertion = async (o: { key?: CryptoKey; iss?: string; aud?: string; exp?: number; jti?: string; alg?: string } = {}) =>
    new SignJWT({})
      .setProtectedHeader({ alg: o.alg ?? 'RS384', kid: DEMO_KEY_ID })
      .setIssuer(o.iss ?? DEMO_CLIENT_ID)
      .setSubject(o.iss ?? DEMO_CLIENT_ID)
      .setAudience(o.aud ?? `${server.url}/oauth2/token`)
      .setJti(o.jti ?? randomUUID())
      .setExpirationTime(o.exp ?? Math.floor(Date.now() / 1000) + 300)
      .sign(o.key ?? ((await importPKCS8(DEMO_PRIVATE_KEY_PEM, o.alg ?? 'RS384')) as CryptoKey));

  const token = async (jwt: string, grant = 'client_credentials') => {
    const res = await fetch(`${server.url}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: grant,
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: jwt,
        scope: 'system/Patient.read',
      }).toString(),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  it('issues a bearer token for an assertion signed with the registered key', async () => {
    const r = await token(await assertion());
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ token_type: 'bearer', expires_in: 300, scope: 'system/Patient.read' });
    const search = await fetch(`${server.url}/Patient?identifier=E1001`, { headers: { authorization: `Bearer ${r.body.access_token}` } });
    expect(search.status).toBe(200);
    expect(((await search.json()) as any).entry[0].resource.id).toBe('pat-jordan');
  });

  it('refuses a key the client did not register with 400 invalid_client', async () => {
    const { privateKey } = await generateKeyPair('RS384');
    const r = await token(await assertion({ key: privateKey as CryptoKey }));
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('invalid_client');
    expect(r.body.error_description).toMatch(/does not match any public key registered for client/);
  });

  it('refuses another audience, an expired or too long-lived assertion, a replayed jti and an unknown client', async () => {
    expect((await token(await assertion({ aud: 'https://elsewhere.example.org/token' }))).body.error).toBe('invalid_client');
    expect((await token(await assertion({ exp: Math.floor(Date.now() / 1000) - 600 }))).body.error).toBe('invalid_client');
    expect((await token(await assertion({ exp: Math.floor(Date.now() / 1000) + 3600 }))).body.error_description).toMatch(/more than 5 minutes/);
    const jti = randomUUID();
    expect((await token(await assertion({ jti }))).status).toBe(200);
    const replay = await token(await assertion({ jti }));
    expect(replay.status).toBe(400);
    expect(replay.body.error_description).toMatch(/already used/);
    expect((await token(await assertion({ iss: 'nobody' }))).body.error_description).toMatch(/Unknown client nobody/);
    expect((await token(await assertion(), 'password')).body.error).toBe('unsupported_grant_type');
    expect(server.state.stats.tokensRefused).toBeGreaterThanOrEqual(6);
  });

  it('accepts a client registered through the control API', async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS384', { extractable: true });
    const jwk = { ...(await exportJWK(publicKey)), kid: DEMO_KEY_ID, alg: 'RS384' };
    const reg = await fetch(`${server.url}/local/clients`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientId: 'c2', jwks: { keys: [jwk] } }) });
    expect(reg.status).toBe(201);
    expect((await token(await assertion({ key: privateKey as CryptoKey, iss: 'c2' }))).status).toBe(200);
  });

  it('answers 401 with an OperationOutcome without a token, and after reset-tokens', async () => {
    const none = await fetch(`${server.url}/Encounter/ENC-1001`);
    expect(none.status).toBe(401);
    expect(((await none.json()) as any).resourceType).toBe('OperationOutcome');
    const t = (await token(await assertion())).body.access_token;
    expect((await fetch(`${server.url}/Encounter/ENC-1001`, { headers: { authorization: `Bearer ${t}` } })).status).toBe(200);
    await fetch(`${server.url}/local/reset-tokens`, { method: 'POST' });
    expect((await fetch(`${server.url}/Encounter/ENC-1001`, { headers: { authorization: `Bearer ${t}` } })).status).toBe(401);
  });

  it('creates conditionally: 201 + Location, then 200 with the same resource for the same identifier', async () => {
    const t = (await token(await assertion())).body.access_token;
    const post = () =>
      fetch(`${server.url}/DocumentReference`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t}`, 'content-type': 'application/fhir+json', 'if-none-exist': 'identifier=urn:crisis:idempotency|k1' },
        body: JSON.stringify({
          resourceType: 'DocumentReference',
          identifier: [{ system: 'urn:crisis:idempotency', value: 'k1' }],
          status: 'current',
          subject: { reference: 'Patient/pat-jordan' },
          content: [{ attachment: { contentType: 'text/plain', data: 'eA==' } }],
        }),
      });
    const first = await post();
    expect(first.status).toBe(201);
    expect(first.headers.get('location')).toMatch(/\/DocumentReference\/[\w-]+\/_history\/1$/);
    const second = await post();
    expect(second.status).toBe(200);
    expect(((await second.json()) as any).id).toBe(((await first.json()) as any).id);
    expect(server.state.resources.DocumentReference).toHaveLength(1);
  });
});
