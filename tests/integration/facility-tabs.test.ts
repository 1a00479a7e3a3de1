import { ErrorCode, UserType } from '@crisis/forms';
import { api } from '../support/api';
import { audited, auditEntry, enc, fieldsOf } from '../support/audit';
import { db } from '../support/db';
import { signInAs } from '../support/oidc-client';

/**
 * The ITP admin's facility detail tabs (spec 03 §2, §3, §5, §7): credentialed providers,
 * preferred facilities, evaluation forms, state restrictions, and the division deactivation guard.
 * Each call against the running API and its database: rules, coded errors, role gate and audit.
 */

const RUN = Date.now().toString(36).toUpperCase();
const PREFIX = `QA TABS ${RUN}`;

let zip = 30000 + Math.floor(Math.random() * 5000);
function facilityBody(name: string) {
  return {
    name: `${PREFIX} ${name}`,
    allowReferringDivisionsAccess: false,
    allowPlacementOnlyCases: false,
    isActive: true,
    isMfaEnabled: false,
    isGeoPositionManually: true,
    address: { streetLine: '1 Tab St', city: 'Macon', state: 'GA', zipCode: String(zip++) },
    geoPosition: { latitude: 32.84, longitude: -83.63 },
    contacts: { phone1: '(478) 555-0100' },
  };
}
const source = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  type: 'Source',
  isActive: true,
  contacts: { phone1: '(478) 555-0101' },
  sourceType: 'ErCrisis',
  requestTypes: ['Assessment'],
  documentInEHR: false,
  noPlacement: false,
  outcomeRequired: true,
  showBillingCode: false,
  ...extra,
});
const referring = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  type: 'Referring',
  isActive: true,
  contacts: { phone1: '(478) 555-0102', fax1: '(478) 555-0103' },
  referringType: 'MentalHealthInpatient',
  criteria: null,
  acceptedPatients: { allAges: true },
  genders: ['Female', 'Male'],
  veteranOnly: false,
  extendMaximumCallbackTime: false,
  score: 70,
  ...extra,
});
const ADULTS = { allAges: false, adult: { isActive: true, from: 18, to: 64 } };

