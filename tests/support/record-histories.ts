/**
 * Records workflow histories for the replay test (tests/integration/workflow-replay.test.ts):
 * drives every workflow type exported by workflows/src/workflows/index.ts through realistic paths
 * on a running stack, then saves each execution's history as
 * tests/fixtures/histories/<workflowType>-<n>.json (protobufjs's JSON form of the History, see
 * historyToFixture in ./temporal.ts). Old files are replaced.
 *
 * How to run it:
 *   TEST_RECORD_HISTORIES=1 npm test
 *     The test runner builds, starts a throw-away PostgreSQL + Temporal + API + worker (the same
 *     stack as the suites, with TEST_API_PORT / TEST_PGPORT / TEST_TEMPORAL_PORT if you need other
 *     ports), runs this script instead of the suites, and stops everything.
 *   npx tsx tests/support/record-histories.ts
 *     Against a stack you run yourself (`npm start`), with the environment the runner would set:
 *     API_URL (http://127.0.0.1:3100), DATABASE_URL, TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE and
 *     TEMPORAL_TASK_QUEUE if not the defaults. The stack needs the seed's demo users.
 * Takes about half a minute (it waits for a claim to lapse and a callback to come due).
 *
 * When to re-record: after a *deliberate* change of a workflow that is versioned (patched()) or
 * after which no old execution can be running, and when a workflow type is added (give it a
 * driver below, or this script stops and says which one is missing). Never to make the replay
 * test pass after an accidental change: that failure is the bug it is there to catch.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'fs';
import path from 'path';
import type { Client, WorkflowHandle } from '@temporalio/client';
import {
  callbackDispatcherWorkflowId,
  callbackShardOf,
  callbackWorkflowId,
  caseWorkflowId,
  claimWorkflowId,
  deliveryWorkflowStart,
  ehrDeliveryStart,
  facilityAlertWorkflowId,
  onlineMeetingWorkflowId,
  temporalEnv,
  touchOnlineMeetingTimer,
} from '@crisis/workflows';
import { api, eventually, type ApiResponse } from './api';
import { completeEvaluation, createCase, startContacting, tampaDivisions } from './cases';
import { db } from './db';
import { signInAs } from './oidc-client';
import { HISTORIES_DIR, historyToFixture, workflowTypes } from './temporal';
import { withTemporal } from './temporal-client';

interface Ctx {
  client: Client;
  taskQueue: string;
  itp: string;
  provider: string;
  providerId: number;
  floor: { facilityId: number; divisionId: number };
  referringDivisionId: number;
}

/** Fails loudly with the answer when a step of a walk is refused. */
function ok(res: ApiResponse, step: string, status = 200): ApiResponse {
  if (res.status !== status) throw new Error(`${step}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
  return res;
}
const log = (msg: string) => console.log(`[record] ${msg}`);

/** A case walked from creation through evaluation, contacting, hold, undo, close and reopen. */
async function caseWalk(ctx: Ctx): Promise<string> {
  const { itp, provider } = ctx;
  const put = (p: string, body?: unknown, token = itp) => api('PUT', p, { token, body });
  const c = await createCase({ token: itp, facilityId: ctx.floor.facilityId, divisionId: ctx.floor.divisionId, providerId: ctx.providerId });
  ok(await put(`/api/cases/${c.id}/close`, { outcomeRequired: true, caseOutcomeType: 'LeftAMA' }), 'close with an active request', 409);
  await completeEvaluation(provider, c.requestId);
  // Refused by the activity (Defer while contacting): a failed Update in the history.
  ok(await put(`/api/cases/${c.id}/status`, { status: 'LocatingServices_ContactingServiceOrganization', mainRecommendation: 'DeferRecommendationsAtThisTime', note: 'x', includeOutOfStateFacilities: false }), 'defer', 400);
  await startContacting(itp, c.id);
  ok(await put(`/api/cases/${c.id}/status`, { status: 'OnHold_WaitingForFacility', note: 'Bed expected tonight' }), 'on hold');
  ok(await put(`/api/cases/${c.id}/resume`), 'resume');
  ok(await put(`/api/cases/${c.id}/status`, { status: 'RecommendationReview_WaitingOnDecision', note: 'Re-check' }), 'back to review');
  ok(await put(`/api/cases/${c.id}/undo`), 'undo');
  ok(await put(`/api/cases/${c.id}/close`, { outcomeRequired: true, caseOutcomeType: 'Transferred_MentalHealthInpatient', referringDivisionId: ctx.referringDivisionId }), 'close');
  ok(await api('POST', `/api/cases/${c.id}/reopen`, { token: itp }), 'reopen');
  return caseWorkflowId(c.id);
}

/** A case whose requests are cancelled, re-created, marked not ready, then closed and reopened. */
async function requestsWalk(ctx: Ctx): Promise<string> {
  const { itp, provider } = ctx;
  const put = (p: string, body?: unknown, token = itp) => api('PUT', p, { token, body });
  const c = await createCase({ token: itp, facilityId: ctx.floor.facilityId, divisionId: ctx.floor.divisionId, providerId: ctx.providerId });
  ok(await put(`/api/requests/${c.requestId}/cancel`, { reason: 'Patient discharged' }), 'cancel request');
  const second = ok(await api('POST', `/api/cases/${c.id}/requests`, { token: itp, body: { type: 'Assessment', evaluationProviderId: ctx.providerId } }), 'create request', 201);
  const requestId = second.body.requestId ?? second.body.id;
  ok(await put(`/api/requests/${requestId}/in-progress`, undefined, provider), 'in progress');
  ok(await put(`/api/requests/${requestId}/not-ready-for-evaluation`, { reason: 'No labs yet' }, provider), 'not ready');
  ok(await put(`/api/cases/${c.id}/resume`), 'resume');
  ok(await put(`/api/requests/${requestId}/cancel`, { reason: 'Family took the patient home' }), 'cancel second request');
  ok(await put(`/api/cases/${c.id}/status`, { status: 'OnHold_Other', note: 'Waiting for the family' }), 'on hold');
  ok(await put(`/api/cases/${c.id}/close`, { outcomeRequired: true, caseOutcomeType: 'LeftAMA' }), 'close');
  ok(await api('POST', `/api/cases/${c.id}/reopen`, { token: itp }), 'reopen');
  return caseWorkflowId(c.id);
}

/** A claim released by its holder after an extension, and one left to lapse. */
async function claimWalks(ctx: Ctx): Promise<string[]> {
  // A claim names an object the role may edit: the medical information of a case of its own.
  const objectId = async () => String((await createCase({ token: ctx.itp, facilityId: ctx.floor.facilityId, divisionId: ctx.floor.divisionId, providerId: ctx.providerId })).id);
  const released = ok(await api('POST', '/api/claims', { token: ctx.itp, body: { objectId: await objectId(), objectType: 'CaseMedicalInformation', extendBy: 30 } }), 'claim');
  ok(await api('PUT', `/api/claims/${released.body.id}/extend`, { token: ctx.itp, body: { extendBy: 60 } }), 'extend');
  ok(await api('PUT', `/api/claims/${released.body.id}/release`, { token: ctx.itp }), 'release');
  const lapsed = ok(await api('POST', '/api/claims', { token: ctx.itp, body: { objectId: await objectId(), objectType: 'CaseMedicalInformation', extendBy: 2 } }), 'claim');
  return [claimWorkflowId(released.body.id), claimWorkflowId(lapsed.body.id)];
}

/** A contacting case, its first placement task, and a claim of the task's division for the call log. */
async function placementTask(ctx: Ctx) {
  const c = await createCase({ token: ctx.itp, facilityId: ctx.floor.facilityId, divisionId: ctx.floor.divisionId, providerId: ctx.providerId });
  await completeEvaluation(ctx.provider, c.requestId);
  await startContacting(ctx.itp, c.id);
  const task = (await db.query('SELECT id, division_id FROM placement_tasks WHERE case_id = $1 ORDER BY id LIMIT 1', [c.id])).rows[0];
  if (!task) throw new Error(`case ${c.id} got no placement task`);
  const claim = ok(await api('POST', `/api/placement-tasks/division/${task.division_id}/claim`, { token: ctx.itp, body: {} }), 'claim division');
  const callBack = (ms: number) =>
    api('PUT', `/api/placement-tasks/claim/${claim.body.claimId}/calls`, {
      token: ctx.itp,
      body: { calls: [{ placementTaskId: task.id, result: 'CallBack', spokeWith: 'Intake', callbackAt: new Date(Date.now() + ms).toISOString() }] },
    });
  const release = async () => ok(await api('PUT', `/api/placement-tasks/claim/${claim.body.claimId}/release`, { token: ctx.itp }), 'release division');
  return { caseId: c.id, taskId: task.id as number, callBack, release };
}

/** A placement callback set, moved, and left to come due: its shard's dispatcher. */
async function callbackWalk(ctx: Ctx): Promise<string> {
  const { taskId, callBack, release } = await placementTask(ctx);
  ok(await callBack(2000), 'call back');
  ok(await callBack(4000), 'call back later');
  await release();
  await eventually(async () => (await db.query('SELECT due_at FROM placement_tasks WHERE id = $1', [taskId])).rows[0].due_at, 'the callback to come due');
  return callbackDispatcherWorkflowId(callbackShardOf(taskId), ctx.taskQueue);
}

/** A timer of the per-task workflow from before the dispatchers, started as the API once did, coming due. */
async function legacyCallbackWalk(ctx: Ctx): Promise<string> {
  const { taskId, release } = await placementTask(ctx);
  await release();
  const callbackAt = new Date(Date.now() + 2000).toISOString();
  await db.query('UPDATE placement_tasks SET callback_at = $2, due_at = NULL WHERE id = $1', [taskId, callbackAt]);
  const workflowId = callbackWorkflowId(taskId);
  await ctx.client.workflow.start('callbackTimerWorkflow', { workflowId, taskQueue: ctx.taskQueue, args: [{ taskId, callbackAt }] });
  return workflowId;
}

/** A case with a pending callback put on hold, resumed and closed: the case workflow cancels its callback twice. */
async function callbackCancelWalk(ctx: Ctx): Promise<string> {
  const { caseId, callBack, release } = await placementTask(ctx);
  ok(await callBack(10 * 60_000), 'call back in ten minutes');
  await release();
  const put = (p: string, body?: unknown) => api('PUT', p, { token: ctx.itp, body });
  ok(await put(`/api/cases/${caseId}/status`, { status: 'OnHold_WaitingForFacility', note: 'Bed expected tonight' }), 'on hold');
  ok(await put(`/api/cases/${caseId}/resume`), 'resume');
  ok(await put(`/api/cases/${caseId}/close`, { outcomeRequired: true, caseOutcomeType: 'LeftAMA' }), 'close');
  return caseWorkflowId(caseId);
}

/** A scheduled video meeting: reminded, joined (its timer told), then ended by its idle end, moved a second ahead. */
async function onlineMeetingWalk(ctx: Ctx): Promise<string> {
  const c = await createCase({ token: ctx.itp, facilityId: ctx.floor.facilityId, divisionId: ctx.floor.divisionId, providerId: ctx.providerId });
  const path = `/api/requests/${c.requestId}/evaluation/online-meeting`;
  // MEETING_REMINDER_MINUTES defaults to 5: the reminder is due a second from now.
  ok(await api('POST', path, { token: ctx.provider, body: { scheduledAt: new Date(Date.now() + 5 * 60_000 + 1000).toISOString() } }), 'create meeting', 201);
  const meetingId = (await db.query('SELECT id FROM online_meetings WHERE request_id = $1', [c.requestId])).rows[0].id;
  await eventually(async () => (await db.query('SELECT reminded_at FROM online_meetings WHERE id = $1', [meetingId])).rows[0].reminded_at, 'the reminder');
  ok(await api('POST', `${path}/join`, { token: ctx.provider }), 'join', 201);
  await db.query(`UPDATE online_meetings SET idle_ends_at = now() + interval '1 second' WHERE id = $1`, [meetingId]);
  await touchOnlineMeetingTimer(ctx.client, meetingId, { taskQueue: ctx.taskQueue });
  return onlineMeetingWorkflowId(meetingId);
}

/** The local Twilio's control API (npm test starts it): the walks play the facility's phone. */
const localTwilio = async (method: string, p: string, body?: unknown) => {
  const res = await fetch(`${process.env.TWILIO_LOCAL_URL}${p}`, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status}`);
  return res.json();
};

