import { contactingCase as buildContactingCase } from '../support/cases';
import { parse } from 'csv-parse/sync';
import { caseReference } from '@crisis/forms';
import { api, eventually } from '../support/api';
import { db } from '../support/db';
import { download, pdfText as pdfPages } from '../support/files';
import { signIn, signInAs } from '../support/oidc-client';

/**
 * The placement logs (spec 02 §2 full log and division log, §7 exports) and the referring
 * facilities' accepted cases: CSV parsed, PDF text extracted, bulk calls grouped, filters, sort,
 * scoping, and the referring side's arrival confirmation closing the case.
 */
describe('placement logs', () => {
  let coordinator: string;
  let provider: string;
  let providerId: number;
  let tampaAdmin: string;
  let savannahAdmin: string;
  let intake: string;
  let floor: { facilityId: number; divisionId: number };
  let sunriseAdult: number;
  let seq = 0;
  const letters = () => `${Date.now().toString(36)}${(seq++).toString(36)}`.replace(/[^a-z]/g, '') || 'x';
  const put = (p: string, body?: unknown, token = coordinator) => api('PUT', p, { token, body });
  const status = async (id: number) => (await db.query('SELECT status FROM cases WHERE id = $1', [id])).rows[0].status as string;

  /** A PDF's text on one line. */
  const pdfText = async (bytes: Buffer) => (await pdfPages(bytes)).text.replace(/\s+/g, ' ');

  const contactingCase = (firstName = `Log${letters()}`) =>
    buildContactingCase({ token: coordinator, providerToken: provider, facilityId: floor.facilityId, divisionId: floor.divisionId, providerId, patient: { firstName, lastName: 'Logger', dateOfBirth: '1984-04-04' } });
  const taskOf = async (caseId: number, divisionId: number) =>
    (await db.query('SELECT id FROM placement_tasks WHERE case_id = $1 AND division_id = $2', [caseId, divisionId])).rows[0]?.id as number;

  /** Claims Sunrise's adult unit, submits the calls, releases. */
  async function logCalls(calls: unknown[], bulk = false) {
    const c = await eventually(async () => {
      const r = await api('POST', `/api/placement-tasks/division/${sunriseAdult}/claim`, { token: coordinator, body: {} });
      return r.status === 200 ? r : null;
    }, 'the division claim');
    const saved = await put(`/api/placement-tasks/claim/${c.body.claimId}/calls`, { calls, bulk });
    expect(saved.status).toBe(200);
    expect((await put(`/api/placement-tasks/claim/${c.body.claimId}/release`)).status).toBe(200);
  }

  let first: number;
  let second: number;
  let firstName: string;

  beforeAll(async () => {
    coordinator = (await signInAs('IntegratedTelehealthPartners_User')).accessToken;
    provider = (await signInAs('IntegratedTelehealthPartners_Provider')).accessToken;
    providerId = (await db.query("SELECT id FROM users WHERE email = 'provider@itp.example.org'")).rows[0].id;
    tampaAdmin = (await signIn({ email: 'admin@tampageneral.example.org', password: 'Demo1234!' })).accessToken;
    savannahAdmin = (await signIn({ email: 'admin@savannahcoastal.example.org', password: 'Demo1234!' })).accessToken;
    intake = (await signIn({ email: 'intake@sunrisebehavioral.example.org', password: 'Demo1234!' })).accessToken;
    const d = await db.query(
      `SELECT f.id AS facility, d.id AS division FROM facilities f JOIN divisions d ON d.facility_id = f.id
        WHERE f.name = 'Tampa Bay General Hospital' AND d.name = 'Medical Floor 5 West'`,
    );
    floor = { facilityId: d.rows[0].facility, divisionId: d.rows[0].division };
    sunriseAdult = (await db.query("SELECT id FROM divisions WHERE name = 'Adult Inpatient Unit'")).rows[0].id;

    firstName = `Log${letters()}`;
    first = await contactingCase(firstName);
    second = await contactingCase();
    const t1 = await taskOf(first, sunriseAdult);
    const t2 = await taskOf(second, sunriseAdult);
    // One single call, then one bulk submission on both cases.
    await logCalls([{ placementTaskId: t1, result: 'LeftVoicemail', note: 'Single call note' }]);
    await new Promise((r) => setTimeout(r, 20));
    await logCalls(
      [
        { placementTaskId: t1, result: 'WaitingToHearBack', spokeWith: 'Nurse Bulk', note: 'Bulk note' },
        { placementTaskId: t2, result: 'WaitingToHearBack', spokeWith: 'Nurse Bulk', note: 'Bulk note' },
      ],
      true,
    );
  });

  afterAll(() => db.end());

  it('exports the case log as CSV with the filters and sort of the log', async () => {
    const csv = await download(`/api/placement-tasks/log/${first}/csv`, coordinator);
    expect(csv.status).toBe(200);
    expect(csv.type).toMatch(/text\/csv/);
    const rows: string[][] = parse(csv.bytes.toString('utf8'));
    expect(rows[0]).toEqual(['Date contact', 'Coordinator', 'Referring facility', 'Division', 'Spoke with', 'Result', 'Note', 'Follow-up', 'Undone']);
    expect(rows).toHaveLength(3);
    // Default: dateContact descending, so the bulk call first.
    expect(rows[1]).toEqual(expect.arrayContaining(['Sunrise Behavioral Health Hospital', 'Adult Inpatient Unit', 'Nurse Bulk', 'Waiting To Hear Back', 'Bulk note', 'No']));
    expect(rows[2]).toEqual(expect.arrayContaining(['Left Voicemail', 'Single call note']));
    expect(rows[1][0]).toMatch(/^\d\d\/\d\d\/\d{4} \d\d:\d\d (AM|PM)$/);

    const asc = parse((await download(`/api/placement-tasks/log/${first}/csv?sort=${encodeURIComponent('["dateContact","ASC"]')}`, coordinator)).bytes.toString('utf8'));
    expect(asc[1][5]).toBe('Left Voicemail');
    const filtered = parse(
      (await download(`/api/placement-tasks/log/${first}/csv?filter=${encodeURIComponent(JSON.stringify({ results: ['LeftVoicemail'] }))}`, coordinator)).bytes.toString('utf8'),
    );
    expect(filtered).toHaveLength(2);
    const bad = await download(`/api/placement-tasks/log/${first}/csv?filter=${encodeURIComponent(JSON.stringify({ results: ['Nope'] }))}`, coordinator);
    expect(bad.status).toBe(400);
  });

  it('exports the case log as PDF', async () => {
    const pdf = await download(`/api/placement-tasks/log/${first}/pdf`, coordinator);
    expect(pdf.status).toBe(200);
    const text = await pdfText(pdf.bytes);
    expect(text).toContain(`Placement log ${caseReference(first)}`);
    expect(text).toContain('Single call note');
    expect(text).toContain('Nurse Bulk');
  });

  it('scopes the exports to the cases the user may open', async () => {
    expect((await download(`/api/placement-tasks/log/${first}/csv`, tampaAdmin)).status).toBe(200);
    expect((await download(`/api/placement-tasks/log/${first}/csv`, savannahAdmin)).status).toBe(403);
    expect((await download(`/api/placement-tasks/log/${first}/pdf`, savannahAdmin)).status).toBe(403);
    expect((await download('/api/placement-tasks/log/999999999/csv', coordinator)).status).toBe(404);
    // The division log is the coordinators' (manage Placement).
    expect((await download(`/api/placement-tasks/division/${sunriseAdult}/log`, tampaAdmin)).status).toBe(403);
  });

  it('groups a bulk submission into one division log entry listing its patients', async () => {
    const res = await api('GET', `/api/placement-tasks/division/${sunriseAdult}/log?filter=${encodeURIComponent(JSON.stringify({ patientName: firstName }))}`, { token: coordinator });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    const [bulk, single] = res.body;
    expect(bulk).toMatchObject({ result: 'WaitingToHearBack', spokeWith: 'Nurse Bulk', undone: false, bulkId: expect.any(String) });
    expect(bulk.patients.map((p: any) => p.caseId).sort()).toEqual([first, second].sort());
    expect(single).toMatchObject({ result: 'LeftVoicemail', bulkId: null, patients: [{ caseId: first, name: `${firstName} Logger` }] });
    expect(single.user.name).toEqual(expect.any(String));

    const asc = await api('GET', `/api/placement-tasks/division/${sunriseAdult}/log?sort=${encodeURIComponent('["dateContact","ASC"]')}&filter=${encodeURIComponent(JSON.stringify({ patientName: firstName }))}`, { token: coordinator });
    expect(asc.body.map((e: any) => e.result)).toEqual(['LeftVoicemail', 'WaitingToHearBack']);
    const paged = await api('GET', `/api/placement-tasks/division/${sunriseAdult}/log?range=[0,0]`, { token: coordinator });
    expect(paged.body).toHaveLength(1);
    expect(paged.headers.get('content-range')).toMatch(/^entries 0-0\/\d+$/);
  });

  it('checks the division log dates', async () => {
    const q = (f: unknown) => api('GET', `/api/placement-tasks/division/${sunriseAdult}/log?filter=${encodeURIComponent(JSON.stringify(f))}`, { token: coordinator });
    expect((await q({ from: '1901-12-31T00:00:00.000Z' })).status).toBe(400);
    expect((await q({ from: new Date(Date.now() + 5 * 86_400_000).toISOString() })).status).toBe(400);
    expect((await q({ from: '2020-01-02T00:00:00.000Z', to: '2020-01-01T00:00:00.000Z' })).status).toBe(400);
    expect((await q({ to: new Date(Date.now() + 5 * 86_400_000).toISOString() })).status).toBe(400);
    const none = await q({ from: '2020-01-01T00:00:00.000Z', to: '2020-01-02T00:00:00.000Z' });
    expect(none.status).toBe(200);
    expect(none.body).toEqual([]);
    expect((await api('GET', `/api/placement-tasks/division/${floor.divisionId}/log`, { token: coordinator })).status).toBe(404);
  });

  it('exports the division log as CSV and PDF', async () => {
    const f = encodeURIComponent(JSON.stringify({ patientName: firstName }));
    const csv = await download(`/api/placement-tasks/division/${sunriseAdult}/log/csv?filter=${f}`, coordinator);
    expect(csv.status).toBe(200);
    const rows: string[][] = parse(csv.bytes.toString('utf8'));
    expect(rows[0]).toEqual(['Date contact', 'User', 'Spoke with', 'Patients', 'Result', 'Note', 'Follow-up', 'Undone']);
    expect(rows).toHaveLength(3);
    expect(rows[1][3]).toContain(caseReference(second));
    expect(rows[1][3]).toContain(caseReference(first));
    const pdf = await download(`/api/placement-tasks/division/${sunriseAdult}/log/pdf?filter=${f}`, coordinator);
    expect(pdf.status).toBe(200);
    const text = await pdfText(pdf.bytes);
    expect(text).toContain('Division log: Sunrise Behavioral Health Hospital / Adult Inpatient Unit');
    expect(text).toContain('Single call note');
  });

  it('lists the accepted cases of the referring division (the seed\'s Grace Whitfield)', async () => {
    const res = await api('GET', '/api/cases/accepted', { token: intake });
    expect(res.status).toBe(200);
    const grace = res.body.find((r: any) => r.patient.lastName === 'Whitfield');
    // The seed's case waits for the referring facility's confirmation (no suite closes it).
    expect(grace).toMatchObject({ status: 'ServicesLocated_WaitingForConfirmation', sourceFacility: { name: 'Savannah Coastal Medical Center' }, divisionName: 'Adult Inpatient Unit', acceptedAt: expect.any(String) });
    const acceptedAts = res.body.map((r: any) => Date.parse(r.acceptedAt));
    expect(acceptedAts).toEqual([...acceptedAts].sort((a, b) => a - b));
    // Other roles: the ITP has no accepted-cases table; a source user neither.
    expect((await api('GET', '/api/cases/accepted', { token: coordinator })).status).toBe(403);
    const savannahEr = (await signIn({ email: 'er@savannahcoastal.example.org', password: 'Demo1234!' })).accessToken;
    expect((await api('GET', '/api/cases/accepted', { token: savannahEr })).status).toBe(403);
  });

  it('closes the case when the referring facility confirms the arrival', async () => {
    const caseId = await contactingCase();
    const taskId = await taskOf(caseId, sunriseAdult);
    // Not accepted yet: nothing to confirm (and out of scope).
    expect((await put(`/api/cases/${caseId}/referring/confirm`, undefined, intake)).status).toBe(403);
    await logCalls([{ placementTaskId: taskId, result: 'PatientAccepted', spokeWith: 'Intake nurse', accept: { male: { adult: true } } }]);
    await eventually(async () => (await status(caseId)) === 'ServicesLocated_WaitingForConfirmation', 'the case to wait for confirmation');
    const list = await api('GET', '/api/cases/accepted', { token: intake });
    expect(list.body.map((r: any) => r.id)).toContain(caseId);
    const confirmed = await put(`/api/cases/${caseId}/referring/confirm`, undefined, intake);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ status: 'Closed', caseOutcomeType: 'Transferred_MentalHealthInpatient', divisionId: sunriseAdult });
    const row = (await db.query('SELECT status, outcome_type, outcome_referring_division_id FROM cases WHERE id = $1', [caseId])).rows[0];
    expect(row).toEqual({ status: 'Closed', outcome_type: 'Transferred_MentalHealthInpatient', outcome_referring_division_id: sunriseAdult });
    expect((await api('GET', '/api/cases/accepted', { token: intake })).body.map((r: any) => r.id)).not.toContain(caseId);
    expect((await put(`/api/cases/${caseId}/referring/confirm`, undefined, intake)).status).toBe(409);
    // The audit log has both: the confirmation, then the refused second one.
    const audit = await db.query(
      `SELECT success FROM audit_log WHERE path = $1 ORDER BY id DESC LIMIT 2`,
      [`/api/cases/${caseId}/referring/confirm`],
    );
    expect(audit.rows.map((r) => r.success)).toEqual([false, true]);
  });
  describe('the call log refuses what the screen would not offer', () => {
    /** Claims Sunrise's adult unit and submits, returning the response; the claim is released after. */
    async function submit(calls: unknown[], bulk: boolean) {
      const c = await eventually(async () => {
        const r = await api('POST', `/api/placement-tasks/division/${sunriseAdult}/claim`, { token: coordinator, body: {} });
        return r.status === 200 ? r : null;
      }, 'the division claim');
      try {
        return await put(`/api/placement-tasks/claim/${c.body.claimId}/calls`, { calls, bulk });
      } finally {
        await put(`/api/placement-tasks/claim/${c.body.claimId}/release`);
      }
    }
    const callsOf = async (taskId: number) => Number((await db.query('SELECT count(*) FROM placement_calls WHERE task_id = $1', [taskId])).rows[0].count);

    it('refuses a bulk change whose result is not one the bulk modal offers', async () => {
      const taskId = await taskOf(await contactingCase(), sunriseAdult);
      const refused = await submit([{ placementTaskId: taskId, result: 'WillNotAccept', spokeWith: 'Charge nurse' }], true);
      expect(refused.status).toBe(400);
      expect(refused.body.code).toMatch(/^INV/);
      expect(refused.body.fields).toEqual([expect.objectContaining({ field: 'calls.0.result', key: 'notBulk' })]);
      expect(await callsOf(taskId)).toBe(0);
      // A bulk result of the list is logged; the same result outside a bulk change too.
      expect((await submit([{ placementTaskId: taskId, result: 'WaitingToHearBack', spokeWith: 'Charge nurse' }], true)).status).toBe(200);
      expect((await submit([{ placementTaskId: taskId, result: 'WillNotAccept', spokeWith: 'Charge nurse' }], false)).status).toBe(200);
      expect(await callsOf(taskId)).toBe(2);
    });

    it('refuses accept-grid cells the division cannot take (Sunrise adult takes no adolescents)', async () => {
      const taskId = await taskOf(await contactingCase(), sunriseAdult);
      const refused = await submit([{ placementTaskId: taskId, result: 'GrantedAccess', spokeWith: 'Intake', accept: { male: { adolescent: true, adult: true } } }], false);
      expect(refused.status).toBe(400);
      expect(refused.body.fields).toEqual([expect.objectContaining({ field: 'calls.0.accept.male.adolescent', key: 'notAccepted' })]);
      expect(await callsOf(taskId)).toBe(0);
      expect((await submit([{ placementTaskId: taskId, result: 'GrantedAccess', spokeWith: 'Intake', accept: { male: { adult: true }, female: { geriatric: true } } }], false)).status).toBe(200);
    });
  });

  it('leaves out of the placements the tasks that will not accept with no callback, unless asked to include them', async () => {
    const caseId = await contactingCase();
    const taskId = await taskOf(caseId, sunriseAdult);
    const placements = (q = '') => api('GET', `/api/cases/${caseId}/placements${q}`, { token: coordinator });
    const before = await placements();
    expect(before.body.tasks.map((t: any) => t.id)).toContain(taskId);
    expect(before.body.hiddenWillNotAccept).toBe(0);
    await logCalls([{ placementTaskId: taskId, result: 'WillNotAccept', spokeWith: 'Intake' }]);
    const after = await placements();
    expect(after.body.tasks.map((t: any) => t.id)).not.toContain(taskId);
    expect(after.body.tasks).toHaveLength(before.body.tasks.length - 1);
    expect(after.body.hiddenWillNotAccept).toBe(1);
    const all = await placements('?includeWillNotAcceptWithEmptyCallback=true');
    expect(all.body.tasks.find((t: any) => t.id === taskId)).toMatchObject({ lastCall: { result: 'WillNotAccept' }, callbackAt: null });
    // With a callback the division may still be asked again: the task stays in the list.
    await logCalls([{ placementTaskId: taskId, result: 'WillNotAccept', spokeWith: 'Intake', callbackAt: new Date(Date.now() + 3600_000).toISOString() }]);
    expect((await placements()).body.tasks.map((t: any) => t.id)).toContain(taskId);
    expect((await placements('?includeWillNotAcceptWithEmptyCallback=maybe')).status).toBe(400);
  });

  it('pages the case log by 10, refuses a search from before 01/01/1902, and serves facility staff', async () => {
    const caseId = await contactingCase();
    const taskId = await taskOf(caseId, sunriseAdult);
    for (let i = 0; i < 12; i++) await logCalls([{ placementTaskId: taskId, result: 'NoAnswer', note: `Try ${i}` }]);
    const page1 = await api('GET', `/api/placement-tasks/log/${caseId}`, { token: coordinator });
    expect(page1.status).toBe(200);
    expect(page1.body).toHaveLength(10);
    expect(page1.headers.get('content-range')).toBe('calls 0-9/12');
    expect(page1.body[0].note).toBe('Try 11');
    const page2 = await api('GET', `/api/placement-tasks/log/${caseId}?range=${encodeURIComponent('[10,19]')}`, { token: coordinator });
    expect(page2.body.map((r: any) => r.note)).toEqual(['Try 1', 'Try 0']);
    expect(page2.headers.get('content-range')).toBe('calls 10-11/12');
    // The exports still hold every call.
    const csv: string[][] = parse((await download(`/api/placement-tasks/log/${caseId}/csv`, coordinator)).bytes.toString('utf8'));
    expect(csv).toHaveLength(13);

    const q = (f: unknown) => api('GET', `/api/placement-tasks/log/${caseId}?filter=${encodeURIComponent(JSON.stringify(f))}`, { token: coordinator });
    const tooOld = await q({ from: '1901-12-31T00:00:00.000Z' });
    expect(tooOld.status).toBe(400);
    expect(tooOld.body.fields).toEqual([expect.objectContaining({ field: 'filter.from', key: 'minDate' })]);
    expect((await q({ from: '1902-01-01T00:00:00.000Z' })).status).toBe(200);
    expect((await download(`/api/placement-tasks/log/${caseId}/csv?filter=${encodeURIComponent(JSON.stringify({ from: '1900-01-01T00:00:00.000Z' }))}`, coordinator)).status).toBe(400);

    // The source facility's admin reads the same pages; another facility's does not.
    const facilityPage = await api('GET', `/api/placement-tasks/log/${caseId}`, { token: tampaAdmin });
    expect(facilityPage.status).toBe(200);
    expect(facilityPage.headers.get('content-range')).toBe('calls 0-9/12');
    expect((await api('GET', `/api/placement-tasks/log/${caseId}`, { token: savannahAdmin })).status).toBe(403);
  });
});
