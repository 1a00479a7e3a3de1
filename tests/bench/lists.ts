/**
 * Benchmark of the two big admin lists at 1 and 32 concurrent clients, each beside the same SQL
 * issued directly through pg by the same load generator (as tests/bench/facilities.ts does):
 * - GET /api/user (the users list; 10,000 bench users): a name/e-mail search plus organisation-type
 *   and enabled filters, default sort (full name), a page of 25 with its total;
 * - GET /api/audit-log (1,000,000 bench entries over 90 days): the default range (the last day,
 *   newest first) and the same with the user text filter, a page of 25 with its total.
 * Run by `npm run bench` after seed/dist/bench-lists.js. BENCH_SECONDS sets each run's length.
 */
import http from 'http';
import os from 'os';
import { Pool } from 'pg';
import { UserType } from '@crisis/forms';
import { auditLogCountSql, auditLogPageSql } from '../../api/src/audit/audit-log.query';
import { signInAs } from '../support/oidc-client';
import { runLoad, formatLoad, getListPage } from './load';

const API_URL = process.env.API_URL ?? 'http://127.0.0.1:3200';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const TARGET_P95_MS = 50;
const enc = (v: unknown) => encodeURIComponent(JSON.stringify(v));

interface Case {
  title: string;
  path: string;
  /** The statements the API runs for this call (page, then total), with their parameters. */
  sql: Array<{ sql: string; params: unknown[] }>;
}

/**
 * The SQL of UsersService.list (api/src/users/users.service.ts) for this filter, written out: the
 * page (with organisation name and divisions) and the total. The bench checks below that the bare
 * SQL's total equals the API's Content-Range total, so a drift from the service shows.
 */
function usersSql(text: string, organizationTypes: string[], offset: number, limit: number) {
  const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const types = organizationTypes.map((_, i) => `$${i + 2}`).join(', ');
  const where = `WHERE (u.first_name || ' ' || u.last_name ILIKE $1 OR u.email ILIKE $1) AND u.organization_type IN (${types})
                   AND u.is_active AND NOT u.creating`;
  const n = organizationTypes.length;
  const page = `SELECT * FROM (
    SELECT u.id, u.first_name, u.last_name, u.email, u.phone, u.job_title, u.is_active, u.creating, u.email_confirmed,
           u.password_locked_out, u.locked_due_inactivity, u.last_login, u.mfa_method, u.sso_enabled,
           u.disabled_password_login, u.password_hash IS NOT NULL AS is_password_set, u.organization_type,
           u.organization_id, u.user_type, u.provider_info, u.send_user_unlock_requests, u.failed_login_count, u.avatar,
           CASE u.organization_type WHEN 'Facility' THEN f.name WHEN 'Group' THEN g.name ELSE itp.name END AS org_name,
           COALESCE((SELECT json_agg(json_build_object('id', d.id, 'name', d.name) ORDER BY d.name)
                       FROM user_divisions ud JOIN divisions d ON d.id = ud.division_id WHERE ud.user_id = u.id), '[]') AS divisions
      FROM users u
      LEFT JOIN facilities f ON u.organization_type = 'Facility' AND f.id = u.organization_id
      LEFT JOIN group_organizations g ON u.organization_type = 'Group' AND g.id = u.organization_id
      LEFT JOIN LATERAL (SELECT name FROM itp_organization ORDER BY id LIMIT 1) itp ON true
    ${where}) u ORDER BY lower(u.first_name) ASC, lower(u.last_name) ASC, u.id ASC LIMIT $${n + 2} OFFSET $${n + 3}`;
  return [
    { sql: page, params: [like, ...organizationTypes, limit, offset] },
    { sql: `SELECT count(*)::int AS total FROM users u ${where}`, params: [like, ...organizationTypes] },
  ];
}

const fmt = formatLoad;

