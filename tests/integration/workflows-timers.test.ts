/**
 * The timer workflows on a Temporal test environment (a dev server of their own) with a real
 * worker and stub activities: the claim lease (spec 03 §7 Claims) and the placement callback
 * timer (spec 02 §4). Durations are a second or two (no time skipping server on this machine);
 * each test checks *when* the activity ran, not only that it did.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import {
  claimWorkflowId,
  callbackWorkflowId,
  extendClaimLease,
  releaseClaimLease,
  setCallbackTimer,
  startClaimLease,
  type ExpireClaimResult,
} from '@crisis/workflows';
import { localTestEnv, withWorker, workflowBundle } from '../support/temporal';

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

describe('callbackTimerWorkflow', () => {
  function timerStub(fired = true) {
    const calls: Array<{ taskId: number; callbackAt: string; at: number }> = [];
    return {
      calls,
      activities: {
        async markCallbackDue(taskId: number, callbackAt: string): Promise<boolean> {
          calls.push({ taskId, callbackAt, at: Date.now() });
          return fired;
        },
      },
    };
  }
  const result = (taskId: number) => env.client.workflow.getHandle(callbackWorkflowId(taskId)).result();

  it('fires once, at the callback time', async () => {
    const taskId = 9000 + ++seq;
    const callbackAt = at(1000);
    const stub = timerStub();
    const outcome = await withWorker(env, bundle, stub.activities, async (taskQueue) => {
      await setCallbackTimer(env.client, taskId, callbackAt, { taskQueue });
      return result(taskId);
    });
    expect(outcome).toBe('fired');
    expect(stub.calls).toEqual([{ taskId, callbackAt, at: expect.any(Number) }]);
    expect(stub.calls[0].at).toBeGreaterThanOrEqual(Date.parse(callbackAt));
  });

  it('moves to the new time when the callback changes, and fires only then', async () => {
    const taskId = 9000 + ++seq;
    const stub = timerStub();
    let moved = '';
    const outcome = await withWorker(env, bundle, stub.activities, async (taskQueue) => {
      // Times are taken once the worker runs, with room for a loaded machine between the two signals.
      await setCallbackTimer(env.client, taskId, at(2500), { taskQueue });
      moved = at(4000);
      await setCallbackTimer(env.client, taskId, moved, { taskQueue });
      return result(taskId);
    });
    expect(outcome).toBe('fired');
    expect(stub.calls.map((c) => c.callbackAt)).toEqual([moved]);
    expect(stub.calls[0].at).toBeGreaterThanOrEqual(Date.parse(moved));
  });

  it('ends without firing when the callback is removed', async () => {
    const taskId = 9000 + ++seq;
    const stub = timerStub();
    const outcome = await withWorker(env, bundle, stub.activities, async (taskQueue) => {
      await setCallbackTimer(env.client, taskId, at(1500), { taskQueue });
      await setCallbackTimer(env.client, taskId, null, { taskQueue });
      return result(taskId);
    });
    expect(outcome).toBe('cancelled');
    expect(stub.calls).toEqual([]);
  });
});
