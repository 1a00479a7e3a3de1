import { LIVE_CHANNEL, LiveRoom, PLACEMENT_CASE_STATUSES, recipientsOf } from '@crisis/forms';
import type { PlacementActivities } from '@crisis/workflows';
import type { Sequelize } from 'sequelize-typescript';
import { caseRepository } from '../cases/case.repository';
import { inTransaction, pooledSql } from '../db/sql';

/** Callbacks one transaction makes due: one statement marks them, and the calls card refreshes once for all their divisions. */
const CALLBACKS_PER_TRANSACTION = 25;
/** Transactions a batch of callbacks runs at once (the pool is shared with the other activities). */
const CALLBACK_BATCH_CONCURRENCY = 4;

type DueCallback = { taskId: number; callbackAt: string };

/**
 * Makes due, in one transaction, the tasks that still hold these callback times, raises a
 * CallbackAt notification for each (to the coordinator who set it; every coordinator when the
 * system set it) and tells the calls card. A case no longer being placed (closed, reworked, on
 * hold) never gets a callback: its row is read here under a shared lock (taken in case id order,
 * so two batches never wait on each other), whatever became of the timer's cancel signal.
 * Returns the ids of the tasks made due; a task that moved on is not among them.
 */
async function fireCallbacks(sequelize: Sequelize, callbacks: DueCallback[]): Promise<Set<number>> {
  if (!callbacks.length) return new Set();
  return inTransaction(sequelize, async (db) => {
    const { rows } = await db.query<{ task_id: number; case_id: number; division_id: number; division_name: string; created_by: number | null }>(
      `WITH due AS (SELECT * FROM unnest($1::int[], $2::timestamptz[]) AS x(task_id, callback_at)),
            open_cases AS (SELECT id FROM cases
                         WHERE id = ANY (ARRAY(SELECT case_id FROM placement_tasks WHERE id = ANY ($1::int[]))) AND status = ANY ($3::text[])
                         ORDER BY id FOR SHARE)
       UPDATE placement_tasks t SET due_at = now()
         FROM due, open_cases
        WHERE t.id = due.task_id AND t.case_id = open_cases.id AND t.callback_at = due.callback_at AND t.due_at IS NULL
        RETURNING t.id AS task_id, t.case_id, t.division_id, (SELECT name FROM divisions WHERE id = t.division_id) AS division_name,
                  (SELECT created_by FROM placement_calls WHERE id = t.last_call_id) AS created_by`,
      [callbacks.map((c) => c.taskId), callbacks.map((c) => c.callbackAt), PLACEMENT_CASE_STATUSES],
    );
    if (!rows.length) return new Set();
    const timeOf = new Map(callbacks.map((c) => [c.taskId, c.callbackAt]));
    rows.sort((a, b) => a.task_id - b.task_id);
    for (const task of rows) {
      const callbackAt = timeOf.get(task.task_id)!;
      // The CallbackAt notification, to the recipient table's audience (the coordinator who logged the call).
      await caseRepository.insertNotifications(db, task.case_id, `callback:${task.task_id}:${callbackAt}`, {
        type: 'CallbackAt',
        to: recipientsOf('CallbackAt'),
        payload: { CallbackAt: callbackAt, TaskId: task.task_id, DivisionId: task.division_id, DivisionName: task.division_name, ...(task.created_by ? { OwnerId: task.created_by } : {}) },
      });
    }
    await db.query('SELECT pg_notify($1, e) FROM unnest($2::text[]) AS e', [
      LIVE_CHANNEL,
      rows.map((task) =>
        JSON.stringify({ room: LiveRoom.calls, event: 'callback.due', data: { taskId: task.task_id, caseId: task.case_id, divisionId: task.division_id, callbackAt: timeOf.get(task.task_id) } }),
      ),
    ]);
    return new Set(rows.map((r) => r.task_id));
  });
}

/** Placement activities: a callback coming due. */
export function createPlacementActivities({ sequelize }: { sequelize: Sequelize }): PlacementActivities {
  const pool = pooledSql(sequelize);
  const activities: PlacementActivities = {
    /** One task's callback (a legacy per-task timer): fireCallbacks for it alone. Returns false when the task moved on. */
    async markCallbackDue(taskId, callbackAt) {
      return (await fireCallbacks(sequelize, [{ taskId, callbackAt }])).size > 0;
    },

    /**
     * A dispatcher's batch: CALLBACKS_PER_TRANSACTION callbacks a transaction (in task id order),
     * CALLBACK_BATCH_CONCURRENCY transactions at a time. Throws when any failed, after trying all:
     * the retry repeats only what is still due, as the rows already made due answer false.
     */
    async markCallbacksDue(callbacks) {
      const sorted = [...callbacks].sort((a, b) => a.taskId - b.taskId);
      const chunks: DueCallback[][] = [];
      for (let i = 0; i < sorted.length; i += CALLBACKS_PER_TRANSACTION) chunks.push(sorted.slice(i, i + CALLBACKS_PER_TRANSACTION));
      let fired = 0;
      const notFired: DueCallback[] = [];
      let failure: unknown = null;
      let next = 0;
      const runner = async () => {
        while (next < chunks.length) {
          const chunk = chunks[next++];
          try {
            const made = await fireCallbacks(sequelize, chunk);
            fired += made.size;
            for (const c of chunk) if (!made.has(c.taskId)) notFired.push(c);
          } catch (err) {
            failure ??= err;
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(CALLBACK_BATCH_CONCURRENCY, chunks.length) }, runner));
      if (failure) throw failure;
      // The ones that did not come due: does the row hold another time the dispatcher should keep?
      const missed = new Map(notFired.map((c) => [c.taskId, Date.parse(c.callbackAt)]));
      const moved: Array<{ taskId: number; callbackAt: string }> = [];
      if (missed.size) {
        const { rows } = await pool.query<{ id: number; callback_at: Date }>(
          `SELECT t.id, t.callback_at FROM placement_tasks t JOIN cases c ON c.id = t.case_id AND c.status = ANY($2::text[])
            WHERE t.id = ANY($1::int[]) AND t.callback_at IS NOT NULL AND t.due_at IS NULL`,
          [[...missed.keys()], PLACEMENT_CASE_STATUSES],
        );
        for (const r of rows) if (r.callback_at.getTime() !== missed.get(r.id)) moved.push({ taskId: r.id, callbackAt: r.callback_at.toISOString() });
      }
      return { fired, moved };
    },

    /** Makes due the tasks whose callback passed `graceSeconds` ago without their timer firing. */
    async sweepDueCallbacks(graceSeconds) {
      const { rows } = await pool.query<{ id: number; callback_at: Date | string }>(
        `SELECT t.id, t.callback_at FROM placement_tasks t JOIN cases c ON c.id = t.case_id AND c.status = ANY($2::text[])
          WHERE t.callback_at IS NOT NULL AND t.due_at IS NULL AND t.callback_at <= now() - make_interval(secs => $1)
          ORDER BY t.callback_at LIMIT 1000`,
        [graceSeconds, PLACEMENT_CASE_STATUSES],
      );
      return (await activities.markCallbacksDue(rows.map((r) => ({ taskId: r.id, callbackAt: new Date(r.callback_at).toISOString() })))).fired;
    },
  };
  return activities;
}
