/**
 * A video meeting's timer (spec 01 §4 "Video meeting"; spec 02 §3 VideoCallIsAboutToStart): one
 * workflow per meeting, `online-meeting-<id>`, started when the meeting is created. It is its own
 * small workflow rather than a timer in the case workflow: the case workflow stays a queue of
 * commands with no clocks of its own, a recreated meeting simply gets a new timer, and a case
 * that closes (its workflow ends when quiet) does not keep a meeting's timer alive or lose it.
 *
 * The online_meetings row is the truth. The workflow reads the meeting's times, sleeps until the
 * next one (the reminder a few minutes before a scheduled start, then the idle end), and asks the
 * database again when it wakes: a join that moved the idle end committed meanwhile wins, and the
 * workflow sleeps on. The ending itself is a command on the case workflow (endIdleOnlineMeeting),
 * so it is written with its case activity row like every other change of a case.
 */
import { condition, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../definitions';
import { onlineMeetingChangedSignal, type OnlineMeetingTimerArgs } from '../definitions';

const { onlineMeetingTimes, remindOnlineMeeting, endIdleOnlineMeeting } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/** A join's signal may be lost: the workflow never sleeps on the database's word longer than this before asking again. */
const MAX_SLEEP_MS = 6 * 60 * 60 * 1000;
/** The database says "not yet" but the clocks disagree: look again no sooner than this. */
const MIN_RECHECK_MS = 1000;

export async function onlineMeetingWorkflow(args: OnlineMeetingTimerArgs): Promise<'ended' | 'gone'> {
  let changes = 0;
  setHandler(onlineMeetingChangedSignal, () => {
    changes++;
  });
  for (;;) {
    const times = await onlineMeetingTimes(args.meetingId);
    if (times.ended) return 'gone';
    const idleEndsAt = Date.parse(times.idleEndsAt);
    const remindAt = times.remindAt ? Date.parse(times.remindAt) : null;
    const next = remindAt !== null && remindAt < idleEndsAt ? remindAt : idleEndsAt;
    const seen = changes;
    const waitMs = next - Date.now();
    if (waitMs > 0) {
      await condition(() => changes !== seen, Math.min(waitMs, MAX_SLEEP_MS));
      continue; // woken by a change or by the clock: read the times again
    }
    if (remindAt !== null && remindAt <= Date.now()) {
      await remindOnlineMeeting(args.meetingId);
      continue;
    }
    if (await endIdleOnlineMeeting(args.meetingId)) return 'ended';
    await condition(() => changes !== seen, MIN_RECHECK_MS);
  }
}
