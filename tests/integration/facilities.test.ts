import { ErrorCode, UserType } from '@crisis/forms';
import { api, type ApiResponse } from '../support/api';
import { audited, auditEntry, enc, fieldsOf } from '../support/audit';
import { db } from '../support/db';
import { signInAs } from '../support/oidc-client';

/**
 * Facilities and divisions (spec 03 §7 Facilities) against the running API and its database:
 * create/read/update, the list's filters, sorts and total, the uniqueness and validation rules,
 * the deactivation guards, the facility admin's reach, and the audit entries.
 */

/** Unique per run, so the suite can run again on the same database. */
const RUN = Date.now().toString(36).toUpperCase();
const PREFIX = `QA ${RUN}`;

function facilityBody(overrides: Record<string, unknown> = {}, address: Record<string, unknown> = {}) {
  return {
    name: `${PREFIX} Facility`,
    description: 'Integration test facility',
    allowReferringDivisionsAccess: false,
    allowPlacementOnlyCases: true,
    isActive: true,
    isMfaEnabled: false,
    isGeoPositionManually: true,
    ehrDepartmentId: null,
    address: { streetLine: '100 Test St', apartmentNumber: null, city: 'Tampa', state: 'FL', zipCode: '33602', county: 'Hillsborough County', ...address },
    geoPosition: { latitude: 27.95, longitude: -82.46 },
    contacts: { phone1: '(813) 555-0190', phone1Ext: '12', fax1: '+18135550191' },
    ...overrides,
  };
}

function sourceDivision(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Emergency Department',
    type: 'Source',
    isActive: true,
    contacts: { phone1: '+18135550192' },
    sourceType: 'ErCrisis',
    requestTypes: ['Assessment', 'PhoneConsultation'],
    documentInEHR: false,
    noPlacement: false,
    outcomeRequired: true,
    showBillingCode: false,
    ...overrides,
  };
}

function referringDivision(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Adult Inpatient',
    type: 'Referring',
    isActive: true,
    contacts: { phone1: '+18135550193', fax1: '+18135550194' },
    referringType: 'MentalHealthInpatient',
    criteria: null,
    acceptedPatients: { allAges: false, adult: { isActive: true, from: 18, to: 64 } },
    genders: ['Female', 'Male'],
    veteranOnly: false,
    extendMaximumCallbackTime: false,
    score: 80,
    ...overrides,
  };
}

/** Row counts and the latest change of the facility tables: a refused call must leave them as they were. */
async function fingerprint() {
  const { rows } = await db.query(
    `SELECT (SELECT count(*) FROM facilities) AS f, (SELECT max(updated_at) FROM facilities)::text AS fu,
            (SELECT count(*) FROM divisions) AS d, (SELECT max(updated_at) FROM divisions)::text AS du`,
  );
  return rows[0];
}

