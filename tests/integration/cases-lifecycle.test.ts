import { api } from '../support/api';
import { fillEvaluation, tampaDivisions } from '../support/cases';
import { db, dataFingerprint } from '../support/db';
import { signIn, signInAs } from '../support/oidc-client';
import { CASE_STATUSES, allowedTargets } from '@crisis/forms';

/**
 * The case lifecycle through the API and the case workflow (spec 01 §4): creation, every manual
 * transition, the rules of the dialogs, resume / undo / reopen, request moves, concurrency.
 */
describe('case lifecycle', () => {
  let itp: string;
  let facility: string;
  let provider: string;
  let providerId: number;
  let tampa: { facilityId: number; edId: number; floorId: number };
  let referringDivisionId: number;
  let seq = 0;

  const unique = () => `${Date.now().toString(36)}${(seq++).toString(36)}`;
  const letters = (s: string) => s.replace(/[^a-z]/gi, '').replace(/\d/g, '') || 'X';
  const patient = (over: Record<string, unknown> = {}) => ({
    firstName: `Test${letters(unique()).slice(0, 8)}`,
    lastName: 'Lifecycle',
    dateOfBirth: '1990-05-17',
    gender: 'Male',
    address: { streetLine: '1 Bay St', city: 'Tampa', state: 'FL', county: 'Hillsborough County', zipCode: '33606' },
    ...over,
  });

  /**
   * A case on Tampa's medical floor made by ITP staff with the provider, or (withProvider false)
   * one from the emergency department's facility user, which waits in documentation review.
   */
  async function newCase(opts: { withProvider?: boolean; requestType?: string; patientOver?: Record<string, unknown> } = {}) {
    const byFacility = opts.withProvider === false;
    const res = await api('POST', '/api/cases', {
      token: byFacility ? facility : itp,
      body: {
        patient: patient(opts.patientOver),
        ...(byFacility ? {} : { sourceFacilityId: tampa.facilityId, sourceDivisionId: tampa.floorId, evaluationProviderId: providerId }),
        contactPhoneNumber: '+18135550199',
        notificationSendingMethod: 'PhoneCall',
        requestType: opts.requestType ?? 'Assessment',
        patientEpicId: 'E1002',
        encounterIdentifier: 'ENC-2002',
        uninsured: true,
      },
    });
    expect(res.status).toBe(201);
    return res.body as { id: number; requestId: number; status: string };
  }

  const status = async (id: number) => (await db.query('SELECT status FROM cases WHERE id = $1', [id])).rows[0].status as string;
  const put = (path: string, body?: unknown, token = itp) => api('PUT', path, { token, body });

  beforeAll(async () => {
    itp = (await signInAs('IntegratedTelehealthPartners_User')).accessToken;
    facility = (await signInAs('Facility_User')).accessToken;
    provider = (await signInAs('IntegratedTelehealthPartners_Provider')).accessToken;
    providerId = (await db.query("SELECT id FROM users WHERE email = 'provider@itp.example.org'")).rows[0].id;
    tampa = await tampaDivisions();
    referringDivisionId = (await db.query("SELECT id FROM divisions WHERE name = 'Adult Inpatient Unit'")).rows[0].id;
  });

  afterAll(() => db.end());

  it('creates a case from the facility form with its insurance; EHR-integrated divisions need the EHR ids', async () => {
    const payer = (await db.query('SELECT id FROM payers WHERE is_active ORDER BY id LIMIT 1')).rows[0].id;
    const body = {
      patient: patient(),
      contactPhoneNumber: '+18135550102',
      notificationSendingMethod: 'SMS',
      requestType: 'Assessment',
      requestNote: 'Agitated, threatening staff.',
      insurances: [{ payerId: payer, insuranceId: 'INS-77', relationToInsured: 'Self', verified: true }],
    };
    const missing = await api('POST', '/api/cases', { token: facility, body });
    expect(missing.status).toBe(400);
    expect(missing.error?.code).toBe('INV');
    expect(missing.body.fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'patientEpicId', message: 'Patient EPIC ID or MRN is required' }),
        expect.objectContaining({ field: 'encounterIdentifier', message: 'Patient Encounter ID is required' }),
      ]),
    );
    const res = await api('POST', '/api/cases', { token: facility, body: { ...body, patientEpicId: 'E1002', encounterIdentifier: 'ENC-2002' } });
    expect(res.status).toBe(201);
    const c = await api('GET', `/api/cases/${res.body.id}`, { token: facility });
    expect(c.status).toBe(200);
    expect(c.body.status).toBe('PendingAssignment_DocumentationReview');
    expect(c.body.sourceDivision.id).toBe(tampa.edId);
    expect(c.body.requests).toHaveLength(1);
    expect(c.body.requests[0]).toMatchObject({ type: 'Assessment', status: 'New', facilityNote: { value: 'Agitated, threatening staff.' } });
    const ins = await db.query('SELECT insurance_id, verified FROM patient_insurances WHERE case_id = $1', [res.body.id]);
    expect(ins.rows).toEqual([{ insurance_id: 'INS-77', verified: true }]);
  });

  it('finds the patient again and refuses a second case while the first is open', async () => {
    const p = patient();
    const first = await api('POST', '/api/cases', {
      token: itp,
      body: { patient: p, sourceFacilityId: tampa.facilityId, sourceDivisionId: tampa.floorId, contactPhoneNumber: '+18135550199', notificationSendingMethod: 'PhoneCall', requestType: 'Assessment', evaluationProviderId: providerId, uninsured: true, patientEpicId: 'E1002', encounterIdentifier: 'ENC-2002' },
    });
    expect(first.body).toMatchObject({ id: expect.any(Number) });
    const found = await api('GET', `/api/cases/search-patient?firstName=${p.firstName.toLowerCase()}&lastName=lifecycle&dateOfBirth=1990-05-17`, { token: itp });
    expect(found.status).toBe(200);
    const match = found.body.find((x: any) => x.lastCaseId === first.body.id);
    expect(match).toMatchObject({ activeCase: true, firstName: p.firstName });
    const again = await api('POST', '/api/cases', {
      token: itp,
      body: { patientId: match.id, sourceFacilityId: tampa.facilityId, sourceDivisionId: tampa.floorId, contactPhoneNumber: '+18135550199', notificationSendingMethod: 'PhoneCall', requestType: 'Assessment', evaluationProviderId: providerId, patientEpicId: 'E1002', encounterIdentifier: 'ENC-2002' },
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'INV.PATIENT.HAS.ACTIVE.CASE', payload: { caseId: first.body.id } });
  });

  it('walks a case from documentation review to closed and reopens it', async () => {
    const c = await newCase();
    expect(c.status).toBe('RequestSentToProvider_ProviderNotified');
    // The provider opens the case: the request moves to InProgress, the case to documentation review.
    expect((await put(`/api/requests/${c.requestId}/in-progress`, undefined, provider)).status).toBe(200);
    expect(await status(c.id)).toBe('ProviderWorkingRequest_DocumentationReview');
    expect((await put(`/api/requests/${c.requestId}/evaluation/start`, undefined, provider)).status).toBe(200);
    expect(await status(c.id)).toBe('ProviderWorkingRequest_AssessmentInProgress');
    // Closing is blocked while the latest request is active.
    const blocked = await put(`/api/cases/${c.id}/close`, { outcomeRequired: true, caseOutcomeType: 'LeftAMA' });
    expect(blocked.status).toBe(409);
    expect(blocked.error?.code).toBe('INV.CASE.HAS.ACTIVE.REQUEST');
    const evaluation = await fillEvaluation(provider, c.requestId);
    expect((await put(`/api/requests/${c.requestId}/evaluation/complete`, evaluation, provider)).status).toBe(200);
    expect(await status(c.id)).toBe('RecommendationReview_WaitingOnDecision');

    // Contacting needs a recommendation that is not Defer, allowed criteria and the out-of-state choice.
    const defer = await put(`/api/cases/${c.id}/status`, { status: 'LocatingServices_ContactingServiceOrganization', mainRecommendation: 'DeferRecommendationsAtThisTime', note: 'x', includeOutOfStateFacilities: false });
    expect(defer.status).toBe(400);
    expect(defer.body.fields).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'mainRecommendation' })]));
    const badCriteria = await put(`/api/cases/${c.id}/status`, { status: 'LocatingServices_ContactingServiceOrganization', mainRecommendation: 'MentalHealthInpatient', criteria: ['SubAcute'], includeOutOfStateFacilities: false });
    expect(badCriteria.status).toBe(400);
    const contacting = await put(`/api/cases/${c.id}/status`, {
      status: 'LocatingServices_ContactingServiceOrganization',
      mainRecommendation: 'MentalHealthInpatient',
      criteria: ['HighAcuity'],
      includeOutOfStateFacilities: true,
      expectedStatus: 'RecommendationReview_WaitingOnDecision',
    });
    expect(contacting.status).toBe(200);
    expect(contacting.body.state.status).toBe('LocatingServices_ContactingServiceOrganization');
    const row = (await db.query('SELECT main_recommendation, criteria, include_out_of_state_facilities FROM cases WHERE id = $1', [c.id])).rows[0];
    expect(row).toEqual({ main_recommendation: 'MentalHealthInpatient', criteria: ['HighAcuity'], include_out_of_state_facilities: true });

    // On hold with a note, then resume back to contacting.
    const noNote = await put(`/api/cases/${c.id}/status`, { status: 'OnHold_WaitingForFacility' });
    expect(noNote.status).toBe(400);
    expect(noNote.body.fields).toEqual([expect.objectContaining({ field: 'note', key: 'required' })]);
    expect((await put(`/api/cases/${c.id}/status`, { status: 'OnHold_WaitingForFacility', note: 'Bed expected tonight' })).status).toBe(200);
    const held = await api('GET', `/api/cases/${c.id}`, { token: itp });
    expect(held.body).toMatchObject({ status: 'OnHold_WaitingForFacility', statusToResume: 'LocatingServices_ContactingServiceOrganization' });
    expect(held.body.allowedStatuses).toEqual(['Closed']);
    expect((await put(`/api/cases/${c.id}/resume`)).status).toBe(200);
    expect(await status(c.id)).toBe('LocatingServices_ContactingServiceOrganization');

    // Back to recommendation review (note required), then undo that change.
    expect((await put(`/api/cases/${c.id}/status`, { status: 'RecommendationReview_WaitingOnDecision', note: 'Re-check' })).status).toBe(200);
    expect((await api('GET', `/api/cases/${c.id}`, { token: itp })).body.canUndo).toBe(true);
    expect((await put(`/api/cases/${c.id}/undo`)).status).toBe(200);
    expect(await status(c.id)).toBe('LocatingServices_ContactingServiceOrganization');
    // Only a manual change can be undone: the resume before it cannot.
    expect((await api('GET', `/api/cases/${c.id}`, { token: itp })).body.canUndo).toBe(false);
    expect((await put(`/api/cases/${c.id}/undo`)).error?.code).toBe('INV.CASE.NOTHING.TO.UNDO');

    // Close: a facility outcome needs the referring division; Other needs a note.
    const noDivision = await put(`/api/cases/${c.id}/close`, { outcomeRequired: true, caseOutcomeType: 'Transferred_MentalHealthInpatient' });
    expect(noDivision.status).toBe(400);
    expect(noDivision.body.fields).toEqual([expect.objectContaining({ field: 'referringDivisionId', key: 'required' })]);
    const otherNoNote = await put(`/api/cases/${c.id}/close`, { outcomeRequired: true, caseOutcomeType: 'Transferred_Other' });
    expect(otherNoNote.status).toBe(400);
    const closed = await put(`/api/cases/${c.id}/close`, { outcomeRequired: true, caseOutcomeType: 'Transferred_MentalHealthInpatient', referringDivisionId });
    expect(closed.status).toBe(200);
    const after = await api('GET', `/api/cases/${c.id}`, { token: itp });
    expect(after.body).toMatchObject({ status: 'Closed', outcome: { type: 'Transferred_MentalHealthInpatient', referringFacility: { divisionId: referringDivisionId } } });
    expect(after.body.allowedStatuses).toEqual([]);
    const onClosed = await put(`/api/cases/${c.id}/status`, { status: 'OnHold_Other', note: 'x' });
    expect(onClosed.status).toBe(409);
    expect(onClosed.error?.code).toBe('INV.CASE.IS.CLOSED');

    // Reopen goes back to the status before closing.
    const reopenStatus = await api('GET', `/api/cases/${c.id}/reopen-status`, { token: itp });
    expect(reopenStatus.body).toEqual({ statusToReopen: 'LocatingServices_ContactingServiceOrganization', activeCaseId: null });
    expect((await api('POST', `/api/cases/${c.id}/reopen`, { token: itp })).status).toBe(200);
    expect(await status(c.id)).toBe('LocatingServices_ContactingServiceOrganization');

    // The activity report has every step, with the undone one marked.
    const report = await api('GET', `/api/cases/${c.id}/activity/report`, { token: itp });
    expect(report.status).toBe(200);
    expect(report.body.groups.map((g: any) => g.group)).toEqual(
      expect.arrayContaining(['RequestSentToProvider', 'ProviderWorkingRequest', 'RecommendationReview', 'LocatingServices', 'OnHold', 'Closed']),
    );
    const activity = await api('GET', `/api/cases/${c.id}/activity`, { token: itp });
    expect(activity.body.filter((a: any) => a.undone)).toHaveLength(1);
  });

  it('refuses every transition the table does not allow, leaving no trace', async () => {
    const c = await newCase({ withProvider: false });
    expect(c.status).toBe('PendingAssignment_DocumentationReview');
    const allowed = allowedTargets('PendingAssignment_DocumentationReview', { allRequestsCancelled: false });
    const before = await dataFingerprint();
    for (const target of CASE_STATUSES) {
      if (allowed.includes(target) || target === 'PendingAssignment_DocumentationReview') continue;
      const res = await put(`/api/cases/${c.id}/status`, { status: target, note: 'n', mainRecommendation: 'MentalHealthInpatient', includeOutOfStateFacilities: false });
      expect([400, 409]).toContain(res.status);
      expect(res.error?.code).toMatch(/^INV/);
    }
    expect(await dataFingerprint()).toEqual(before);
    expect(await status(c.id)).toBe('PendingAssignment_DocumentationReview');
  });

  it('lets exactly one of two concurrent status changes win', async () => {
    const c = await newCase({ withProvider: false });
    const [a, b] = await Promise.all([
      put(`/api/cases/${c.id}/status`, { status: 'OnHold_MissingDocumentation', note: 'A', expectedStatus: 'PendingAssignment_DocumentationReview' }),
      put(`/api/cases/${c.id}/status`, { status: 'OnHold_WaitingForPatient', note: 'B', expectedStatus: 'PendingAssignment_DocumentationReview' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    expect(loser.error?.code).toBe('INV.CASE.STATUS.CHANGED');
    // Status changes only: the facility alert's call about the hold writes a line of its own.
    const rows = await db.query("SELECT status FROM case_activities WHERE case_id = $1 AND status LIKE 'OnHold%' AND kind <> 'alert'", [c.id]);
    expect(rows.rows).toHaveLength(1);
  });

  it('cancels a request irreversibly and returns the case to documentation review', async () => {
    const c = await newCase();
    const reason = await put(`/api/requests/${c.requestId}/cancel`, {});
    expect(reason.status).toBe(400);
    expect((await put(`/api/requests/${c.requestId}/cancel`, { reason: 'Patient discharged' })).status).toBe(200);
    expect(await status(c.id)).toBe('PendingAssignment_DocumentationReview');
    const again = await put(`/api/requests/${c.requestId}/cancel`, { reason: 'again' });
    expect(again.status).toBe(403);
    const note = await db.query("SELECT note FROM case_notes WHERE case_id = $1 AND kind = 'evaluation'", [c.id]);
    expect(note.rows[0].note).toContain('Patient discharged');
    // Every request cancelled: contacting is not offered.
    const d = await api('GET', `/api/cases/${c.id}`, { token: itp });
    expect(d.body.allowedStatuses).not.toContain('LocatingServices_ContactingServiceOrganization');
    // A new request may be created now — by ITP staff with its provider (spec 01 §5); a second active one may not.
    const noProvider = await api('POST', `/api/cases/${c.id}/requests`, { token: itp, body: { type: 'Assessment' } });
    expect(noProvider.status).toBe(400);
    expect(noProvider.body.fields).toEqual([expect.objectContaining({ field: 'evaluationProviderId', key: 'required' })]);
    const created = await api('POST', `/api/cases/${c.id}/requests`, { token: itp, body: { type: 'Assessment', evaluationProviderId: providerId } });
    expect(created.status).toBe(201);
    const second = await api('POST', `/api/cases/${c.id}/requests`, { token: itp, body: { type: 'PhoneConsultation', evaluationProviderId: providerId } });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: 'INV.CASE.HAS.ACTIVE.REQUEST', payload: { status: 'Pending' } });
  });

  it('marks a request not ready: OnHold documentation review, resumable', async () => {
    const c = await newCase();
    await put(`/api/requests/${c.requestId}/in-progress`, undefined, provider);
    expect((await put(`/api/requests/${c.requestId}/not-ready-for-evaluation`, { reason: 'No labs yet' }, provider)).status).toBe(200);
    const d = await api('GET', `/api/cases/${c.id}`, { token: itp });
    expect(d.body).toMatchObject({ status: 'OnHold_DocumentationReview', statusToResume: 'ProviderWorkingRequest_DocumentationReview' });
    expect(d.body.requests[0].status).toBe('OnHold');
    expect((await put(`/api/cases/${c.id}/resume`)).status).toBe(200);
    expect(await status(c.id)).toBe('ProviderWorkingRequest_DocumentationReview');
  });

  it('raises in-app notifications for the people concerned', async () => {
    const c = await newCase();
    const assigned = await db.query("SELECT type FROM notifications WHERE case_id = $1 AND user_id = $2", [c.id, providerId]);
    expect(assigned.rows.map((r) => r.type)).toContain('CaseAssignedToYou');
    await put(`/api/cases/${c.id}/status`, { status: 'OnHold_WaitingForPatient', note: 'Sleeping' });
    const onHold = await db.query("SELECT DISTINCT u.email FROM notifications n JOIN users u ON u.id = n.user_id WHERE n.case_id = $1 AND n.type = 'CaseOnHold'", [c.id]);
    expect(onHold.rows.map((r) => r.email)).toEqual(expect.arrayContaining(['provider@itp.example.org', 'admin@tampageneral.example.org']));
  });

  it('scopes cases: other facilities, group users and unrelated referring divisions cannot open them', async () => {
    const c = await newCase();
    const admin = (await signInAs('Facility_Admin')).accessToken; // Tampa's admin: her facility's case
    expect((await api('GET', `/api/cases/${c.id}`, { token: admin })).status).toBe(200);
    const savannahCase = (
      await db.query("SELECT c.id FROM cases c JOIN facilities f ON f.id = c.source_facility_id WHERE f.name = 'Savannah Coastal Medical Center' LIMIT 1")
    ).rows[0].id;
    expect((await api('GET', `/api/cases/${savannahCase}`, { token: facility })).status).toBe(403);
    expect((await api('GET', `/api/cases/${savannahCase}`, { token: admin })).status).toBe(403);
    const group = (await signInAs('Group_User')).accessToken;
    expect((await api('GET', `/api/cases/${c.id}`, { token: group })).status).toBe(403);
    // The referring user sees only the cases granted to her division (the seed grants one).
    const referring = (await signIn({ email: 'intake@sunrisebehavioral.example.org', password: 'Demo1234!' })).accessToken;
    expect((await api('GET', `/api/cases/${c.id}`, { token: referring })).status).toBe(403);
    expect((await api('GET', `/api/cases/${savannahCase}`, { token: referring })).status).toBe(200);
    const granted = await api('GET', '/api/cases?range=[0,199]', { token: referring });
    const ids = granted.body.map((r: any) => r.id as number);
    expect(ids).toContain(savannahCase);
    expect(ids).not.toContain(c.id);
    const access = await db.query(
      `SELECT count(*)::int AS n FROM case_referring_access a JOIN divisions d ON d.id = a.division_id
        WHERE d.name = 'Adult Inpatient Unit' AND a.case_id = ANY($1::int[]) AND a.removed_at IS NULL`,
      [ids],
    );
    expect(access.rows[0].n).toBe(ids.length);
    // The facility user's list holds only her division's open cases.
    const list = await api('GET', '/api/cases?range=[0,99]', { token: facility });
    expect(list.status).toBe(200);
    expect(list.body.length).toBeGreaterThan(0);
    for (const row of list.body) expect(row.sourceDivision.id).toBe(tampa.edId);
    expect((await api('GET', '/api/cases/999999', { token: itp })).status).toBe(404);
  });

  it('lists the accepted divisions and the inpatient divisions nearest the source facility', async () => {
    const grace = (await db.query("SELECT c.id FROM cases c JOIN patients p ON p.id = c.patient_id WHERE p.last_name = 'Whitfield'")).rows[0].id;
    const accepted = await api('GET', `/api/cases/${grace}/accepted-facilities`, { token: itp });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual([expect.objectContaining({ divisionName: 'Adult Inpatient Unit', facilityName: 'Sunrise Behavioral Health Hospital' })]);
    const near = await api('GET', `/api/cases/inpatient-divisions/${grace}`, { token: itp });
    expect(near.status).toBe(200);
    expect(near.body.length).toBeGreaterThan(0);
    const miles = near.body.map((d: any) => d.proximityMiles);
    expect(miles).toEqual([...miles].sort((a, b) => a - b));
  });
});
