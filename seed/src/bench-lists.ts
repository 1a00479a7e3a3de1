/**
 * Synthetic users and audit entries for the list benchmarks (tests/bench/lists.ts):
 * `node seed/dist/bench-lists.js [users=10000] [auditEntries=1000000] [days=90]`.
 * Run after seed/dist/bench.js (facility users belong to the bench facilities).
 *
 * Everything is generated inside PostgreSQL (generate_series), a few statements in all, never row
 * by row, and is idempotent, so a kept bench database is reused:
 * - user i is always bench.user.<i>@bench-users.example.org (ON CONFLICT on the e-mail index);
 * - audit entries sit on a fixed time grid (slot k at k × step seconds since the epoch, step =
 *   days × 86400 / entries, correlation id bench-<k>); a run adds only the slots of the window
 *   (now − days, now] that come after the newest slot already there. The window therefore always
 *   holds about `entries` rows and the last day is always complete, whatever the database's age.
 * The audit table is append-only, so slots that fall out of the window stay (a reused database
 * grows by the time elapsed between runs).
 */
import type { Client } from 'pg';
import { OrganizationType, UserType } from '@crisis/forms';
import { connect, databaseUrl } from './db';

export const BENCH_USER_DOMAIN = 'bench-users.example.org';
const FIRST = ['James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth', 'William', 'Barbara',
  'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Sarah', 'Charles', 'Karen', 'Daniel', 'Lisa', 'Matthew', 'Nancy', 'Anthony',
  'Betty', 'Mark', 'Sandra', 'Donald', 'Ashley', 'Steven', 'Kimberly', 'Andrew', 'Emily', 'Joshua', 'Donna', 'Kenneth', 'Michelle',
  'Kevin', 'Carol', 'Brian', 'Amanda', 'Timothy', 'Melissa', 'Ronald', 'Deborah'];
const LAST = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Hernandez', 'Lopez',
  'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Lee', 'Perez', 'Thompson', 'White', 'Harris',
  'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson', 'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott', 'Torres', 'Nguyen',
  'Hill', 'Flores', 'Green', 'Adams', 'Nelson', 'Baker', 'Hall', 'Rivera', 'Campbell', 'Mitchell', 'Carter', 'Roberts', 'Phillips',
  'Evans', 'Turner', 'Parker', 'Collins', 'Edwards', 'Stewart', 'Morris', 'Murphy', 'Cook', 'Rogers', 'Morgan', 'Peterson', 'Cooper'];
/** Main actions of the synthetic entries, with their kind and method. */
const ACTIONS: Array<[string, string, string]> = [
  ['Identity.SignIn', 'Create', 'POST'], ['User.Update', 'Update', 'PUT'], ['User.Invite', 'Create', 'POST'],
  ['User.Activate', 'Update', 'PUT'], ['User.Deactivate', 'Update', 'PUT'], ['User.ResetPassword', 'Update', 'PUT'],
  ['User.Unlock', 'Update', 'PUT'], ['User.UpdateProfile', 'Update', 'PUT'], ['Facility.Update', 'Update', 'PUT'],
  ['Facility.UpdateMfa', 'Update', 'PUT'], ['Division.Update', 'Update', 'PUT'], ['Division.Create', 'Create', 'POST'],
  ['Payer.Update', 'Update', 'PUT'], ['BillingCode.Create', 'Create', 'POST'], ['PatientTag.Create', 'Create', 'POST'],
  ['Claim.Create', 'Create', 'POST'], ['Group.Update', 'Update', 'PUT'], ['User.SmsNotificationsStart', 'Create', 'POST'],
];

export interface BenchListsResult {
  usersAdded: number;
  users: number;
  auditAdded: number;
  auditInWindow: number;
}

