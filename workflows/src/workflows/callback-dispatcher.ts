/**
 * Placement callbacks (spec 02 §4), a shard at a time: one long-lived workflow per shard and task
 * queue (`callbackDispatcherWorkflowId`) holds taskId → callback time for its tasks. A change (a new
 * call, a changed result, an undo, a case leaving placement) arrives as callbacksChangedSignal and
 * sets, moves or cancels entries. The workflow sleeps until the earliest time (plus a short window,
 * so callbacks due together fire together) and fires everything due in one local activity,
 * markCallbacksDue, which makes each task due only if its row still has that time (the database
 * decides "once"). One timer per shard instead of one workflow per task: 10,000 callbacks due
 * within a minute cost a few hundred workflow tasks, not tens of thousands.
 */
import {
  ActivityFailure,
  CancellationScope,
  allHandlersFinished,
  condition,
  continueAsNew,
  log,
  proxyLocalActivities,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../definitions';
import { callbacksChangedSignal, pendingCallbackQuery, type CallbackDispatcherArgs } from '../definitions';

// Bounded: a batch that keeps failing (the database away) is left to the callbacks sweep, which
// makes overdue tasks due every minute, rather than holding up the shard's later callbacks.
const { markCallbacksDue } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 5 },
});

/** Callbacks due within this much of the earliest fire in the same batch (lateness it adds, at most). */
export const CALLBACK_COALESCE_MS = 200;
/** Callbacks per activity call (a backlog after an outage fires in several). */
const MAX_BATCH = 200;
const DEFAULT_MAX_HISTORY_EVENTS = 2_000;

export async function callbackDispatcherWorkflow(args: CallbackDispatcherArgs): Promise<void> {
  const maxHistoryEvents = args.maxHistoryEvents ?? DEFAULT_MAX_HISTORY_EVENTS;
  const pending = new Map<number, { at: string; ms: number }>();
  const put = (taskId: number, at: string | null) => {
    const ms = at ? Date.parse(at) : NaN;
    if (at && Number.isFinite(ms)) pending.set(taskId, { at, ms });
    else pending.delete(taskId);
  };
  for (const [taskId, at] of args.pending ?? []) put(taskId, at);

  let changes = 0;
  setHandler(callbacksChangedSignal, (list) => {
    for (const c of list) put(c.taskId, c.callbackAt);
    changes++;
  });
  setHandler(pendingCallbackQuery, (taskId) => pending.get(taskId)?.at ?? null);

  // One timer, re-armed only for an earlier time: a signal that adds a later callback (the common
  // case) costs no timer events. A timer left for a callback since moved later wakes us for nothing.
  let alarm: { ms: number; scope: CancellationScope } | null = null;
  let rang = false;
  const arm = (ms: number) => {
    if (alarm && alarm.ms <= ms) return;
    alarm?.scope.cancel();
    const scope = new CancellationScope();
    alarm = { ms, scope };
    scope.run(() => sleep(Math.max(1, ms - Date.now()))).then(
      () => {
        if (alarm?.scope !== scope) return;
        alarm = null;
        rang = true;
      },
      () => undefined, // cancelled for an earlier time
    );
  };

  for (;;) {
    const info = workflowInfo();
    if (info.continueAsNewSuggested || info.historyLength >= maxHistoryEvents) {
      await condition(allHandlersFinished);
      return continueAsNew<typeof callbackDispatcherWorkflow>({ ...args, pending: [...pending].map(([taskId, p]) => [taskId, p.at]) });
    }

    const now = Date.now();
    const due = [...pending].filter(([, p]) => p.ms <= now);
    if (due.length) {
      const batch = due.sort((a, b) => a[1].ms - b[1].ms).slice(0, MAX_BATCH);
      // Out of the map first: a signal during the activity that sets the task again is kept.
      for (const [taskId] of batch) pending.delete(taskId);
      try {
        const result = await markCallbacksDue(batch.map(([taskId, p]) => ({ taskId, callbackAt: p.at })));
        // A task whose row holds another time now: its latest signal was overtaken (two API
        // processes); hold the row's time, unless a signal meanwhile set the task again. (Histories
        // recorded before this answer carry a bare count.)
        if (typeof result === 'object') for (const m of result.moved) if (!pending.has(m.taskId)) put(m.taskId, m.callbackAt);
      } catch (err) {
        if (!(err instanceof ActivityFailure)) throw err;
        log.warn('callbacks not marked due; the callbacks sweep will', { shard: args.shard, count: batch.length, error: err.message });
      }
      continue;
    }

    let earliest = Infinity;
    for (const p of pending.values()) if (p.ms < earliest) earliest = p.ms;
    if (earliest < Infinity) arm(earliest + CALLBACK_COALESCE_MS);
    const seen = changes;
    await condition(() => changes !== seen || rang);
    rang = false;
  }
}