async function main() {
  const { accessToken } = await signInAs(UserType.ItpAdmin);
  const users = { nameOrEmail: 'john', organizationTypes: ['Facility'], enabledOnly: true };
  const auditText = 'smith';
  // The audit SQL is built once, with the same clock the API uses per request (the last day up to now).
  const now = Date.now();
  const auditPage = (filter: Record<string, unknown>) => [
    auditLogPageSql({ filter, scope: { facilityId: null }, sortField: 'performedAt', sortOrder: 'DESC', offset: 0, limit: 25 }, now),
    auditLogCountSql(filter, { facilityId: null }, now),
  ];
  const cases: Case[] = [
    {
      title: `GET /api/user — 10,000 bench users; name/e-mail "${users.nameOrEmail}", facility staff, enabled only; default sort; page of 25 + total`,
      path: `/api/user?sort=${enc(['fullName', 'ASC'])}&range=${enc([0, 24])}&filter=${enc(users)}`,
      sql: usersSql(users.nameOrEmail, users.organizationTypes, 0, 25),
    },
    {
      title: 'GET /api/audit-log — 1,000,000 bench entries over 90 days; default range (last day), newest first; page of 25 + total',
      path: `/api/audit-log?sort=${enc(['performedAt', 'DESC'])}&range=${enc([0, 24])}`,
      sql: auditPage({}),
    },
    {
      title: `GET /api/audit-log — same, with the user text filter "${auditText}"`,
      path: `/api/audit-log?sort=${enc(['performedAt', 'DESC'])}&range=${enc([0, 24])}&filter=${enc({ user: auditText })}`,
      sql: auditPage({ user: auditText }),
    },
  ];

  const verdicts: Array<[string, boolean]> = [];
  for (const c of cases) {
    const url = new URL(API_URL + c.path);
    const first = await fetch(url, { headers: { authorization: `Bearer ${accessToken}` } });
    const apiTotal = first.headers.get('content-range')?.split('/')[1];
    const check = new Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
    const sqlTotal = (await check.query(c.sql[1].sql, c.sql[1].params)).rows[0].total;
    await check.end();
    console.log(`\n${c.title}\nGET ${url.pathname}${url.search}\n  → ${first.status}, Content-Range: ${first.headers.get('content-range')}; bare SQL total ${sqlTotal}`);
    // The audit window (the last day) moves while the bench runs: an entry every ~8 s leaves it.
    if (first.status !== 200 || Math.abs(Number(sqlTotal) - Number(apiTotal)) > Math.max(0, Number(sqlTotal) * 0.01)) {
      console.log('  the API and the bare SQL disagree: skipped');
      verdicts.push([`${c.title.split(' — ')[0]}: API and bare SQL agree`, false]);
      continue;
    }
    const runSql = (pool: Pool) => async () => {
      for (const q of c.sql) await pool.query(q.sql, q.params);
    };
    for (const concurrency of [1, 32]) {
      const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
      const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: concurrency });
      await runLoad(() => getListPage(agent, url, accessToken), concurrency, 2); // warm-up
      const api = await runLoad(() => getListPage(agent, url, accessToken), concurrency, SECONDS);
      await runLoad(runSql(pool), concurrency, 2);
      const sql = await runLoad(runSql(pool), concurrency, SECONDS);
      agent.destroy();
      await pool.end();
      console.log(`  API      ${fmt(api)}`);
      console.log(`  bare SQL ${fmt(sql)}`);
      console.log(`  ratio    throughput API/SQL ${(api.rps / sql.rps).toFixed(2)}, p95 API/SQL ${(api.p95 / sql.p95).toFixed(2)} (${concurrency} clients)`);
      if (concurrency === 32) verdicts.push([`${c.title.split(' — ')[0]} ${c.sql === cases[2].sql ? '(text filter) ' : ''}API p95 < ${TARGET_P95_MS} ms at 32 clients (${api.p95.toFixed(1)} ms)`, api.p95 < TARGET_P95_MS]);
    }
  }
  const [l1, l5, l15] = os.loadavg();
  console.log(`\nMachine: ${os.cpus().length} cores, load average ${l1.toFixed(2)} ${l5.toFixed(2)} ${l15.toFixed(2)} (1/5/15 min) at the end`);
  console.log('\nTargets');
  for (const [what, ok] of verdicts) console.log(`  ${ok ? 'met    ' : 'MISSED '} ${what}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
