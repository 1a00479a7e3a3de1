/**
 * The dashboards per role (spec 02 §2 /dashboard, §7 GET finalized, 01 §7 GET facility/requests):
 * the finalized-cases table's scope and sort, the facility request look-ups, the ITP search box,
 * the group users' panel and the provider's panel. Each suite reads rows of facilities, cases and
 * users it seeds for itself (copies of seeded rows), so the expectations are exact counts.
 */
import { ErrorCode, UserType, type CaseSearchItem, type FacilityRequestItem, type FinalizedCaseItem, type GroupPanel, type ProviderPanel } from '@crisis/forms';
import { api } from '../support/api';
import { createCase, tampaDivisions, uniqueLetters } from '../support/cases';
import { db } from '../support/db';
import { signInAs } from '../support/oidc-client';
import { createTestUser } from '../support/users';

/** A copy of one row of `table` with `changes` (a fresh id from the table's sequence); returns the new id. */
async function copyRow(table: string, id: number, changes: Record<string, unknown>): Promise<number> {
  const { rows } = await db.query(
    `INSERT INTO ${table}
     SELECT (jsonb_populate_record(NULL::${table}, to_jsonb(t) || $2::jsonb || jsonb_build_object('id', nextval('${table}_id_seq')))).*
       FROM ${table} t WHERE t.id = $1 RETURNING id`,
    [id, JSON.stringify(changes)],
  );
  return rows[0].id;
}
const ago = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();