describe('facilities', () => {
  let admin: string;
  let facilityAdmin: string;
  let facilityUser: string;
  let ownFacilityId: number;

  beforeAll(async () => {
    admin = (await signInAs(UserType.ItpAdmin)).accessToken;
    facilityAdmin = (await signInAs(UserType.FacilityAdmin)).accessToken;
    facilityUser = (await signInAs(UserType.FacilityUser)).accessToken;
    const me = await api('GET', '/api/user/context', { token: facilityAdmin });
    ownFacilityId = me.body.facilityId;
    expect(ownFacilityId).toBeGreaterThan(0);
  });

  afterAll(async () => {
    await db.query(`DELETE FROM group_organizations WHERE name LIKE $1`, [`${PREFIX}%`]);
    await db.end();
  });

  describe('create, read, update', () => {
    let id: number;

    it('creates a facility, returns the record, and audits it with success true', async () => {
      const res = await audited('POST', '/api/facilities', { token: admin, body: facilityBody({ name: `  ${PREFIX} Facility  `, description: '   ' }) });
      expect(res.status).toBe(201);
      id = res.body.id;
      expect(res.body).toMatchObject({
        name: `${PREFIX} Facility`, // trimmed
        description: null, // blank becomes null
        allowPlacementOnlyCases: true,
        isActive: true,
        isMfaEnabled: false,
        isGeoPositionManually: true,
        address: { streetLine: '100 Test St', city: 'Tampa', state: 'FL', zipCode: '33602', county: 'Hillsborough County', apartmentNumber: null },
        geoPosition: { latitude: 27.95, longitude: -82.46 },
        contacts: { phone1: '+18135550190', phone1Ext: '12', fax1: '+18135550191' }, // stored in E.164
        divisionTypes: [],
        hasActiveSourceDivision: false,
        hasActiveReferringDivision: false,
      });
      const row = (await db.query('SELECT * FROM facilities WHERE id = $1', [id])).rows[0];
      expect(row).toMatchObject({ name: `${PREFIX} Facility`, zip_code: '33602', is_active: true });
      const audit = await auditEntry(res);
      expect(audit).toMatchObject({ main_action: 'Facility.Create', kind: 'Create', success: true, facility_id: id });
      expect(audit.values).toMatchObject({ facilityId: id, isActive: true });
    });

    it('reads it back', async () => {
      const res = await audited('GET', `/api/facilities/${id}`, { token: admin });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id, name: `${PREFIX} Facility`, address: { zipCode: '33602' } });
    });

    it('updates it (a 9-digit zip is stored as 12345-6789; read-only record fields are ignored)', async () => {
      const current = (await api('GET', `/api/facilities/${id}`, { token: admin })).body;
      const res = await audited('PUT', `/api/facilities/${id}`, {
        token: admin,
        body: { ...current, description: 'Updated', ehrDepartmentId: 'EHR-9', address: { ...current.address, city: 'Brandon', zipCode: '335111234' } },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id, description: 'Updated', ehrDepartmentId: 'EHR-9', address: { city: 'Brandon', zipCode: '33511-1234' } });
      const row = (await db.query('SELECT city, zip_code, ehr_department_id FROM facilities WHERE id = $1', [id])).rows[0];
      expect(row).toEqual({ city: 'Brandon', zip_code: '33511-1234', ehr_department_id: 'EHR-9' });
      const audit = await auditEntry(res);
      expect(audit).toMatchObject({ main_action: 'Facility.Update', success: true, facility_id: id });
    });

    it('refuses a duplicate name + zip (any letter case) with 409 INV.NOT.UNIQ naming name and address.zipCode, creating nothing', async () => {
      const before = await fingerprint();
      const res = await audited('POST', '/api/facilities', {
        token: admin,
        body: facilityBody({ name: `${PREFIX} FACILITY`.toLowerCase() }, { zipCode: '33511-1234', city: 'Elsewhere' }),
      });
      expect(res.status).toBe(409);
      expect(res.error?.code).toBe(ErrorCode.NotUnique);
      expect(res.body.code).toBe(ErrorCode.NotUnique);
      expect(fieldsOf(res)).toEqual(['address.zipCode', 'name']);
      expect(await fingerprint()).toEqual(before);
      const audit = await auditEntry(res);
      expect(audit).toMatchObject({ main_action: 'Facility.Create', success: false, status_code: 409 });
    });

    it('allows the same name with another zip, and refuses renaming onto a taken name + zip', async () => {
      const other = await api('POST', '/api/facilities', { token: admin, body: facilityBody({}, { zipCode: '33603' }) });
      expect(other.status).toBe(201);
      const before = await fingerprint();
      const res = await audited('PUT', `/api/facilities/${other.body.id}`, { token: admin, body: facilityBody({}, { zipCode: '33511-1234' }) });
      expect(res.status).toBe(409);
      expect(fieldsOf(res)).toEqual(['address.zipCode', 'name']);
      expect(await fingerprint()).toEqual(before);
    });

    const long = 'x'.repeat(256);
    const badBodies: Array<[string, unknown, string[]]> = [
      ['missing name', facilityBody({ name: undefined }), ['name']],
      ['blank name', facilityBody({ name: '   ' }), ['name']],
      ['missing address', facilityBody({ address: undefined }), ['address']],
      ['missing city and zip', facilityBody({}, { city: undefined, zipCode: undefined }), ['address.city', 'address.zipCode']],
      ['missing geoPosition', facilityBody({ geoPosition: undefined }), ['geoPosition']],
      ['a 256-character name', facilityBody({ name: long }), ['name']],
      ['a 256-character street', facilityBody({}, { streetLine: long }), ['address.streetLine']],
      ['a 6001-character description', facilityBody({ description: 'd'.repeat(6001) }), ['description']],
      ['isActive a string', facilityBody({ isActive: 'yes' }), ['isActive']],
      ['latitude a string', facilityBody({ geoPosition: { latitude: 'north', longitude: 1 } }), ['geoPosition.latitude']],
      ['latitude 91', facilityBody({ geoPosition: { latitude: 91, longitude: -82 } }), ['geoPosition.latitude']],
      ['longitude -181', facilityBody({ geoPosition: { latitude: 27, longitude: -181 } }), ['geoPosition.longitude']],
      ['a 4-digit zip', facilityBody({}, { zipCode: '3360' }), ['address.zipCode']],
      ['a zip with letters', facilityBody({}, { zipCode: '3360A' }), ['address.zipCode']],
      ['an unknown state', facilityBody({}, { state: 'XX' }), ['address.state']],
      ['a bad phone', facilityBody({ contacts: { phone1: 'call me' } }), ['contacts.phone1']],
      ['an unknown field', facilityBody({ color: 'blue' }), ['color']],
      ['an array', [facilityBody()], ['']],
    ];

    it.each(badBodies)('refuses %s on create and on update with 400 INV naming the field, changing nothing', async (_what, body, fields) => {
      const before = await fingerprint();
      for (const [method, path] of [['POST', '/api/facilities'], ['PUT', `/api/facilities/${id}`]]) {
        const res = await audited(method, path, { token: admin, body });
        expect(res.status).toBe(400);
        expect(res.error?.code).toBe(ErrorCode.Invalid);
        expect(res.headers.get('x-correlation-id')).toBeTruthy();
        for (const f of fields) expect(fieldsOf(res)).toContain(f);
      }
      expect(await fingerprint()).toEqual(before);
    });

    it('audits a create refused by validation with success false', async () => {
      const res = await audited('POST', '/api/facilities', { token: admin, body: facilityBody({ geoPosition: { latitude: 91, longitude: 0 } }) });
      expect(res.status).toBe(400);
      expect(await auditEntry(res)).toMatchObject({ main_action: 'Facility.Create', success: false, status_code: 400 });
    });

    it('refuses malformed JSON with a coded 400', async () => {
      const before = await fingerprint();
      const res = await audited('POST', '/api/facilities', { token: admin, body: '{"name": ' });
      expect(res.status).toBe(400);
      expect(res.error?.code).toBe(ErrorCode.Invalid);
      expect(await fingerprint()).toEqual(before);
    });

    it('answers unknown and malformed ids with 404 NTFND and changes nothing', async () => {
      const before = await fingerprint();
      for (const bad of ['987654321', 'abc', '0', '99999999999999999999']) {
        const get = await api('GET', `/api/facilities/${bad}`, { token: admin });
        expect([get.status, get.error?.code]).toEqual([404, ErrorCode.NotFound]);
        const put = await api('PUT', `/api/facilities/${bad}`, { token: admin, body: facilityBody({ name: `${PREFIX} Ghost` }) });
        expect([put.status, put.error?.code]).toEqual([404, ErrorCode.NotFound]);
        const divs = await api('GET', `/api/facilities/${bad}/divisions`, { token: admin });
        expect([divs.status, divs.error?.code]).toEqual([404, ErrorCode.NotFound]);
        const addDiv = await api('POST', `/api/facilities/${bad}/divisions`, { token: admin, body: sourceDivision() });
        expect([addDiv.status, addDiv.error?.code]).toEqual([404, ErrorCode.NotFound]);
      }
      expect(await fingerprint()).toEqual(before);
    });

    it('needs a token, and the ITP admin role for the list, create and update', async () => {
      expect((await api('GET', '/api/facilities')).status).toBe(401);
      for (const token of [facilityAdmin, facilityUser]) {
        expect((await api('GET', '/api/facilities', { token })).error?.code).toBe(ErrorCode.Forbidden);
        expect((await api('GET', '/api/facilities/lookups', { token })).status).toBe(403);
        expect((await api('POST', '/api/facilities', { token, body: facilityBody({ name: `${PREFIX} Nope` }) })).status).toBe(403);
        expect((await api('PUT', `/api/facilities/${id}`, { token, body: facilityBody() })).status).toBe(403);
      }
      expect((await db.query('SELECT 1 FROM facilities WHERE name = $1', [`${PREFIX} Nope`])).rowCount).toBe(0);
    });
  });

  describe('the list', () => {
    /** name suffix → [city, state, isActive, division types to add] */
    const SET: Array<[string, string, string, boolean, Array<'Source' | 'Referring' | 'InactiveSource'>]> = [
      ['Alpha', 'Tampa', 'FL', true, ['Source']],
      ['bravo', 'Atlanta', 'GA', true, ['Referring']],
      ['Charlie', 'Orlando', 'FL', false, []],
      ['Delta', 'Savannah', 'GA', true, ['Source', 'Referring']],
      ['echo', 'Tampa', 'FL', true, ['InactiveSource']],
      ['Foxtrot', 'Mobile', 'AL', true, []],
    ];
    const ids: Record<string, number> = {};
    const prefix = `${PREFIX} List`;
    const list = (filter: object, sort?: [string, string], range?: [number, number]) =>
      api('GET', `/api/facilities?filter=${enc({ q: prefix, ...filter })}${sort ? `&sort=${enc(sort)}` : ''}${range ? `&range=${enc(range)}` : ''}`, { token: admin });
    const names = (res: ApiResponse) => res.body.map((f: { name: string }) => f.name.replace(`${prefix} `, ''));

    beforeAll(async () => {
      for (const [suffix, city, state, isActive, divisions] of SET) {
        const res = await audited('POST', '/api/facilities', {
          token: admin,
          body: facilityBody({ name: `${prefix} ${suffix}` }, { city, state, zipCode: '30301' }),
        });
        expect(res.status).toBe(201);
        ids[suffix] = res.body.id;
        for (const kind of divisions) {
          const body = kind === 'Referring' ? referringDivision() : sourceDivision({ isActive: kind === 'Source' });
          expect((await api('POST', `/api/facilities/${res.body.id}/divisions`, { token: admin, body })).status).toBe(201);
        }
        if (!isActive) {
          const current = (await api('GET', `/api/facilities/${res.body.id}`, { token: admin })).body;
          expect((await api('PUT', `/api/facilities/${res.body.id}`, { token: admin, body: { ...current, isActive: false } })).status).toBe(200);
        }
      }
    });

    it('searches by name (case-insensitive, LIKE wildcards taken literally), default sort name ascending, with the total', async () => {
      const res = await list({});
      expect(res.status).toBe(200);
      expect(names(res)).toEqual(['Alpha', 'bravo', 'Charlie', 'Delta', 'echo', 'Foxtrot']);
      expect(res.headers.get('content-range')).toBe('facilities 0-5/6');
      expect((await list({ q: prefix.toLowerCase() + ' DELTA' })).body.map((f: any) => f.id)).toEqual([ids.Delta]);
      const wild = await list({ q: `${PREFIX} L_st` });
      expect(wild.body).toEqual([]);
      expect(wild.headers.get('content-range')).toBe('facilities */0');
    });

    it('returns the record shape with the division summary', async () => {
      const delta = (await list({ id: [ids.Delta] })).body[0];
      expect(delta).toMatchObject({
        id: ids.Delta,
        divisionTypes: ['Source', 'Referring'],
        hasActiveSourceDivision: true,
        hasActiveReferringDivision: true,
        address: { city: 'Savannah', state: 'GA', zipCode: '30301' },
      });
      const echo = (await list({ id: [ids.echo] })).body[0];
      expect(echo).toMatchObject({ divisionTypes: [], hasActiveSourceDivision: false, hasActiveReferringDivision: false });
    });

    it('returns every requested id without a range (react-admin getMany)', async () => {
      const all = Object.values(ids);
      const extra = (await db.query('SELECT id FROM facilities ORDER BY id LIMIT 30')).rows.map((r) => r.id);
      const wanted = [...new Set([...all, ...extra])];
      const res = await api('GET', `/api/facilities?filter=${enc({ id: wanted })}`, { token: admin });
      expect(res.status).toBe(200);
      expect(res.body.map((f: any) => f.id).sort()).toEqual([...wanted].sort());
    });

    it('pages with range and reports the slice and the total', async () => {
      const res = await list({}, ['name', 'ASC'], [2, 3]);
      expect(names(res)).toEqual(['Charlie', 'Delta']);
      expect(res.headers.get('content-range')).toBe('facilities 2-3/6');
      const past = await list({}, ['name', 'ASC'], [10, 19]);
      expect(past.body).toEqual([]);
      expect(past.headers.get('content-range')).toBe('facilities */6');
    });

    it('sorts by name, city, state and isActive, both ways', async () => {
      expect(names(await list({}, ['name', 'DESC']))).toEqual(['Foxtrot', 'echo', 'Delta', 'Charlie', 'bravo', 'Alpha']);
      expect(names(await list({}, ['city', 'ASC']))).toEqual(['bravo', 'Foxtrot', 'Charlie', 'Delta', 'Alpha', 'echo']);
      expect(names(await list({}, ['state', 'ASC']))).toEqual(['Foxtrot', 'Alpha', 'Charlie', 'echo', 'bravo', 'Delta']);
      expect(names(await list({}, ['state', 'DESC']))).toEqual(['Delta', 'bravo', 'echo', 'Charlie', 'Alpha', 'Foxtrot']);
      expect(names(await list({}, ['isActive', 'ASC']))).toEqual(['Charlie', 'Alpha', 'bravo', 'Delta', 'echo', 'Foxtrot']);
      expect(names(await list({}, ['isActive', 'DESC']))).toEqual(['Foxtrot', 'echo', 'Delta', 'bravo', 'Alpha', 'Charlie']);
    });

    it('filters by showActiveOnly, states, cities, division type and ids', async () => {
      const check = async (filter: object, expected: string[]) => {
        const res = await list(filter);
        expect(res.status).toBe(200);
        expect(names(res)).toEqual(expected);
        expect(res.headers.get('content-range')).toBe(expected.length ? `facilities 0-${expected.length - 1}/${expected.length}` : 'facilities */0');
      };
      await check({ showActiveOnly: true }, ['Alpha', 'bravo', 'Delta', 'echo', 'Foxtrot']);
      await check({ showActiveOnly: false }, ['Alpha', 'bravo', 'Charlie', 'Delta', 'echo', 'Foxtrot']);
      await check({ states: ['GA', 'AL'] }, ['bravo', 'Delta', 'Foxtrot']);
      await check({ cities: ['tampa', 'MOBILE'] }, ['Alpha', 'echo', 'Foxtrot']);
      await check({ divisionType: 'Source' }, ['Alpha', 'Delta']);
      await check({ divisionType: 'Referring' }, ['bravo', 'Delta']);
      await check({ divisionType: 'NoDivisionSpecified' }, ['Charlie', 'echo', 'Foxtrot']);
      await check({ divisionType: 'Referring', includeNoDivisionSpecified: true }, ['bravo', 'Charlie', 'Delta', 'echo', 'Foxtrot']);
      await check({ id: [ids.echo, ids.Alpha] }, ['Alpha', 'echo']);
      await check({ states: ['FL'], showActiveOnly: true, divisionType: 'NoDivisionSpecified' }, ['echo']);
    });

    it('agrees with the database for every sort, with and without a name search, on every page', async () => {
      const orderSql: Record<string, string> = {
        name: 'lower(name) D, id D',
        city: 'lower(city) D, lower(name) D, id D',
        state: 'state D, lower(name) D, id D',
        isActive: 'is_active D, lower(name) D, id D',
      };
      // states only: the index-order plan; with a 3+ character search: the read-once plan.
      for (const [filter, where, params] of [
        [{ states: ['GA', 'AL'], q: null }, `state IN ('GA', 'AL')`, []],
        [{ states: ['GA', 'AL'] }, `state IN ('GA', 'AL') AND name LIKE $1`, [`${prefix}%`]],
      ] as Array<[object, string, unknown[]]>)
        for (const [field, sql] of Object.entries(orderSql))
          for (const dir of ['ASC', 'DESC']) {
            const { rows } = await db.query(`SELECT id FROM facilities WHERE ${where} ORDER BY ${sql.replace(/D/g, dir)}`, params);
            const expected = rows.map((r) => r.id);
            const first = await list(filter, [field, dir], [0, 2]);
            expect([field, dir, first.body.map((f: any) => f.id)]).toEqual([field, dir, expected.slice(0, 3)]);
            expect(first.headers.get('content-range')).toBe(`facilities 0-${Math.min(2, expected.length - 1)}/${expected.length}`);
            const second = await list(filter, [field, dir], [3, 5]);
            expect(second.body.map((f: any) => f.id)).toEqual(expected.slice(3, 6));
          }
    });

    it('lookups: id, name, city and state, the flags; sorted by name; filtered like the list', async () => {
      const res = await audited('GET', `/api/facilities/lookups?filter=${enc({ q: prefix, showActiveOnly: true, states: ['GA'] })}`, { token: admin });
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        { id: ids.bravo, name: `${prefix} bravo`, isActive: true, address: { city: 'Atlanta', state: 'GA' }, hasActiveSourceDivision: false, hasActiveReferringDivision: true },
        { id: ids.Delta, name: `${prefix} Delta`, isActive: true, address: { city: 'Savannah', state: 'GA' }, hasActiveSourceDivision: true, hasActiveReferringDivision: true },
      ]);
      const plain = await api('GET', `/api/facilities/lookups?q=${encodeURIComponent(prefix)}&divisionType=Source`, { token: admin });
      expect(plain.body.map((f: any) => f.id)).toEqual([ids.Alpha, ids.Delta]);
    });

    it('refuses a bad sort, range or filter with 400 INV', async () => {
      const bad = [
        `sort=${enc(['zipCode', 'ASC'])}`,
        `sort=${enc(['name', 'UP'])}`,
        'sort=name',
        `range=${enc([5, 1])}`,
        `range=${enc([-1, 5])}`,
        'range=[0,',
        `filter=${enc({ states: ['XX'] })}`,
        `filter=${enc({ divisionType: 'Both' })}`,
        `filter=${enc({ showActiveOnly: 'yes' })}`,
        `filter=${enc({ id: ['a'] })}`,
        `filter=${enc({ unknown: 1 })}`,
        `filter=${enc({ q: 'x'.repeat(256) })}`,
        `filter=${enc([1])}`,
      ];
      for (const query of bad) {
        const res = await audited('GET', `/api/facilities?${query}`, { token: admin });
        expect([query, res.status, res.error?.code]).toEqual([query, 400, ErrorCode.Invalid]);
      }
    });
  });

  describe('divisions', () => {
    let facilityId: number;
    let otherFacilityId: number;
    let sourceId: number;
    let referringId: number;
    const divisions = (path = '') => `/api/facilities/${facilityId}/divisions${path}`;

    beforeAll(async () => {
      facilityId = (await api('POST', '/api/facilities', { token: admin, body: facilityBody({ name: `${PREFIX} Divisions` }) })).body.id;
      otherFacilityId = (await api('POST', '/api/facilities', { token: admin, body: facilityBody({ name: `${PREFIX} Other` }) })).body.id;
    });

    it('creates a Source division keeping only Source fields', async () => {
      const res = await audited('POST', divisions(), {
        token: admin,
        body: sourceDivision({ noPlacement: true, documentInEHR: false, referringType: 'DetoxUnit', genders: ['Male'], score: 50 }),
      });
      expect(res.status).toBe(201);
      sourceId = res.body.id;
      expect(res.body).toMatchObject({
        facilityId, name: 'Emergency Department', type: 'Source', sourceType: 'ErCrisis', requestTypes: ['Assessment', 'PhoneConsultation'],
        noPlacement: false, // no "no placement" without documentInEHR
        referringType: null, genders: null, score: null, criteria: null, acceptedPatients: null, veteranOnly: null,
      });
      const audit = await auditEntry(res);
      expect(audit).toMatchObject({ main_action: 'Division.Create', success: true, facility_id: facilityId });
      expect(audit.values).toMatchObject({ facilityId, divisionId: sourceId, divisionName: 'Emergency Department', isActive: true });
    });

    it('creates a Referring division keeping only Referring fields, score 70 by default', async () => {
      const { score: _omit, ...body } = referringDivision({ referringType: 'Outpatient', criteria: ['SubstanceAbuse'], sourceType: 'ErCrisis', requestTypes: ['Assessment'] });
      const res = await audited('POST', divisions(), { token: admin, body });
      expect(res.status).toBe(201);
      referringId = res.body.id;
      expect(res.body).toMatchObject({
        type: 'Referring', referringType: 'Outpatient', criteria: ['SubstanceAbuse'], score: 70, genders: ['Female', 'Male'],
        acceptedPatients: { allAges: false, adult: { isActive: true, from: 18, to: 64 }, adolescent: { isActive: false, from: null, to: null } },
        sourceType: null, requestTypes: null, documentInEHR: null,
      });
      const row = (await db.query('SELECT score, source_type FROM divisions WHERE id = $1', [referringId])).rows[0];
      expect(row).toEqual({ score: 70, source_type: null });
    });

    it('refuses divisions that break the type rules with 400 INV naming the fields', async () => {
      const before = await fingerprint();
      const cases: Array<[unknown, string[]]> = [
        [sourceDivision({ name: 'S1', sourceType: null, requestTypes: [] }), ['requestTypes', 'sourceType']],
        [sourceDivision({ name: 'S2', contacts: {} }), ['contacts.phone1']],
        [referringDivision({ name: 'R1', contacts: { phone1: '+18135550100' } }), ['contacts.fax1']],
        [referringDivision({ name: 'R2', referringType: 'IntensiveOutpatient', criteria: [] }), ['criteria']],
        [referringDivision({ name: 'R3', referringType: 'DetoxUnit', criteria: ['MentalHealth'] }), ['criteria']],
        [referringDivision({ name: 'R4', genders: [] }), ['genders']],
        [referringDivision({ name: 'R4', score: 101 }), ['score']],
        [referringDivision({ name: 'R4', score: null }), ['score']],
        [referringDivision({ name: 'R5', acceptedPatients: { allAges: false } }), ['acceptedPatients']],
        [referringDivision({ name: 'R6', acceptedPatients: { allAges: false, adult: { isActive: true, from: 40, to: 30 } } }), ['acceptedPatients.adult.to']],
        [referringDivision({ name: 'R7', veteranOnly: null }), ['veteranOnly']],
        [{ ...sourceDivision({ name: 'x'.repeat(256) }) }, ['name']],
        [{ ...sourceDivision({ type: 'Both' }) }, ['type']],
      ];
      for (const [body, fields] of cases) {
        const res = await audited('POST', divisions(), { token: admin, body });
        expect([res.status, res.error?.code]).toEqual([400, ErrorCode.Invalid]);
        expect(fieldsOf(res)).toEqual(expect.arrayContaining(fields));
      }
      expect(await fingerprint()).toEqual(before);
    });

    it('refuses a duplicate division name in the same facility (any case) with 409, allows it in another', async () => {
      const before = await fingerprint();
      const res = await audited('POST', divisions(), { token: admin, body: sourceDivision({ name: 'EMERGENCY department' }) });
      expect([res.status, res.error?.code]).toEqual([409, ErrorCode.NotUnique]);
      expect(fieldsOf(res)).toEqual(['name']);
      expect(await fingerprint()).toEqual(before);
      const audit = await auditEntry(res);
      expect(audit).toMatchObject({ main_action: 'Division.Create', success: false, status_code: 409 });
      const elsewhere = await api('POST', `/api/facilities/${otherFacilityId}/divisions`, { token: admin, body: sourceDivision() });
      expect(elsewhere.status).toBe(201);
    });

    it('edits a division; type and subtype cannot change; a taken name is refused', async () => {
      const ok = await audited('PUT', divisions(`/${sourceId}`), { token: admin, body: sourceDivision({ name: 'ER Crisis', documentInEHR: true, noPlacement: true }) });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ id: sourceId, name: 'ER Crisis', documentInEHR: true, noPlacement: true });
      expect((await auditEntry(ok)).values).toMatchObject({ facilityId, divisionId: sourceId, divisionName: 'ER Crisis' });

      const before = await fingerprint();
      const typeChange = await api('PUT', divisions(`/${sourceId}`), { token: admin, body: referringDivision({ name: 'ER Crisis' }) });
      expect([typeChange.status, typeChange.error?.code, fieldsOf(typeChange)]).toEqual([400, ErrorCode.Invalid, ['type']]);
      const subtypeChange = await api('PUT', divisions(`/${sourceId}`), { token: admin, body: sourceDivision({ name: 'ER Crisis', sourceType: 'MedFloor' }) });
      expect([subtypeChange.status, fieldsOf(subtypeChange)]).toEqual([400, ['sourceType']]);
      const referringSubtype = await api('PUT', divisions(`/${referringId}`), { token: admin, body: referringDivision({ referringType: 'DetoxUnit' }) });
      expect([referringSubtype.status, fieldsOf(referringSubtype)]).toEqual([400, ['referringType']]);
      const taken = await api('PUT', divisions(`/${referringId}`), {
        token: admin,
        body: referringDivision({ name: 'er crisis', referringType: 'Outpatient', criteria: ['SubstanceAbuse'] }),
      });
      expect([taken.status, taken.error?.code, fieldsOf(taken)]).toEqual([409, ErrorCode.NotUnique, ['name']]);
      expect(await fingerprint()).toEqual(before);
    });

    it('reads a division; one of another facility or an unknown id is 404', async () => {
      expect((await api('GET', divisions(`/${sourceId}`), { token: admin })).body).toMatchObject({ id: sourceId, facilityId });
      for (const path of [`/api/facilities/${otherFacilityId}/divisions/${sourceId}`, divisions('/987654321'), divisions('/abc')]) {
        const res = await audited('GET', path, { token: admin });
        expect([res.status, res.error?.code]).toEqual([404, ErrorCode.NotFound]);
      }
      const before = await fingerprint();
      const put = await api('PUT', `/api/facilities/${otherFacilityId}/divisions/${sourceId}`, { token: admin, body: sourceDivision({ name: 'Moved' }) });
      expect([put.status, put.error?.code]).toEqual([404, ErrorCode.NotFound]);
      expect(await fingerprint()).toEqual(before);
    });

    it('lists divisions with search, type and active filters and sorts; lookups', async () => {
      await api('POST', divisions(), { token: admin, body: sourceDivision({ name: 'Med Floor', sourceType: 'MedFloor', isActive: false }) });
      const get = (q: string) => api('GET', divisions(q), { token: admin });
      const all = await get('');
      expect(all.body.map((d: any) => d.name)).toEqual(['Adult Inpatient', 'ER Crisis', 'Med Floor']);
      expect(all.headers.get('content-range')).toBe('divisions 0-2/3');
      expect((await get(`?filter=${enc({ type: 'Source' })}`)).body.map((d: any) => d.name)).toEqual(['ER Crisis', 'Med Floor']);
      expect((await get(`?filter=${enc({ showActiveOnly: true })}`)).body.map((d: any) => d.name)).toEqual(['Adult Inpatient', 'ER Crisis']);
      expect((await get(`?filter=${enc({ q: 'FLOOR' })}`)).body.map((d: any) => d.name)).toEqual(['Med Floor']);
      expect((await get(`?sort=${enc(['type', 'DESC'])}`)).body.map((d: any) => d.name)).toEqual(['Med Floor', 'ER Crisis', 'Adult Inpatient']);
      expect((await get(`?sort=${enc(['isActive', 'ASC'])}&range=${enc([0, 0])}`)).headers.get('content-range')).toBe('divisions 0-0/3');
      expect((await get(`?sort=${enc(['phone', 'ASC'])}`)).status).toBe(400);
      expect((await get(`?filter=${enc({ type: 'Other' })}`)).status).toBe(400);
      const lookups = await get(`/lookups?filter=${enc({ showActiveOnly: true })}`);
      expect(lookups.body).toEqual([
        { id: referringId, name: 'Adult Inpatient', isActive: true, type: 'Referring' },
        { id: sourceId, name: 'ER Crisis', isActive: true, type: 'Source' },
      ]);
      const facility = (await api('GET', `/api/facilities/${facilityId}`, { token: admin })).body;
      expect(facility).toMatchObject({ divisionTypes: ['Source', 'Referring'], hasActiveSourceDivision: true, hasActiveReferringDivision: true });
    });
  });

  describe('deactivation guards', () => {
    it('refuses to deactivate a facility with active divisions, then one in a group organization', async () => {
      const created = await api('POST', '/api/facilities', { token: admin, body: facilityBody({ name: `${PREFIX} Guarded` }) });
      const id = created.body.id;
      const division = await api('POST', `/api/facilities/${id}/divisions`, { token: admin, body: sourceDivision() });
      const group = await db.query(`INSERT INTO group_organizations (name, states) VALUES ($1, '{FL}') RETURNING id`, [`${PREFIX} Review Group`]);
      await db.query(`INSERT INTO group_organization_facilities (group_id, facility_id, kind) VALUES ($1, $2, 'included')`, [group.rows[0].id, id]);

      const before = await fingerprint();
      const withDivisions = await api('PUT', `/api/facilities/${id}`, { token: admin, body: { ...created.body, isActive: false } });
      expect([withDivisions.status, withDivisions.error?.code]).toEqual([409, ErrorCode.DeactivateFacilityWithActiveDivisions]);
      expect(await fingerprint()).toEqual(before);

      expect((await api('PUT', `/api/facilities/${id}/divisions/${division.body.id}`, { token: admin, body: sourceDivision({ isActive: false }) })).status).toBe(200);
      const inGroup = await api('PUT', `/api/facilities/${id}`, { token: admin, body: { ...created.body, isActive: false } });
      expect([inGroup.status, inGroup.error?.code]).toEqual([409, ErrorCode.DeactivateFacilityWithGroups]);
      expect(inGroup.body.payload).toEqual([`${PREFIX} Review Group`]);
      expect(JSON.parse(decodeURIComponent(inGroup.error!.payload as string))).toEqual([`${PREFIX} Review Group`]);
      expect((await db.query('SELECT is_active FROM facilities WHERE id = $1', [id])).rows[0].is_active).toBe(true);

      await db.query('DELETE FROM group_organization_facilities WHERE facility_id = $1', [id]);
      const ok = await audited('PUT', `/api/facilities/${id}`, { token: admin, body: { ...created.body, isActive: false } });
      expect([ok.status, ok.body.isActive]).toEqual([200, false]);
      expect((await auditEntry(ok)).values).toMatchObject({ facilityId: id, isActive: false });
    });
  });

  describe('the facility admin', () => {
    it('reads her own facility and its divisions, not another one', async () => {
      const own = await api('GET', `/api/facilities/${ownFacilityId}`, { token: facilityAdmin });
      expect([own.status, own.body.id]).toEqual([200, ownFacilityId]);
      const ownDivisions = await api('GET', `/api/facilities/${ownFacilityId}/divisions`, { token: facilityAdmin });
      expect(ownDivisions.status).toBe(200);
      expect(ownDivisions.body.every((d: any) => d.facilityId === ownFacilityId)).toBe(true);
      expect((await api('GET', `/api/facilities/${ownFacilityId}/divisions/lookups`, { token: facilityAdmin })).status).toBe(200);

      const other = (await db.query('SELECT id FROM facilities WHERE id <> $1 ORDER BY id LIMIT 1', [ownFacilityId])).rows[0].id;
      for (const path of [`/api/facilities/${other}`, `/api/facilities/${other}/divisions`, `/api/facilities/${other}/divisions/lookups`]) {
        const res = await audited('GET', path, { token: facilityAdmin });
        expect([path, res.status, res.error?.code]).toEqual([path, 403, ErrorCode.Forbidden]);
      }
      // A facility user has no facility-admin reach, even on her own facility.
      expect((await api('GET', `/api/facilities/${ownFacilityId}`, { token: facilityUser })).status).toBe(403);
    });

    it('changes only MFA, and only on her own facility', async () => {
      const own = (await api('GET', `/api/facilities/${ownFacilityId}`, { token: facilityAdmin })).body;
      const before = await fingerprint();
      const put = await api('PUT', `/api/facilities/${ownFacilityId}`, { token: facilityAdmin, body: { ...own, description: 'Hacked' } });
      expect(put.status).toBe(403);
      const addDivision = await api('POST', `/api/facilities/${ownFacilityId}/divisions`, { token: facilityAdmin, body: sourceDivision({ name: 'Sneaky' }) });
      expect(addDivision.status).toBe(403);
      const other = (await db.query('SELECT id, is_mfa_enabled FROM facilities WHERE id <> $1 ORDER BY id LIMIT 1', [ownFacilityId])).rows[0];
      const otherMfa = await audited('PUT', `/api/facilities/${other.id}/settings/mfa`, { token: facilityAdmin, body: { isMfaEnabled: !other.is_mfa_enabled } });
      expect([otherMfa.status, otherMfa.error?.code]).toEqual([403, ErrorCode.Forbidden]);
      expect((await auditEntry(otherMfa)).success).toBe(false);
      expect(await fingerprint()).toEqual(before);

      const bad = await api('PUT', `/api/facilities/${ownFacilityId}/settings/mfa`, { token: facilityAdmin, body: { isMfaEnabled: 'yes' } });
      expect([bad.status, fieldsOf(bad)]).toEqual([400, ['isMfaEnabled']]);
      const extra = await api('PUT', `/api/facilities/${ownFacilityId}/settings/mfa`, { token: facilityAdmin, body: { isMfaEnabled: true, name: 'x' } });
      expect(extra.status).toBe(400);

      try {
        const on = await audited('PUT', `/api/facilities/${ownFacilityId}/settings/mfa`, { token: facilityAdmin, body: { isMfaEnabled: !own.isMfaEnabled } });
        expect([on.status, on.body.isMfaEnabled, on.body.name]).toEqual([200, !own.isMfaEnabled, own.name]);
        const audit = await auditEntry(on);
        expect(audit).toMatchObject({ main_action: 'Facility.UpdateMfa', success: true, facility_id: ownFacilityId });
        expect((await db.query('SELECT is_mfa_enabled FROM facilities WHERE id = $1', [ownFacilityId])).rows[0].is_mfa_enabled).toBe(!own.isMfaEnabled);
      } finally {
        // Put it back at once: the facility's users would otherwise need a sign-in code.
        await db.query('UPDATE facilities SET is_mfa_enabled = $2 WHERE id = $1', [ownFacilityId, own.isMfaEnabled]);
      }
      const byAdmin = await api('PUT', `/api/facilities/${ownFacilityId}/settings/mfa`, { token: admin, body: { isMfaEnabled: own.isMfaEnabled } });
      expect(byAdmin.status).toBe(200);
    });
  });
});
