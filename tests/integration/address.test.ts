import { ErrorCode, UserType } from '@crisis/forms';
import { api } from '../support/api';
import { db } from '../support/db';
import { signInAs } from '../support/oidc-client';

/**
 * Address look-ups (spec 03 §2/§5, spec 01 §5, spec 02 §5/§7) against the running API: ZIP →
 * city/state/county/coordinates from the local data set, city and county prefix autocomplete with
 * state filters, street autocomplete from the addresses already known, coded 400s and the 401.
 */

const RUN = Date.now().toString(36);
const STREET = `${RUN}9 Qa Loop`;
let admin: string;
let group: string;
let patientId: number;

beforeAll(async () => {
  admin = (await signInAs(UserType.ItpAdmin)).accessToken;
  group = (await signInAs(UserType.GroupUser)).accessToken;
  const { rows } = await db.query(
    `INSERT INTO patients (first_name, last_name, date_of_birth, gender, street_line, city, state, county, zip_code)
     VALUES ('Qa', 'Address', '1990-01-01', 'Female', $1, 'Tampa', 'FL', 'Hillsborough County', '33606') RETURNING id`,
    [`${STREET} Apt 12`],
  );
  patientId = rows[0].id;
});

afterAll(async () => {
  await db.query('DELETE FROM patients WHERE id = $1', [patientId]);
  await db.end();
});

describe('GET /api/address/zip/{zip}', () => {
  it('answers a known zip with city, state, county and coordinates', async () => {
    const res = await api('GET', '/api/address/zip/33606', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      zipCode: '33606', city: 'Tampa', state: 'FL', county: 'Hillsborough County',
      latitude: expect.any(Number), longitude: expect.any(Number),
    });
    expect(res.body.latitude).toBeCloseTo(27.93, 1);
    expect(res.body.longitude).toBeCloseTo(-82.46, 1);
  });

  it('accepts a zip+4 and names counties the way the platform does', async () => {
    expect((await api('GET', '/api/address/zip/33606-1234', { token: admin })).body.zipCode).toBe('33606');
    expect((await api('GET', '/api/address/zip/70112', { token: admin })).body.county).toBe('Orleans Parish');
    expect((await api('GET', '/api/address/zip/23219', { token: admin })).body.county).toBe('Richmond city');
  });

  it('answers an unknown zip with 404 NTFND and a malformed one with 400 INV', async () => {
    const missing = await api('GET', '/api/address/zip/00000', { token: admin });
    expect(missing.status).toBe(404);
    expect(missing.error?.code).toBe(ErrorCode.NotFound);
    for (const bad of ['abc', '3360', '987654']) {
      const res = await api('GET', `/api/address/zip/${bad}`, { token: admin });
      expect(res.status).toBe(400);
      expect(res.error?.code).toBe(ErrorCode.Invalid);
    }
  });
});

