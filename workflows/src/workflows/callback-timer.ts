/**
 * A placement task's follow-up timer (spec 02 §4). Sleeps until the callback time; a change of
 * the time (new call, changed result, undo) arrives as a signal and moves or cancels the timer.
 * When it fires, markCallbackDue makes the task due — only if the task still has that callback
 * time (the database is the truth) — raises the CallbackAt notification and updates the calls
 * card live. A timer whose time passed while no worker ran fires as soon as one is back.
 *
 * Superseded by callbackDispatcherWorkflow: nothing starts this workflow any more. It stays
 * registered so the timers a running cluster already has finish; one whose cancel now goes to a
 * dispatcher instead still fires harmlessly, as markCallbackDue finds the task or case moved on.
 */
import { condition, proxyLocalActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../definitions';
import { callbackChangedSignal, type CallbackTimerArgs } from '../definitions';

// A local activity: firing costs one workflow task, not three round trips through the server
// (10,000 timers may come due within a minute).
const { markCallbackDue } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

export async function callbackTimerWorkflow(args: CallbackTimerArgs): Promise<'fired' | 'cancelled' | 'stale'> {
  let callbackAt = args.callbackAt;
  let changes = 0;
  setHandler(callbackChangedSignal, (next) => {
    callbackAt = next.callbackAt;
    changes++;
  });
  for (;;) {
    if (!callbackAt) return 'cancelled';
    const due = Date.parse(callbackAt);
    const seen = changes;
    const waitMs = due - Date.now();
    if (waitMs > 0 && (await condition(() => changes !== seen, waitMs))) continue;
    if (changes !== seen) continue;
    const fired = await markCallbackDue(args.taskId, callbackAt);
    // The task moved on meanwhile (a signal may still be on its way): wait for it briefly.
    if (!fired && (await condition(() => changes !== seen, 5_000))) continue;
    return fired ? 'fired' : 'stale';
  }
}