/** An SMS whose first send the provider refuses (a retried activity), then sent. */
async function deliveryWalk(ctx: Ctx): Promise<string> {
  const id = (
    await db.query(
      "INSERT INTO outbox_messages (channel, recipient, body, status, purpose, idempotency_key) VALUES ('sms', '+18135550142', 'Recorded delivery', 'queued', 'record', $1) RETURNING id::text",
      [`record:${Date.now()}`],
    )
  ).rows[0].id as string;
  await localTwilio('POST', '/local/faults', { failNext: 1 });
  const start = deliveryWorkflowStart(id);
  await ctx.client.workflow.execute(start.workflowType, { workflowId: start.workflowId, taskQueue: ctx.taskQueue, args: start.args });
  return start.workflowId;
}

/** Two facility alerts of cases put on hold: a call answered with 1, and SMS nobody answers (escalated). */
async function facilityAlertWalks(ctx: Ctx): Promise<string[]> {
  const onHold = async (phone: string, method: 'PhoneCall' | 'SMS') => {
    const c = await createCase({ token: ctx.itp, facilityId: ctx.floor.facilityId, divisionId: ctx.floor.divisionId, providerId: null, body: { contactPhoneNumber: phone, notificationSendingMethod: method, requestType: 'PlacementOnly' } });
    ok(await api('PUT', `/api/cases/${c.id}/status`, { token: ctx.itp, body: { status: 'OnHold_WaitingForPatient', note: 'Sleeping' } }), 'on hold');
    return eventually(async () => (await db.query('SELECT id::text FROM facility_alerts WHERE case_id = $1', [c.id])).rows[0]?.id as string | undefined, 'the alert');
  };
  const answered = await onHold('+18135550143', 'PhoneCall');
  const call = await eventually(async () => ((await localTwilio('GET', '/local/calls?to=%2B18135550143')) as Array<{ sid: string; status: string }>).find((c) => c.status === 'ringing'), 'the call');
  await localTwilio('POST', `/local/calls/${call.sid}/answer`, { digits: '1' });
  const unanswered = await onHold('+18135550144', 'SMS');
  return [facilityAlertWorkflowId(answered), facilityAlertWorkflowId(unanswered)];
}