describe('facility detail tabs', () => {
  let admin: string;
  let facilityAdmin: string;
  let facilityId: number;
  let otherFacilityId: number;
  let sourceA: number;
  let sourceB: number;
  let inactiveSource: number;
  let referringDiv: number;
  let foreignSource: number;
  let providerId: number;
  let provider2Id: number;
  let coordinatorId: number;

  async function createFacility(name: string) {
    const res = await api('POST', '/api/facilities', { token: admin, body: facilityBody(name) });
    expect(res.status).toBe(201);
    return res.body.id as number;
  }
  async function createDivision(fid: number, body: unknown) {
    const res = await api('POST', `/api/facilities/${fid}/divisions`, { token: admin, body });
    expect(res.status).toBe(201);
    return res.body.id as number;
  }
  async function newProvider(n: number) {
    const { rows } = await db.query(
      `INSERT INTO users (first_name, last_name, email, organization_type, user_type, is_active, email_confirmed, provider_info)
       VALUES ($1, $2, $3, 'IntegratedTelehealthPartners', $4, true, true, '{"providerType":"MD","npi":"1"}') RETURNING id`,
      [`Qa${n}`, `${PREFIX} Provider`, `qa-tabs-${RUN.toLowerCase()}-${n}@example.org`, UserType.ItpProvider],
    );
    return rows[0].id as number;
  }

  beforeAll(async () => {
    admin = (await signInAs(UserType.ItpAdmin)).accessToken;
    facilityAdmin = (await signInAs(UserType.FacilityAdmin)).accessToken;
    facilityId = await createFacility('Home');
    otherFacilityId = await createFacility('Other');
    sourceA = await createDivision(facilityId, source('ER A'));
    sourceB = await createDivision(facilityId, source('ER B'));
    inactiveSource = await createDivision(facilityId, source('ER closed', { isActive: false }));
    referringDiv = await createDivision(facilityId, referring('Inpatient'));
    foreignSource = await createDivision(otherFacilityId, source('Foreign ER'));
    providerId = await newProvider(1);
    provider2Id = await newProvider(2);
    coordinatorId = (await db.query(`SELECT id FROM users WHERE user_type = $1 LIMIT 1`, [UserType.ItpUser])).rows[0].id;
  });

  afterAll(async () => {
    await db.end();
  });

  describe('credentialed providers', () => {
    const path = () => `/api/facilities/${facilityId}/credentialed-providers`;
    const body = (extra: Record<string, unknown> = {}) => ({
      providerId,
      divisionsIds: [sourceA],
      addToNewDivisions: false,
      acceptedPatients: ADULTS,
      ...extra,
    });

    it('offers active ITP providers not yet credentialed', async () => {
      const res = await api('GET', `${path()}/available-providers`, { token: admin });
      expect(res.status).toBe(200);
      const ids = res.body.map((p: { id: number }) => p.id);
      expect(ids).toEqual(expect.arrayContaining([providerId, provider2Id]));
      expect(ids).not.toContain(coordinatorId);
    });

    it('validates the body: providerId required, divisionsIds non-empty, addToNewDivisions required, accepted patients', async () => {
      let res = await api('POST', path(), { token: admin, body: { divisionsIds: [], acceptedPatients: { allAges: false } } });
      expect(res.status).toBe(400);
      expect(res.error?.code).toBe(ErrorCode.Invalid);
      expect(fieldsOf(res)).toEqual(expect.arrayContaining(['addToNewDivisions', 'divisionsIds', 'providerId']));
      res = await api('POST', path(), { token: admin, body: body({ acceptedPatients: { allAges: false } }) });
      expect(res.status).toBe(400);
      expect(fieldsOf(res)).toContain('acceptedPatients');
    });

    it('refuses a user who is not an ITP provider', async () => {
      const res = await api('POST', path(), { token: admin, body: body({ providerId: coordinatorId }) });
      expect(res.status).toBe(400);
      expect(fieldsOf(res)).toEqual(['providerId']);
    });

    it('refuses divisions that are not active Source divisions of this facility', async () => {
      for (const d of [inactiveSource, referringDiv, foreignSource]) {
        const res = await api('POST', path(), { token: admin, body: body({ divisionsIds: [sourceA, d] }) });
        expect([d, res.status, fieldsOf(res)]).toEqual([d, 400, ['divisionsIds']]);
      }
      expect((await db.query('SELECT count(*)::int AS n FROM credentialed_providers WHERE facility_id = $1', [facilityId])).rows[0].n).toBe(0);
    });

    it('adds a provider, audits it, and lists it', async () => {
      const res = await audited('POST', path(), { token: admin, body: body() });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        id: providerId,
        provider: { id: providerId, fullName: `Qa1 ${PREFIX} Provider`, providerType: 'MD' },
        divisions: [{ id: sourceA, name: 'ER A' }],
        addToNewDivisions: false,
        acceptedPatients: { allAges: false, adult: { isActive: true, from: 18, to: 64 } },
      });
      const audit = await auditEntry(res);
      expect(audit).toMatchObject({ main_action: 'CredentialedProvider.Create', success: true, facility_id: facilityId });
      const list = await api('GET', path(), { token: admin });
      expect(list.status).toBe(200);
      expect(list.body.map((r: { id: number }) => r.id)).toEqual([providerId]);
      expect(list.headers.get('content-range')).toMatch(/\/1$/);
    });

    it('refuses the same provider twice (INV.NOT.UNIQ) and no longer offers him, except when editing him', async () => {
      const res = await api('POST', path(), { token: admin, body: body() });
      expect(res.status).toBe(409);
      expect(res.error?.code).toBe(ErrorCode.NotUnique);
      const offered = (await api('GET', `${path()}/available-providers`, { token: admin })).body.map((p: { id: number }) => p.id);
      expect(offered).not.toContain(providerId);
      const editing = (await api('GET', `${path()}/available-providers?exceptProviderId=${providerId}`, { token: admin })).body.map((p: { id: number }) => p.id);
      expect(editing).toContain(providerId);
    });

    it('searches by name and by divisions', async () => {
      expect((await api('POST', path(), { token: admin, body: body({ providerId: provider2Id, divisionsIds: [sourceB] }) })).status).toBe(201);
      const byName = await api('GET', `${path()}?filter=${enc({ q: 'qa2' })}`, { token: admin });
      expect(byName.body.map((r: { id: number }) => r.id)).toEqual([provider2Id]);
      const byDivision = await api('GET', `${path()}?filter=${enc({ divisionsIds: [sourceA] })}`, { token: admin });
      expect(byDivision.body.map((r: { id: number }) => r.id)).toEqual([providerId]);
      const bad = await api('GET', `${path()}?filter=${enc({ divisionsIds: ['x'] })}`, { token: admin });
      expect(bad.status).toBe(400);
    });

    it("serves a division's look-ups (spec 03 §7): its credentialed providers by name, its request types in order", async () => {
      const lookups = (divisionId: number, what: string, token = admin) =>
        api('GET', `/api/facilities/${facilityId}/divisions/${divisionId}/${what}/lookups`, { token });
      const a = await lookups(sourceA, 'credentialed-providers');
      expect([a.status, a.body]).toEqual([200, [{ id: providerId, fullName: `Qa1 ${PREFIX} Provider`, providerType: 'MD' }]]);
      expect((await lookups(sourceB, 'credentialed-providers')).body.map((p: { id: number }) => p.id)).toEqual([provider2Id]);
      expect((await lookups(referringDiv, 'credentialed-providers')).body).toEqual([]);

      const several = await createDivision(facilityId, source('ER types', { isActive: false, requestTypes: ['FileReview', 'PhoneConsultation', 'Assessment'] }));
      const types = await lookups(several, 'request-types');
      expect([types.status, types.body]).toEqual([200, ['PhoneConsultation', 'Assessment', 'FileReview']]);
      expect((await lookups(referringDiv, 'request-types')).body).toEqual([]);

      // A division of another facility is not found here; another facility's admin may not look.
      for (const what of ['credentialed-providers', 'request-types']) {
        const foreign = await lookups(foreignSource, what);
        expect([what, foreign.status, foreign.error?.code]).toEqual([what, 404, ErrorCode.NotFound]);
        const notHers = await lookups(sourceA, what, facilityAdmin);
        expect([what, notHers.status, notHers.error?.code]).toEqual([what, 403, ErrorCode.Forbidden]);
      }
    });

    it('updates divisions and flags; the provider of the row cannot change', async () => {
      let res = await audited('PUT', `${path()}/${providerId}`, { token: admin, body: body({ divisionsIds: [sourceA, sourceB], addToNewDivisions: true, acceptedPatients: { allAges: true } }) });
      expect(res.status).toBe(200);
      expect(res.body.divisions.map((d: { id: number }) => d.id).sort()).toEqual([sourceA, sourceB].sort());
      expect(res.body).toMatchObject({ addToNewDivisions: true, acceptedPatients: { allAges: true } });
      expect((await auditEntry(res)).main_action).toBe('CredentialedProvider.Update');
      res = await api('PUT', `${path()}/${providerId}`, { token: admin, body: body({ providerId: provider2Id }) });
      expect(res.status).toBe(400);
      expect(fieldsOf(res)).toEqual(['providerId']);
      res = await api('PUT', `${path()}/987654321`, { token: admin, body: body({ providerId: 987654321 }) });
      expect(res.status).toBe(404);
    });

    it('gives a new active Source division to providers with addToNewDivisions, and only to them', async () => {
      const newDiv = await createDivision(facilityId, source('ER new'));
      const p1 = (await api('GET', `${path()}/${providerId}`, { token: admin })).body;
      const p2 = (await api('GET', `${path()}/${provider2Id}`, { token: admin })).body;
      expect(p1.divisions.map((d: { id: number }) => d.id)).toContain(newDiv);
      expect(p2.divisions.map((d: { id: number }) => d.id)).not.toContain(newDiv);
      const newReferring = await createDivision(facilityId, referring('Inpatient 2'));
      const again = (await api('GET', `${path()}/${providerId}`, { token: admin })).body;
      expect(again.divisions.map((d: { id: number }) => d.id)).not.toContain(newReferring);
    });

    it('refuses to deactivate a division with credentialed providers, naming them', async () => {
      const div = (await api('GET', `/api/facilities/${facilityId}/divisions/${sourceB}`, { token: admin })).body;
      const res = await api('PUT', `/api/facilities/${facilityId}/divisions/${sourceB}`, { token: admin, body: { ...div, isActive: false } });
      expect(res.status).toBe(409);
      expect(res.error?.code).toBe(ErrorCode.DeactivateDivisionWithCredentialedProviders);
      const payload = res.body.payload as Array<{ id: number; fullName: string }>;
      expect(JSON.parse(decodeURIComponent(res.error?.payload as string))).toEqual(payload);
      expect(payload.map((p) => p.id).sort()).toEqual([providerId, provider2Id].sort());
      expect(payload.map((p) => p.fullName)).toContain(`Qa2 ${PREFIX} Provider`);
      expect((await db.query('SELECT is_active FROM divisions WHERE id = $1', [sourceB])).rows[0].is_active).toBe(true);
    });

    it('removes a provider (audited); a second removal is 404', async () => {
      const res = await audited('DELETE', `${path()}/${provider2Id}`, { token: admin });
      expect(res.status).toBe(200);
      expect((await auditEntry(res)).main_action).toBe('CredentialedProvider.Delete');
      expect((await api('DELETE', `${path()}/${provider2Id}`, { token: admin })).status).toBe(404);
      expect((await api('GET', `${path()}/${provider2Id}`, { token: admin })).status).toBe(404);
    });

    it('is for the ITP admin only', async () => {
      for (const [m, p] of [['GET', path()], ['POST', path()], ['DELETE', `${path()}/${providerId}`]] as const) {
        const res = await api(m, p, { token: facilityAdmin, body: m === 'POST' ? body() : undefined });
        expect([m, res.status, res.error?.code]).toEqual([m, 403, 'FRBD']);
      }
    });
  });

  describe('preferred facilities', () => {
    const path = () => `/api/facilities/${facilityId}/preferred-facilities`;
    let referringFacility: number;
    let sourceOnlyFacility: number;

    beforeAll(async () => {
      referringFacility = await createFacility('Receiving');
      await createDivision(referringFacility, referring('Beds'));
      sourceOnlyFacility = otherFacilityId; // only a Source division
    });

    it('offers only facilities with an active Referring division, not itself', async () => {
      const res = await api('GET', `${path()}/available`, { token: admin });
      expect(res.status).toBe(200);
      const ids = res.body.map((f: { id: number }) => f.id);
      expect(ids).toContain(referringFacility);
      expect(ids).not.toContain(sourceOnlyFacility);
      expect(ids).not.toContain(facilityId);
    });

    it('validates: facilityId required; itself, a facility without an active Referring division and unknown ids are refused', async () => {
      let res = await api('POST', path(), { token: admin, body: {} });
      expect([res.status, fieldsOf(res)]).toEqual([400, ['facilityId']]);
      for (const fid of [facilityId, sourceOnlyFacility, 987654321]) {
        res = await api('POST', path(), { token: admin, body: { facilityId: fid } });
        expect([fid, res.status, fieldsOf(res)]).toEqual([fid, 400, ['facilityId']]);
      }
    });

    it('adds one (audited), lists it paged at 10, refuses it twice, and stops offering it', async () => {
      const res = await audited('POST', path(), { token: admin, body: { facilityId: referringFacility } });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ id: referringFacility, name: `${PREFIX} Receiving`, divisions: [{ name: 'Beds', type: 'Referring' }] });
      expect((await auditEntry(res)).main_action).toBe('PreferredFacility.Create');
      const list = await api('GET', path(), { token: admin });
      expect(list.body.map((f: { id: number }) => f.id)).toEqual([referringFacility]);
      expect(list.headers.get('content-range')).toBe('preferred-facilities 0-0/1');
      const twice = await api('POST', path(), { token: admin, body: { facilityId: referringFacility } });
      expect([twice.status, twice.error?.code]).toEqual([409, ErrorCode.NotUnique]);
      const offered = (await api('GET', `${path()}/available`, { token: admin })).body.map((f: { id: number }) => f.id);
      expect(offered).not.toContain(referringFacility);
    });

    it('removes it (audited); removing again is 404', async () => {
      const res = await audited('DELETE', `${path()}/${referringFacility}`, { token: admin });
      expect(res.status).toBe(200);
      expect((await auditEntry(res)).main_action).toBe('PreferredFacility.Delete');
      expect((await api('DELETE', `${path()}/${referringFacility}`, { token: admin })).status).toBe(404);
      expect((await api('GET', path(), { token: admin })).body).toEqual([]);
    });

    it('is for the ITP admin only; an unknown facility is 404', async () => {
      expect((await api('GET', path(), { token: facilityAdmin })).status).toBe(403);
      expect((await api('GET', '/api/facilities/987654321/preferred-facilities', { token: admin })).status).toBe(404);
    });
  });

  describe('evaluation forms', () => {
    const path = () => `/api/facilities/${facilityId}/evaluation-forms`;
    let forms: Array<{ id: number; name: string; isDefault: boolean }>;

    it('lists the evaluation forms, the two seeded defaults among them', async () => {
      const res = await api('GET', '/api/evaluation-forms', { token: admin });
      expect(res.status).toBe(200);
      forms = res.body;
      expect(forms.map((f) => f.name)).toContain('Default Assessment Form- Including Crisis Services');
      expect(forms.filter((f) => f.isDefault).length).toBeGreaterThanOrEqual(2);
      expect((await api('GET', '/api/evaluation-forms', { token: facilityAdmin })).status).toBe(403);
    });

    it('has one row per request type, unsaved at first', async () => {
      const res = await api('GET', path(), { token: admin });
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(9);
      expect(res.body[0]).toEqual({ id: null, requestType: 'PhoneConsultation', evaluationFormId: null, isAthenaBilled: false });
    });

    it('saves a row (audited) and saves it again in place', async () => {
      let res = await audited('PUT', path(), { token: admin, body: { requestType: 'Assessment', evaluationFormId: forms[0].id, isAthenaBilled: true } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ requestType: 'Assessment', evaluationFormId: forms[0].id, isAthenaBilled: true });
      expect((await auditEntry(res)).main_action).toBe('Facility.UpdateEvaluationForm');
      res = await api('PUT', path(), { token: admin, body: { requestType: 'Assessment', evaluationFormId: null, isAthenaBilled: false } });
      expect(res.status).toBe(200);
      const rows = (await api('GET', path(), { token: admin })).body;
      expect(rows.find((r: { requestType: string }) => r.requestType === 'Assessment')).toMatchObject({ evaluationFormId: null, isAthenaBilled: false });
      expect((await db.query('SELECT count(*)::int AS n FROM facility_evaluation_forms WHERE facility_id = $1', [facilityId])).rows[0].n).toBe(1);
    });

    it('refuses an unknown form, an unknown request type and a missing flag', async () => {
      let res = await api('PUT', path(), { token: admin, body: { requestType: 'Assessment', evaluationFormId: 987654321, isAthenaBilled: true } });
      expect([res.status, fieldsOf(res)]).toEqual([400, ['evaluationFormId']]);
      res = await api('PUT', path(), { token: admin, body: { requestType: 'Nope', evaluationFormId: null } });
      expect([res.status, fieldsOf(res)]).toEqual([400, ['isAthenaBilled', 'requestType']]);
    });

    it('keeps the EHR department id on the facility (PUT of the facility)', async () => {
      const f = (await api('GET', `/api/facilities/${facilityId}`, { token: admin })).body;
      const res = await api('PUT', `/api/facilities/${facilityId}`, { token: admin, body: { ...f, ehrDepartmentId: ' 42 ' } });
      expect(res.status).toBe(200);
      expect(res.body.ehrDepartmentId).toBe('42');
    });
  });

  describe('state restrictions', () => {
    const path = () => `/api/facilities/${facilityId}/state-restrictions`;

    it('lists the 50 states, without restrictions at first', async () => {
      const res = await api('GET', path(), { token: admin });
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(50);
      expect(res.body.find((r: { state: string }) => r.state === 'AL')).toEqual({
        id: 'AL', restrictionId: null, state: 'AL', stateName: 'Alabama', type: 'NoRestrictions', withinTravelTime: null, closestTravelTime: null,
      });
    });

    it('requires the travel time for the travel-time type and saves it in seconds (audited)', async () => {
      let res = await api('PUT', `${path()}/FL`, { token: admin, body: { type: 'OnlyPopulateFacilitiesWithinTravelTime', withinTravelTime: null } });
      expect([res.status, fieldsOf(res)]).toEqual([400, ['withinTravelTime']]);
      res = await api('PUT', `${path()}/FL`, { token: admin, body: { type: 'OnlyPopulateFacilitiesWithinTravelTime', withinTravelTime: -1 } });
      expect(res.status).toBe(400);
      res = await audited('PUT', `${path()}/FL`, { token: admin, body: { type: 'OnlyPopulateFacilitiesWithinTravelTime', withinTravelTime: 5400 } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ state: 'FL', type: 'OnlyPopulateFacilitiesWithinTravelTime', withinTravelTime: 5400 });
      expect(res.body.restrictionId).toBeGreaterThan(0);
      expect((await auditEntry(res)).main_action).toBe('Facility.UpdateStateRestriction');
    });

    it('drops the travel time for the other types; refuses a missing type and an unknown state', async () => {
      let res = await api('PUT', `${path()}/FL`, { token: admin, body: { type: 'DoNotPopulateFacilities', withinTravelTime: 5400 } });
      expect(res.body).toMatchObject({ type: 'DoNotPopulateFacilities', withinTravelTime: null });
      res = await api('PUT', `${path()}/FL`, { token: admin, body: {} });
      expect([res.status, fieldsOf(res)]).toEqual([400, ['type']]);
      res = await api('PUT', `${path()}/ZZ`, { token: admin, body: { type: 'NoRestrictions' } });
      expect([res.status, res.error?.code]).toEqual([404, ErrorCode.NotFound]);
    });

    it('sets populateOutOfStateFacilities (audited) and reads it back', async () => {
      const p = `/api/facilities/${facilityId}/populate-out-of-state-facilities`;
      expect((await api('GET', p, { token: admin })).body).toEqual({ populateOutOfStateFacilities: false });
      const res = await audited('PUT', p, { token: admin, body: { populateOutOfStateFacilities: true } });
      expect(res.status).toBe(200);
      expect((await auditEntry(res)).main_action).toBe('Facility.UpdatePopulateOutOfStateFacilities');
      expect((await api('GET', p, { token: admin })).body).toEqual({ populateOutOfStateFacilities: true });
      expect((await api('PUT', p, { token: admin, body: { populateOutOfStateFacilities: 'yes' } })).status).toBe(400);
      expect((await api('PUT', p, { token: facilityAdmin, body: { populateOutOfStateFacilities: false } })).status).toBe(403);
    });
  });
});
