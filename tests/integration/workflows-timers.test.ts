/**
 * The timer workflows on a Temporal test environment (a dev server of their own) with a real
 * worker and stub activities: the claim lease (spec 03 §7 Claims) and the placement callback
 * dispatchers (spec 02 §4). Durations are a second or two (no time skipping server on this machine);
 * each test checks *when* the activity ran, not only that it did.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import {
  CALLBACK_DISPATCHER_SHARDS,
  callbackDispatcherWorkflowId,
  callbackShardOf,
  claimWorkflowId,
  callbackWorkflowId,
  extendClaimLease,
  pendingCallback,
  releaseClaimLease,
  setCallbackTimer,
  startClaimLease,
  type ExpireClaimResult,
} from '@crisis/workflows';
import { localTestEnv, sleep, withWorker, workflowBundle } from '../support/temporal';

let env: TestWorkflowEnvironment;
let bundle: { code: string };
let seq = 0;
const at = (msFromNow: number) => new Date(Date.now() + msFromNow).toISOString();

beforeAll(async () => {
  [env, bundle] = await Promise.all([localTestEnv(), workflowBundle()]);
}, 60_000);
afterAll(() => env?.teardown());

describe('claimLeaseWorkflow', () => {
  /** expireClaim answers from `answers` in turn (the claims row is the truth); calls are timed. */
  function claimStub(answers: ExpireClaimResult[]) {
    const calls: Array<{ claimId: string; at: number }> = [];
    return {
      calls,
      activities: {
        async expireClaim(claimId: string): Promise<ExpireClaimResult> {
          calls.push({ claimId, at: Date.now() });
          return answers[Math.min(calls.length - 1, answers.length - 1)];
        },
      },
    };
  }

  it('releases a claim nobody extends, once, at its expiry', async () => {
    const claimId = `lease-${++seq}`;
    const expiresAt = at(1000);
    const stub = claimStub([{ released: true, outcome: 'expired' }]);
    const result = await withWorker(env, bundle, stub.activities, async (taskQueue) => {
      const handle = await startClaimLease(env.client, { claimId, expiresAt }, { taskQueue });
      return handle.result();
    });
    expect(result).toEqual({ claimId, outcome: 'expired' });
    expect(stub.calls).toHaveLength(1);
    expect(stub.calls[0].claimId).toBe(claimId);
    expect(stub.calls[0].at).toBeGreaterThanOrEqual(Date.parse(expiresAt));
  });

  it('waits for the extended expiry, and again when the database holds a later one', async () => {
    const claimId = `lease-${++seq}`;
    let extended = '';
    let later = '';
    const answers: ExpireClaimResult[] = [];
    const stub = claimStub(answers);
    const result = await withWorker(env, bundle, stub.activities, async (taskQueue) => {
      // Times are taken once the worker runs, with room for a loaded machine between the calls.
      const handle = await startClaimLease(env.client, { claimId, expiresAt: at(2000) }, { taskQueue });
      extended = at(3500);
      later = at(4500);
      // First look: the row was renewed once more meanwhile (its signal was lost); second: lapsed.
      answers.push({ released: false, expiresAt: later }, { released: true, outcome: 'expired' });
      await extendClaimLease(env.client, claimId, extended, { taskQueue });
      return handle.result();
    });
    expect(result).toEqual({ claimId, outcome: 'expired' });
    expect(stub.calls.map((c) => c.at >= Date.parse(extended))).toEqual([true, true]);
    expect(stub.calls[1].at).toBeGreaterThanOrEqual(Date.parse(later));
  });

  it('ends when its holder releases the claim, without asking the database', async () => {
    const claimId = `lease-${++seq}`;
    const stub = claimStub([{ released: true, outcome: 'expired' }]);
    const started = Date.now();
    const result = await withWorker(env, bundle, stub.activities, async (taskQueue) => {
      const handle = await startClaimLease(env.client, { claimId, expiresAt: at(3_600_000) }, { taskQueue });
      expect(await releaseClaimLease(env.client, claimId)).toBe(true);
      return handle.result();
    });
    expect(result).toEqual({ claimId, outcome: 'released' });
    expect(stub.calls).toEqual([]);
    expect(Date.now() - started).toBeLessThan(10_000);
    // Nothing runs for it any more: a second release finds no workflow to stop.
    const described = await env.client.workflow.getHandle(claimWorkflowId(claimId)).describe();
    expect(described.status.name).toBe('COMPLETED');
  });
});

