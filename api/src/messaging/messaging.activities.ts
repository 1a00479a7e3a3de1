import { ApplicationFailure, Context } from '@temporalio/activity';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { recipientsOf, unconfirmedAlertType } from '@crisis/forms';
import { deliveryWorkflowStart, ehrDeliveryStart, facilityAlertStart, messagingTaskQueueOf, type DeliveryOutcome, type MessagingActivities } from '@crisis/workflows';
import type { Sequelize } from 'sequelize-typescript';
import { caseRepository } from '../cases/case.repository';
import { config } from '../config';
import { insertNotificationRows } from '../notifications/notification-fanout';
import { inTransaction, pooledSql, type Sql } from '../db/sql';
import { isPermanentRefusal } from './twilio-gateway';
import { sendThroughProvider, type OutboxRow } from './message-sender';
import { messagingRepository } from './messaging.repository';

interface AlertRow {
  id: string;
  case_id: number;
  method: 'SMS' | 'PhoneCall';
  phone: string;
  message: string;
  status: 'pending' | 'confirmed' | 'escalated';
  confirmed_via: string | null;
  notification_type: string;
  raised_by: number | null;
}

const alertById = async (db: Sql, id: string) =>
  (await db.query<AlertRow>('SELECT id::text, case_id, method, phone, message, status, confirmed_via, notification_type, raised_by FROM facility_alerts WHERE id = $1', [id])).rows[0];

/** Starts a messaging workflow on the messaging queue of `taskQueue`, unless one with its id runs or completed (a failed one, e.g. after an hour-long outage, starts again). */
export async function startOnce(client: Client, start: { workflowType: string; workflowId: string; args: unknown[] }, taskQueue: string): Promise<boolean> {
  try {
    await client.workflow.start(start.workflowType, {
      workflowId: start.workflowId,
      taskQueue: messagingTaskQueueOf(taskQueue),
      args: start.args,
      workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
    });
    return true;
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw err;
  }
}

/**
 * The activities of the messaging workflows (workflows/src/workflows/messaging.ts). Each reads
 * its row first and does nothing the row says is done, so a retry after a crash repeats nothing.
 */
