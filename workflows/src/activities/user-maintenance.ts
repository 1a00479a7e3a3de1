import type { Pool } from 'pg';

/** Who is never locked for inactivity (spec: ITP admins keep access to unlock everyone else). */
const NEVER_LOCKED = ['IntegratedTelehealthPartners_Admin'];

/**
 * Periodic user maintenance (ARCHITECTURE "Periodic work"): lapsed SMS windows and the
 * inactivity lock. Each is one UPDATE, so concurrent or repeated runs are harmless.
 */
export function createUserMaintenanceActivities({ pool }: { pool: Pool }) {
  return {
    /** Clears timed SMS windows that are over (alwaysReceive ones stay); returns the user ids. */
    async expireSmsWindows(): Promise<number[]> {
      const { rows } = await pool.query<{ id: number }>(
        `UPDATE users
            SET notifications_receiving_settings = notifications_receiving_settings || '{"receiveUntil": null}'::jsonb,
                updated_at = now()
          WHERE notifications_receiving_settings->>'receiveUntil' IS NOT NULL
            AND (notifications_receiving_settings->>'receiveUntil')::timestamptz <= now()
            AND COALESCE((notifications_receiving_settings->>'alwaysReceive')::boolean, false) = false
          RETURNING id`,
      );
      return rows.map((r) => r.id);
    },

    /**
     * Locks active users whose last sign-in (or creation, when they never signed in) is older than
     * `days` (locked_due_inactivity; unlocked through PUT /api/user/unlock). Never ITP admins.
     */
    async lockInactiveUsers(days: number): Promise<number[]> {
      if (!Number.isFinite(days) || days < 0) throw new Error(`lockInactiveUsers: bad days ${days}`);
      const { rows } = await pool.query<{ id: number }>(
        `UPDATE users SET locked_due_inactivity = true, updated_at = now()
          WHERE is_active AND NOT creating AND NOT locked_due_inactivity
            AND user_type <> ALL($2::text[])
            AND COALESCE(last_login, created_at) < now() - make_interval(secs => $1 * 86400.0)
          RETURNING id`,
        [days, NEVER_LOCKED],
      );
      return rows.map((r) => r.id);
    },
  };
}