describe('GET /api/address/cities', () => {
  it('finds cities by prefix with a state, county and representative zip', async () => {
    const res = await api('GET', '/api/address/cities?q=tamp', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(0);
    expect(res.body.length).toBeLessThanOrEqual(20);
    const tampa = res.body.find((c: { city: string; state: string }) => c.city === 'Tampa' && c.state === 'FL');
    expect(tampa).toMatchObject({ county: 'Hillsborough County', zipCode: expect.stringMatching(/^336\d\d$/) });
    for (const c of res.body) expect(c.city.toLowerCase().startsWith('tamp')).toBe(true);
  });

  it('filters by state', async () => {
    const all = await api('GET', '/api/address/cities?q=Spring', { token: admin });
    expect(new Set(all.body.map((c: { state: string }) => c.state)).size).toBeGreaterThan(1);
    const fl = await api('GET', '/api/address/cities?q=Spring&state=FL', { token: admin });
    expect(fl.status).toBe(200);
    expect(fl.body.length).toBeGreaterThan(0);
    for (const c of fl.body) expect(c.state).toBe('FL');
  });

  it('refuses a query under 2 characters and an unknown state with 400 INV naming the field', async () => {
    const short = await api('GET', '/api/address/cities?q=T', { token: admin });
    expect(short.status).toBe(400);
    expect(short.body.fields.map((f: { field: string }) => f.field)).toEqual(['q']);
    const state = await api('GET', '/api/address/cities?q=Tampa&state=XX', { token: admin });
    expect(state.status).toBe(400);
    expect(state.body.fields.map((f: { field: string }) => f.field)).toEqual(['state']);
  });
});

describe('GET /api/address/counties', () => {
  it('finds counties by prefix, filtered by one or more states', async () => {
    const fl = await api('GET', '/api/address/counties?q=hill&states=FL', { token: admin });
    expect(fl.status).toBe(200);
    expect(fl.body).toEqual([{ county: 'Hillsborough County', state: 'FL' }]);
    const two = await api('GET', '/api/address/counties?q=hill&states=FL,NH', { token: admin });
    expect(two.body).toEqual(expect.arrayContaining([{ county: 'Hillsborough County', state: 'FL' }, { county: 'Hillsborough County', state: 'NH' }]));
    for (const c of two.body) expect(['FL', 'NH']).toContain(c.state);
    const any = await api('GET', '/api/address/counties?q=hillsborough%20co', { token: admin });
    expect(any.body.length).toBeGreaterThanOrEqual(2);
  });

  it('refuses a query under 2 characters and unknown states', async () => {
    expect((await api('GET', '/api/address/counties?q=h', { token: admin })).status).toBe(400);
    const bad = await api('GET', '/api/address/counties?q=hill&states=FL,ZZ', { token: admin });
    expect(bad.status).toBe(400);
    expect(bad.error?.code).toBe(ErrorCode.Invalid);
  });
});

describe('GET /api/address/streets', () => {
  it('offers facility addresses with their city, zip and coordinates', async () => {
    const { rows } = await db.query('SELECT street_line, zip_code FROM facilities ORDER BY id LIMIT 1');
    const res = await api('GET', `/api/address/streets?q=${encodeURIComponent(rows[0].street_line.slice(0, 6))}`, { token: admin });
    expect(res.status).toBe(200);
    const hit = res.body.find((s: { source: string; streetLine: string }) => s.source === 'facility' && s.streetLine === rows[0].street_line);
    expect(hit).toMatchObject({ zipCode: rows[0].zip_code, latitude: expect.any(Number), longitude: expect.any(Number) });
  });

  it('offers known patient street lines, split into street and apartment, to users who enter patients only', async () => {
    const res = await api('GET', `/api/address/streets?q=${encodeURIComponent(RUN)}`, { token: admin });
    expect(res.body).toContainEqual(expect.objectContaining({ source: 'patient', streetLine: STREET, apartmentNumber: '12', city: null }));
    const reviewer = await api('GET', `/api/address/streets?q=${encodeURIComponent(RUN)}`, { token: group });
    expect(reviewer.status).toBe(200);
    expect(reviewer.body.filter((s: { source: string }) => s.source === 'patient')).toEqual([]);
  });

  it('offers the typed text split at its apartment part', async () => {
    const res = await api('GET', `/api/address/streets?q=${encodeURIComponent('77 Nowhere Rd Suite 5B')}`, { token: group });
    expect(res.body[0]).toMatchObject({ source: 'typed', streetLine: '77 Nowhere Rd', apartmentNumber: '5B' });
  });

  it('refuses a query under 4 characters with 400 INV', async () => {
    const res = await api('GET', '/api/address/streets?q=12', { token: admin });
    expect(res.status).toBe(400);
    expect(res.error?.code).toBe(ErrorCode.Invalid);
  });
});

it('refuses every look-up without a token with 401 UNAUTH', async () => {
  for (const path of ['/api/address/zip/33606', '/api/address/cities?q=Tampa', '/api/address/counties?q=hill', '/api/address/streets?q=1000']) {
    const res = await api('GET', path);
    expect(res.status).toBe(401);
    expect(res.error?.code).toBe(ErrorCode.Unauthorized);
  }
});
