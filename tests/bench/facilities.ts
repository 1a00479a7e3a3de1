/**
 * Benchmark of GET /api/facilities (a page of 25, filtered and sorted, with its total) at 1 and 32
 * concurrent clients, beside the same SQL issued directly through pg by the same load generator.
 * Run by `npm run bench` (scripts/bench.mjs starts a throw-away stack and seeds 10,000 facilities).
 */
import http from 'http';
import { Pool } from 'pg';
import { UserType } from '@crisis/forms';
import { buildFacilityListQuery } from '../../api/src/facilities/facility-list.query';
import { signInAs } from '../support/oidc-client';
import { runLoad, formatLoad, getListPage } from './load';
import { stackMemory } from './processes';

const API_URL = process.env.API_URL ?? 'http://127.0.0.1:3200';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const filter = { showActiveOnly: true, states: ['FL', 'GA', 'TX'], q: 'health' };
const sort: [string, 'ASC' | 'DESC'] = ['name', 'ASC'];
const range: [number, number] = [25, 49];

const fmt = formatLoad;

async function main() {
  const memoryIdle = stackMemory();
  const { accessToken } = await signInAs(UserType.ItpAdmin);
  const url = new URL(
    `${API_URL}/api/facilities?sort=${encodeURIComponent(JSON.stringify(sort))}&range=${encodeURIComponent(JSON.stringify(range))}&filter=${encodeURIComponent(JSON.stringify(filter))}`,
  );
  const first = await fetch(url, { headers: { authorization: `Bearer ${accessToken}` } });
  console.log(`GET ${url.pathname}${url.search}\n  → ${first.status}, Content-Range: ${first.headers.get('content-range')}`);

  const { sql, params } = buildFacilityListQuery({ filter, sortField: sort[0], sortOrder: sort[1], offset: range[0], limit: range[1] - range[0] + 1 });
  const results: Record<string, { api: LoadResult; sql: LoadResult }> = {};
  for (const concurrency of [1, 32]) {
    const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
    const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: concurrency });
    await runLoad(() => getListPage(agent, url, accessToken), concurrency, 2); // warm-up
    const apiResult = await runLoad(() => getListPage(agent, url, accessToken), concurrency, SECONDS);
    await runLoad(async () => void (await pool.query(sql, params)), concurrency, 2);
    const sqlResult = await runLoad(async () => void (await pool.query(sql, params)), concurrency, SECONDS);
    results[concurrency] = { api: apiResult, sql: sqlResult };
    agent.destroy();
    await pool.end();
  }
  await new Promise((r) => setTimeout(r, 5000));
  const memoryAfter = stackMemory();

  console.log('\nGET /api/facilities, page of 25 with filters, sort and total, 10,000 facilities');
  for (const [c, { api, sql }] of Object.entries(results)) {
    console.log(`  API      ${fmt(api)}`);
    console.log(`  bare SQL ${fmt(sql)}`);
    console.log(`  ratio    throughput API/SQL ${(api.rps / sql.rps).toFixed(2)}, p95 API/SQL ${(api.p95 / sql.p95).toFixed(2)} (${c} clients)`);
  }
  const total = (m: ReturnType<typeof stackMemory>, k: 'rssMb' | 'pssMb') => Object.values(m).reduce((s, g) => s + g[k], 0);
  console.log('\nResident memory of the stack (MB; PSS splits shared pages, RSS counts them in every process)');
  for (const [name, m] of [['idle before load', memoryIdle], ['idle after load', memoryAfter]] as const) {
    const parts = Object.entries(m).map(([g, v]) => `${g} ${v.pssMb.toFixed(0)}`).join(', ');
    console.log(`  ${name}: PSS ${total(m, 'pssMb').toFixed(0)} MB (${parts}); RSS sum ${total(m, 'rssMb').toFixed(0)} MB`);
  }
  const at32 = results['32'];
  const verdicts = [
    [`API keeps ≥ 50% of bare SQL throughput at 32 clients`, at32.api.rps / at32.sql.rps >= 0.5],
    [`API p95 < 50 ms at 32 clients`, at32.api.p95 < 50],
    [`stack idles under 1.5 GB (PSS)`, total(memoryAfter, 'pssMb') < 1536],
  ] as const;
  console.log('\nTargets');
  for (const [what, ok] of verdicts) console.log(`  ${ok ? 'met    ' : 'MISSED '} ${what}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
