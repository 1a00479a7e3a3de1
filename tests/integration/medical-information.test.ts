import { api } from '../support/api';
import { createCase } from '../support/cases';
import { db } from '../support/db';
import { signInAs } from '../support/oidc-client';

/**
 * Medical information of a case (spec 01 §3, §4 claim, §5 rules, §6 roles) through the API:
 * the claim on ('CaseMedicalInformation', caseId), dependent clearing, blood alcohol stored / 100,
 * the confirmation rules, the change log, the facility subset, closed cases and roles.
 */
describe('medical information', () => {
  let coordinator: string; // ITP user
  let admin: string; // ITP admin (a second ITP user)
  let provider: string;
  let facility: string;
  let group: string;
  let coordinatorName: string;
  let seq = 0;

  const letters = () => `${Date.now().toString(36)}${(seq++).toString(36)}`.replace(/[^a-z]/gi, '').slice(0, 8) || 'X';

  /** A case from Tampa's emergency department (facility user's own division: in everyone's scope). */
  async function newCase(): Promise<number> {
    const c = await createCase({ token: facility, patient: { firstName: `Med${letters()}`, lastName: 'Information', dateOfBirth: '1985-03-02', gender: 'Female', address: { streetLine: '2 Bay St', city: 'Tampa', state: 'FL', county: 'Hillsborough County', zipCode: '33606' } } });
    return c.id;
  }

  const claim = (caseId: number, token = coordinator) =>
    api('POST', '/api/claims', { token, body: { objectType: 'CaseMedicalInformation', objectId: caseId, extendBy: 120 } });
  const put = (caseId: number, body: unknown, token = coordinator) => api('PUT', `/api/cases/${caseId}/medical-information`, { token, body });
  const get = (caseId: number, token = coordinator) => api('GET', `/api/cases/${caseId}/medical-information`, { token });
  const logRows = async (caseId: number) =>
    (await db.query(`SELECT name, old_value, new_value, meta_info FROM change_logs WHERE subject = 'medicalInformation' AND case_id = $1 ORDER BY id`, [caseId])).rows;
  const setStatus = (caseId: number, status: string, extra = '') => db.query(`UPDATE cases SET status = $2 ${extra} WHERE id = $1`, [caseId, status]);

  beforeAll(async () => {
    coordinator = (await signInAs('IntegratedTelehealthPartners_User')).accessToken;
    admin = (await signInAs('IntegratedTelehealthPartners_Admin')).accessToken;
    provider = (await signInAs('IntegratedTelehealthPartners_Provider')).accessToken;
    facility = (await signInAs('Facility_User')).accessToken;
    group = (await signInAs('Group_User')).accessToken;
    const me = (await api('GET', '/api/user/context', { token: coordinator })).body;
    coordinatorName = `${me.firstName} ${me.lastName}`.trim();
  });
  afterAll(() => db.end());

  it('requires the caller to hold the claim; a second user is refused with the holder named; a lapsed claim is overdue', async () => {
    const id = await newCase();
    const none = await put(id, { homeMedications: 'Lithium' });
    expect([none.status, none.error?.code]).toEqual([409, 'INV.CLAIM.IS.OVERDUE.OR.INACTIVE']);

    const c = await claim(id);
    expect(c.status).toBe(200);
    const second = await claim(id, admin);
    expect([second.status, second.error?.code]).toEqual([409, 'INV.OBJECT.ALREADY.HAS.BEEN.CLAIMED']);
    expect(second.body.payload.subjectName).toBe(coordinatorName);
    const byOther = await put(id, { homeMedications: 'Lithium' }, admin);
    expect([byOther.status, byOther.error?.code]).toEqual([409, 'INV.OBJECT.ALREADY.HAS.BEEN.CLAIMED']);
    expect(byOther.body.payload.subjectName).toBe(coordinatorName);

    const ok = await put(id, { homeMedications: 'Lithium' });
    expect(ok.status).toBe(200);
    expect(ok.body.homeMedications).toBe('Lithium');

    // The lease lapses (as if renewals stopped): the save is refused, and extend says so too.
    await db.query(`UPDATE claims SET expires_at = now() - interval '1 second' WHERE id = $1`, [c.body.id]);
    const lapsed = await put(id, { homeMedications: 'Lithium 300 mg' });
    expect([lapsed.status, lapsed.error?.code]).toEqual([409, 'INV.CLAIM.IS.OVERDUE.OR.INACTIVE']);
    const ext = await api('PUT', `/api/claims/${c.body.id}/extend`, { token: coordinator, body: {} });
    expect(ext.error?.code).toBe('INV.CLAIM.IS.OVERDUE.OR.INACTIVE');
    expect((await get(id)).body.homeMedications).toBe('Lithium');

    // After release the other user may claim and save.
    const c2 = await claim(id, admin);
    expect(c2.status).toBe(200);
    expect((await put(id, { homeMedications: 'None' }, admin)).status).toBe(200);
    await api('PUT', `/api/claims/${c2.body.id}/release`, { token: admin });
  });

  it('clears dependent fields, stores blood alcohol divided by 100 and returns diagnoses with descriptions', async () => {
    const id = await newCase();
    await claim(id);
    const [d1, d2] = (await db.query('SELECT code, description FROM diagnoses ORDER BY code LIMIT 2')).rows;
    const res = await put(id, {
      legalStatus: { type: 'Voluntary', legalGuardianName: 'Jane Roe', relationshipToPatient: 'Aunt', holdEnd: '2026-12-01T10:00:00Z' },
      criminalCharges: { exist: false, note: 'stale' },
      jailPriorToArrivingOrInCustody: { exist: true, note: 'County jail' },
      hallucinations: { exist: false, type: 'Visual' },
      assistiveDevices: { exist: true, note: 'Walker' },
      alcoholInSystem: { exist: true, bal: 1.5 }, // 150 % entered
      drugsInSystem: [{ drug: 'THC', useCase: 'Unprescribed' }, { drug: 'Opiates' }],
      primaryDiagnosisCode: d1.code,
      secondaryDiagnosisCodes: [d2.code],
      ambulatory: true,
      covid19: false,
    });
    expect(res.status).toBe(200);
    expect(res.body.legalStatus).toEqual({ type: 'Voluntary', legalGuardianName: null, relationshipToPatient: null, holdEnd: null });
    expect(res.body.criminalCharges).toEqual({ exist: false, note: null });
    expect(res.body.jailPriorToArrivingOrInCustody).toEqual({ exist: true, note: 'County jail' });
    expect(res.body.hallucinations).toEqual({ exist: false, type: null });
    expect(res.body.alcoholInSystem).toEqual({ exist: true, bal: 1.5 });
    expect(res.body.primaryDiagnosis).toEqual({ code: d1.code, description: d1.description });
    expect(res.body.secondaryDiagnoses).toEqual([{ code: d2.code, description: d2.description }]);
    expect(res.body.drugsInSystem).toHaveLength(2);
    const stored = (await db.query('SELECT data FROM medical_information WHERE case_id = $1', [id])).rows[0].data;
    expect(stored.alcoholInSystem.bal).toBe(1.5);

    const guardian = await put(id, { legalStatus: { type: 'LegalGuardian', legalGuardianName: 'Jane Roe', relationshipToPatient: 'Aunt', holdEnd: '2026-12-01T10:00:00Z' } });
    expect(guardian.body.legalStatus).toEqual({ type: 'LegalGuardian', legalGuardianName: 'Jane Roe', relationshipToPatient: 'Aunt', holdEnd: null });
    const hold = await put(id, { legalStatus: { type: 'InvoluntaryPsychiatricHold', legalGuardianName: 'Jane Roe', holdEnd: '2026-12-01T10:00:00Z' } });
    expect(hold.body.legalStatus).toMatchObject({ type: 'InvoluntaryPsychiatricHold', legalGuardianName: null, holdEnd: '2026-12-01T10:00:00Z' });

    // Bad input: coded 400, nothing changed.
    const before = (await db.query('SELECT data FROM medical_information WHERE case_id = $1', [id])).rows[0].data;
    for (const bad of [
      { alcoholInSystem: { exist: true, bal: 9.01 } },
      { alcoholInSystem: { exist: true, bal: 150 } },
      { alcoholInSystem: { exist: true, bal: 0 } },
      { drugsInSystem: [{ useCase: 'Prescribed' }] },
      { primaryDiagnosisCode: 'NOPE.999' },
      { recommendationCriteria: ['HighAcuity'], mainRecommendation: 'Outpatient' },
    ]) {
      const r = await put(id, bad);
      expect([JSON.stringify(bad), r.status, r.error?.code]).toEqual([JSON.stringify(bad), 400, 'INV']);
    }
    expect((await db.query('SELECT data FROM medical_information WHERE case_id = $1', [id])).rows[0].data).toEqual(before);
  });

  it('asks for confirmation when the recommendation changes, and updates the case recommendation', async () => {
    const id = await newCase();
    await claim(id);
    const rec = { mainRecommendation: 'MentalHealthInpatient', recommendationCriteria: ['HighAcuity'], recommendationNote: 'Needs a bed' };
    const ask = await put(id, rec);
    expect([ask.status, ask.error?.code, ask.body.payload?.reason]).toEqual([409, 'INV.MEDICAL.INFORMATION.CONFIRMATION.REQUIRED', 'recommendationChanged']);
    expect((await db.query('SELECT main_recommendation FROM cases WHERE id = $1', [id])).rows[0].main_recommendation).toBeNull();

    const ok = await put(id, { ...rec, confirmed: true });
    expect(ok.status).toBe(200);
    const row = (await db.query('SELECT main_recommendation, criteria, recommendation_note, status FROM cases WHERE id = $1', [id])).rows[0];
    expect(row).toMatchObject({ main_recommendation: 'MentalHealthInpatient', criteria: ['HighAcuity'], recommendation_note: 'Needs a bed', status: 'PendingAssignment_DocumentationReview' });
    expect(ok.body).toMatchObject(rec);
    // Same recommendation again: no confirmation needed; a note-only change neither.
    expect((await put(id, { ...rec, recommendationNote: 'Needs a bed today' })).status).toBe(200);

    const logs = await logRows(id);
    expect(logs).toEqual(
      expect.arrayContaining([
        { name: 'mainRecommendation', old_value: null, new_value: 'MentalHealthInpatient', meta_info: { reason: 'recommendationChanged' } },
        { name: 'criteria', old_value: null, new_value: 'HighAcuity', meta_info: { reason: 'recommendationChanged' } },
        { name: 'recommendationNote', old_value: 'Needs a bed', new_value: 'Needs a bed today', meta_info: { reason: 'edit' } },
      ]),
    );
  });

  it('requires the recommendation while contacting and confirms a legal status outside the allowed set unless out of state', async () => {
    const id = await newCase();
    await claim(id);
    await put(id, { mainRecommendation: 'Outpatient', recommendationCriteria: ['SubstanceAbuse'], legalStatus: { type: 'Voluntary' }, confirmed: true });
    await setStatus(id, 'LocatingServices_ContactingServiceOrganization');

    const noRec = await put(id, { legalStatus: { type: 'Voluntary' } });
    expect([noRec.status, noRec.body.fields?.[0]?.field]).toEqual([400, 'mainRecommendation']);

    const base = { mainRecommendation: 'Outpatient', recommendationCriteria: ['SubstanceAbuse'] };
    // Inside the allowed set (involuntary group plus Voluntary): no question.
    expect((await put(id, { ...base, legalStatus: { type: 'InvoluntaryMentalHealthCommitment' } })).status).toBe(200);
    const ask = await put(id, { ...base, legalStatus: { type: 'PowerOfAttorney' } });
    expect([ask.status, ask.error?.code, ask.body.payload?.reason]).toEqual([409, 'INV.MEDICAL.INFORMATION.CONFIRMATION.REQUIRED', 'legalStatusChanged']);
    expect((await put(id, { ...base, legalStatus: { type: 'PowerOfAttorney' }, confirmed: true })).status).toBe(200);

    // Out of state: no question.
    await setStatus(id, 'LocatingServices_ContactingServiceOrganization', ', include_out_of_state_facilities = true');
    expect((await put(id, { ...base, legalStatus: { type: 'DualCommittal' } })).status).toBe(200);
    // Not contacting: no question, and the recommendation may be left out.
    await setStatus(id, 'RecommendationReview_WaitingOnDecision', ', include_out_of_state_facilities = false');
    expect((await put(id, { ...base, legalStatus: { type: 'Under18ParentalConsent' } })).status).toBe(200);
    await setStatus(id, 'PendingAssignment_DocumentationReview');
    const draft = await put(id, { legalStatus: { type: 'Under18ParentalConsent' } }); // removing the recommendation asks
    expect(draft.body.payload?.reason).toBe('recommendationChanged');
  });

  it('writes one change-log row per changed tracked field and pages the log by 10', async () => {
    const id = await newCase();
    await claim(id);
    await put(id, { homeMedications: 'A', covid19: true });
    await put(id, { homeMedications: 'B', covid19: true, ambulatory: false });
    const rows = await logRows(id);
    expect(rows.map((r) => [r.name, r.old_value, r.new_value])).toEqual([
      ['homeMedications', null, 'A'],
      ['covid19', null, 'Yes'],
      ['homeMedications', 'A', 'B'],
      ['ambulatory', null, 'No'],
    ]);
    for (let i = 0; i < 10; i++) await put(id, { homeMedications: `v${i}`, covid19: true, ambulatory: false });
    const p1 = await api('GET', `/api/cases/${id}/medical-information/logs`, { token: coordinator });
    expect(p1.status).toBe(200);
    expect(p1.body.total).toBe(14);
    expect(p1.body.items).toHaveLength(10);
    expect(p1.body.items[0]).toMatchObject({ name: 'homeMedications', oldValue: 'v8', newValue: 'v9', changedBy: coordinatorName });
    const p2 = await api('GET', `/api/cases/${id}/medical-information/logs?page=2`, { token: coordinator });
    expect(p2.body.items).toHaveLength(4);
    expect(p2.headers.get('content-range')).toBe('medical-information-logs 10-13/14');
    expect((await api('GET', `/api/cases/${id}/medical-information/logs?page=x`, { token: coordinator })).status).toBe(400);
  });

  it('gives facility roles only the facility subset and refuses them the edit and the log', async () => {
    const id = await newCase();
    await claim(id);
    await put(id, {
      homeMedications: 'Lithium',
      crisisTeamNotes: 'internal',
      medicalPsychHistory: 'internal',
      assistiveDevices: { exist: true, note: 'Cane' },
      mainRecommendation: 'DetoxUnit',
      confirmed: true,
    });
    const full = await get(id);
    expect(full.body.crisisTeamNotes).toBe('internal');
    const sub = await get(id, facility);
    expect(sub.status).toBe(200);
    expect(sub.body).toMatchObject({ homeMedications: 'Lithium', mainRecommendation: 'DetoxUnit', assistiveDevices: { exist: true, note: 'Cane' } });
    for (const hidden of ['crisisTeamNotes', 'medicalPsychHistory', 'homicidalOrSuicidalIdeations', 'hallucinations', 'violentBehavior', 'criminalCharges', 'acuteConditions'])
      expect([hidden, hidden in sub.body]).toEqual([hidden, false]);
    expect((await put(id, { homeMedications: 'x' }, facility)).status).toBe(403);
    expect((await api('GET', `/api/cases/${id}/medical-information/logs`, { token: facility })).status).toBe(403);
    expect((await get(id, group)).status).toBe(403);
    expect((await api('GET', '/api/diagnoses?q=dep', { token: facility })).status).toBe(403);
  });

  it('refuses edits of a closed case', async () => {
    const id = await newCase();
    await claim(id);
    await setStatus(id, 'Closed', ', closed_at = now()');
    const res = await put(id, { homeMedications: 'x' });
    expect([res.status, res.error?.code]).toEqual([409, 'INV.CASE.IS.CLOSED']);
    expect((await get(id)).body.homeMedications).toBeNull();
    expect(await logRows(id)).toEqual([]);
    expect((await get(id)).status).toBe(200);
  });

  it('lets every ITP role edit and searches diagnoses from 3 characters', async () => {
    const id = await newCase();
    const c = await claim(id, provider);
    expect(c.status).toBe(200);
    expect((await put(id, { acuteConditions: 'None' }, provider)).status).toBe(200);
    const short = await api('GET', '/api/diagnoses?q=de', { token: coordinator });
    expect([short.status, short.error?.code]).toEqual([400, 'INV']);
    const { code, description } = (await db.query('SELECT code, description FROM diagnoses ORDER BY code LIMIT 1')).rows[0];
    const byDesc = await api('GET', `/api/diagnoses?q=${encodeURIComponent(description.slice(0, 5))}`, { token: provider });
    expect(byDesc.status).toBe(200);
    expect(byDesc.body.some((d: any) => d.code === code)).toBe(true);
    const byCode = await api('GET', `/api/diagnoses?q=${encodeURIComponent(code.slice(0, 3))}`, { token: coordinator });
    expect(byCode.body[0].code.startsWith(code.slice(0, 3))).toBe(true);
    expect((await api('GET', `/api/cases/987654321/medical-information`, { token: coordinator })).status).toBe(404);
  });
});
