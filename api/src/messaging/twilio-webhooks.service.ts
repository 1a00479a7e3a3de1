import { Injectable, Logger } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { Sequelize } from 'sequelize-typescript';
import { isConfirmReply, isStopReply, FACILITY_ALERT_CONFIRM_KEY, LIVE_CHANNEL, LiveRoom } from '@crisis/forms';
import { signalFacilityAlertConfirmed } from '@crisis/workflows';
import { pooledSql, type Sql } from '../db/sql';
import { TemporalClientService } from '../temporal/temporal-client.service';

/**
 * What Twilio tells us (its webhooks, each checked for Twilio's signature by the controller):
 * delivery statuses, replies, and the key pressed during an alert's call. A confirmation is
 * written to the alert's row first (the truth), then signalled to its workflow to wake it.
 */
@Injectable()
export class TwilioWebhooksService {
  private readonly log = new Logger('twilio-webhooks');
  private readonly db: Sql;

  constructor(
    @InjectConnection() sequelize: Sequelize,
    private readonly temporal: TemporalClientService,
  ) {
    this.db = pooledSql(sequelize);
  }

  /** A message's or call's status, as Twilio reports it. */
  async status(sid: string | undefined, status: string | undefined): Promise<void> {
    if (!sid || !status) return;
    await this.db.query("UPDATE outbox_messages SET status = $2, updated_at = now() WHERE provider_id = $1 AND status NOT IN ('failed') ", [sid, status.slice(0, 40)]);
  }

  /** The TwiML of an outgoing call: the message, and for an alert a key to press. */
  async callTwiml(messageId: string): Promise<{ text: string; alertId: string | null } | null> {
    const { rows } = await this.db.query<{ body: string; facility_alert_id: string | null }>(
      "SELECT body, facility_alert_id::text FROM outbox_messages WHERE id = $1 AND channel = 'call'",
      [messageId],
    );
    return rows[0] ? { text: rows[0].body, alertId: rows[0].facility_alert_id } : null;
  }

  /** A key pressed during an alert's call; true when it confirmed the alert. */
  async keyPressed(messageId: string, digits: string | undefined): Promise<boolean> {
    if ((digits ?? '').trim() !== FACILITY_ALERT_CONFIRM_KEY) return false;
    const { rows } = await this.db.query<{ id: string }>(
      `WITH m AS (SELECT facility_alert_id FROM outbox_messages WHERE id = $1 AND channel = 'call')
       UPDATE facility_alerts a SET status = 'confirmed', confirmed_at = now(), confirmed_via = 'call'
         FROM m WHERE a.id = m.facility_alert_id AND a.status = 'pending' RETURNING a.id::text`,
      [messageId],
    );
    await this.db.query("UPDATE outbox_messages SET response = $2, updated_at = now() WHERE id = $1", [messageId, digits!.trim().slice(0, 10)]);
    await this.wake(rows.map((r) => r.id), 'call');
    return rows.length > 0 || (await this.alreadyConfirmed(messageId));
  }

  /**
   * An SMS to our number: STOP ends the sender's SMS-notification window (Twilio's opt-out
   * keyword); "1" confirms every open SMS alert sent to that phone. Returns the reply to text back.
   */
  async inboundSms(from: string | undefined, body: string | undefined): Promise<string | null> {
    if (!from) return null;
    if (isStopReply(body)) {
      const { rows } = await this.db.query<{ id: number }>(
        `UPDATE users SET notifications_receiving_settings = notifications_receiving_settings || '{"alwaysReceive": false, "receiveUntil": null}'::jsonb
          WHERE notifications_receiving_settings->>'phone' = $1
            AND (coalesce((notifications_receiving_settings->>'alwaysReceive')::boolean, false) OR notifications_receiving_settings->>'receiveUntil' IS NOT NULL)
          RETURNING id`,
        [from],
      );
      // The SMS chip of each open page follows at once.
      for (const r of rows) await this.db.query('SELECT pg_notify($1, $2)', [LIVE_CHANNEL, JSON.stringify({ room: LiveRoom.user(r.id), event: 'notifications.changed', data: {} })]);
      this.log.log(`STOP from ${from.slice(0, -4).replace(/\d/g, '•')}${from.slice(-4)}: ${rows.length} SMS window(s) ended`);
      return rows.length ? 'You will no longer receive notifications by SMS. Turn them on again in the application.' : null;
    }
    if (isConfirmReply(body)) {
      const { rows } = await this.db.query<{ id: string }>(
        `UPDATE facility_alerts a SET status = 'confirmed', confirmed_at = now(), confirmed_via = 'sms'
          WHERE a.phone = $1 AND a.method = 'SMS' AND a.status = 'pending' AND a.attempts > 0 RETURNING a.id::text`,
        [from],
      );
      await this.wake(rows.map((r) => r.id), 'sms');
      return rows.length ? 'Thank you: your confirmation was recorded.' : null;
    }
    return null;
  }

  private async alreadyConfirmed(messageId: string): Promise<boolean> {
    const { rows } = await this.db.query<{ ok: boolean }>(
      "SELECT a.status = 'confirmed' AS ok FROM outbox_messages m JOIN facility_alerts a ON a.id = m.facility_alert_id WHERE m.id = $1",
      [messageId],
    );
    return !!rows[0]?.ok;
  }

  /** Wakes each confirmed alert's workflow; one that misses the signal reads the row at its next step. */
  private async wake(alertIds: string[], via: 'sms' | 'call') {
    if (!alertIds.length) return;
    const client = await this.temporal.get().catch(() => null);
    if (!client) return;
    for (const id of alertIds) await signalFacilityAlertConfirmed(client, id, via);
  }
}
