import { io, type Socket } from 'socket.io-client';
import { ErrorCode, type LiveEvents } from '@crisis/forms';
import { API_URL, api, eventually } from '../support/api';
import { caseCommandFailure, runCaseCommand, type CaseCommand } from '@crisis/workflows';
import { contactingCase, createCase, fillEvaluation, placementTeam } from '../support/cases';
import { withTemporal } from '../support/temporal-client';
import { db } from '../support/db';

/**
 * One writer per case: the recommendation edited from the medical information goes through the
 * case workflow like any status change (the rules of the case's status, a version bump, an
 * activity row, a live event for every open page), and a command the database refuses fails at
 * once without wedging the case.
 */
describe('one writer per case', () => {
  let coordinator: string;
  let provider: string;
  let providerId: number;
  let floor: { facilityId: number; divisionId: number };
  const sockets: Socket[] = [];
  afterAll(() => sockets.forEach((s) => s.close()));

  beforeAll(async () => {
    ({ coordinator, provider, providerId, floor } = await placementTeam());
  });

  const newContactingCase = () =>
    contactingCase({ token: coordinator, providerToken: provider, facilityId: floor.facilityId, divisionId: floor.divisionId, providerId });
  const caseRow = async (caseId: number) =>
    (await db.query('SELECT status, version, main_recommendation, criteria, recommendation_note FROM cases WHERE id = $1', [caseId])).rows[0];
  const claim = (caseId: number) =>
    api('POST', '/api/claims', { token: coordinator, body: { objectType: 'CaseMedicalInformation', objectId: caseId, extendBy: 120 } });
  const saveMedical = (caseId: number, body: Record<string, unknown>) =>
    api('PUT', `/api/cases/${caseId}/medical-information`, { token: coordinator, body: { confirmed: true, ...body } });

  /** A second browser with the case page open: a socket in the case's room. */
  async function openCasePage(token: string, caseId: number): Promise<Array<LiveEvents['case.updated']>> {
    const socket = io(API_URL, { path: '/socket.io', auth: { token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    await new Promise((resolve, reject) => {
      socket.on('ready', resolve);
      socket.on('connect_error', reject);
    });
    const ack = await socket.timeout(10_000).emitWithAck('case.join', { caseId });
    expect(ack).toEqual({ joined: true });
    const seen: Array<LiveEvents['case.updated']> = [];
    socket.on('case.updated', (e: LiveEvents['case.updated']) => seen.push(e));
    return seen;
  }

  it('refuses Defer from the medical information while the case is contacting, and changes nothing', async () => {
    const caseId = await newContactingCase();
    const before = await caseRow(caseId);
    expect(before.status).toBe('LocatingServices_ContactingServiceOrganization');
    expect((await claim(caseId)).status).toBe(200);

    const res = await saveMedical(caseId, { mainRecommendation: 'DeferRecommendationsAtThisTime', recommendationNote: 'not yet' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(ErrorCode.Invalid);
    expect(res.body.fields).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'mainRecommendation', key: 'deferNotAllowed' })]));
    expect(await caseRow(caseId)).toEqual(before);
  });

  it('changes the recommendation through the case: version bumped, activity row written, a second browser told live', async () => {
    const caseId = await newContactingCase();
    const before = await caseRow(caseId);
    const page = await openCasePage(coordinator, caseId);
    expect((await claim(caseId)).status).toBe(200);

    const res = await saveMedical(caseId, { mainRecommendation: 'MentalHealthInpatient', recommendationNote: 'Needs a secure unit' });
    expect(res.status).toBe(200);

    const after = await caseRow(caseId);
    expect(after.recommendation_note).toBe('Needs a secure unit');
    expect(after.version).toBe(before.version + 1);
    expect(after.status).toBe(before.status);
    const activity = await db.query(
      `SELECT kind, status, recommendation_note, initiator_name FROM case_activities WHERE case_id = $1 AND kind = 'recommendation'`,
      [caseId],
    );
    expect(activity.rows).toEqual([expect.objectContaining({ status: before.status, recommendation_note: 'Needs a secure unit' })]);
    const event = await eventually(async () => page.find((e) => e.version === after.version), 'case.updated on the second page');
    expect(event).toEqual({ caseId, status: before.status, version: after.version });
    // The audit entry of the call was written with the change, once.
    const audit = await db.query(`SELECT count(*)::int AS n FROM audit_log WHERE path = $1 AND success`, [`/api/cases/${caseId}/medical-information`]);
    expect(audit.rows[0].n).toBe(1);
  });

  it('completing an evaluation completes its row in the command\'s transaction, and a save since the provider\'s check refuses it', async () => {
    const c = await createCase({ token: coordinator, facilityId: floor.facilityId, divisionId: floor.divisionId, providerId });
    for (const step of ['in-progress', 'evaluation/start']) expect((await api('PUT', `/api/requests/${c.requestId}/${step}`, { token: provider })).status).toBe(200);
    const filled = await fillEvaluation(provider, c.requestId);
    const actor = { id: providerId, name: 'Provider', userType: 'IntegratedTelehealthPartners_Provider' };
    const evaluationRow = async () =>
      (await db.query('SELECT e.version, e.completed_at, r.status FROM evaluations e JOIN requests r ON r.id = e.request_id WHERE e.request_id = $1', [c.requestId])).rows[0];
    await withTemporal(async (client) => {
      // The version the API checked, then a save from another tab before the command ran.
      const stale = await runCaseCommand(client, c.id, {
        kind: 'completeEvaluation',
        requestId: c.requestId,
        evaluationVersion: filled.version - 1,
        commandId: `one-writer-complete-stale-${c.id}`,
        actor,
      }).then(
        () => null,
        (err) => caseCommandFailure(err),
      );
      expect(stale?.code).toBe(ErrorCode.EvaluationStale);
      expect(await evaluationRow()).toEqual({ version: filled.version, completed_at: null, status: 'InProgress' });
    });
    // Through the API: the request, the evaluation and the case move together.
    expect((await api('PUT', `/api/requests/${c.requestId}/evaluation/complete`, { token: provider, body: filled })).status).toBe(200);
    const after = await evaluationRow();
    expect(after).toEqual({ version: filled.version + 1, completed_at: expect.any(Date), status: 'Completed' });
    expect((await caseRow(c.id)).status).toBe('RecommendationReview_WaitingOnDecision');
  });

  it('a command the database refuses fails its Update at once with a coded error, and the next command still runs', async () => {
    // The API refuses a NUL at the edge (input-the-database-cannot-hold.test.ts): this sends the
    // command straight to the workflow, as a caller that skipped the edge would.
    const caseId = await newContactingCase();
    const actor = { id: 0, name: 'One-writer test', userType: 'IntegratedTelehealthPartners_User' };
    const command = (note: string): CaseCommand => ({
      kind: 'changeStatus',
      status: 'OnHold_MissingDocumentation',
      note,
      commandId: `one-writer-${caseId}-${note.length}-${Date.now()}`,
      actor,
    });
    await withTemporal(async (client) => {
      const started = Date.now();
      const failure = await runCaseCommand(client, caseId, command('waiting \u0000 for papers')).then(
        () => null,
        (err) => caseCommandFailure(err),
      );
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(failure?.code).toBe(ErrorCode.CaseCommandRefused);
      const next = await runCaseCommand(client, caseId, command('waiting for papers'));
      expect(next.state.status).toBe('OnHold_MissingDocumentation');
    });
    expect((await caseRow(caseId)).status).toBe('OnHold_MissingDocumentation');
  });
});
