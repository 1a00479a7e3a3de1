/**
 * Notifications benchmark: the bell's list with 1,000,000 notification rows.
 * - seeds (once: the bench database is kept) 1,000,000 rows with generate_series, spread over
 *   every user, a quarter resolved, some dismissed; 8 bench coordinators own 20,000 each (their
 *   lists are the long ones);
 * - GET /api/user/getUserNotifications (unresolved, newest first, a page of 20, the count capped
 *   at 100) at 1 and 32 concurrent clients, the 8 coordinators in turn — target p95 < 50 ms at 32;
 * - the resolved list (last 2 days, resolver's name) at 32 clients, for the figures;
 * - prints the plans of both queries (EXPLAIN ANALYZE), which must read the partial indexes;
 * - 1,000 facility alerts (SMS) committed in one burst, as 1,000 case events at once would: each
 *   must reach its phone exactly once through the worker, the workflows and the local Twilio
 *   (none lost, none twice), and how long the last one took.
 * Run by `npm run bench` (BENCH_ONLY=notifications), or alone with API_URL and DATABASE_URL set.
 */
import http from 'http';
import { Pool } from 'pg';
import { UserType } from '@crisis/forms';
import { db } from '../support/db';
import { signIn } from '../support/oidc-client';
import { TEST_USER_PASSWORD, createTestUser } from '../support/users';
import { resolvedListSql, unresolvedListSql } from '../../api/src/notifications/notifications.query';
import { formatLoad, runLoad } from './load';

const API_URL = process.env.API_URL ?? 'http://127.0.0.1:3200';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROWS = Number(process.env.BENCH_NOTIFICATIONS ?? 1_000_000);
const OWNERS = 8;
const PER_OWNER = 20_000;
const BROADCASTS = 200_000;
const CLIENTS = 32;
const TARGET_P95_MS = 50;

function get(agent: http.Agent, path: string, token: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.get(new URL(`${API_URL}${path}`), { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
  });
}