export function createMessagingActivities({ sequelize }: { sequelize: Sequelize }): MessagingActivities {
  const pool = pooledSql(sequelize);

  /**
   * Writes an alert's line of the case activity (once per key) through the case repository, in a
   * transaction of its own: the line changes nothing of the case, so it does not queue behind the
   * coordinators' commands on the case workflow. An escalation also tells the coordinator.
   */
  const recordOnCase = (a: AlertRow, event: 'sent' | 'confirmed' | 'escalated', note: string, key: string) =>
    inTransaction(sequelize, async (db) => {
      await caseRepository.recordAlertLine(db, a.case_id, note, key);
      if (event !== 'escalated') return;
      const type = unconfirmedAlertType(a.method);
      await insertNotificationRows(db, {
        caseId: a.case_id,
        type,
        audiences: recipientsOf(type),
        payload: { AlertId: a.id, ...(a.raised_by ? { OwnerId: a.raised_by } : {}) },
        sourceKey: key,
      });
    });

  const activities: MessagingActivities = {
    async deliverMessage(messageId): Promise<DeliveryOutcome> {
      const { rows } = await pool.query<OutboxRow & { status: string }>(
        'UPDATE outbox_messages SET attempts = attempts + 1, updated_at = now() WHERE id = $1 RETURNING id::text, channel, recipient, subject, body, status',
        [messageId],
      );
      const row = rows[0];
      if (!row) return 'gone';
      // Sent by an earlier attempt whose completion was lost: nothing to send again.
      if (row.status !== 'queued') return row.status === 'failed' ? 'failed' : row.status === 'outbox' ? 'outbox' : 'sent';
      let sent: Awaited<ReturnType<typeof sendThroughProvider>>;
      try {
        sent = await sendThroughProvider(row);
      } catch (err) {
        const message = (err as Error).message ?? String(err);
        if (isPermanentRefusal(err)) {
          await pool.query("UPDATE outbox_messages SET status = 'failed', last_error = $2, updated_at = now() WHERE id = $1", [messageId, message.slice(0, 1000)]);
          return 'failed';
        }
        await pool.query('UPDATE outbox_messages SET last_error = $2, updated_at = now() WHERE id = $1', [messageId, message.slice(0, 1000)]);
        throw ApplicationFailure.retryable(`sending ${row.channel} ${messageId} failed: ${message}`, 'ProviderUnavailable');
      }
      if (!sent) {
        // No provider configured: the outbox is the sink (the demo tools show it).
        await pool.query("UPDATE outbox_messages SET status = 'outbox', updated_at = now() WHERE id = $1", [messageId]);
        return 'outbox';
      }
      await pool.query("UPDATE outbox_messages SET status = $2, provider_id = $3, sent_at = now(), last_error = NULL, updated_at = now() WHERE id = $1", [
        messageId,
        sent.status === 'queued' || sent.status === 'accepted' ? 'sent' : sent.status,
        sent.providerId,
      ]);
      return 'sent';
    },

    async sendFacilityAlertAttempt(alertId, attempt) {
      const a = await alertById(pool, alertId);
      if (!a) return 'gone';
      if (a.status !== 'pending') return a.status;
      // One outbox row per attempt (its key), delivered by its own workflow with retries.
      const messageId = await inTransaction(sequelize, async (db) => {
        await db.query('UPDATE facility_alerts SET attempts = greatest(attempts, $2) WHERE id = $1', [alertId, attempt]);
        return messagingRepository.enqueue(db, {
          channel: a.method === 'SMS' ? 'sms' : 'call',
          to: a.phone,
          body: a.message,
          purpose: 'facility-alert',
          idempotencyKey: `facility-alert:${alertId}:${attempt}`,
          caseId: a.case_id,
          facilityAlertId: alertId,
          dispatch: false,
        });
      });
      if (messageId) {
        // The first try goes out from here: a workflow of its own per call would double the
        // alert's cost on the Temporal server. Only a try that did not go through gets the
        // delivery workflow and its retries (and the sweep catches a row left queued by a crash).
        const first = await activities.deliverMessage(messageId).catch(() => 'retry' as const);
        if (first === 'retry') {
          const ctx = Context.current();
          await startOnce(ctx.client, deliveryWorkflowStart(messageId), ctx.info.taskQueue);
        }
      }
      const how = a.method === 'SMS' ? 'SMS' : 'Phone call';
      await recordOnCase(a, 'sent', `${how} ${attempt} of ${config.facilityAlerts.attempts} to ${a.phone} (${a.notification_type}): awaiting confirmation`, `facility-alert:${alertId}:sent:${attempt}`);
      return 'sent';
    },

    async facilityAlertConfirmed(alertId) {
      return (await alertById(pool, alertId))?.status === 'confirmed';
    },

    async recordFacilityAlertConfirmed(alertId) {
      const a = await alertById(pool, alertId);
      if (!a || a.status !== 'confirmed') return;
      await recordOnCase(a, 'confirmed', `${a.method === 'SMS' ? 'SMS' : 'Phone call'} confirmed by ${a.phone}${a.confirmed_via === 'call' ? ' (key pressed)' : ' (reply)'}`, `facility-alert:${alertId}:confirmed`);
    },

    async escalateFacilityAlert(alertId) {
      const { rows } = await pool.query<AlertRow>(
        "UPDATE facility_alerts SET status = 'escalated', escalated_at = now() WHERE id = $1 AND status = 'pending' RETURNING id::text, case_id, method, phone, message, status, confirmed_via, notification_type, raised_by",
        [alertId],
      );
      let a = rows[0];
      if (!a) {
        // Escalated by an earlier attempt of this activity (its write went through): finish the job; confirmed: nothing to do.
        a = await alertById(pool, alertId);
        if (!a || a.status !== 'escalated') return false;
      }
      await recordOnCase(a, 'escalated', `Nobody confirmed the ${a.method === 'SMS' ? 'SMS' : 'phone call'} to ${a.phone}: the coordinators were told`, `facility-alert:${alertId}:escalated`);
      return true;
    },

    async sweepMessaging(graceSeconds) {
      const ctx = Context.current();
      const { rows: messages } = await pool.query<{ id: string }>(
        `SELECT id::text FROM outbox_messages
          WHERE status = 'queued' AND created_at < now() - make_interval(secs => $1)
            -- a try under way (a facility alert sends its first itself) is left to finish or time out
            AND (attempts = 0 OR updated_at < now() - interval '1 minute')
          ORDER BY created_at LIMIT 500`,
        [graceSeconds],
      );
      const { rows: alerts } = await pool.query<{ id: string }>(
        `SELECT id::text FROM facility_alerts WHERE status = 'pending' AND attempts = 0 AND created_at < now() - make_interval(secs => $1) ORDER BY created_at LIMIT 500`,
        [graceSeconds],
      );
      const { rows: ehr } = await pool.query<{ id: string; round: number }>(
        `SELECT id::text, round FROM ehr_deliveries WHERE status = 'Pending' AND attempts = 0 AND updated_at < now() - make_interval(secs => $1) ORDER BY created_at LIMIT 500`,
        [graceSeconds],
      );
      let started = 0;
      for (const m of messages) if (await startOnce(ctx.client, deliveryWorkflowStart(m.id), ctx.info.taskQueue)) started++;
      for (const d of ehr) if (await startOnce(ctx.client, ehrDeliveryStart(d.id, d.round, config.ehrDeliveries), ctx.info.taskQueue)) started++;
      for (const a of alerts)
        if (await startOnce(ctx.client, facilityAlertStart(a.id, config.facilityAlerts), ctx.info.taskQueue)) started++;
      return started;
    },
  };
  return activities;
}