/** Ensures bench users 1..n exist: 70 % facility staff (bench facilities), 20 % ITP staff, 10 % group users. */
export async function seedBenchUsers(client: Client, n: number): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `WITH fac AS (SELECT array_agg(id ORDER BY id) AS ids FROM facilities WHERE name LIKE 'Bench %'),
          grp AS (SELECT array_agg(id ORDER BY id) AS ids FROM group_organizations),
          src AS (
            SELECT i,
                   ($2::text[])[1 + (i * 7) % cardinality($2::text[])] AS first_name,
                   ($3::text[])[1 + (i * 13) % cardinality($3::text[])] AS last_name,
                   CASE WHEN i % 10 < 7 AND cardinality(fac.ids) > 0 THEN $4
                        WHEN i % 10 < 9 OR COALESCE(cardinality(grp.ids), 0) = 0 THEN $5 ELSE $6 END AS org_type,
                   fac.ids AS fac_ids, grp.ids AS grp_ids
              FROM generate_series(1, $1::int) i, fac, grp)
     INSERT INTO users (first_name, last_name, email, phone, is_active, email_confirmed, last_login, organization_type,
                        organization_id, user_type, password_locked_out, created_at, updated_at)
     SELECT first_name, last_name,
            lower(first_name || '.' || last_name || '.' || i || '@${BENCH_USER_DOMAIN}'),
            '+1813' || lpad((5550000 + i % 10000)::text, 7, '0'),
            i % 20 <> 0, i % 10 <> 0,
            CASE WHEN i % 10 = 0 THEN NULL ELSE now() - make_interval(hours => (i * 37) % (24 * 240)) END,
            org_type,
            CASE org_type WHEN $4 THEN fac_ids[1 + i % cardinality(fac_ids)] WHEN $6 THEN grp_ids[1 + i % cardinality(grp_ids)] END,
            CASE org_type WHEN $4 THEN CASE WHEN i % 7 = 0 THEN $7 ELSE $8 END
                          WHEN $6 THEN $9
                          ELSE CASE WHEN (i / 10) % 10 = 0 THEN $10 WHEN (i / 10) % 10 < 3 THEN $11 ELSE $12 END END,
            i % 97 = 0,
            now() - make_interval(days => 100 + i % 300), now()
       FROM src
     ON CONFLICT ((lower(email))) DO NOTHING
     RETURNING 1`,
    [n, FIRST, LAST, OrganizationType.Facility, OrganizationType.ITP, OrganizationType.Group,
      UserType.FacilityAdmin, UserType.FacilityUser, UserType.GroupUser, UserType.ItpAdmin, UserType.ItpProvider, UserType.ItpUser],
  );
  // Facility users have a division of their facility (the list shows them).
  await client.query(
    `INSERT INTO user_divisions (user_id, division_id)
     SELECT u.id, d.id
       FROM users u
       JOIN LATERAL (SELECT id FROM divisions WHERE facility_id = u.organization_id ORDER BY id LIMIT 1) d ON true
      WHERE u.email LIKE '%@${BENCH_USER_DOMAIN}' AND u.user_type = $1
     ON CONFLICT DO NOTHING`,
    [UserType.FacilityUser],
  );
  return rows.length;
}

