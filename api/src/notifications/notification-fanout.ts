/**
 * The fan-out of one in-app notification to the users of its audiences (the recipient table,
 * forms/src/notifications/recipients.ts), in the caller's transaction: the rows, and the live
 * `notification` event to each user's room (the coordinators' room for a broadcast), delivered
 * when that transaction commits (pg_notify). Idempotent: `sourceKey` (the command or event that
 * raised it) is unique per user (or audience) and type.
 */
import { LIVE_CHANNEL, LIVE_ROOMS_PER_MESSAGE, LiveRoom, initials, notificationText, type NotificationAudience, type NotificationPayload, type NotificationType } from '@crisis/forms';
import type { Sql } from '../db/sql';
import { messagingRepository } from '../messaging/messaging.repository';

export interface NotificationFanout {
  caseId: number;
  type: NotificationType;
  audiences: readonly NotificationAudience[];
  /** Users named besides the audiences. */
  userIds?: readonly number[];
  payload?: Record<string, unknown>;
  sourceKey: string;
  /** The user whose change raised it: never told of his own change. */
  exceptUserId?: number | null;
}

/** The audiences a notification names that mean "every ITP coordinator": one broadcast row for them. */
export function isItpBroadcast(audiences: readonly NotificationAudience[], payload: Record<string, unknown> | undefined): boolean {
  return audiences.includes('itp') || ((audiences.includes('callbackOwner') || audiences.includes('alertOwner')) && payload?.OwnerId == null);
}

/**
 * Inserts the notification: one broadcast row when the ITP coordinators are its audience (each
 * coordinator's read and dismissed state is a receipt written when she acts, spec 02 §4), and a
 * row for each other user named; the SMS copies for the ITP staff in an SMS window are queued in
 * the same transaction. Returns the user rows (id, user) and the broadcast's id — none for a
 * repeated sourceKey.
 */
