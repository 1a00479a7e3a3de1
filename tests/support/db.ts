import { Pool } from 'pg';

/**
 * Direct access to the test database, to check what a call did (or did not) change. One pool per
 * process, shared by every suite file a runner loads into it: no file ends it (Playwright runs
 * the files one after another in one worker); idle, it lets the process exit.
 */
export const db = new Pool({ connectionString: process.env.DATABASE_URL, max: 3, allowExitOnIdle: true });

/** Tables that are logs, sessions, leases or one-time tokens rather than the product's data. */
const NOT_DATA = new Set([
  'audit_log', 'audit_log_actors', 'oidc_payloads', 'outbox_messages', 'claims', 'mfa_codes', 'schema_migrations',
  'socket_io_attachments', 'identity_keys', 'user_account_tokens', 'rate_limit_counters', 'user_sign_in_addresses',
]);

/**
 * Rows the platform writes on its own clock, not in answer to a call: the facility alerts'
 * attempts, confirmations and escalations, and the EHR deliveries' tries and outcomes (their
 * workflows run seconds after the event that raised them, possibly during a later test). A refused
 * call is judged on everything else; a delivery it queued would still show as a new row.
 */
const BACKGROUND: Record<string, string> = {
  case_activities: "kind NOT IN ('alert', 'ehr')",
  notifications: "type NOT IN ('UserDoesntConfirmReceiptOfTheRobocall', 'UserDoesntConfirmReceiptOfTheSms', 'EhrDeliveryFailed')",
};
/** Tables whose rows a workflow updates later: only their count is compared (a new row still shows). */
const COUNT_ONLY = new Set(['ehr_deliveries']);

/**
 * A fingerprint of every data table (row count and the latest update where the table has one),
 * to prove a refused call changed nothing. New tables are covered without editing this list.
 */
export async function dataFingerprint(): Promise<Record<string, string>> {
  const { rows: tables } = await db.query<{ table_name: string; has_updated: boolean }>(
    `SELECT t.table_name,
            EXISTS (SELECT 1 FROM information_schema.columns c
                     WHERE c.table_schema = 'public' AND c.table_name = t.table_name AND c.column_name = 'updated_at') AS has_updated
       FROM information_schema.tables t
      WHERE t.table_schema = 'public' AND t.table_type = 'BASE TABLE'
      ORDER BY t.table_name`,
  );
  const out: Record<string, string> = {};
  for (const { table_name: t, has_updated } of tables) {
    if (NOT_DATA.has(t)) continue;
    const { rows } = await db.query(
      `SELECT count(*)::text AS n${has_updated && !COUNT_ONLY.has(t) ? ", coalesce(max(updated_at)::text, '') AS u" : ''} FROM "${t}"${BACKGROUND[t] ? ` WHERE ${BACKGROUND[t]}` : ''}`,
    );
    out[t] = `${rows[0].n}|${rows[0].u ?? ''}`;
  }
  return out;
}

/**
 * Every notification as its readers see it, one row per reader (`reader_id`, with her
 * `reader_read_at` and `reader_dismissed_at`): a user's own rows, and a broadcast to the ITP
 * coordinators once for each active coordinator who had joined when it was raised, but the one
 * whose change raised it, with her receipt (the bell's rule, api/src/notifications/notifications.query.ts).
 */
export const NOTIFICATION_READERS = `(
  SELECT n.*, n.user_id AS reader_id, n.read_at AS reader_read_at, n.dismissed_at AS reader_dismissed_at
    FROM notifications n WHERE n.user_id IS NOT NULL
  UNION ALL
  SELECT n.*, u.id AS reader_id, coalesce(r.read_at, n.resolved_at) AS reader_read_at, r.dismissed_at AS reader_dismissed_at
    FROM notifications n
    JOIN users u ON u.is_active AND u.user_type IN ('IntegratedTelehealthPartners_Admin', 'IntegratedTelehealthPartners_User')
    LEFT JOIN notification_receipts r ON r.notification_id = n.id AND r.user_id = u.id
   WHERE n.audience = 'itp' AND u.id IS DISTINCT FROM n.except_user_id AND n.created_at >= u.created_at)`;