describe('callbackDispatcherWorkflow', () => {
  type Fired = { taskId: number; callbackAt: string };
  /** markCallbacksDue records each batch and when it ran (the rows would decide; every one fires here). */
  function dispatcherStub() {
    const calls: Array<{ callbacks: Fired[]; at: number }> = [];
    return {
      calls,
      fired: () => calls.flatMap((c) => c.callbacks.map((f) => ({ ...f, at: c.at }))),
      activities: {
        async markCallbacksDue(callbacks: Fired[]) {
          calls.push({ callbacks, at: Date.now() });
          return { fired: callbacks.length, moved: [] };
        },
      },
    };
  }
  /** Waits until `done` holds (polling), failing after `ms`. */
  async function until(done: () => boolean, what: string, ms = 10_000) {
    const end = Date.now() + ms;
    while (!done()) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await sleep(50);
    }
  }
  /** Task ids of one shard (a dispatcher of its own for the test, with the task queue). */
  const sameShard = (n: number) => {
    const first = (9000 + ++seq) * CALLBACK_DISPATCHER_SHARDS;
    return Array.from({ length: n }, (_, i) => first + i * CALLBACK_DISPATCHER_SHARDS);
  };

  it('fires a callback once, not before its time and within two seconds after', async () => {
    const [taskId] = sameShard(1);
    const stub = dispatcherStub();
    let callbackAt = '';
    await withWorker(env, bundle, stub.activities, async (taskQueue) => {
      callbackAt = at(1000);
      await setCallbackTimer(env.client, taskId, callbackAt, { taskQueue });
      expect(await pendingCallback(env.client, taskId, { taskQueue })).toBe(callbackAt);
      await until(() => stub.calls.length > 0, 'the callback');
      await sleep(1500); // room for a second firing, which must not come
      expect(await pendingCallback(env.client, taskId, { taskQueue })).toBeNull();
    });
    expect(stub.fired()).toEqual([{ taskId, callbackAt, at: expect.any(Number) }]);
    expect(stub.calls[0].at).toBeGreaterThanOrEqual(Date.parse(callbackAt));
    expect(stub.calls[0].at - Date.parse(callbackAt)).toBeLessThanOrEqual(2000);
  });

  it('fires a moved callback at its new time only', async () => {
    const [taskId] = sameShard(1);
    const stub = dispatcherStub();
    let first = '';
    let moved = '';
    await withWorker(env, bundle, stub.activities, async (taskQueue) => {
      first = at(1500);
      await setCallbackTimer(env.client, taskId, first, { taskQueue });
      moved = at(3500);
      await setCallbackTimer(env.client, taskId, moved, { taskQueue });
      await until(() => stub.calls.length > 0, 'the moved callback');
      await sleep(1000);
    });
    expect(stub.fired().map((f) => f.callbackAt)).toEqual([moved]);
    expect(stub.calls[0].at).toBeGreaterThanOrEqual(Date.parse(moved));
    expect(stub.calls[0].at - Date.parse(moved)).toBeLessThanOrEqual(2000);
  });

  it("holds the row's later time when a stale signal overtook a task's latest change", async () => {
    // The dispatcher was told the old time last (two API processes' signals crossing); the row
    // holds the new one: the first try misses and answers with the row's time, which then fires.
    const [taskId] = sameShard(1);
    const calls: Array<{ callbacks: Fired[]; at: number }> = [];
    let rowTime = '';
    const activities = {
      async markCallbacksDue(callbacks: Fired[]) {
        calls.push({ callbacks, at: Date.now() });
        const fired = callbacks.filter((c) => c.callbackAt === rowTime).length;
        const moved = callbacks.filter((c) => c.callbackAt !== rowTime).map((c) => ({ taskId: c.taskId, callbackAt: rowTime }));
        return { fired, moved };
      },
    };
    let stale = '';
    await withWorker(env, bundle, activities, async (taskQueue) => {
      stale = at(1000);
      rowTime = at(2500);
      await setCallbackTimer(env.client, taskId, stale, { taskQueue });
      await until(() => calls.length >= 2, 'the second try at the row time');
    });
    expect(calls.map((c) => c.callbacks)).toEqual([[{ taskId, callbackAt: stale }], [{ taskId, callbackAt: rowTime }]]);
    expect(calls[1].at).toBeGreaterThanOrEqual(Date.parse(rowTime));
    expect(calls[1].at - Date.parse(rowTime)).toBeLessThanOrEqual(2000);
  });

  it('never fires a cancelled callback', async () => {
    // A later callback of the same dispatcher shows it went past the cancelled one's time.
    const [cancelled, witness] = sameShard(2);
    const stub = dispatcherStub();
    let witnessAt = '';
    await withWorker(env, bundle, stub.activities, async (taskQueue) => {
      await setCallbackTimer(env.client, cancelled, at(1000), { taskQueue });
      witnessAt = at(2500);
      await setCallbackTimer(env.client, witness, witnessAt, { taskQueue });
      await setCallbackTimer(env.client, cancelled, null, { taskQueue });
      await until(() => stub.calls.length > 0, 'the witness callback');
      await sleep(500);
    });
    expect(stub.fired()).toEqual([{ taskId: witness, callbackAt: witnessAt, at: expect.any(Number) }]);
  });

  it('fires the callbacks due in the same instant in one activity call', async () => {
    const tasks = sameShard(4);
    const stub = dispatcherStub();
    let times: string[] = [];
    await withWorker(env, bundle, stub.activities, async (taskQueue) => {
      const base = Date.now() + 2000;
      // Set one by one, as coordinators do, due within 150 ms of each other.
      times = tasks.map((_, i) => new Date(base + i * 50).toISOString());
      for (const [i, taskId] of tasks.entries()) await setCallbackTimer(env.client, taskId, times[i], { taskQueue });
      await until(() => stub.fired().length >= tasks.length, 'the four callbacks');
      await sleep(500);
    });
    expect(stub.calls).toHaveLength(1);
    expect(stub.calls[0].callbacks).toEqual(expect.arrayContaining(tasks.map((taskId, i) => ({ taskId, callbackAt: times[i] }))));
    expect(stub.calls[0].callbacks).toHaveLength(tasks.length);
    expect(stub.calls[0].at).toBeGreaterThanOrEqual(Date.parse(times[times.length - 1]));
  });

  it('fires each of many callbacks set at once, in every shard, and a change made right after a set wins', async () => {
    const tasks = Array.from({ length: 40 }, (_, i) => (9000 + ++seq) * 100 + i);
    const [undone, ...kept] = tasks;
    const stub = dispatcherStub();
    let callbackAt = '';
    await withWorker(env, bundle, stub.activities, async (taskQueue) => {
      callbackAt = at(2500);
      // A bulk save's burst, and an undo fired before the set it takes back has reached Temporal.
      await Promise.all([
        ...tasks.map((taskId) => setCallbackTimer(env.client, taskId, callbackAt, { taskQueue })),
        setCallbackTimer(env.client, undone, null, { taskQueue }),
      ]);
      await until(() => stub.fired().length >= kept.length, 'the callbacks');
      await sleep(1000);
    });
    const fired = stub.fired();
    expect(fired.map((f) => f.taskId).sort()).toEqual([...kept].sort());
    expect(new Set(tasks.map(callbackShardOf)).size).toBe(CALLBACK_DISPATCHER_SHARDS);
    for (const f of fired) expect(f.at).toBeGreaterThanOrEqual(Date.parse(callbackAt));
  });

  it('keeps its callbacks across continue-as-new', async () => {
    const tasks = sameShard(6);
    const stub = dispatcherStub();
    let times: string[] = [];
    let firstRunStatus = '';
    let pendingAfter: Array<string | null> = [];
    await withWorker(env, bundle, stub.activities, async (taskQueue) => {
      // The shard's dispatcher with a tiny history bound, so a handful of signals continue it as new.
      const workflowId = callbackDispatcherWorkflowId(callbackShardOf(tasks[0]), taskQueue);
      const first = await env.client.workflow.start('callbackDispatcherWorkflow', {
        workflowId,
        taskQueue,
        args: [{ shard: callbackShardOf(tasks[0]), maxHistoryEvents: 12 }],
      });
      const base = Date.now() + 4000;
      times = tasks.map((_, i) => new Date(base + i * 300).toISOString());
      for (const [i, taskId] of tasks.entries()) await setCallbackTimer(env.client, taskId, times[i], { taskQueue });
      const firstRun = env.client.workflow.getHandle(workflowId, first.firstExecutionRunId);
      for (let end = Date.now() + 3000; Date.now() < end; await sleep(100)) {
        firstRunStatus = (await firstRun.describe()).status.name;
        if (firstRunStatus !== 'RUNNING') break;
      }
      pendingAfter = await Promise.all(tasks.map((taskId) => pendingCallback(env.client, taskId, { taskQueue })));
      await until(() => stub.fired().length >= tasks.length, 'the six callbacks', 15_000);
      await sleep(1000);
    });
    expect(firstRunStatus).toBe('CONTINUED_AS_NEW');
    expect(pendingAfter).toEqual(times);
    const fired = stub.fired();
    expect(fired.map((f) => f.taskId).sort()).toEqual([...tasks].sort());
    for (const f of fired) expect(f.at).toBeGreaterThanOrEqual(Date.parse(f.callbackAt));
  });
});

describe('callbackTimerWorkflow (timers started before the dispatchers)', () => {
  it('still fires once, at the callback time', async () => {
    const taskId = 9000 + ++seq;
    const calls: Array<{ taskId: number; callbackAt: string; at: number }> = [];
    const activities = {
      async markCallbackDue(id: number, callbackAt: string): Promise<boolean> {
        calls.push({ taskId: id, callbackAt, at: Date.now() });
        return true;
      },
    };
    let callbackAt = '';
    const outcome = await withWorker(env, bundle, activities, async (taskQueue) => {
      callbackAt = at(1000);
      return env.client.workflow.execute('callbackTimerWorkflow', { workflowId: callbackWorkflowId(taskId), taskQueue, args: [{ taskId, callbackAt }] });
    });
    expect(outcome).toBe('fired');
    expect(calls).toEqual([{ taskId, callbackAt, at: expect.any(Number) }]);
    expect(calls[0].at).toBeGreaterThanOrEqual(Date.parse(callbackAt));
  });
});
