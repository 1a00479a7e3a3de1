/**
 * Benchmark of the two big admin lists at 1 and 32 concurrent clients, each beside the same SQL
 * issued directly through pg by the same load generator (as tests/bench/facilities.ts does):
 * - GET /api/user (the users list; 10,000 bench users): a name/e-mail search plus organisation-type
 *   and enabled filters, default sort (full name), a page of 25 with its total;
 * - GET /api/audit-log (1,000,000 bench entries over 90 days): the default range (the last day,
 *   newest first) and the same with the user text filter, a page of 25 with its total.
 * Then the floor under them: GET /api/health and a bare SELECT 1 at 32 clients.
 * Run by `npm run bench` after seed/dist/bench-lists.js. BENCH_SECONDS sets each run's length.
 */
import http from 'http';
import os from 'os';
import { Pool } from 'pg';
import { UserType } from '@crisis/forms';
import { auditLogPageSql } from '../../api/src/audit/audit-log.query';
import { userListSql } from '../../api/src/users/users-list.query';
import { signInAs } from '../support/oidc-client';
import { runLoad, formatLoad, getListPage } from './load';

const API_URL = process.env.API_URL ?? 'http://127.0.0.1:3200';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const TARGET_P95_MS = 50;
const enc = (v: unknown) => encodeURIComponent(JSON.stringify(v));

interface Case {
  title: string;
  path: string;
  /** The statements the API runs for this call (the page, then the total when counted apart), with their parameters; the last one's first row has `total`. */
  sql: Array<{ sql: string; params: unknown[] }>;
}

const fmt = formatLoad;

async function main() {
  const { accessToken } = await signInAs(UserType.ItpAdmin);
  const users = { nameOrEmail: 'john', organizationTypes: ['Facility'], enabledOnly: true };
  const auditText = 'smith';
  // The audit SQL is built once, with the same clock the API uses per request (the last day up to now).
  const now = Date.now();
  // AuditLogService.list's one statement: the page, each row with the total counted up to the cap.
  const auditPage = (filter: Record<string, unknown>) => [
    auditLogPageSql({ filter, scope: { facilityId: null }, sortField: 'performedAt', sortOrder: 'DESC', offset: 0, limit: 25 }, now),
  ];
  const cases: Case[] = [
    {
      title: `GET /api/user — 10,000 bench users; name/e-mail "${users.nameOrEmail}", facility staff, enabled only; default sort; page of 25 + total`,
      path: `/api/user?sort=${enc(['fullName', 'ASC'])}&range=${enc([0, 24])}&filter=${enc(users)}`,
      // UsersService.list's one statement: the page, each row with the total.
      sql: [userListSql({ filter: users, sortField: 'fullName', sortOrder: 'ASC', offset: 0, limit: 25 }, {})],
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
    const counted = (await check.query(c.sql[c.sql.length - 1].sql, c.sql[c.sql.length - 1].params)).rows[0];
    const sqlTotal = counted?.total;
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
  // The floor under every 32-client row on this machine: the API's cheapest answer (no sign-in
  // check, no database) and the database's cheapest statement, through the same load generator.
  // A list whose p95 target is below what these two cost together cannot meet it here.
  {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
    const health = new URL(`${API_URL}/api/health`);
    const getHealth = () =>
      new Promise<void>((resolve, reject) => {
        http.get(health, { agent }, (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
        }).on('error', reject);
      });
    const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 32 });
    await runLoad(getHealth, 32, 2);
    const api = await runLoad(getHealth, 32, SECONDS);
    await runLoad(async () => void (await pool.query('SELECT 1')), 32, 2);
    const sql = await runLoad(async () => void (await pool.query('SELECT 1')), 32, SECONDS);
    agent.destroy();
    await pool.end();
    console.log('\nThe floor at 32 clients: GET /api/health (no sign-in check, no database) and a bare SELECT 1');
    console.log(`  API      ${fmt(api)}`);
    console.log(`  bare SQL ${fmt(sql)}`);
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