export async function insertNotificationRows(db: Sql, n: NotificationFanout): Promise<NotificationFanoutResult> {
  const broadcast = isItpBroadcast(n.audiences, n.payload);
  const { rows: found } = await db.query<{ id: string | null; user_id: number | null; payload: NotificationPayload }>(
    `WITH p AS (SELECT $5::jsonb AS j), c AS (
       SELECT c.id, c.source_division_id, c.source_facility_id,
              p.first_name || ' ' || p.last_name AS patient_name,
              -- the provider of the request the notification names, else of the case's newest request
              CASE WHEN (SELECT j ? 'RequestId' FROM p)
                   THEN (SELECT r.evaluation_provider_id FROM requests r, p WHERE r.case_id = c.id AND r.id = (p.j->>'RequestId')::int)
                   ELSE (SELECT r.evaluation_provider_id FROM requests r WHERE r.case_id = c.id ORDER BY r.created_at DESC, r.id DESC LIMIT 1)
              END AS provider_id
         FROM cases c JOIN patients p ON p.id = c.patient_id WHERE c.id = $1
     ), division_users AS (
       -- users of a division (by their division links)
       SELECT ud.division_id, u.id FROM user_divisions ud JOIN users u ON u.id = ud.user_id AND u.is_active
     ), recipients AS (
       SELECT u.id FROM users u JOIN c ON true
        WHERE 'sourceDivision' = ANY($2::text[]) AND u.is_active AND u.organization_type = 'Facility'
          AND u.organization_id = c.source_facility_id
          AND (u.user_type = 'Facility_Admin'
               OR EXISTS (SELECT 1 FROM user_divisions ud WHERE ud.user_id = u.id AND ud.division_id = c.source_division_id))
       UNION
       SELECT du.id FROM division_users du, p
        WHERE 'oldSourceDivision' = ANY($2::text[]) AND du.division_id = (p.j->>'OldDivisionId')::int
       UNION
       SELECT c.provider_id FROM c WHERE 'provider' = ANY($2::text[])
       UNION
       SELECT u.id FROM users u, p
        WHERE 'previousProvider' = ANY($2::text[]) AND u.is_active AND u.id = (p.j->>'PreviousProviderId')::int
       UNION
       SELECT du.id FROM division_users du JOIN p ON true JOIN case_referring_access a
           ON a.case_id = $1 AND a.division_id = du.division_id AND a.removed_at IS NULL
        WHERE 'grantedDivision' = ANY($2::text[]) AND du.division_id = (p.j->>'DivisionId')::int
       UNION
       SELECT u.id FROM users u, p
        WHERE ($2::text[] && ARRAY['callbackOwner', 'alertOwner']) AND u.is_active AND u.id = (p.j->>'OwnerId')::int
       UNION
       SELECT unnest($3::int[])
     ), body AS (
       SELECT jsonb_build_object('CaseId', $1::int, 'PatientName', (SELECT patient_name FROM c)) || $5::jsonb AS payload
     ), inserted AS (
       INSERT INTO notifications (user_id, type, case_id, payload, source_key)
       SELECT r.id, $4, $1, (SELECT payload FROM body), $6
         FROM recipients r
        WHERE r.id IS NOT NULL AND r.id IS DISTINCT FROM $8::int
          -- a coordinator reads the broadcast: no second row of her own
          AND NOT ($10 AND EXISTS (SELECT 1 FROM users i WHERE i.id = r.id AND i.user_type IN ('IntegratedTelehealthPartners_Admin', 'IntegratedTelehealthPartners_User')))
       ON CONFLICT (source_key, user_id, type) WHERE source_key IS NOT NULL DO NOTHING
       RETURNING id, user_id, payload
     ), broadcast AS (
       INSERT INTO notifications (audience, except_user_id, type, case_id, payload, source_key)
       SELECT 'itp', $8::int, $4, $1, (SELECT payload FROM body), $6 WHERE $10
       ON CONFLICT (source_key, type, audience) WHERE audience IS NOT NULL AND source_key IS NOT NULL DO NOTHING
       RETURNING id, NULL::int AS user_id, payload
     ), told AS (
       -- One NOTIFY per LIVE_ROOMS_PER_MESSAGE users (a LiveBroadcast), and one for the coordinators' room.
       SELECT pg_notify($7, json_build_object('rooms', array_agg('user:' || user_id), 'event', 'notification',
                                              'data', json_build_object('caseId', $1::int, 'type', $4::text))::text)
         FROM (SELECT user_id, (row_number() OVER () - 1) / $9 AS chunk FROM inserted) u
        GROUP BY chunk
       UNION ALL
       SELECT pg_notify($7, json_build_object('room', $11::text, 'event', 'notification',
                                              'data', json_build_object('caseId', $1::int, 'type', $4::text, 'id', id::text))::text)
         FROM broadcast
     )
     -- told runs whatever was inserted (a row of nulls when nothing was)
     SELECT x.id, x.user_id, x.payload FROM (SELECT count(*) FROM told) t
       LEFT JOIN (SELECT id, user_id, payload FROM inserted UNION ALL SELECT id, user_id, payload FROM broadcast) x ON true`,
    [
      n.caseId, [...n.audiences], [...(n.userIds ?? [])], n.type, JSON.stringify(n.payload ?? {}), n.sourceKey, LIVE_CHANNEL,
      n.exceptUserId ?? null, LIVE_ROOMS_PER_MESSAGE, broadcast, LiveRoom.itpStaff,
    ],
  );
  const rows = found.filter((r): r is typeof r & { id: string } => r.id !== null);
  const userRows = rows.filter((r): r is typeof r & { user_id: number } => r.user_id !== null).map(({ id, user_id }) => ({ id, user_id }));
  const broadcastId = rows.find((r) => r.user_id === null)?.id ?? null;
  if (rows.length) {
    const payload = { ...rows[0].payload, PatientName: initials(rows[0].payload.PatientName) };
    const text = notificationText({ type: n.type, payload });
    await messagingRepository.enqueueStaffSms(db, userRows, n.caseId, text);
    if (broadcastId) await messagingRepository.enqueueBroadcastSms(db, broadcastId, n.exceptUserId ?? null, n.caseId, text);
  }
  return { userRows, broadcastId };
}

export interface NotificationFanoutResult {
  /** The rows of users named one by one. */
  userRows: Array<{ id: string; user_id: number }>;
  /** The one row every ITP coordinator reads, when they are its audience. */
  broadcastId: string | null;
}
