import { spawn, type ChildProcess } from 'child_process';
import path from 'path';
import { Client, Connection } from '@temporalio/client';
import { connectionOptions, pendingCallback, setCallbackTimer, temporalEnv } from '@crisis/workflows';
import { api, eventually } from '../support/api';
import { db } from '../support/db';
import { contactingCase as buildContactingCase } from '../support/cases';
import { signIn, signInAs } from '../support/oidc-client';

/**
 * Placement against PostgreSQL and Temporal (issue 5 "done means"): generated tasks, the division
 * claim race, a lapsed lease, call results and their follow-ups, patient accepted moving the case,
 * callbacks firing once / moving / cancelled by undo, timers surviving a worker that was down,
 * and the closed / reworked refusals.
 */
describe('placement', () => {
  let coordinator: string;
  let admin: string;
  let provider: string;
  let providerId: number;
  let floor: { facilityId: number; divisionId: number };
  let sunriseAdult: number;
  const put = (p: string, body?: unknown, token = coordinator) => api('PUT', p, { token, body });
  const status = async (id: number) => (await db.query('SELECT status FROM cases WHERE id = $1', [id])).rows[0].status as string;

  /** A case of an adult male moved to contacting with MentalHealthInpatient. */
  const contactingCase = () =>
    buildContactingCase({ token: coordinator, providerToken: provider, facilityId: floor.facilityId, divisionId: floor.divisionId, providerId, patient: { lastName: 'Ment' } });

  const taskOf = async (caseId: number, divisionId: number) =>
    (await db.query('SELECT id FROM placement_tasks WHERE case_id = $1 AND division_id = $2', [caseId, divisionId])).rows[0]?.id as number | undefined;

  async function claim(token = coordinator) {
    return api('POST', `/api/placement-tasks/division/${sunriseAdult}/claim`, { token, body: {} });
  }
  const release = (claimId: number, token = coordinator) => put(`/api/placement-tasks/claim/${claimId}/release`, undefined, token);

  beforeAll(async () => {
    coordinator = (await signInAs('IntegratedTelehealthPartners_User')).accessToken;
    admin = (await signInAs('IntegratedTelehealthPartners_Admin')).accessToken;
    provider = (await signInAs('IntegratedTelehealthPartners_Provider')).accessToken;
    providerId = (await db.query("SELECT id FROM users WHERE email = 'provider@itp.example.org'")).rows[0].id;
    const d = await db.query(
      `SELECT f.id AS facility, d.id AS division FROM facilities f JOIN divisions d ON d.facility_id = f.id
        WHERE f.name = 'Tampa Bay General Hospital' AND d.name = 'Medical Floor 5 West'`,
    );
    floor = { facilityId: d.rows[0].facility, divisionId: d.rows[0].division };
    sunriseAdult = (await db.query("SELECT id FROM divisions WHERE name = 'Adult Inpatient Unit'")).rows[0].id;
  });

  afterAll(() => db.end());

  it('generates ranked tasks with their reasons when the case enters contacting', async () => {
    const caseId = await contactingCase();
    const res = await api('GET', `/api/cases/${caseId}/placements`, { token: coordinator });
    expect(res.status).toBe(200);
    expect(res.body.tasks.length).toBeGreaterThan(0);
    const sunrise = res.body.tasks.find((t: any) => t.divisionId === sunriseAdult);
    expect(sunrise).toBeDefined();
    expect(sunrise.reasons.join(' ')).toMatch(/Mental Health Inpatient division/);
    // Only inpatient divisions that take an adult man; the geriatric unit does not fit.
    const types = await db.query(
      `SELECT DISTINCT d.referring_type FROM placement_tasks t JOIN divisions d ON d.id = t.division_id WHERE t.case_id = $1`,
      [caseId],
    );
    expect(types.rows).toEqual([{ referring_type: 'MentalHealthInpatient' }]);
    const senior = await db.query(`SELECT 1 FROM placement_tasks t JOIN divisions d ON d.id = t.division_id WHERE t.case_id = $1 AND d.name = 'Senior Care Unit'`, [caseId]);
    expect(senior.rows).toHaveLength(0);
    // Ranked: preferred first, then score, then travel.
    expect(res.body.tasks.map((t: any) => t.rank)).toEqual([...res.body.tasks.map((t: any) => t.rank)].sort((a: number, b: number) => a - b));
    expect(res.body.outOfState).toMatchObject({ enabled: true });
  });

  it('lets exactly one of two racing coordinators claim a division, naming the holder', async () => {
    await contactingCase();
    const [a, b] = await Promise.all([claim(coordinator), claim(admin)]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    const winner = a.status === 200 ? a : b;
    expect(loser.body).toMatchObject({ code: 'INV.DIVISION.ALREADY.CLAIMED', payload: { divisionId: sunriseAdult, claimedByName: expect.any(String) } });
    const active = await db.query(`SELECT count(*)::int AS n FROM claims WHERE object_type = 'PlacementTask' AND object_id = $1 AND released_at IS NULL`, [String(sunriseAdult)]);
    expect(active.rows[0].n).toBe(1);
    await release(winner.body.claimId, winner === a ? coordinator : admin);
  });

  it('refuses a second claim with a coded 409 naming the holder, whose name need not be ASCII', async () => {
    // The holder's name was in the error's message, which goes out in the x-error header: a name
    // beyond Latin-1 (Vietnamese, Polish, Japanese…) made the answer a 500 instead of the refusal.
    const me = (await api('GET', '/api/user/context', { token: coordinator })).body;
    const profile = (await api('GET', `/api/user/profile/${me.id}`, { token: coordinator })).body;
    const rename = (firstName: string, lastName: string) =>
      put(`/api/user/profile/${me.id}`, { firstName, lastName, phone: profile.phone, jobTitle: profile.jobTitle ?? null });
    expect((await rename('Nguyễn', 'Łukasz 田中')).status).toBe(200);
    try {
      await contactingCase();
      const held = await claim(coordinator);
      expect(held.status).toBe(200);
      const second = await claim(admin);
      expect([second.status, second.error?.code]).toEqual([409, 'INV.DIVISION.ALREADY.CLAIMED']);
      expect(second.body.payload).toMatchObject({ divisionId: sunriseAdult, claimedByName: 'Nguyễn Łukasz 田中' });
      await release(held.body.claimId);
    } finally {
      await rename(profile.firstName, profile.lastName);
    }
  });

  it('releases a lease that is not renewed: the next submit is refused as overdue', async () => {
    const caseId = await contactingCase();
    const c = await claim();
    expect(c.status).toBe(200);
    const taskId = (await taskOf(caseId, sunriseAdult))!;
    await eventually(async () => (await db.query('SELECT released_at FROM claims WHERE id = $1', [c.body.claimId])).rows[0].released_at, 'the lease to lapse', 20_000);
    const late = await put(`/api/placement-tasks/claim/${c.body.claimId}/calls`, { calls: [{ placementTaskId: taskId, result: 'NoAnswer' }] });
    expect(late.status).toBe(409);
    expect(late.error?.code).toBe('INV.CLAIM.IS.OVERDUE.OR.INACTIVE');
    const calls = await db.query('SELECT count(*)::int AS n FROM placement_calls WHERE task_id = $1', [taskId]);
    expect(calls.rows[0].n).toBe(0);
  });

  it('logs left-voicemail on two cases at once, then patient accepted moves the case to waiting for confirmation', async () => {
    const first = await contactingCase();
    const second = await contactingCase();
    const c = await claim();
    expect(c.status).toBe(200);
    const log = await api('GET', `/api/placement-tasks/claim/${c.body.claimId}`, { token: coordinator });
    expect(log.status).toBe(200);
    const t1 = (await taskOf(first, sunriseAdult))!;
    const t2 = (await taskOf(second, sunriseAdult))!;
    expect(log.body.tasks.map((t: any) => t.id)).toEqual(expect.arrayContaining([t1, t2]));
    // spokeWith is not needed for NoAnswer / LeftVoicemail; the default follow-up is one hour.
    const before = Date.now();
    const saved = await put(`/api/placement-tasks/claim/${c.body.claimId}/calls`, {
      calls: [
        { placementTaskId: t1, result: 'LeftVoicemail', note: 'Left a message with intake' },
        { placementTaskId: t2, result: 'LeftVoicemail' },
      ],
    });
    expect(saved.status).toBe(200);
    const tasks = await db.query('SELECT callback_at FROM placement_tasks WHERE id = ANY($1::int[])', [[t1, t2]]);
    for (const r of tasks.rows) expect(Math.round((r.callback_at.getTime() - before) / 60_000)).toBe(60);

    // A conversation needs "spoke with"; PatientAccepted then moves the first case.
    const missing = await put(`/api/placement-tasks/claim/${c.body.claimId}/calls`, { calls: [{ placementTaskId: t1, result: 'PatientAccepted' }] });
    expect(missing.status).toBe(400);
    expect(missing.body.fields).toEqual([expect.objectContaining({ field: 'calls.0.spokeWith', key: 'required' })]);
    const accepted = await put(`/api/placement-tasks/claim/${c.body.claimId}/calls`, {
      calls: [{ placementTaskId: t1, result: 'PatientAccepted', spokeWith: 'Nurse Jo', accept: { male: { adult: true } } }],
    });
    expect(accepted.status).toBe(200);
    await eventually(async () => (await status(first)) === 'ServicesLocated_WaitingForConfirmation', 'the case to wait for confirmation');
    const access = await db.query('SELECT accepted_at FROM case_referring_access WHERE case_id = $1 AND division_id = $2', [first, sunriseAdult]);
    expect(access.rows[0].accepted_at).not.toBeNull();
    // The referring division's user now sees the case.
    const intake = (await signIn({ email: 'intake@sunrisebehavioral.example.org', password: 'Demo1234!' })).accessToken;
    expect((await api('GET', `/api/cases/${first}`, { token: intake })).status).toBe(200);
    await release(c.body.claimId);

    // Undo (unclaimed, last call, case waiting): the case is back to contacting and the row crossed out.
    const full = await api('GET', `/api/placement-tasks/log/${first}`, { token: coordinator });
    expect(full.status).toBe(200);
    const last = full.body.find((r: any) => r.result === 'PatientAccepted');
    expect(last.canUndo).toBe(true);
    const undone = await put(`/api/placement-tasks/${t1}/undo/${last.placementTaskCallId}`);
    expect(undone.status).toBe(200);
    await eventually(async () => (await status(first)) === 'LocatingServices_ContactingServiceOrganization', 'the case back to contacting');
    const after = await api('GET', `/api/placement-tasks/log/${first}`, { token: coordinator });
    expect(after.body.find((r: any) => r.placementTaskCallId === last.placementTaskCallId)).toMatchObject({ undone: true, canUndo: false });
    expect((await put(`/api/placement-tasks/${t1}/undo/${last.placementTaskCallId}`)).status).toBe(409);
  });

  it('fires a callback once when due, moves it when changed and never fires it when undone', async () => {
    const caseId = await contactingCase();
    const taskId = (await taskOf(caseId, sunriseAdult))!;
    const c = await claim();
    const soon = () => new Date(Date.now() + 3000).toISOString();
    // Set, then change to a later time: it fires once, at the later time.
    await put(`/api/placement-tasks/claim/${c.body.claimId}/calls`, { calls: [{ placementTaskId: taskId, result: 'CallBack', spokeWith: 'Intake', callbackAt: soon() }] });
    const later = new Date(Date.now() + 6000).toISOString();
    await put(`/api/placement-tasks/claim/${c.body.claimId}/calls`, { calls: [{ placementTaskId: taskId, result: 'CallBack', spokeWith: 'Intake', callbackAt: later }] });
    await new Promise((r) => setTimeout(r, 4000));
    expect((await db.query('SELECT due_at FROM placement_tasks WHERE id = $1', [taskId])).rows[0].due_at).toBeNull();
    const due = await eventually(async () => (await db.query('SELECT due_at FROM placement_tasks WHERE id = $1', [taskId])).rows[0].due_at, 'the callback to fire', 15_000);
    expect(due.getTime()).toBeGreaterThanOrEqual(Date.parse(later) - 50);
    expect(due.getTime() - Date.parse(later)).toBeLessThan(3000);
    const notes = await db.query(`SELECT count(*)::int AS n FROM notifications WHERE payload->>'TaskId' = $1`, [String(taskId)]);
    expect(notes.rows[0].n).toBe(1);

    // A new callback, then the call undone: the timer never fires.
    await put(`/api/placement-tasks/claim/${c.body.claimId}/calls`, { calls: [{ placementTaskId: taskId, result: 'CallBack', spokeWith: 'Intake', callbackAt: soon() }] });
    await release(c.body.claimId);
    const log = await api('GET', `/api/placement-tasks/log/${caseId}`, { token: coordinator });
    const newest = log.body[0];
    expect((await put(`/api/placement-tasks/${taskId}/undo/${newest.placementTaskCallId}`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 5000));
    const fired = await db.query(`SELECT count(*)::int AS n FROM notifications WHERE payload->>'TaskId' = $1`, [String(taskId)]);
    expect(fired.rows[0].n).toBe(1);
  }, 60_000);

  it('refuses calls on a closed case and on a reworked one', async () => {
    const reworked = await contactingCase();
    const closed = await contactingCase();
    const rt = (await taskOf(reworked, sunriseAdult))!;
    const ct = (await taskOf(closed, sunriseAdult))!;
    expect((await put(`/api/cases/${reworked}/status`, { status: 'RecommendationReview_WaitingOnDecision', note: 'New information' })).status).toBe(200);
    expect((await put(`/api/cases/${closed}/close`, { outcomeRequired: true, caseOutcomeType: 'LeftAMA' })).status).toBe(200);
    const c = await claim();
    const r1 = await put(`/api/placement-tasks/claim/${c.body.claimId}/calls`, { calls: [{ placementTaskId: rt, result: 'NoAnswer' }] });
    expect(r1.error?.code).toBe('INV.CASE.IS.REWORKED');
    const r2 = await put(`/api/placement-tasks/claim/${c.body.claimId}/calls`, { calls: [{ placementTaskId: ct, result: 'NoAnswer' }] });
    expect(r2.error?.code).toBe('INV.CASE.IS.CLOSED');
    const placements = await api('GET', `/api/cases/${reworked}/placements`, { token: coordinator });
    expect(placements.body.reworkedWarning).toBe(true);
    await release(c.body.claimId);
  });

  describe('timers while the worker is down', () => {
    const env = temporalEnv();
    const taskQueue = `callbacks-${Date.now()}`;
    let connection: Connection;
    let client: Client;
    let worker: ChildProcess | undefined;

    beforeAll(async () => {
      connection = await Connection.connect(connectionOptions(env));
      client = new Client({ connection, namespace: env.namespace });
    });
    afterAll(async () => {
      worker?.kill('SIGKILL');
      await connection?.close();
    });

    it('fires every timer that came due while no worker ran, once a worker is back', async () => {
      const caseId = await contactingCase();
      const tasks = (await db.query('SELECT id FROM placement_tasks WHERE case_id = $1 ORDER BY id LIMIT 3', [caseId])).rows.map((r) => r.id as number);
      const at = new Date(Date.now() + 2000).toISOString();
      for (const id of tasks) {
        await db.query('UPDATE placement_tasks SET callback_at = $2, due_at = NULL WHERE id = $1', [id, at]);
        await setCallbackTimer(client, id, at, { taskQueue });
      }
      await new Promise((r) => setTimeout(r, 3500));
      const none = await db.query('SELECT count(*)::int AS n FROM placement_tasks WHERE id = ANY($1::int[]) AND due_at IS NOT NULL', [tasks]);
      expect(none.rows[0].n).toBe(0);
      worker = spawn(process.execPath, [path.resolve(__dirname, '../../api/dist/worker.js')], {
        env: { ...process.env, TEMPORAL_TASK_QUEUE: taskQueue, WORKER_SKIP_SCHEDULES: '1', WORKER_LOG_LEVEL: 'WARN' },
        stdio: 'ignore',
      });
      await eventually(
        async () => (await db.query('SELECT count(*)::int AS n FROM placement_tasks WHERE id = ANY($1::int[]) AND due_at IS NOT NULL', [tasks])).rows[0].n === tasks.length,
        'every timer to fire',
        30_000,
      );
      // Fired, not merely swept: the dispatchers hold none of them any more.
      for (const id of tasks) expect(await pendingCallback(client, id, { taskQueue })).toBeNull();
    }, 60_000);

    it('makes due, once, the callbacks that passed without any timer (the sweep), and none of a case out of placement', async () => {
      const open = await contactingCase();
      const closed = await contactingCase();
      const orphans = (await db.query('SELECT id FROM placement_tasks WHERE case_id = $1 ORDER BY id LIMIT 3', [open])).rows.map((r) => r.id as number);
      const closedTask = (await db.query('SELECT id FROM placement_tasks WHERE case_id = $1 ORDER BY id LIMIT 1', [closed])).rows[0].id as number;
      const passed = new Date(Date.now() - 45_000).toISOString(); // past the sweep's 30 s grace
      await db.query('UPDATE placement_tasks SET callback_at = $2, due_at = NULL WHERE id = ANY($1::int[])', [[...orphans, closedTask], passed]);
      expect((await put(`/api/cases/${closed}/close`, { outcomeRequired: true, caseOutcomeType: 'LeftAMA' })).status).toBe(200);
      // The sweep as its schedule runs it, on the stack's worker (twice: the second finds nothing left).
      const sweep = () => client.workflow.execute('sweepDueCallbacksWorkflow', { workflowId: `sweep-test-${Date.now()}`, taskQueue: env.taskQueue });
      const notified = async () =>
        (await db.query(`SELECT payload->>'TaskId' AS task FROM notifications WHERE type = 'CallbackAt' AND payload->>'TaskId' = ANY($1::text[])`, [[...orphans, closedTask].map(String)])).rows.map((r) => Number(r.task));
      await sweep();
      const first = await notified();
      await sweep();
      const due = await db.query('SELECT id FROM placement_tasks WHERE id = ANY($1::int[]) AND due_at IS NOT NULL ORDER BY id', [[...orphans, closedTask]]);
      expect(due.rows.map((r) => r.id)).toEqual(orphans);
      expect([...new Set(first)].sort()).toEqual([...orphans].sort());
      expect(await notified()).toHaveLength(first.length);
    }, 60_000);
  });
});
