import { LIVE_CHANNEL } from '@crisis/forms';
import type { Sql } from '../db/sql';
import type { MeetingRow } from './online-meetings.repository';

/**
 * Inserts the VideoCallIsAboutToStart notification (spec 02 §3) of a scheduled meeting for the
 * request's provider and the staff of the case's source division (its facility admins and the
 * users of that division), and tells each of them on the live channel. One statement, once per
 * meeting (source_key). Kept as one function so that it can move to the notifications' own
 * recipients model when that exists.
 */
export async function insertMeetingReminder(db: Sql, m: MeetingRow): Promise<number[]> {
  const { rows } = await db.query<{ user_id: number }>(
    `WITH c AS (
       SELECT c.id, c.source_division_id, c.source_facility_id, p.first_name || ' ' || p.last_name AS patient_name, r.evaluation_provider_id AS provider_id
         FROM cases c JOIN patients p ON p.id = c.patient_id JOIN requests r ON r.id = $2 WHERE c.id = $1
     ), recipients AS (
       SELECT c.provider_id AS id FROM c WHERE c.provider_id IS NOT NULL
       UNION
       SELECT u.id FROM users u JOIN c ON true
        WHERE u.is_active AND u.organization_type = 'Facility' AND u.organization_id = c.source_facility_id
          AND (u.user_type = 'Facility_Admin' OR EXISTS (SELECT 1 FROM user_divisions ud WHERE ud.user_id = u.id AND ud.division_id = c.source_division_id))
     ), inserted AS (
       INSERT INTO notifications (user_id, type, case_id, payload, source_key)
       SELECT r.id, 'VideoCallIsAboutToStart', $1,
              jsonb_build_object('CaseId', $1::int, 'PatientName', (SELECT patient_name FROM c), 'RequestId', $2::int,
                                 'JoinUrl', $3::text, 'ScheduledAt', $4::text),
              $5
         FROM recipients r
       ON CONFLICT (source_key, user_id, type) WHERE source_key IS NOT NULL DO NOTHING
       RETURNING user_id
     )
     SELECT user_id, pg_notify($6, json_build_object('room', 'user:' || user_id, 'event', 'notification', 'data', json_build_object('caseId', $1::int))::text)
       FROM inserted`,
    [m.case_id, m.request_id, m.join_url, m.scheduled_at ? new Date(m.scheduled_at).toISOString() : null, `online-meeting:${m.id}:reminder`, LIVE_CHANNEL],
  );
  return rows.map((r) => r.user_id);
}
