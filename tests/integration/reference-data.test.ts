import { ErrorCode, UserType } from '@crisis/forms';
import { api } from '../support/api';
import { audited, auditEntry, enc, fieldsOf } from '../support/audit';
import { db } from '../support/db';
import { signInAs } from '../support/oidc-client';

/**
 * Reference data of spec 03 (group organizations, payers, billing codes, patient tags) against the
 * running API and its database: CRUD, list paging/sort/filter with Content-Range, uniqueness
 * (409 INV.NOT.UNIQ naming the field, nothing written), the validation rules of §5, the payer
 * in-use force flow, the ITP-admin-only gate and the audit entries.
 */

const RUN = Date.now().toString(36).toUpperCase();
const PREFIX = `QA ${RUN}`;

async function count(table: string): Promise<number> {
  const { rows } = await db.query(`SELECT count(*)::int AS n, max(updated_at)::text AS u FROM ${table}`);
  return rows[0];
}

let admin: string;
let others: Array<[string, string]>;
let facilities: Array<{ id: number; state: string }>;

beforeAll(async () => {
  admin = (await signInAs(UserType.ItpAdmin)).accessToken;
  others = [];
  for (const role of [UserType.ItpUser, UserType.ItpProvider, UserType.FacilityAdmin, UserType.FacilityUser, UserType.GroupUser])
    others.push([role, (await signInAs(role)).accessToken]);
  facilities = (await db.query('SELECT id, state FROM facilities ORDER BY id')).rows.map((r) => ({ id: r.id, state: r.state.trim() }));
});

afterAll(async () => {
  await db.query('DELETE FROM group_organizations WHERE name LIKE $1', [`${PREFIX}%`]);
  await db.query('DELETE FROM payers WHERE name LIKE $1', [`${PREFIX}%`]);
  await db.query('DELETE FROM billing_codes WHERE code LIKE $1', [`${RUN}%`]);
  await db.query('DELETE FROM patient_tags WHERE name LIKE $1', [`${PREFIX}%`]);
  await db.end();
});

describe('role gates: ITP admin only', () => {
  const routes: Array<[string, string, unknown?]> = [
    ['GET', '/api/group-organizations'],
    ['POST', '/api/group-organizations', {}],
    ['GET', '/api/payers'],
    ['GET', '/api/payers/lookups'],
    ['GET', '/api/patient-tags/lookups'],
    ['GET', '/api/group-organizations/lookups'],
    ['POST', '/api/payers', { name: 'x' }],
    ['GET', '/api/billing-codes'],
    ['PUT', '/api/billing-codes/1', {}],
    ['GET', '/api/patient-tags'],
    ['POST', '/api/patient-tags', { name: 'x' }],
    ['DELETE', '/api/patient-tags/1'],
  ];
  // Always three arguments: with two, jest would pass its `done` callback as the third.
  it.each(routes.map(([m, p, b]) => [m, p, b ?? null] as const))('%s %s is 403 FRBD for every other role and 401 without a token', async (method, path, raw) => {
    const body = raw ?? undefined;
    for (const [role, token] of others) {
      const res = await api(method, path, { token, body });
      expect([role, res.status, res.body?.code]).toEqual([role, 403, ErrorCode.Forbidden]);
    }
    const anon = await api(method, path, { body });
    expect(anon.status).toBe(401);
  });
});

