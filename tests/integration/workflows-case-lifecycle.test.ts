/**
 * caseLifecycleWorkflow on a Temporal test environment with a real worker and stub activities (an
 * in-memory case instead of PostgreSQL): commands run one at a time, the validator refuses what
 * the transition table of spec 01 §4 forbids before anything enters the history, a refused command
 * fails its Update with the coded error and leaves the case usable, a closed case's workflow ends
 * after its idle time, and a long run continues as new.
 *
 * The refusals below are written from the spec's table, not read from forms/.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowHandle } from '@temporalio/client';
import {
  caseCommandFailure,
  caseCommandUpdate,
  caseStateQuery,
  caseWorkflowId,
  runCaseCommand,
  type CaseCommand,
  type CaseState,
} from '@crisis/workflows';
import { eventually } from '../support/api';
import { localTestEnv, sleep, withWorker, workflowBundle } from '../support/temporal';

type Outcome =
  | { ok: true; result: { state: CaseState }; notifications: Array<{ type: string; to: string[] }> }
  | { ok: false; error: { code: string; message: string }; state?: CaseState };

let env: TestWorkflowEnvironment;
let bundle: { code: string };
let nextCaseId = 1000;
const actor = { id: 7, name: 'Coordinator', userType: 'IntegratedTelehealthPartners_User' };
let commandSeq = 0;
const command = <K extends CaseCommand['kind']>(kind: K, rest: Omit<Extract<CaseCommand, { kind: K }>, 'kind' | 'commandId' | 'actor'>) =>
  ({ kind, commandId: `cmd-${process.pid}-${++commandSeq}`, actor, ...rest }) as unknown as CaseCommand;

beforeAll(async () => {
  // Suggest continue-as-new after a few events, so a long run is reachable in a test.
  [env, bundle] = await Promise.all([localTestEnv({ 'limit.historyCount.suggestContinueAsNew': 40 }), workflowBundle()]);
}, 60_000);
afterAll(() => env?.teardown());

/**
 * A case held in memory, standing for its row: loadCaseState reads it, applyCaseCommand applies a
 * status change, close or reopen (after `applyMs`), or refuses with the code `refuseWith` maps
 * the command id to. Records what ran and how many commands ran at once.
 */
function fakeCase(initial: Partial<CaseState> = {}, opts: { applyMs?: number; refuseWith?: Map<string, string> } = {}) {
  const caseId = ++nextCaseId;
  let state: CaseState = {
    caseId,
    status: 'PendingAssignment_DocumentationReview',
    statusToResume: null,
    version: 1,
    allRequestsCancelled: false,
    latestRequestStatus: 'New',
    ...initial,
  };
  const log = { loads: 0, applied: [] as CaseCommand[], running: 0, maxRunning: 0, notified: [] as string[] };
  const activities = {
    async loadCaseState(): Promise<CaseState> {
      log.loads++;
      return state;
    },
    async applyCaseCommand(_id: number, cmd: CaseCommand): Promise<Outcome> {
      log.running++;
      log.maxRunning = Math.max(log.maxRunning, log.running);
      try {
        await sleep(opts.applyMs ?? 0);
        const code = opts.refuseWith?.get(cmd.commandId);
        if (code) return { ok: false, error: { code, message: `refused: ${code}` }, state };
        log.applied.push(cmd);
        if (cmd.kind === 'changeStatus') state = { ...state, status: cmd.status };
        if (cmd.kind === 'close') state = { ...state, status: 'Closed' };
        if (cmd.kind === 'reopen') state = { ...state, status: 'LocatingServices_ContactingServiceOrganization' };
        state = { ...state, version: state.version + 1 };
        return { ok: true, result: { state }, notifications: cmd.kind === 'changeStatus' || cmd.kind === 'recordEvent' ? [{ type: 'CaseOnHold', to: ['itp'] }] : [] };
      } finally {
        log.running--;
      }
    },
    async raiseCaseNotifications(_id: number, commandId: string): Promise<number[]> {
      log.notified.push(commandId);
      return [41, 42];
    },
  };
  return { caseId, activities, log, current: () => state };
}

/** Starts the case's workflow and waits until it has loaded the case. */
async function startCase(caseId: number, taskQueue: string, closedIdleMs?: number): Promise<WorkflowHandle> {
  const handle = await env.client.workflow.start('caseLifecycleWorkflow', {
    workflowId: caseWorkflowId(caseId),
    taskQueue,
    args: [{ caseId, ...(closedIdleMs ? { closedIdleMs } : {}) }],
  });
  await eventually(() => handle.query(caseStateQuery), 'the workflow to load its case', 10_000);
  return handle;
}

/** The run's status once it is no longer running, or RUNNING when `withinMs` has passed. */
async function statusWithin(handle: WorkflowHandle, withinMs: number): Promise<string> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const status = (await handle.describe()).status.name;
    if (status !== 'RUNNING' || Date.now() > deadline) return status;
    await sleep(200);
  }
}