/**
 * Two EHR deliveries of one completed assessment at Tampa (EHR-integrated, billing assessments to
 * the EHR for the walk): the evaluation document the local EHR takes after one 503 (a retried
 * activity), and the claim it refuses (failed: the case activity line and the coordinators told).
 */
async function ehrDeliveryWalks(ctx: Ctx): Promise<string[]> {
  const ehr = async (p: string, body: unknown) => {
    const res = await fetch(`${process.env.EHR_LOCAL_BASE_URL}${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`POST ${p}: ${res.status}`);
  };
  const billing = (on: boolean) =>
    db.query(
      `INSERT INTO facility_evaluation_forms (facility_id, request_type, is_athena_billed) VALUES ($1, 'Assessment', $2)
       ON CONFLICT (facility_id, request_type) DO UPDATE SET is_athena_billed = EXCLUDED.is_athena_billed`,
      [ctx.floor.facilityId, on],
    );
  await billing(true);
  await ehr('/local/faults', { 'DocumentReference.create': { status: 503, times: 1 }, 'Claim.create': { status: 422, times: 1 } });
  try {
    const c = await createCase({ token: ctx.itp, facilityId: ctx.floor.facilityId, divisionId: ctx.floor.divisionId, providerId: ctx.providerId, body: { requestType: 'Assessment' } });
    await completeEvaluation(ctx.provider, c.requestId);
    const rows = await eventually(async () => {
      const { rows } = await db.query<{ id: string; status: string; round: number }>('SELECT id::text, status, round FROM ehr_deliveries WHERE case_id = $1 ORDER BY id', [c.id]);
      return rows.length === 2 && rows.every((r) => r.status !== 'Pending') && rows;
    }, 'the EHR deliveries', 60_000);
    return rows.map((r) => ehrDeliveryStart(r.id, r.round, { retrySeconds: 1, attempts: 1 }).workflowId);
  } finally {
    await billing(false);
    await ehr('/local/faults', {});
  }
}

/** The periodic workflows, started as their schedules start them (same type, arguments, queue). */
const periodic = (type: string, args: unknown[] = []) => async (ctx: Ctx): Promise<string> => {
  const workflowId = `record-${type}-${Date.now()}`;
  await ctx.client.workflow.execute(type, { workflowId, taskQueue: ctx.taskQueue, args });
  return workflowId;
};

/** How each workflow type is driven; returns the workflow ids to record. */
const DRIVERS: Record<string, (ctx: Ctx) => Promise<string | string[]>> = {
  caseLifecycleWorkflow: async (ctx) => [await caseWalk(ctx), await requestsWalk(ctx), await callbackCancelWalk(ctx)],
  claimLeaseWorkflow: claimWalks,
  callbackDispatcherWorkflow: callbackWalk,
  callbackTimerWorkflow: legacyCallbackWalk,
  onlineMeetingWorkflow: onlineMeetingWalk,
  sweepOverdueClaimsWorkflow: periodic('sweepOverdueClaimsWorkflow'),
  sweepDueCallbacksWorkflow: periodic('sweepDueCallbacksWorkflow'),
  expireSmsWindowsWorkflow: periodic('expireSmsWindowsWorkflow'),
  lockInactiveUsersWorkflow: periodic('lockInactiveUsersWorkflow', [90]),
  deliverMessageWorkflow: deliveryWalk,
  facilityAlertWorkflow: facilityAlertWalks,
  sweepMessagingWorkflow: periodic('sweepMessagingWorkflow'),
  ehrDeliveryWorkflow: ehrDeliveryWalks,
};

/** Waits until the run is closed, or (for a case workflow that runs on) has no task in flight. */
async function settled(handle: WorkflowHandle, type: string): Promise<void> {
  await eventually(async () => {
    const d = await handle.describe();
    if (d.status.name !== 'RUNNING') return true;
    // Long-lived workflows are recorded as they stand once idle.
    if (type !== 'caseLifecycleWorkflow' && type !== 'callbackDispatcherWorkflow') return false;
    const raw = d.raw as { pendingActivities?: unknown[]; pendingWorkflowTask?: unknown };
    return !raw.pendingWorkflowTask && !(raw.pendingActivities?.length);
  }, `${handle.workflowId} to settle`, 60_000);
}

export async function recordHistories(): Promise<string[]> {
  const types = workflowTypes();
  const missing = types.filter((t) => !DRIVERS[t]);
  if (missing.length) throw new Error(`no driver for ${missing.join(', ')}: add one to DRIVERS in tests/support/record-histories.ts`);

  const env = temporalEnv();
  return withTemporal(async (client) => {
    const q = async (sql: string) => (await db.query(sql)).rows[0];
    const tampa = await tampaDivisions();
    const ctx: Ctx = {
      client,
      taskQueue: env.taskQueue,
      itp: (await signInAs('IntegratedTelehealthPartners_User')).accessToken,
      provider: (await signInAs('IntegratedTelehealthPartners_Provider')).accessToken,
      providerId: (await q("SELECT id FROM users WHERE email = 'provider@itp.example.org'")).id,
      floor: { facilityId: tampa.facilityId, divisionId: tampa.floorId },
      referringDivisionId: (await q("SELECT id FROM divisions WHERE name = 'Adult Inpatient Unit'")).id,
    };

    const runs: Array<{ type: string; workflowId: string }> = [];
    for (const type of types) {
      log(`driving ${type}`);
      for (const workflowId of ([] as string[]).concat(await DRIVERS[type](ctx))) runs.push({ type, workflowId });
    }

    // Fetch everything first: the old files are replaced only when every history is in hand.
    const counts = new Map<string, number>();
    const out: Array<{ file: string; json: unknown; what: string }> = [];
    for (const { type, workflowId } of runs) {
      const handle = client.workflow.getHandle(workflowId);
      await settled(handle, type);
      const described = await handle.describe();
      if (described.type !== type) throw new Error(`${workflowId} is a ${described.type}, expected ${type}`);
      const n = (counts.get(type) ?? 0) + 1;
      counts.set(type, n);
      out.push({
        file: path.join(HISTORIES_DIR, `${type}-${n}.json`),
        json: historyToFixture(await handle.fetchHistory()),
        what: `${workflowId}, ${described.status.name}, ${described.historyLength} events`,
      });
    }
    mkdirSync(HISTORIES_DIR, { recursive: true });
    for (const f of readdirSync(HISTORIES_DIR)) if (f.endsWith('.json')) rmSync(path.join(HISTORIES_DIR, f));
    for (const { file, json, what } of out) {
      writeFileSync(file, JSON.stringify(json, null, 1) + '\n');
      log(`${path.relative(process.cwd(), file)} (${what})`);
    }
    return out.map((o) => o.file);
  });
}

if (require.main === module) {
  recordHistories()
    .then(async (files) => {
      log(`${files.length} histories in ${HISTORIES_DIR}`);
      await db.end();
    })
    .catch(async (err) => {
      console.error('[record] failed:', err);
      await db.end().catch(() => undefined);
      process.exit(1);
    });
}
