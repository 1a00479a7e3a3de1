import { DEFAULT_TASK_QUEUE, pendingCallback, setCallbackTimer } from '@crisis/workflows';
import { api, eventually } from '../support/api';
import { db } from '../support/db';
import { contactingCase as buildContactingCase, placementTeam } from '../support/cases';
import { withTemporal } from '../support/temporal-client';

/**
 * Division holds and callbacks against PostgreSQL and Temporal (spec 02 §4; ARCHITECTURE
 * "Callbacks"): a bulk hold reaches the cases created after it, an on-hold division can be resumed
 * instead of waited for, and a callback never fires for a case that left placement.
 */
describe('placement holds and callbacks', () => {
  let coordinator: string;
  let provider: string;
  let providerId: number;
  let floor: { facilityId: number; divisionId: number };
  let sunriseAdult: number;
  let sunriseFacility: string;
  const put = (p: string, body?: unknown) => api('PUT', p, { token: coordinator, body });
  const taskQueue = process.env.TEMPORAL_TASK_QUEUE ?? DEFAULT_TASK_QUEUE;

  const contactingCase = () =>
    buildContactingCase({ token: coordinator, providerToken: provider, facilityId: floor.facilityId, divisionId: floor.divisionId, providerId, patient: { lastName: 'Hold' } });
  const taskOf = async (caseId: number) =>
    (await db.query('SELECT id FROM placement_tasks WHERE case_id = $1 AND division_id = $2', [caseId, sunriseAdult])).rows[0].id as number;
  const claim = (body: Record<string, unknown> = {}) => api('POST', `/api/placement-tasks/division/${sunriseAdult}/claim`, { token: coordinator, body });
  const release = (claimId: number) => put(`/api/placement-tasks/claim/${claimId}/release`);
  const callsCardRow = async () => {
    const filter = encodeURIComponent(JSON.stringify({ withinTwoHours: false, facilityName: sunriseFacility }));
    const res = await api('GET', `/api/placement-tasks/division/group?filter=${filter}&range=${encodeURIComponent('[0,99]')}`, { token: coordinator });
    expect(res.status).toBe(200);
    return res.body.find((r: { divisionId: number }) => r.divisionId === sunriseAdult);
  };
  /** A bulk NoBedsAvailable on the division, logged on one case's task: every case of the division is held until `until`. */
  const bulkHold = async (caseId: number, until: string) => {
    const c = await claim();
    expect(c.status).toBe(200);
    const saved = await put(`/api/placement-tasks/claim/${c.body.claimId}/calls`, {
      bulk: true,
      calls: [{ placementTaskId: await taskOf(caseId), result: 'NoBedsAvailable', spokeWith: 'Charge nurse', callbackAt: until }],
    });
    expect(saved.status).toBe(200);
    expect((await release(c.body.claimId)).status).toBe(200);
  };
  const releaseHolds = () => db.query('UPDATE division_holds SET released_at = now() WHERE division_id = $1 AND released_at IS NULL', [sunriseAdult]);

  beforeAll(async () => {
    ({ coordinator, provider, providerId, floor } = await placementTeam());
    const s = await db.query("SELECT d.id, f.name FROM divisions d JOIN facilities f ON f.id = d.facility_id WHERE d.name = 'Adult Inpatient Unit'");
    sunriseAdult = s.rows[0].id;
    sunriseFacility = s.rows[0].name;
    await releaseHolds();
  });

  // A hold left behind would hold the tasks of every later suite's cases.
  afterAll(async () => {
    await releaseHolds();
    await db.end();
  });

  it('creates the task of a new case held while its division is on a bulk hold, and the calls card shows the hold', async () => {
    const until = new Date(Date.now() + 3 * 3600_000).toISOString();
    await bulkHold(await contactingCase(), until);

    const later = await contactingCase();
    const taskId = await taskOf(later);
    const placements = await api('GET', `/api/cases/${later}/placements`, { token: coordinator });
    const task = placements.body.tasks.find((t: { id: number }) => t.id === taskId);
    expect(task.lastCall).toMatchObject({ result: 'NoBedsAvailable' });
    expect(Date.parse(task.callbackAt)).toBe(Date.parse(until));
    expect(Date.parse(task.holdUntil)).toBe(Date.parse(until));
    // Its callback is pending in its dispatcher like the other held tasks'.
    await eventually(
      () => withTemporal(async (client) => Date.parse((await pendingCallback(client, taskId, { taskQueue })) ?? '') === Date.parse(until)),
      'the held task to have its callback timer',
    );
    // The call log shows it on hold; the calls card shows the division held, with no task left uncalled.
    const c = await claim();
    const log = await api('GET', `/api/placement-tasks/claim/${c.body.claimId}`, { token: coordinator });
    expect(log.body.tasks.find((t: { id: number }) => t.id === taskId)).toMatchObject({ onHold: true });
    await release(c.body.claimId);
    const row = await callsCardRow();
    expect(row).toMatchObject({ holdResult: 'NoBedsAvailable', uncalledCount: 0 });
    expect(Date.parse(row.holdUntil)).toBe(Date.parse(until));
  }, 60_000);

  it('resumes the on-hold tasks of a division claimed with resumeTask: the hold ends and they are due now', async () => {
    const held = await contactingCase();
    await bulkHold(held, new Date(Date.now() + 3 * 3600_000).toISOString());
    const taskId = await taskOf(held);

    const c = await claim({ resumeTask: true });
    expect(c.status).toBe(200);
    const log = await api('GET', `/api/placement-tasks/claim/${c.body.claimId}`, { token: coordinator });
    expect(log.body.tasks.find((t: { id: number }) => t.id === taskId)).toMatchObject({ onHold: false });
    expect(log.body.division.hold).toBeNull();
    expect(c.body.resumedTaskIds).toEqual(expect.arrayContaining([taskId]));
    const task = (await db.query('SELECT callback_at, due_at FROM placement_tasks WHERE id = $1', [taskId])).rows[0];
    expect(task.due_at).not.toBeNull();
    expect(task.callback_at.getTime()).toBeLessThanOrEqual(Date.now());
    await release(c.body.claimId);
    expect((await callsCardRow()).holdUntil).toBeNull();
    // A case placed after the resume is not held.
    const after = await contactingCase();
    expect((await db.query('SELECT last_call_id FROM placement_tasks WHERE id = $1', [await taskOf(after)])).rows[0].last_call_id).toBeNull();
  }, 60_000);

  it('never fires the callback of a case closed or reworked before it came due, even from a timer that outlived the close', async () => {
    const closed = await contactingCase();
    const reworked = await contactingCase();
    const tasks = [await taskOf(closed), await taskOf(reworked)];
    const c = await claim();
    const soon = new Date(Date.now() + 6000).toISOString();
    const saved = await put(`/api/placement-tasks/claim/${c.body.claimId}/calls`, {
      calls: tasks.map((placementTaskId) => ({ placementTaskId, result: 'CallBack', spokeWith: 'Intake', callbackAt: soon })),
    });
    expect(saved.status).toBe(200);
    await release(c.body.claimId);
    expect((await put(`/api/cases/${closed}/close`, { outcomeRequired: true, caseOutcomeType: 'LeftAMA' })).status).toBe(200);
    expect((await put(`/api/cases/${reworked}/status`, { status: 'RecommendationReview_WaitingOnDecision', note: 'New information' })).status).toBe(200);

    await withTemporal(async (client) => {
      // Closing and reworking stopped the timers, before their time: the dispatchers hold them no more.
      expect(Date.now()).toBeLessThan(Date.parse(soon));
      for (const id of tasks) expect(await pendingCallback(client, id, { taskQueue })).toBeNull();
      // A timer that outlived the close (its stop signal lost) finds the case closed when it fires.
      const again = new Date(Date.now() + 1000).toISOString();
      await db.query('UPDATE placement_tasks SET callback_at = $2 WHERE id = $1', [tasks[0], again]);
      await setCallbackTimer(client, tasks[0], again, { taskQueue });
      expect(await pendingCallback(client, tasks[0], { taskQueue })).toBe(again);
      await eventually(async () => (await pendingCallback(client, tasks[0], { taskQueue })) === null, 'the outliving timer to fire');
    });
    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(soon) + 1000 - Date.now())));
    const due = await db.query('SELECT count(*)::int AS n FROM placement_tasks WHERE id = ANY($1::int[]) AND due_at IS NOT NULL', [tasks]);
    expect(due.rows[0].n).toBe(0);
    const notified = await db.query(`SELECT count(*)::int AS n FROM notifications WHERE payload->>'TaskId' = ANY($1::text[])`, [tasks.map(String)]);
    expect(notified.rows[0].n).toBe(0);
  }, 60_000);
});