describe('patient tags', () => {
  let id: number;
  it('creates a tag (trimmed) and audits PatientTag.Create', async () => {
    const res = await audited('POST', '/api/patient-tags', { token: admin, body: { name: `  ${PREFIX} Tag B  ` } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(Number), name: `${PREFIX} Tag B` });
    id = res.body.id;
    expect(await auditEntry(res)).toMatchObject({ main_action: 'PatientTag.Create', kind: 'Create', success: true });
  });
  it('refuses a duplicate name (any case) with 409 INV.NOT.UNIQ on name, nothing created', async () => {
    const before = await count('patient_tags');
    const res = await audited('POST', '/api/patient-tags', { token: admin, body: { name: `${PREFIX} TAG b` } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe(ErrorCode.NotUnique);
    expect(fieldsOf(res)).toEqual(['name']);
    expect(await count('patient_tags')).toEqual(before);
    expect(await auditEntry(res)).toMatchObject({ main_action: 'PatientTag.Create', success: false });
  });
  it('validates: name required, at most 255', async () => {
    for (const body of [{}, { name: '   ' }, { name: null }]) {
      const res = await api('POST', '/api/patient-tags', { token: admin, body });
      expect(res.status).toBe(400);
      expect(res.body.fields).toEqual([{ field: 'name', key: 'required', message: 'This field is required' }]);
    }
    const long = await api('POST', '/api/patient-tags', { token: admin, body: { name: 'x'.repeat(256) } });
    expect(long.status).toBe(400);
    expect(long.body.fields[0]).toMatchObject({ field: 'name', key: 'maxLength' });
  });
  it('lists sorted by name with Content-Range, searches, and reads one', async () => {
    await api('POST', '/api/patient-tags', { token: admin, body: { name: `${PREFIX} Tag A` } });
    const res = await api('GET', `/api/patient-tags?filter=${enc({ q: PREFIX })}&range=${enc([0, 0])}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-range')).toBe('patient-tags 0-0/2');
    expect(res.body.map((t: any) => t.name)).toEqual([`${PREFIX} Tag A`]);
    const desc = await api('GET', `/api/patient-tags?filter=${enc({ q: PREFIX })}&sort=${enc(['name', 'DESC'])}`, { token: admin });
    expect(desc.body.map((t: any) => t.name)).toEqual([`${PREFIX} Tag B`, `${PREFIX} Tag A`]);
    expect((await api('GET', `/api/patient-tags/${id}`, { token: admin })).body.name).toBe(`${PREFIX} Tag B`);
    expect((await api('GET', `/api/patient-tags?sort=${enc(['nope', 'ASC'])}`, { token: admin })).status).toBe(400);
  });
  it('lookups: every tag sorted by name, cacheable for an hour', async () => {
    const res = await api('GET', '/api/patient-tags/lookups', { token: admin });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, max-age=3600');
    const names = res.body.map((t: any) => t.name);
    expect(names).toEqual(expect.arrayContaining([`${PREFIX} Tag A`, `${PREFIX} Tag B`]));
    expect(names.indexOf(`${PREFIX} Tag A`)).toBeLessThan(names.indexOf(`${PREFIX} Tag B`));
  });
  it('removes a tag (audited), then 404', async () => {
    const res = await audited('DELETE', `/api/patient-tags/${id}`, { token: admin });
    expect(res.status).toBe(200);
    expect(await auditEntry(res)).toMatchObject({ main_action: 'PatientTag.Delete', kind: 'Delete', success: true });
    expect((await api('GET', `/api/patient-tags/${id}`, { token: admin })).status).toBe(404);
    expect((await api('DELETE', `/api/patient-tags/${id}`, { token: admin })).status).toBe(404);
    expect((await api('GET', '/api/patient-tags/abc', { token: admin })).body.code).toBe(ErrorCode.NotFound);
  });
});

describe('billing codes', () => {
  const body = (o: Record<string, unknown> = {}) => ({
    code: `${RUN}-1`,
    description: 'Crisis evaluation',
    sourceDivisionTypes: ['ErCrisis'],
    requestTypes: ['Assessment'],
    isActive: true,
    ...o,
  });
  let id: number;
  it('creates and audits BillingCode.Create', async () => {
    const res = await audited('POST', '/api/billing-codes', { token: admin, body: body() });
    expect(res.status).toBe(201);
    id = res.body.id;
    expect(res.body).toEqual({ id, code: `${RUN}-1`, description: 'Crisis evaluation', sourceDivisionTypes: ['ErCrisis'], requestTypes: ['Assessment'], isActive: true });
    expect(await auditEntry(res)).toMatchObject({ main_action: 'BillingCode.Create', success: true });
  });
  it('refuses a duplicate code with 409 INV.NOT.UNIQ on code, nothing created or changed', async () => {
    const other = await api('POST', '/api/billing-codes', { token: admin, body: body({ code: `${RUN}-2` }) });
    expect(other.status).toBe(201);
    const before = await count('billing_codes');
    const dup = await api('POST', '/api/billing-codes', { token: admin, body: body({ code: `${RUN}-1`.toLowerCase() }) });
    expect([dup.status, dup.body.code, fieldsOf(dup)]).toEqual([409, ErrorCode.NotUnique, ['code']]);
    const put = await api('PUT', `/api/billing-codes/${other.body.id}`, { token: admin, body: body({ code: `${RUN}-1` }) });
    expect([put.status, fieldsOf(put)]).toEqual([409, ['code']]);
    expect(await count('billing_codes')).toEqual(before);
  });
  it('validates: code and description required, types non-empty and from the enumerations', async () => {
    const res = await api('POST', '/api/billing-codes', {
      token: admin,
      body: { code: ' ', description: null, sourceDivisionTypes: [], requestTypes: [] },
    });
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toEqual(['code', 'description', 'requestTypes', 'sourceDivisionTypes']);
    expect(res.body.fields.every((f: any) => f.key === 'required')).toBe(true);
    const bad = await api('POST', '/api/billing-codes', { token: admin, body: body({ code: `${RUN}-9`, sourceDivisionTypes: ['Outpatient'], requestTypes: ['Nope'] }) });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad)).toEqual(['requestTypes.0', 'sourceDivisionTypes.0']);
  });
  it('updates (audited) and lists sorted by code with filters', async () => {
    const res = await audited('PUT', `/api/billing-codes/${id}`, {
      token: admin,
      body: body({ description: 'Updated', isActive: false, sourceDivisionTypes: ['MedFloor', 'PsychUnit'], id }),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ description: 'Updated', isActive: false, sourceDivisionTypes: ['MedFloor', 'PsychUnit'] });
    expect(await auditEntry(res)).toMatchObject({ main_action: 'BillingCode.Update', kind: 'Update', success: true });
    const list = await api('GET', `/api/billing-codes?filter=${enc({ q: RUN })}`, { token: admin });
    expect(list.body.map((c: any) => c.code)).toEqual([`${RUN}-1`, `${RUN}-2`]);
    expect(list.headers.get('content-range')).toBe('billing-codes 0-1/2');
    const active = await api('GET', `/api/billing-codes?filter=${enc({ q: RUN, showActiveOnly: true })}`, { token: admin });
    expect(active.body.map((c: any) => c.code)).toEqual([`${RUN}-2`]);
    const byType = await api('GET', `/api/billing-codes?filter=${enc({ q: RUN, sourceDivisionType: 'PsychUnit' })}`, { token: admin });
    expect(byType.body.map((c: any) => c.code)).toEqual([`${RUN}-1`]);
    expect((await api('PUT', '/api/billing-codes/999999', { token: admin, body: body({ code: `${RUN}-x` }) })).status).toBe(404);
  });
});

describe('payers', () => {
  const body = (o: Record<string, unknown> = {}) => ({
    name: `${PREFIX} Payer`,
    code: 'QA1',
    isActive: true,
    planName: `${RUN} Gold Plan`,
    address: { streetLine: '1 Main St', city: 'Tampa', state: 'FL', zipCode: '33602', phone: '(813) 555-0100' },
    ...o,
  });
  let id: number;
  it('creates with a full address and audits Payer.Create', async () => {
    const res = await audited('POST', '/api/payers', { token: admin, body: body() });
    expect(res.status).toBe(201);
    id = res.body.id;
    expect(res.body).toMatchObject({ name: `${PREFIX} Payer`, code: 'QA1', isActive: true, fullAddress: '1 Main St, Tampa, FL 33602' });
    expect(await auditEntry(res)).toMatchObject({ main_action: 'Payer.Create', success: true });
  });
  it('refuses a duplicate name with 409 INV.NOT.UNIQ on name, nothing created', async () => {
    const before = await count('payers');
    const res = await api('POST', '/api/payers', { token: admin, body: body({ name: `${PREFIX} PAYER` }) });
    expect([res.status, res.body.code, fieldsOf(res)]).toEqual([409, ErrorCode.NotUnique, ['name']]);
    expect(await count('payers')).toEqual(before);
  });
  it('validates: name required, zip and state formats', async () => {
    const res = await api('POST', '/api/payers', { token: admin, body: { name: '', address: { state: 'XX', zipCode: '12' } } });
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toEqual(['address.state', 'address.zipCode', 'name']);
  });
  it('lists sorted by name ascending, searches and filters active', async () => {
    await api('POST', '/api/payers', { token: admin, body: body({ name: `${PREFIX} Alpha`, isActive: false, planName: null, address: null }) });
    const res = await api('GET', `/api/payers?filter=${enc({ q: PREFIX })}`, { token: admin });
    expect(res.body.map((p: any) => p.name)).toEqual([`${PREFIX} Alpha`, `${PREFIX} Payer`]);
    expect(res.headers.get('content-range')).toBe('payers 0-1/2');
    const active = await api('GET', `/api/payers?filter=${enc({ q: PREFIX, showActiveOnly: true })}`, { token: admin });
    expect(active.body.map((p: any) => p.name)).toEqual([`${PREFIX} Payer`]);
  });
  it('lookups: active payers by default, all with showActiveOnly=false', async () => {
    const active = await api('GET', '/api/payers/lookups', { token: admin });
    expect(active.headers.get('cache-control')).toBe('private, max-age=3600');
    expect(active.body.map((p: any) => p.name)).toContain(`${PREFIX} Payer`);
    expect(active.body.map((p: any) => p.name)).not.toContain(`${PREFIX} Alpha`);
    const all = await api('GET', '/api/payers/lookups?showActiveOnly=false', { token: admin });
    expect(all.body.map((p: any) => p.name)).toContain(`${PREFIX} Alpha`);
  });
  it('insurance lookup returns plan and address fields; Plan Name is required', async () => {
    const res = await api('GET', `/api/payers/insurance?planName=${encodeURIComponent(`${RUN} gold`)}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      expect.objectContaining({ payerId: id, planName: `${RUN} Gold Plan`, insuranceAddress: '1 Main St', insuranceCity: 'Tampa', insuranceState: 'FL', insuranceZipCode: '33602', insurancePhoneNumber: '(813) 555-0100' }),
    ]);
    const missing = await api('GET', '/api/payers/insurance', { token: admin });
    expect(missing.status).toBe(400);
    expect(missing.body.fields).toEqual([expect.objectContaining({ key: 'required', message: 'Plan Name is required' })]);
  });
  it('insurance lookup serves whoever edits a case\'s insurances (ITP admin and user, facility admin and user), no one else', async () => {
    const q = `/api/payers/insurance?planName=${encodeURIComponent(`${RUN} gold`)}`;
    for (const [role, token] of others) {
      const res = await api('GET', q, { token });
      const edits = [UserType.ItpUser, UserType.FacilityAdmin, UserType.FacilityUser].includes(role as UserType);
      expect([role, res.status]).toEqual([role, edits ? 200 : 403]);
      if (edits) expect(res.body.map((r: any) => r.payerId)).toEqual([id]);
    }
    expect((await api('GET', q)).status).toBe(401);
  });
  it('updates a payer not in use without confirmation (audited)', async () => {
    const res = await audited('PUT', `/api/payers/${id}`, { token: admin, body: body({ code: 'QA2', id, fullAddress: 'ignored' }) });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe('QA2');
    expect(await auditEntry(res)).toMatchObject({ main_action: 'Payer.Update', success: true });
  });
  it('a payer used by patients needs forceUpdate to be edited or deactivated', async () => {
    // A patient's insurance on one of the demo cases uses the payer.
    const [kase] = (await db.query('SELECT id, patient_id FROM cases ORDER BY id LIMIT 1')).rows;
    const [insurance] = (
      await db.query(
        `INSERT INTO patient_insurances (case_id, patient_id, payer_id, insurance_id, position) VALUES ($1, $2, $3, 'USED-1', 2) RETURNING id`,
        [kase.id, kase.patient_id, id],
      )
    ).rows;
    try {
      const edit = await api('PUT', `/api/payers/${id}`, { token: admin, body: body({ code: 'QA3' }) });
      expect([edit.status, edit.body.code]).toEqual([409, ErrorCode.EditPayerUsedInPatients]);
      const off = await api('PUT', `/api/payers/${id}`, { token: admin, body: body({ code: 'QA2', isActive: false }) });
      expect(off.body.code).toBe(ErrorCode.DeactivatePayerUsedInPatients);
      const both = await api('PUT', `/api/payers/${id}`, { token: admin, body: body({ code: 'QA3', isActive: false }) });
      expect(both.body.code).toBe(ErrorCode.DeactivateAndEditPayerUsedInPatients);
      expect((await api('GET', `/api/payers/${id}`, { token: admin })).body).toMatchObject({ code: 'QA2', isActive: true });
      const same = await api('PUT', `/api/payers/${id}`, { token: admin, body: body({ code: 'QA2' }) });
      expect(same.status).toBe(200); // nothing changed: no confirmation needed
      const forced = await audited('PUT', `/api/payers/${id}`, { token: admin, body: body({ code: 'QA3', isActive: false, forceUpdate: true }) });
      expect(forced.status).toBe(200);
      expect(forced.body).toMatchObject({ code: 'QA3', isActive: false });
      expect((await auditEntry(forced)).values).toMatchObject({ payerId: id, forceUpdate: true });
    } finally {
      await db.query('DELETE FROM patient_insurances WHERE id = $1', [insurance.id]);
    }
  });
});

describe('group organizations', () => {
  const inState = (s: string) => facilities.filter((f) => f.state === s).map((f) => f.id);
  const body = (o: Record<string, unknown> = {}) => {
    const fl = inState('FL');
    return {
      name: `${PREFIX} Group`,
      description: 'County reviewers',
      isActive: true,
      mfaEnabled: false,
      states: ['FL'],
      counties: ['Hillsborough County', 'Pinellas County'],
      facilities: [fl[0], fl[1]],
      excludedFacilities: [fl[2]],
      placementFacilities: [fl[3]],
      ...o,
    };
  };
  let id: number;
  it('creates with its facility lists and audits Group.Create', async () => {
    const res = await audited('POST', '/api/group-organizations', { token: admin, body: body() });
    expect(res.status).toBe(201);
    id = res.body.id;
    const b = body();
    expect(res.body).toEqual({ id, ...b, facilities: [...b.facilities].sort((x, y) => x - y) });
    expect(await auditEntry(res)).toMatchObject({ main_action: 'Group.Create', success: true });
    const links = await db.query('SELECT kind, count(*)::int AS n FROM group_organization_facilities WHERE group_id = $1 GROUP BY kind ORDER BY kind', [id]);
    expect(links.rows).toEqual([{ kind: 'excluded', n: 1 }, { kind: 'included', n: 2 }, { kind: 'placement', n: 1 }]);
  });
  it('refuses a duplicate name with 409 INV.NOT.UNIQ on name, nothing created', async () => {
    const before = await count('group_organizations');
    const res = await api('POST', '/api/group-organizations', { token: admin, body: body({ name: `${PREFIX} GROUP` }) });
    expect([res.status, res.body.code, fieldsOf(res)]).toEqual([409, ErrorCode.NotUnique, ['name']]);
    expect(await count('group_organizations')).toEqual(before);
  });
  it('validates: name, states and facilities required; lists required; booleans required', async () => {
    const res = await api('POST', '/api/group-organizations', { token: admin, body: { name: ' ', states: [], facilities: [] } });
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toEqual(['counties', 'excludedFacilities', 'facilities', 'isActive', 'mfaEnabled', 'name', 'placementFacilities', 'states']);
  });
  it('facilities and excluded facilities exclude each other', async () => {
    const b = body({ name: `${PREFIX} Overlap` });
    const res = await api('POST', '/api/group-organizations', { token: admin, body: { ...b, excludedFacilities: [b.facilities[0]] } });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual([expect.objectContaining({ field: 'excludedFacilities', key: 'alsoIncluded' })]);
  });
  it('facilities must be in the chosen states, and must exist', async () => {
    const ga = inState('GA');
    const res = await api('POST', '/api/group-organizations', { token: admin, body: body({ name: `${PREFIX} Wrong`, facilities: [ga[0]] }) });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual([expect.objectContaining({ field: 'facilities', key: 'facilityNotInStates' })]);
    const unknown = await api('POST', '/api/group-organizations', { token: admin, body: body({ name: `${PREFIX} Wrong`, placementFacilities: [987654] }) });
    expect(unknown.body.fields).toEqual([expect.objectContaining({ field: 'placementFacilities', key: 'unknownFacility' })]);
    expect((await db.query('SELECT 1 FROM group_organizations WHERE name = $1', [`${PREFIX} Wrong`])).rows).toHaveLength(0);
  });
  it('updates (replacing the lists), lists with search and active-only', async () => {
    const ga = inState('GA');
    const res = await audited('PUT', `/api/group-organizations/${id}`, {
      token: admin,
      body: body({ states: ['GA'], counties: [], facilities: [ga[0]], excludedFacilities: [], placementFacilities: [], isActive: false, mfaEnabled: true, id }),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ states: ['GA'], counties: [], facilities: [ga[0]], excludedFacilities: [], placementFacilities: [], isActive: false, mfaEnabled: true });
    expect(await auditEntry(res)).toMatchObject({ main_action: 'Group.Update', success: true });
    await api('POST', '/api/group-organizations', { token: admin, body: body({ name: `${PREFIX} Active` }) });
    const list = await api('GET', `/api/group-organizations?filter=${enc({ q: PREFIX })}`, { token: admin });
    expect(list.body.map((g: any) => g.name)).toEqual([`${PREFIX} Active`, `${PREFIX} Group`]);
    expect(list.headers.get('content-range')).toBe('group-organizations 0-1/2');
    const active = await api('GET', `/api/group-organizations?filter=${enc({ q: PREFIX, showActiveOnly: true })}`, { token: admin });
    expect(active.body.map((g: any) => g.name)).toEqual([`${PREFIX} Active`]);
    expect((await api('GET', '/api/group-organizations/0', { token: admin })).status).toBe(404);
    const lookups = await api('GET', '/api/group-organizations/lookups?showActiveOnly=true', { token: admin });
    expect(lookups.body).toEqual(expect.arrayContaining([{ id: expect.any(Number), name: `${PREFIX} Active`, isActive: true }]));
    expect(lookups.body.map((g: any) => g.name)).not.toContain(`${PREFIX} Group`);
  });
});
