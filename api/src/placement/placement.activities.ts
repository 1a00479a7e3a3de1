import { LIVE_CHANNEL, LiveRoom, PLACEMENT_CASE_STATUSES, recipientsOf } from '@crisis/forms';
import type { PlacementActivities } from '@crisis/workflows';
import type { Sequelize } from 'sequelize-typescript';
import { caseRepository } from '../cases/case.repository';
import { inTransaction, pooledSql } from '../db/sql';

/** Transactions a batch of callbacks runs at once. */
const CALLBACK_BATCH_CONCURRENCY = 8;

/** Placement activities: a callback coming due. */
export function createPlacementActivities({ sequelize }: { sequelize: Sequelize }): PlacementActivities {
  const pool = pooledSql(sequelize);
  const activities: PlacementActivities = {
    /**
     * Makes the task due if it still has this callback time, raises a CallbackAt notification for
     * the coordinator who set it (every coordinator when the system set it), and tells the calls card. Returns false when the task moved on.
     * A case no longer being placed (closed, reworked, on hold) never gets a callback: its row is
     * read here, under lock, whatever became of the timer's cancel signal.
     */
    async markCallbackDue(taskId, callbackAt) {
      return inTransaction(sequelize, async (db) => {
        const { rows } = await db.query<{ case_id: number; division_id: number; division_name: string; created_by: number | null }>(
          `UPDATE placement_tasks t SET due_at = now()
             FROM (SELECT id FROM cases WHERE id = (SELECT case_id FROM placement_tasks WHERE id = $1) AND status = ANY($3::text[]) FOR SHARE) c
            WHERE t.id = $1 AND t.case_id = c.id AND t.callback_at = $2::timestamptz AND t.due_at IS NULL
            RETURNING t.case_id, t.division_id, (SELECT name FROM divisions WHERE id = t.division_id) AS division_name,
                      (SELECT created_by FROM placement_calls WHERE id = t.last_call_id) AS created_by`,
          [taskId, callbackAt, PLACEMENT_CASE_STATUSES],
        );
        const task = rows[0];
        if (!task) return false;
        // The CallbackAt notification, to the recipient table's audience (the coordinator who logged the call).
        await caseRepository.insertNotifications(db, task.case_id, `callback:${taskId}:${callbackAt}`, {
          type: 'CallbackAt',
          to: recipientsOf('CallbackAt'),
          payload: { CallbackAt: callbackAt, TaskId: taskId, DivisionId: task.division_id, DivisionName: task.division_name, ...(task.created_by ? { OwnerId: task.created_by } : {}) },
        });
        await db.query('SELECT pg_notify($1, $2)', [
          LIVE_CHANNEL,
          JSON.stringify({ room: LiveRoom.calls, event: 'callback.due', data: { taskId, caseId: task.case_id, divisionId: task.division_id, callbackAt } }),
        ]);
        return true;
      });
    },

    /**
     * markCallbackDue for a dispatcher's batch, CALLBACK_BATCH_CONCURRENCY transactions at a time
     * (the pool is shared with the other activities). Throws when any failed, after trying all:
     * the retry repeats only what is still due, as the rows already made due answer false.
     */
    async markCallbacksDue(callbacks) {
      let fired = 0;
      const notFired: typeof callbacks = [];
      let failure: unknown = null;
      let next = 0;
      const runner = async () => {
        while (next < callbacks.length) {
          const { taskId, callbackAt } = callbacks[next++];
          try {
            if (await activities.markCallbackDue(taskId, callbackAt)) fired++;
            else notFired.push({ taskId, callbackAt });
          } catch (err) {
            failure ??= err;
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(CALLBACK_BATCH_CONCURRENCY, callbacks.length) }, runner));
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
