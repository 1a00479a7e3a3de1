/**
 * The rows of what leaves the platform. Each write that should start a delivery also sends a
 * NOTIFY on MESSAGING_CHANNEL in the same transaction: the worker's dispatcher (./message-dispatcher)
 * starts the row's workflow when the row commits, and never for a change that rolled back.
 */
import { facilityAlertMessage, initials, needsFacilityAlert, type NotificationSendingMethod, type NotificationType } from '@crisis/forms';
import { config } from '../config';
import type { Sql } from '../db/sql';

export const MESSAGING_CHANNEL = 'messaging_dispatch';
export type DispatchMessage = { kind: 'message' | 'alert'; id: string } | { kind: 'ehr'; id: string; round: number };

export interface OutgoingMessage {
  channel: 'email' | 'sms' | 'call';
  to: string;
  subject?: string | null;
  body: string;
  userId?: number | null;
  purpose?: string | null;
  /** The event it tells of: a second enqueue with the same key adds nothing. */
  idempotencyKey?: string | null;
  caseId?: number | null;
  facilityAlertId?: string | null;
  /** false: the caller sends it itself, so the dispatcher must not start a delivery as well. */
  dispatch?: boolean;
}

const sender = (channel: OutgoingMessage['channel']) => (channel === 'email' ? config.smtpFrom : config.twilio.from);

/** A user (`u`) with a phone and an SMS-notification window open (always, or until receiveUntil). */
const SMS_WINDOW_OPEN = `coalesce(u.notifications_receiving_settings->>'phone', '') <> ''
            AND (coalesce((u.notifications_receiving_settings->>'alwaysReceive')::boolean, false)
                 OR (u.notifications_receiving_settings->>'receiveUntil')::timestamptz > now())`;

export const messagingRepository = {
  /** Queues a message for delivery; returns its id, or null when its idempotency key was used before. */
  async enqueue(db: Sql, m: OutgoingMessage): Promise<string | null> {
    const { rows } = await db.query<{ id: string }>(
      `WITH ins AS (
         INSERT INTO outbox_messages (channel, recipient, sender, subject, body, status, user_id, purpose, idempotency_key, case_id, facility_alert_id)
         VALUES ($1, $2, $3, $4, $5, 'queued', $6, $7, $8, $9, $10)
         ON CONFLICT (idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
         RETURNING id
       )
       SELECT id::text, CASE WHEN $12 THEN pg_notify($11, json_build_object('kind', 'message', 'id', id::text)::text) END FROM ins`,
      [m.channel, m.to, sender(m.channel), m.subject ?? null, m.body, m.userId ?? null, m.purpose ?? null, m.idempotencyKey ?? null, m.caseId ?? null, m.facilityAlertId ?? null, MESSAGING_CHANNEL, m.dispatch !== false],
    );
    return rows[0]?.id ?? null;
  },

  /**
   * SMS copies of new in-app notifications for the ITP staff whose SMS window is open (always, or
   * until receiveUntil, to the minute: the window is read at the moment of the event). The
   * patient is named by initials only: an SMS leaves the platform's protection.
   */
  async enqueueStaffSms(db: Sql, notifications: Array<{ id: string; user_id: number }>, caseId: number, text: string): Promise<number> {
    if (!notifications.length) return 0;
    const { rows } = await db.query<{ id: string }>(
      `WITH ins AS (
         INSERT INTO outbox_messages (channel, recipient, sender, body, status, user_id, purpose, idempotency_key, case_id)
         SELECT 'sms', u.notifications_receiving_settings->>'phone', $4, $5, 'queued', u.id, 'notification', 'notification:' || n.id, $3
           FROM unnest($1::bigint[], $2::int[]) AS n(id, user_id) JOIN users u ON u.id = n.user_id
          WHERE u.is_active
            AND u.user_type IN ('IntegratedTelehealthPartners_Admin', 'IntegratedTelehealthPartners_User', 'IntegratedTelehealthPartners_Provider')
            AND ${SMS_WINDOW_OPEN}
         ON CONFLICT (idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
         RETURNING id
       )
       SELECT id::text, pg_notify($6, json_build_object('kind', 'message', 'id', id::text)::text) FROM ins`,
      [notifications.map((n) => n.id), notifications.map((n) => n.user_id), caseId, config.twilio.from, text, MESSAGING_CHANNEL],
    );
    return rows.length;
  },

  /**
   * The SMS copies of a broadcast to the ITP coordinators (one row for all of them): one message
   * for each coordinator in an SMS window, but not for the one whose change raised it.
   */
  async enqueueBroadcastSms(db: Sql, notificationId: string, exceptUserId: number | null, caseId: number, text: string): Promise<number> {
    const { rows } = await db.query<{ id: string }>(
      `WITH ins AS (
         INSERT INTO outbox_messages (channel, recipient, sender, body, status, user_id, purpose, idempotency_key, case_id)
         SELECT 'sms', u.notifications_receiving_settings->>'phone', $4, $5, 'queued', u.id, 'notification', 'notification:' || $1 || ':' || u.id, $3
           FROM users u
          WHERE u.is_active AND u.user_type IN ('IntegratedTelehealthPartners_Admin', 'IntegratedTelehealthPartners_User')
            AND u.id IS DISTINCT FROM $2::int
            AND ${SMS_WINDOW_OPEN}
         ON CONFLICT (idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
         RETURNING id
       )
       SELECT id::text, pg_notify($6, json_build_object('kind', 'message', 'id', id::text)::text) FROM ins`,
      [notificationId, exceptUserId, caseId, config.twilio.from, text, MESSAGING_CHANNEL],
    );
    return rows.length;
  },

  /**
   * The facility alert of a case event when the table says it needs one and the case has a
   * contact phone: one per event (source key), texted or called by the case's method.
   */
  async raiseFacilityAlert(
    db: Sql,
    e: { caseId: number; type: NotificationType; payload: Record<string, unknown>; sourceKey: string; actorActsForFacility: boolean; raisedBy: number | null },
  ): Promise<string | null> {
    if (!needsFacilityAlert(e.type, e.actorActsForFacility)) return null;
    const { rows: found } = await db.query<{ phone: string | null; method: NotificationSendingMethod; patient: string }>(
      `SELECT c.contact_phone_number AS phone, c.notification_sending_method AS method, p.first_name || ' ' || p.last_name AS patient
         FROM cases c JOIN patients p ON p.id = c.patient_id WHERE c.id = $1`,
      [e.caseId],
    );
    const c = found[0];
    if (!c?.phone) return null;
    const method: NotificationSendingMethod = c.method === 'SMS' ? 'SMS' : 'PhoneCall';
    const { rows } = await db.query<{ id: string }>(
      `WITH ins AS (
         INSERT INTO facility_alerts (case_id, notification_type, method, phone, message, source_key, raised_by)
         VALUES ($1, $2, $3, $4, $5, $6, $8)
         ON CONFLICT (source_key) DO NOTHING
         RETURNING id
       )
       SELECT id::text, pg_notify($7, json_build_object('kind', 'alert', 'id', id::text)::text) FROM ins`,
      [e.caseId, e.type, method, c.phone, facilityAlertMessage(e.type, e.payload, initials(c.patient), method), `${e.sourceKey}:${e.type}`, MESSAGING_CHANNEL, e.raisedBy],
    );
    return rows[0]?.id ?? null;
  },
};