/** Adds the missing audit slots of the window (now − days, now]; returns how many were added. */
export async function seedBenchAudit(client: Client, entries: number, days: number, log = (_: string) => {}): Promise<number> {
  const step = (days * 86400) / entries;
  const now = Date.now() / 1000;
  const kEnd = Math.floor(now / step);
  let kStart = Math.floor((now - days * 86400) / step) + 1;
  const { rows: last } = await client.query<{ k: string }>(
    `SELECT substring(correlation_id from 7) AS k FROM audit_log
      WHERE correlation_id LIKE 'bench-%' ORDER BY performed_at DESC, id DESC LIMIT 1`,
  );
  if (last[0]) kStart = Math.max(kStart, Number(last[0].k) + 1);
  if (kStart > kEnd) return 0;
  // The actors: the bench users with their organization and division (snapshot columns of an entry).
  await client.query(
    `CREATE TEMP TABLE bench_actor ON COMMIT DROP AS
     SELECT row_number() OVER (ORDER BY u.id) - 1 AS n, u.id, u.first_name || ' ' || u.last_name AS user_name, u.email,
            u.user_type, CASE u.organization_type WHEN 'Facility' THEN f.name WHEN 'Group' THEN g.name ELSE itp.name END AS organization,
            CASE WHEN u.organization_type = 'Facility' THEN u.organization_id END AS facility_id,
            (SELECT d.name FROM user_divisions ud JOIN divisions d ON d.id = ud.division_id WHERE ud.user_id = u.id LIMIT 1) AS division
       FROM users u
       LEFT JOIN facilities f ON u.organization_type = 'Facility' AND f.id = u.organization_id
       LEFT JOIN group_organizations g ON u.organization_type = 'Group' AND g.id = u.organization_id
       LEFT JOIN LATERAL (SELECT name FROM itp_organization ORDER BY id LIMIT 1) itp ON true
      WHERE u.email LIKE '%@${BENCH_USER_DOMAIN}'`,
  );
  const { rows: cnt } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM bench_actor');
  if (cnt[0].n === 0) throw new Error('no bench users: run seedBenchUsers first');
  await client.query('CREATE UNIQUE INDEX ON bench_actor (n)');
  let added = 0;
  const BATCH = 200_000;
  for (let from = kStart; from <= kEnd; from += BATCH) {
    const to = Math.min(kEnd, from + BATCH - 1);
    const res = await client.query(
      `INSERT INTO audit_log (performed_at, main_action, kind, user_id, user_name, email, user_type, organization, facility_id,
                             division, success, method, path, status_code, correlation_id, body, "values")
       SELECT to_timestamp(k * $3::float8 + ((k * 7919) % 1000) / 1000.0 * $3::float8),
              ($4::text[])[1 + a_i], ($5::text[])[1 + a_i], a.id, a.user_name, a.email, a.user_type, a.organization, a.facility_id,
              a.division, k % 31 <> 0, ($6::text[])[1 + a_i], '/api/bench/' || (k % 1000), CASE WHEN k % 31 <> 0 THEN 200 ELSE 403 END,
              'bench-' || k, jsonb_build_object('note', 'bench entry ' || k), jsonb_build_object('facilityId', a.facility_id, 'slot', k)
         FROM (SELECT k, (k * 11) % cardinality($4::text[]) AS a_i, (k * 104729) % $7::bigint AS actor
                 FROM generate_series($1::bigint, $2::bigint) k) s
         JOIN bench_actor a ON a.n = s.actor`,
      [from, to, step, ACTIONS.map((a) => a[0]), ACTIONS.map((a) => a[1]), ACTIONS.map((a) => a[2]), cnt[0].n],
    );
    added += res.rowCount ?? 0;
    log(`audit entries: ${added} added`);
  }
  return added;
}

export async function seedBenchLists(opts: { users: number; entries: number; days: number; databaseUrl?: string; log?: (s: string) => void }): Promise<BenchListsResult> {
  const client = await connect(opts.databaseUrl ?? databaseUrl());
  try {
    const usersAdded = await seedBenchUsers(client, opts.users);
    await client.query('VACUUM (ANALYZE) users, user_divisions');
    await client.query('BEGIN');
    const auditAdded = await seedBenchAudit(client, opts.entries, opts.days, opts.log);
    await client.query('COMMIT');
    // The visibility map (index-only scans) and the statistics, as on a running system.
    await client.query('VACUUM (ANALYZE) audit_log');
    const { rows } = await client.query<{ users: number; audit: number }>(
      `SELECT (SELECT count(*)::int FROM users WHERE email LIKE '%@${BENCH_USER_DOMAIN}') AS users,
              (SELECT count(*)::int FROM audit_log WHERE performed_at > now() - make_interval(days => $1)) AS audit`,
      [opts.days],
    );
    return { usersAdded, users: rows[0].users, auditAdded, auditInWindow: rows[0].audit };
  } finally {
    await client.end();
  }
}

if (require.main === module) {
  const [users = 10000, entries = 1_000_000, days = 90] = process.argv.slice(2).map(Number);
  if (![users, entries, days].every((v) => Number.isInteger(v) && v > 0)) {
    console.error('usage: node seed/dist/bench-lists.js [users] [auditEntries] [days]');
    process.exit(2);
  }
  const started = Date.now();
  seedBenchLists({ users, entries, days, log: (s) => console.log(`bench lists: ${s} (${((Date.now() - started) / 1000).toFixed(0)} s)`) })
    .then((r) =>
      console.log(
        `bench lists: ${r.usersAdded} users added (${r.users} bench users), ${r.auditAdded} audit entries added ` +
          `(${r.auditInWindow} in the last ${days} days) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      ),
    )
    .catch((err) => {
      console.error('bench lists seed failed:', err);
      process.exit(1);
    });
}
