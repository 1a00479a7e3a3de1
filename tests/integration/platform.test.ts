import { api, API_URL } from '../support/api';
import { signInAs } from '../support/oidc-client';

/** Platform rules of spec 03 §7–§8 and ARCHITECTURE.md that every call shares. */
describe('platform', () => {
  it('serves the application settings without sign-in', async () => {
    const res = await api('GET', '/api/settings');
    expect(res.status).toBe(200);
    expect(res.body.identity).toMatchObject({ clientId: 'admin-ui', authority: expect.stringMatching(/\/identity$/) });
    expect(res.body.idleLogoutMs).toBe(900_000);
    expect(res.body.idleWarningMs).toBe(120_000);
  });

  it('answers an unknown API path with a coded 404 in the header and the body, with a correlation id', async () => {
    const res = await api('GET', '/api/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.error).toMatchObject({ code: 'NTFND', defaultMessage: 'Requested data not found' });
    expect(res.body).toMatchObject({ code: 'NTFND', correlationId: res.headers.get('x-correlation-id') });
  });

  it('keeps the caller’s correlation id', async () => {
    const res = await api('GET', '/api/user/context', { headers: { 'x-correlation-id': 'test-correlation-0001' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('x-correlation-id')).toBe('test-correlation-0001');
    expect(res.error?.code).toBe('UNAUTH');
  });

  it('refuses malformed JSON from a signed-in user with 400 INV, not a 500', async () => {
    // A valid token, so the body is the only thing wrong.
    const { accessToken } = await signInAs('IntegratedTelehealthPartners_Admin');
    const res = await api('POST', '/api/facilities', { token: accessToken, body: '{"name": ' });
    expect([res.status, res.error?.code]).toEqual([400, 'INV']);
    expect(res.body).toMatchObject({ code: 'INV', correlationId: res.headers.get('x-correlation-id') });
  });

  it('serves the UI on real paths (no hash routing)', async () => {
    for (const path of ['/', '/facilities/123', '/users/invite', '/no-such-page']) {
      const res = await fetch(API_URL + path);
      expect([path, res.status]).toEqual([path, 200]);
      expect(await res.text()).toContain('<div id="root"');
    }
  });

  it('publishes an OpenAPI document whose request bodies are the JSON Schemas of forms/', async () => {
    const doc = (await api('GET', '/api/openapi.json')).body;
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.components.schemas.facility.properties.name).toMatchObject({ type: 'string', maxLength: 255 });
    const create = doc.paths['/api/facilities'].post;
    expect(create.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/facility');
    expect(create['x-ability']).toEqual({ action: 'manage', subject: 'Facility' });
  });
});