/** The coded error an Update failed with (null if it succeeded). */
async function refusal(p: Promise<unknown>): Promise<string | null> {
  try {
    await p;
    return null;
  } catch (err) {
    return caseCommandFailure(err)?.code ?? `uncoded: ${(err as Error).message}`;
  }
}

/** Update ids accepted into the history (a validator refusal leaves none). */
async function acceptedUpdateIds(handle: WorkflowHandle): Promise<string[]> {
  const history = await handle.fetchHistory();
  return (history.events ?? [])
    .map((e) => e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.meta?.updateId)
    .filter((id): id is string => !!id);
}

describe('caseLifecycleWorkflow', () => {
  it('runs concurrent commands one at a time, each on the state the previous one left', async () => {
    const c = fakeCase({}, { applyMs: 150 });
    const results = await withWorker(env, bundle, c.activities, async (taskQueue) => {
      await startCase(c.caseId, taskQueue);
      return Promise.all(
        (['VitalsAdded', 'CaseNoteAdded', 'PatientFileUpdated'] as const).map((event) =>
          runCaseCommand(env.client, c.caseId, command('recordEvent', { event }), { taskQueue }),
        ),
      );
    });
    // Never two at once, and each saw the version the previous one wrote.
    expect(c.log.maxRunning).toBe(1);
    expect(c.log.applied).toHaveLength(3);
    const versions = results.map((r) => r.state.version).sort();
    expect(versions).toEqual([2, 3, 4]);
    // Each status change raised its notifications, and the Update tells the API who got them.
    expect(results.map((r) => r.notifiedUserIds)).toEqual([[41, 42], [41, 42], [41, 42]]);
    expect(c.log.notified.sort()).toEqual(c.log.applied.map((a) => a.commandId).sort());
  });

  it('refuses in the validator what the transition table forbids: no activity, nothing in the history', async () => {
    // [state, command, expected code], from spec 01 §4 "Manual transitions allowed".
    const cases: Array<[Partial<CaseState>, CaseCommand, string]> = [
      [{ status: 'PendingAssignment_DocumentationReview' }, command('changeStatus', { status: 'LocatingServices_ContactingServiceOrganization' }), 'INV'],
      [{ status: 'PendingAssignment_DocumentationReview' }, command('changeStatus', { status: 'RecommendationReview_WaitingOnDecision', note: 'n' }), 'INV'],
      [{ status: 'OnHold_Other' }, command('changeStatus', { status: 'OnHold_WaitingForPatient', note: 'n' }), 'INV'],
      [{ status: 'ProviderWorkingRequest_AssessmentInProgress' }, command('changeStatus', { status: 'OnHold_Other', note: 'n' }), 'INV'],
      [{ status: 'RecommendationReview_WaitingOnDecision' }, command('changeStatus', { status: 'OnHold_WaitingForAssignment', note: 'n' }), 'INV'],
      // Contacting is not offered when every request is cancelled.
      [{ status: 'RecommendationReview_WaitingOnDecision', allRequestsCancelled: true }, command('changeStatus', { status: 'LocatingServices_ContactingServiceOrganization' }), 'INV'],
      [{ status: 'Closed' }, command('changeStatus', { status: 'OnHold_Other', note: 'n' }), 'INV.CASE.IS.CLOSED'],
      [{ status: 'Closed' }, command('close', { outcomeRequired: true }), 'INV.CASE.IS.CLOSED'],
      [{ status: 'ProviderWorkingRequest_DocumentationReview', latestRequestStatus: 'InProgress' }, command('close', { outcomeRequired: true }), 'INV.CASE.HAS.ACTIVE.REQUEST'],
      [{ status: 'OnHold_Other' }, command('reopen', {}), 'INV'],
      [{ status: 'OnHold_Other' }, { ...command('changeStatus', { status: 'Closed' }), expectedStatus: 'OnHold_WaitingForPatient' } as CaseCommand, 'INV.CASE.STATUS.CHANGED'],
    ];
    // One worker serves every case: it finds each case's stub by the case id.
    const fakes = new Map(cases.map(([initial]) => { const c = fakeCase(initial); return [c.caseId, c] as const; }));
    const byCase = {
      loadCaseState: (id: number) => fakes.get(id)!.activities.loadCaseState(),
      applyCaseCommand: (id: number, cmd: CaseCommand) => fakes.get(id)!.activities.applyCaseCommand(id, cmd),
      raiseCaseNotifications: (id: number, commandId: string) => fakes.get(id)!.activities.raiseCaseNotifications(id, commandId),
    };
    const ids = [...fakes.keys()];
    const got = await withWorker(env, bundle, byCase, (taskQueue) =>
      Promise.all(cases.map(async ([, cmd], i) => {
        const handle = await startCase(ids[i], taskQueue, 60_000);
        const refused = await refusal(handle.executeUpdate(caseCommandUpdate, { args: [cmd], updateId: cmd.commandId }));
        return { refused, accepted: await acceptedUpdateIds(handle), state: (await handle.query(caseStateQuery)) as CaseState };
      })),
    );
    cases.forEach(([initial, cmd, code], i) => {
      expect([initial.status, cmd.kind, got[i].refused]).toEqual([initial.status, cmd.kind, code]);
      expect(got[i].accepted).toEqual([]);
      expect(fakes.get(ids[i])!.log.applied).toEqual([]);
      expect(got[i].state.status).toBe(initial.status);
    });
  });

  it('fails the Update of a command the activity refuses with its coded error, and takes the next command', async () => {
    const refuseWith = new Map<string, string>();
    const c = fakeCase({ status: 'RecommendationReview_WaitingOnDecision' }, { refuseWith });
    const bad = command('changeStatus', { status: 'LocatingServices_ContactingServiceOrganization', mainRecommendation: 'DeferRecommendationsAtThisTime' });
    refuseWith.set(bad.commandId, 'INV.CASE.RECOMMENDATION.DEFER');
    const good = command('changeStatus', { status: 'OnHold_Other', note: 'Family on the way' });
    const out = await withWorker(env, bundle, c.activities, async (taskQueue) => {
      const handle = await startCase(c.caseId, taskQueue);
      const first = await refusal(runCaseCommand(env.client, c.caseId, bad, { taskQueue }));
      const second = await runCaseCommand(env.client, c.caseId, good, { taskQueue });
      return { first, second, accepted: await acceptedUpdateIds(handle) };
    });
    expect(out.first).toBe('INV.CASE.RECOMMENDATION.DEFER');
    expect(out.second.state.status).toBe('OnHold_Other');
    // The refused command passed the validator (the activity decided), so both are in the history.
    expect(out.accepted).toEqual([bad.commandId, good.commandId]);
    expect(c.log.applied.map((a) => a.commandId)).toEqual([good.commandId]);
  });

  it('keeps a closed case\'s workflow running when a command comes within its idle time', async () => {
    const c = fakeCase({ status: 'Closed', latestRequestStatus: 'Completed' });
    const idleMs = 1000;
    const out = await withWorker(env, bundle, c.activities, async (taskQueue) => {
      const handle = await startCase(c.caseId, taskQueue, idleMs);
      const reopened = await runCaseCommand(env.client, c.caseId, command('reopen', {}), { taskQueue });
      await sleep(idleMs + 500);
      return { reopened, status: (await handle.describe()).status.name };
    });
    expect(out.reopened.state.status).toBe('LocatingServices_ContactingServiceOrganization');
    expect(out.status).toBe('RUNNING');
  });

  // The loop looks at the state only once the accepted commands have finished, so a close starts the idle time.
  it('ends the workflow of a case closed by a command once its idle time has passed', async () => {
    const c = fakeCase({ status: 'OnHold_Other', latestRequestStatus: 'Canceled' });
    const idleMs = 800;
    const ended = await withWorker(env, bundle, c.activities, async (taskQueue) => {
      const handle = await startCase(c.caseId, taskQueue, idleMs);
      await runCaseCommand(env.client, c.caseId, command('close', { outcomeRequired: false }), { taskQueue });
      return statusWithin(handle, idleMs + 3000);
    });
    expect(ended).toBe('COMPLETED');
  });

  it('ends a case closed when its workflow starts once the idle time has passed, without running anything', async () => {
    const c = fakeCase({ status: 'Closed', latestRequestStatus: 'Completed' });
    const status = await withWorker(env, bundle, c.activities, async (taskQueue) => {
      const handle = await startCase(c.caseId, taskQueue, 500);
      await handle.result();
      return (await handle.describe()).status.name;
    });
    expect(status).toBe('COMPLETED');
    expect(c.log.applied).toEqual([]);
  });

  it('continues as new when the server suggests it, keeping the case and taking commands on the new run', async () => {
    const c = fakeCase({ status: 'RecommendationReview_WaitingOnDecision' });
    const out = await withWorker(env, bundle, c.activities, async (taskQueue) => {
      const first = await startCase(c.caseId, taskQueue);
      const firstRunId = first.firstExecutionRunId;
      const statuses = ['LocatingServices_ContactingServiceOrganization', 'RecommendationReview_WaitingOnDecision'];
      // Each command adds about six events; the suggestion comes after 40.
      for (let i = 0; i < 10; i++)
        await runCaseCommand(env.client, c.caseId, command('changeStatus', { status: statuses[i % 2], note: 'n', mainRecommendation: 'MentalHealthInpatient', criteria: [], includeOutOfStateFacilities: false }), { taskQueue });
      const latest = env.client.workflow.getHandle(caseWorkflowId(c.caseId));
      const described = await latest.describe();
      const firstRun = await env.client.workflow.getHandle(caseWorkflowId(c.caseId), firstRunId).describe();
      return { firstRun: firstRun.status.name, latestRun: described.runId, firstRunId, state: await latest.query(caseStateQuery) };
    });
    expect(out.firstRun).toBe('CONTINUED_AS_NEW');
    expect(out.latestRun).not.toBe(out.firstRunId);
    expect(c.log.applied).toHaveLength(10);
    // The new run loaded the case again and knows the state the last command left.
    expect(c.log.loads).toBeGreaterThanOrEqual(2);
    expect(out.state).toEqual(c.current());
  });
});