/** The bench coordinators (made once, kept with the database) and their notifications. */
async function seed(): Promise<Array<{ id: number; email: string }>> {
  await seedBroadcasts();
  const { rows: owners } = await db.query<{ id: number; email: string }>("SELECT id, email FROM users WHERE last_name LIKE 'Tester bench-bell%' ORDER BY id");
  const have = Number((await db.query('SELECT count(*) AS n FROM notifications')).rows[0].n);
  if (owners.length >= OWNERS && have >= ROWS) return owners.slice(0, OWNERS);
  const made = owners.length >= OWNERS ? owners.slice(0, OWNERS) : [];
  for (let i = made.length; i < OWNERS; i++) {
    const u = await createTestUser(UserType.ItpUser, { label: `bench-bell${i}-` });
    made.push({ id: u.id, email: u.email });
  }
  const started = Date.now();
  const caseId = (await db.query('SELECT max(id) AS id FROM cases')).rows[0].id as number | null;
  const users = (await db.query('SELECT array_agg(id ORDER BY id) AS ids FROM users')).rows[0].ids as number[];
  const rest = Math.max(0, ROWS - have - OWNERS * PER_OWNER);
  // The owners' long lists: 20,000 each over 30 days, a quarter resolved (by a colleague), one in 20 of those dismissed.
  await db.query(
    `INSERT INTO notifications (user_id, type, case_id, payload, created_at, read_at, resolved_at, resolved_by, dismissed_at, source_key)
     SELECT o, (ARRAY['RequestCreated','CaseNoteAdded','VitalsAdded','CaseOnHold','CallbackAt'])[1 + g % 5], $2,
            jsonb_build_object('CaseId', $2::int, 'PatientName', 'Bench Patient ' || g), t,
            CASE WHEN g % 3 = 0 THEN t + interval '5 minutes' END,
            CASE WHEN g % 4 = 0 THEN t + interval '10 minutes' END, CASE WHEN g % 4 = 0 THEN $3::int END,
            CASE WHEN g % 80 = 0 THEN t + interval '20 minutes' END, 'bench-owner-' || o || '-' || g
       FROM unnest($1::int[]) o, generate_series(1, $4::int) g, LATERAL (SELECT now() - make_interval(secs => g * 130)) x(t)`,
    [made.map((m) => m.id), caseId, users[0], PER_OWNER],
  );
  // Everyone else's: spread over all users and 60 days.
  if (rest > 0)
    await db.query(
      `INSERT INTO notifications (user_id, type, case_id, payload, created_at, read_at, resolved_at, resolved_by, source_key)
       SELECT ($1::int[])[1 + (g % array_length($1::int[], 1))], 'CaseNoteAdded', $2,
              jsonb_build_object('CaseId', $2::int, 'PatientName', 'Bench Patient ' || g), t,
              CASE WHEN g % 2 = 0 THEN t END, CASE WHEN g % 4 = 0 THEN t END, CASE WHEN g % 4 = 0 THEN ($1::int[])[1] END, 'bench-' || g
         FROM generate_series(1, $3::int) g, LATERAL (SELECT now() - make_interval(secs => (g % 5184000))) x(t)`,
      [users, caseId, rest],
    );
  await db.query('ANALYZE notifications');
  console.log(`seeded notifications in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return made;
}

/**
 * The broadcasts every coordinator reads besides her own rows: BROADCASTS over 60 days, all but
 * the last 200 resolved (what a working team leaves), a receipt for one in 10.
 */
async function seedBroadcasts() {
  const have = Number((await db.query('SELECT count(*) AS n FROM notifications WHERE audience IS NOT NULL')).rows[0].n);
  if (have >= BROADCASTS) return;
  const started = Date.now();
  const caseId = (await db.query('SELECT max(id) AS id FROM cases')).rows[0].id as number | null;
  const resolver = (await db.query("SELECT min(id) AS id FROM users WHERE user_type = 'IntegratedTelehealthPartners_User'")).rows[0].id as number;
  await db.query(
    `INSERT INTO notifications (audience, type, case_id, payload, created_at, resolved_at, resolved_by, source_key)
     SELECT 'itp', (ARRAY['RequestCreated','RequestCompleted','VitalsAdded','CaseNoteAdded'])[1 + g % 4], $1,
            jsonb_build_object('CaseId', $1::int, 'PatientName', 'Bench Patient ' || g), t,
            CASE WHEN g > 200 THEN t + interval '10 minutes' END, CASE WHEN g > 200 THEN $2::int END, 'bench-broadcast-' || g
       FROM generate_series(1, $3::int) g, LATERAL (SELECT now() - make_interval(secs => g * 26)) x(t)`,
    [caseId, resolver, BROADCASTS - have],
  );
  await db.query(
    `INSERT INTO notification_receipts (notification_id, user_id, read_at)
     SELECT n.id, u.id, n.created_at FROM notifications n JOIN users u ON u.user_type = 'IntegratedTelehealthPartners_User'
      WHERE n.audience = 'itp' AND n.id % 10 = 0 AND u.id % 7 = 0 ON CONFLICT DO NOTHING`,
  );
  await db.query('ANALYZE notifications; ANALYZE notification_receipts');
  console.log(`seeded broadcasts in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function explain(title: string, sql: string, params: unknown[]) {
  const { rows } = await db.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`, params);
  console.log(`\n${title}\n${rows.map((r) => `  ${r['QUERY PLAN']}`).join('\n')}`);
}

async function main() {
  const owners = await seed();
  const total = Number((await db.query('SELECT count(*) AS n FROM notifications')).rows[0].n);
  console.log(`notifications: ${total} rows; ${OWNERS} bench coordinators with ${PER_OWNER} each, and ${BROADCASTS} broadcasts to every coordinator`);
  const tokens: string[] = [];
  for (const o of owners) tokens.push((await signIn({ email: o.email, password: TEST_USER_PASSWORD })).accessToken);

  // The plans of the statements NotificationsService runs (api/src/notifications/notifications.query.ts),
  // for the bench coordinator whose rows were written last (the farthest from the table's start).
  const last = owners[owners.length - 1].id;
  const page = unresolvedListSql({ id: last, itpStaff: true }, { cursor: null, limit: 20, isRead: null });
  await explain('unresolved page and capped count (GET /api/user/getUserNotifications)', page.sql, page.params);
  const firstPage = (await db.query(page.sql, page.params)).rows[0].items as Array<{ id: number }>;
  const next = unresolvedListSql({ id: last, itpStaff: true }, { cursor: firstPage[19].id, limit: 20, isRead: null });
  await explain('the next page (keyset cursor)', next.sql, next.params);
  const resolvedQ = resolvedListSql({ id: last, itpStaff: true }, { cursor: null, limit: 20, isRead: null });
  await explain('resolved within 2 days (GET /api/notifications/resolved)', resolvedQ.sql, resolvedQ.params);

  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  let turn = 0;
  const unresolved = () => get(agent, '/api/user/getUserNotifications', tokens[turn++ % tokens.length]);
  const resolved = () => get(agent, '/api/notifications/resolved', tokens[turn++ % tokens.length]);
  // The floor: the API's own cost of an authenticated call (guards, user context) with one small query.
  const context = () => get(agent, '/api/user/context', tokens[turn++ % tokens.length]);
  // The same statement through pg by the same load generator: what the database itself takes.
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: CLIENTS });
  const bare = async () => {
    const q = unresolvedListSql(owners[turn++ % owners.length].id, { cursor: null, limit: 20, isRead: null });
    await pool.query(q.sql, q.params);
  };
  await runLoad(unresolved, CLIENTS, 2); // warm-up
  const one = await runLoad(unresolved, 1, SECONDS);
  const many = await runLoad(unresolved, CLIENTS, SECONDS);
  const res = await runLoad(resolved, CLIENTS, SECONDS);
  const floor = await runLoad(context, CLIENTS, SECONDS);
  await runLoad(bare, CLIENTS, 2);
  const sql = await runLoad(bare, CLIENTS, SECONDS);
  await pool.end();
  console.log(`\nGET /api/user/getUserNotifications (${total} rows, page of 20 with the capped count)`);
  console.log(`  ${formatLoad(one)}\n  ${formatLoad(many)}`);
  console.log(`  bare SQL ${formatLoad(sql)}`);
  console.log(`GET /api/notifications/resolved (last 2 days, resolver's name)\n  ${formatLoad(res)}`);
  console.log(`GET /api/user/context (the API's floor for an authenticated call)\n  ${formatLoad(floor)}`);
  agent.destroy();

  const burst = await alertBurst();

  const met = many.p95 < TARGET_P95_MS && many.errors === 0 && total >= ROWS;
  const burstMet = burst.lost === 0 && burst.twice === 0;
  console.log('\nTargets');
  console.log(`  ${met ? 'met    ' : 'MISSED '} notifications list p95 < ${TARGET_P95_MS} ms at ${CLIENTS} clients with ${ROWS} rows`);
  console.log(`  ${burstMet ? 'met    ' : 'MISSED '} ${BURST} facility alerts in a burst: each sent once (lost ${burst.lost}, twice ${burst.twice})`);
  await db.end();
  // As the other benches: a latency target missed is printed; a text lost or sent twice fails the run.
  if (!burstMet) process.exitCode = 1;
}

const BURST = Number(process.env.BENCH_ALERT_BURST ?? 1000);

/**
 * BURST facility alerts by SMS, spread over the newest cases, each to a phone of its own, committed
 * in one transaction with their NOTIFYs (as the case writer raises them). Waits until every first
 * SMS is sent, then asks the local Twilio what each phone received.
 */
async function alertBurst(): Promise<{ lost: number; twice: number; seconds: number }> {
  const twilioUrl = process.env.TWILIO_LOCAL_URL;
  if (!twilioUrl) throw new Error('TWILIO_LOCAL_URL is not set: the burst needs the local Twilio');
  // What the phones received is counted from an empty local Twilio.
  await fetch(`${twilioUrl}/local/reset`, { method: 'POST' });
  const run = Date.now();
  const started = Date.now();
  const { rows } = await db.query<{ id: string; phone: string }>(
    `WITH c AS (SELECT id, row_number() OVER (ORDER BY id DESC) AS n FROM cases ORDER BY id DESC LIMIT $1),
          ins AS (
            INSERT INTO facility_alerts (case_id, notification_type, method, phone, message, source_key)
            SELECT (SELECT id FROM c WHERE c.n = 1 + (g - 1) % (SELECT count(*) FROM c)), 'CaseServices', 'SMS',
                   '+1555' || lpad((($2::bigint + g) % 10000000)::text, 7, '0'),
                   'Services are being located for patient B. P. Reply 1 to confirm.', 'bench-burst:' || $2 || ':' || g
              FROM generate_series(1, $1::int) g
            RETURNING id, phone)
     SELECT id::text, phone, pg_notify('messaging_dispatch', json_build_object('kind', 'alert', 'id', id::text)::text) FROM ins`,
    [BURST, run],
  );
  const ids = rows.map((r) => r.id);
  const deadline = Date.now() + 10 * 60_000;
  let sent = 0;
  for (;;) {
    sent = Number(
      (await db.query("SELECT count(*) AS n FROM outbox_messages WHERE facility_alert_id = ANY($1::bigint[]) AND status NOT IN ('queued')", [ids])).rows[0].n,
    );
    if (sent >= BURST || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const seconds = (Date.now() - started) / 1000;
  const received = (await (await fetch(`${twilioUrl}/local/messages`)).json()) as Array<{ to: string; direction: string }>;
  const perPhone = new Map<string, number>();
  for (const m of received) if (m.direction === 'outbound') perPhone.set(m.to, (perPhone.get(m.to) ?? 0) + 1);
  const counts = rows.map((r) => perPhone.get(r.phone) ?? 0);
  const lost = counts.filter((n) => n === 0).length;
  const twice = counts.filter((n) => n > 1).length;
  console.log(`\nFacility alerts: ${BURST} committed at once, ${sent} first SMS sent in ${seconds.toFixed(1)} s (${(BURST / seconds).toFixed(0)}/s); received once ${counts.filter((n) => n === 1).length}, lost ${lost}, twice ${twice}`);
  return { lost, twice, seconds };
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