describe('dashboards', () => {
  let template: { caseId: number; requestId: number; facilityId: number; divisionId: number; patientId: number };
  /** Two facilities of their own (A with two source divisions) for the finalized, request and provider suites. */
  let fa: { id: number; d1: number; d2: number };
  let fb: { id: number; d: number };
  let coordinator: string;

  const newFacility = async (countyName: string) => {
    const id = await copyRow('facilities', template.facilityId, { name: `Dash ${uniqueLetters()} Hospital`, county: countyName, state: 'FL' });
    return id;
  };
  const newDivision = (facilityId: number) => copyRow('divisions', template.divisionId, { facility_id: facilityId, name: `Dash ${uniqueLetters()}` });
  const newPatient = (lastName = `Dash${uniqueLetters()}`) => copyRow('patients', template.patientId, { last_name: lastName });
  /** A case of the division, created `createdHoursAgo` and, unless closedHoursAgo is null, closed then. */
  const newCase = async (facilityId: number, divisionId: number, o: { createdHoursAgo: number; closedHoursAgo: number | null; outcome?: string; lastName?: string }) =>
    copyRow('cases', template.caseId, {
      source_facility_id: facilityId,
      source_division_id: divisionId,
      patient_id: await newPatient(o.lastName),
      created_at: ago(o.createdHoursAgo),
      status: o.closedHoursAgo === null ? 'PendingAssignment_DocumentationReview' : 'Closed',
      closed_at: o.closedHoursAgo === null ? null : ago(o.closedHoursAgo),
      outcome_type: o.outcome ?? null,
    });
  const newRequest = (caseId: number, changes: Record<string, unknown>) =>
    copyRow('requests', template.requestId, { case_id: caseId, evaluation_provider_id: null, completed_at: null, ...changes });

  beforeAll(async () => {
    coordinator = (await signInAs('IntegratedTelehealthPartners_User')).accessToken;
    const tampa = await tampaDivisions();
    const facilityUser = (await signInAs('Facility_User')).accessToken;
    const c = await createCase({ token: facilityUser, providerId: null, patient: { lastName: `Tpl${uniqueLetters()}` } });
    const { rows } = await db.query('SELECT c.patient_id, c.source_division_id FROM cases c WHERE c.id = $1', [c.id]);
    template = { caseId: c.id, requestId: c.requestId, facilityId: tampa.facilityId, divisionId: rows[0].source_division_id, patientId: rows[0].patient_id };
    const a = await newFacility(`Dash${uniqueLetters()} County`);
    fa = { id: a, d1: await newDivision(a), d2: await newDivision(a) };
    const b = await newFacility(`Other${uniqueLetters()} County`);
    fb = { id: b, d: await newDivision(b) };
  });

  describe('finalized cases', () => {
    it("lists the scope's cases closed in the last 7 days, newest closing first, with the total case time", async () => {
      const recent = await newCase(fa.id, fa.d1, { createdHoursAgo: 30, closedHoursAgo: 2, outcome: 'PatientAccepted' });
      const yesterday = await newCase(fa.id, fa.d1, { createdHoursAgo: 50, closedHoursAgo: 24 });
      const otherDivision = await newCase(fa.id, fa.d2, { createdHoursAgo: 5, closedHoursAgo: 1 });
      await newCase(fa.id, fa.d1, { createdHoursAgo: 300, closedHoursAgo: 240 }); // closed 10 days ago: past cases
      await newCase(fa.id, fa.d1, { createdHoursAgo: 3, closedHoursAgo: null }); // open
      await newCase(fb.id, fb.d, { createdHoursAgo: 3, closedHoursAgo: 1 }); // another facility
      const admin = await (await createTestUser(UserType.FacilityAdmin, { facilityId: fa.id })).signIn();
      const user = await (await createTestUser(UserType.FacilityUser, { facilityId: fa.id, divisionIds: [fa.d1] })).signIn();

      const asAdmin = await api<FinalizedCaseItem[]>('GET', '/api/cases/finalized?range=[0,24]', { token: admin });
      expect(asAdmin.status).toBe(200);
      expect(asAdmin.body.map((r) => r.id)).toEqual([otherDivision, recent, yesterday]);
      expect(asAdmin.headers.get('content-range')).toBe('cases/finalized 0-2/3');
      expect(asAdmin.body[1]).toMatchObject({ status: 'Closed', outcomeType: 'PatientAccepted', feedbackGiven: false });
      expect(Math.round(asAdmin.body[1].totalCaseTimeMs / 3_600_000)).toBe(28);

      const asUser = await api<FinalizedCaseItem[]>('GET', '/api/cases/finalized?range=[0,24]', { token: user });
      expect(asUser.body.map((r) => r.id)).toEqual([recent, yesterday]);
      const ascending = await api<FinalizedCaseItem[]>('GET', `/api/cases/finalized?range=[0,0]&sort=${encodeURIComponent('["closedAt","ASC"]')}`, { token: admin });
      expect(ascending.body.map((r) => r.id)).toEqual([yesterday]);
      expect(ascending.headers.get('content-range')).toBe('cases/finalized 0-0/3');
      // Past the last page: no row, the total still counted.
      const beyond = await api<FinalizedCaseItem[]>('GET', '/api/cases/finalized?range=[2147483647,2147483648]', { token: admin });
      expect(beyond.status).toBe(200);
      expect(beyond.body).toEqual([]);
      expect(beyond.headers.get('content-range')).toBe('cases/finalized */3');

      // Feedback given from the table shows on its row.
      expect((await api('POST', `/api/cases/${recent}/feedback`, { token: admin, body: { rating: 4, note: 'Smooth', confirmation: true, cantAttest: false } })).status).toBeLessThan(300);
      const after = await api<FinalizedCaseItem[]>('GET', '/api/cases/finalized?range=[0,24]', { token: admin });
      expect(after.body.find((r) => r.id === recent)).toMatchObject({ feedbackGiven: true });

      const bad = await api('GET', `/api/cases/finalized?sort=${encodeURIComponent('["nope","ASC"]')}`, { token: admin });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ code: ErrorCode.Invalid });
    });
  });

  describe('facility requests', () => {
    it('answers the requests of at most 25 cases of the scope, and only the latest of each with lastOnly', async () => {
      const c1 = await newCase(fa.id, fa.d1, { createdHoursAgo: 5, closedHoursAgo: null });
      const c2 = await newCase(fa.id, fa.d1, { createdHoursAgo: 5, closedHoursAgo: null });
      const outside = await newCase(fb.id, fb.d, { createdHoursAgo: 5, closedHoursAgo: null });
      const old1 = await newRequest(c1, { status: 'Canceled', created_at: ago(4) });
      const new1 = await newRequest(c1, { status: 'Pending', created_at: ago(1) });
      const only2 = await newRequest(c2, { status: 'New', created_at: ago(2) });
      await newRequest(outside, { status: 'New', created_at: ago(2) });
      const user = await (await createTestUser(UserType.FacilityUser, { facilityId: fa.id, divisionIds: [fa.d1] })).signIn();

      const all = await api<FacilityRequestItem[]>('GET', `/api/cases/facility/requests?caseId=${c1}&caseId=${c2}&caseId=${outside}`, { token: user });
      expect(all.status).toBe(200);
      expect(all.body.map((r) => r.id)).toEqual([new1, old1, only2]);
      const last = await api<FacilityRequestItem[]>('GET', `/api/cases/facility/requests?caseId=${c1}&caseId=${c2}&caseId=${outside}&lastOnly=true`, { token: user });
      expect(last.body.map((r) => [r.caseId, r.id, r.status])).toEqual([
        [c1, new1, 'Pending'],
        [c2, only2, 'New'],
      ]);

      const ids = (n: number) => Array.from({ length: n }, (_, i) => `caseId=${c1 + i}`).join('&');
      expect((await api('GET', `/api/cases/facility/requests?${ids(25)}`, { token: user })).status).toBe(200);
      for (const query of [ids(26), '', 'caseId=abc', `caseId=${c1}&lastOnly=maybe`]) {
        const bad = await api('GET', `/api/cases/facility/requests?${query}`, { token: user });
        expect([query, bad.status, bad.body.code]).toEqual([query, 400, ErrorCode.Invalid]);
      }
    });
  });

  describe('ITP search box', () => {
    it('finds a closed case by its reference and by the patient name', async () => {
      const lastName = `Srch${uniqueLetters()}`;
      const closed = await newCase(fa.id, fa.d1, { createdHoursAgo: 100, closedHoursAgo: 90, lastName });
      const search = (q: string) => api<CaseSearchItem[]>('GET', `/api/dashboard/search?range=[0,9]&filter=${encodeURIComponent(JSON.stringify({ q }))}`, { token: coordinator });
      const byRef = await search(`#${String(closed).padStart(6, '0')}`);
      expect(byRef.status).toBe(200);
      expect(byRef.body.map((r) => r.id)).toContain(closed);
      expect(byRef.body.find((r) => r.id === closed)).toMatchObject({ status: 'Closed', patient: { lastName } });
      const byName = await search(lastName.toLowerCase());
      expect(byName.body.map((r) => r.id)).toEqual([closed]);
      expect(byName.headers.get('content-range')).toBe('dashboard/search 0-0/1');
      expect((await search('x'.repeat(256))).status).toBe(400);
    });
  });

  describe('group panel', () => {
    it("counts the group's past cases today, in 7 and in 30 days, without its excluded facility", async () => {
      // Facilities of its own: the other suites' closed cases must not count here.
      const groupCounty = `Grp${uniqueLetters()} County`;
      const a = await newFacility(groupCounty);
      const inCounty = { id: a, d1: await newDivision(a), d2: await newDivision(a) }; // county listed
      const b = await newFacility(`Inc${uniqueLetters()} County`);
      const included = { id: b, d: await newDivision(b) }; // listed by facility
      const excludedId = await newFacility(groupCounty); // in the county but excluded
      const excludedDiv = await newDivision(excludedId);
      const elsewhere = await newFacility(`Far${uniqueLetters()} County`);
      const elsewhereDiv = await newDivision(elsewhere);
      const { rows } = await db.query(
        `INSERT INTO group_organizations (name, states, counties) VALUES ($1, '{FL}', ARRAY[$2]) RETURNING id`,
        [`Dash group ${uniqueLetters()}`, groupCounty],
      );
      const groupId = rows[0].id;
      await db.query(`INSERT INTO group_organization_facilities (group_id, facility_id, kind) VALUES ($1, $2, 'included'), ($1, $3, 'excluded')`, [groupId, included.id, excludedId]);
      const gu = await createTestUser(UserType.GroupUser, { label: 'group' });
      await db.query(`UPDATE users SET organization_type = 'Group', organization_id = $2 WHERE id = $1`, [gu.id, groupId]);

      const justNow = 0.01;
      await newCase(inCounty.id, inCounty.d2, { createdHoursAgo: 1, closedHoursAgo: justNow }); // today
      await newCase(inCounty.id, inCounty.d1, { createdHoursAgo: 80, closedHoursAgo: 72 }); // 3 days
      await newCase(included.id, included.d, { createdHoursAgo: 500, closedHoursAgo: 480 }); // 20 days
      await newCase(included.id, included.d, { createdHoursAgo: 1000, closedHoursAgo: 960 }); // 40 days: none
      await newCase(included.id, included.d, { createdHoursAgo: 1, closedHoursAgo: null }); // open
      await newCase(excludedId, excludedDiv, { createdHoursAgo: 1, closedHoursAgo: justNow }); // excluded
      await newCase(elsewhere, elsewhereDiv, { createdHoursAgo: 1, closedHoursAgo: justNow }); // not the group's

      const panel = await api<GroupPanel>('GET', '/api/dashboard/group', { token: await gu.signIn() });
      expect(panel.status).toBe(200);
      expect(panel.body).toEqual({
        group: { id: groupId, name: expect.stringMatching(/^Dash group /), states: ['FL'], counties: [groupCounty] },
        pastCases: { today: 1, last7Days: 2, last30Days: 3 },
      });
    });
  });

  describe('provider panel', () => {
    it('counts his active requests of open cases and the evaluations he completed today', async () => {
      const provider = await createTestUser(UserType.ItpProvider, { label: 'prov' });
      const open1 = await newCase(fa.id, fa.d1, { createdHoursAgo: 5, closedHoursAgo: null });
      const open2 = await newCase(fa.id, fa.d1, { createdHoursAgo: 5, closedHoursAgo: null });
      const closed = await newCase(fa.id, fa.d1, { createdHoursAgo: 5, closedHoursAgo: 1 });
      const mine = { evaluation_provider_id: provider.id };
      await newRequest(open1, { ...mine, status: 'Pending' });
      await newRequest(open2, { ...mine, status: 'InProgress' });
      await newRequest(closed, { ...mine, status: 'OnHold' }); // a closed case: not in his queue
      const open3 = await newCase(fa.id, fa.d1, { createdHoursAgo: 5, closedHoursAgo: null });
      await newRequest(open3, { status: 'Pending' }); // not his (one active request a case)
      await newRequest(open1, { ...mine, status: 'Completed', completed_at: new Date().toISOString() });
      await newRequest(open2, { ...mine, status: 'Completed', completed_at: ago(72) });
      const panel = await api<ProviderPanel>('GET', '/api/dashboard/provider', { token: await provider.signIn() });
      expect(panel.status).toBe(200);
      expect(panel.body).toEqual({ queueCount: 2, completedToday: 1 });
    });
  });
});
