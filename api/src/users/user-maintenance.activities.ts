import { Context } from '@temporalio/activity';
import type { UserMaintenanceActivities } from '@crisis/workflows';
import type { Sql } from '../db/sql';

/** Who is never locked for inactivity (spec: ITP admins keep access to unlock everyone else). */
const NEVER_LOCKED = ['IntegratedTelehealthPartners_Admin'];

/** The actor of changes made by the Temporal schedules (no person): shown as the entry's user. */
export const SYSTEM_ACTOR = { userName: 'System', userType: 'System', organization: 'Scheduled maintenance' } as const;
export const AUDIT_ACTION_LOCK_INACTIVE = 'User.LockDueInactivity';
export const AUDIT_ACTION_SMS_EXPIRED = 'User.SmsNotificationsExpired';

/** The running workflow's id (the entries' correlation id), when called as an activity. */
function workflowId(): string | null {
  try {
    return Context.current().info.workflowExecution?.workflowId ?? null;
  } catch {
    return null;
  }
}

/**
 * One audit entry per changed user, written by the same statement as the change (so in the same
 * transaction), in the shape of the API's audit interceptor: the system actor, kind Update, the
 * affected user and her facility in "values" (facility_id too, so her facility admin sees it).
 * `changed` is the UPDATE's RETURNING: id, email, first_name, last_name, organization_type,
 * organization_id and `body` (what changed).
 */
const auditInsert = (action: string, correlationParam: string) => `
  INSERT INTO audit_log (main_action, kind, user_id, user_name, email, user_type, organization, facility_id,
                         division, success, method, path, status_code, correlation_id, body, "values")
  SELECT '${action}', 'Update', NULL, '${SYSTEM_ACTOR.userName}', NULL, '${SYSTEM_ACTOR.userType}', '${SYSTEM_ACTOR.organization}',
         CASE WHEN c.organization_type = 'Facility' THEN c.organization_id END,
         NULL, true, NULL, NULL, NULL, ${correlationParam}, c.body,
         jsonb_strip_nulls(jsonb_build_object(
           'userId', c.id, 'email', c.email, 'userName', c.first_name || ' ' || c.last_name,
           'organizationType', c.organization_type, 'organizationId', c.organization_id,
           'facilityId', CASE WHEN c.organization_type = 'Facility' THEN c.organization_id END))
    FROM changed c
   ORDER BY c.id`;

/**
 * Periodic user maintenance (ARCHITECTURE "Periodic work"): lapsed SMS windows and the
 * inactivity lock. Each is one statement (the UPDATE and its audit entries), so concurrent or
 * repeated runs are harmless and a change is never without its entry.
 */
export function createUserMaintenanceActivities({ db }: { db: Sql }): UserMaintenanceActivities {
  return {
    /** Clears timed SMS windows that are over (alwaysReceive ones stay); returns the user ids. */
    async expireSmsWindows(): Promise<number[]> {
      const { rows } = await db.query<{ id: number }>(
        `WITH changed AS (
           UPDATE users u
              SET notifications_receiving_settings = u.notifications_receiving_settings || '{"receiveUntil": null}'::jsonb,
                  updated_at = now()
             FROM users old
            WHERE old.id = u.id
              AND u.notifications_receiving_settings->>'receiveUntil' IS NOT NULL
              AND (u.notifications_receiving_settings->>'receiveUntil')::timestamptz <= now()
              AND COALESCE((u.notifications_receiving_settings->>'alwaysReceive')::boolean, false) = false
           RETURNING u.id, u.email, u.first_name, u.last_name, u.organization_type, u.organization_id,
                     jsonb_build_object('receiveUntil', NULL,
                                        'previousReceiveUntil', old.notifications_receiving_settings->>'receiveUntil') AS body
         ), audit AS (${auditInsert(AUDIT_ACTION_SMS_EXPIRED, '$1')})
         SELECT id FROM changed ORDER BY id`,
        [workflowId()],
      );
      return rows.map((r) => r.id);
    },

    /**
     * Locks active users whose last sign-in (or creation, when they never signed in) is older than
     * `days` (locked_due_inactivity; unlocked through PUT /api/user/unlock). Never ITP admins.
     */
    async lockInactiveUsers(days: number): Promise<number[]> {
      if (!Number.isFinite(days) || days < 0) throw new Error(`lockInactiveUsers: bad days ${days}`);
      const { rows } = await db.query<{ id: number }>(
        `WITH changed AS (
           UPDATE users SET locked_due_inactivity = true, updated_at = now()
            WHERE is_active AND NOT creating AND NOT locked_due_inactivity
              AND user_type <> ALL($2::text[])
              AND COALESCE(last_login, created_at) < now() - make_interval(secs => $1 * 86400.0)
           RETURNING id, email, first_name, last_name, organization_type, organization_id,
                     jsonb_build_object('lockedDueInactivity', true, 'inactivityDays', $1::float8,
                                        'lastLogin', last_login) AS body
         ), audit AS (${auditInsert(AUDIT_ACTION_LOCK_INACTIVE, '$3')})
         SELECT id FROM changed ORDER BY id`,
        [days, NEVER_LOCKED, workflowId()],
      );
      return rows.map((r) => r.id);
    },
  };
}
