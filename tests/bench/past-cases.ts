/**
 * Past-cases benchmark (spec 02 §2 "Past cases"): over the bench world's 100,000 cases (topped up
 * so at least 100,000 are closed),
 * - the default page and each filter at 32 clients (target p95 < 50 ms);
 * - the CSV of every closed case, streamed: rows, bytes, time, and the API's resident memory
 *   sampled every 50 ms during the download (target: growth < 50 MB).
 * Run by `npm run bench` (scripts/bench.mjs), or alone with API_URL and DATABASE_URL set.
 */
import http from 'http';
import { execSync } from 'child_process';
import fs from 'fs';
import { Client } from 'pg';
import { UserType, type PastCaseFilter } from '@crisis/forms';
import { seedBenchCases } from '../../seed/src/bench-cases';
import { signInAs } from '../support/oidc-client';
import { runLoad, formatLoad } from './load';

const API_URL = process.env.API_URL ?? 'http://127.0.0.1:3200';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CLOSED_TARGET = 100_000;

function get(agent: http.Agent, url: URL, token: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The bench stack's API process (this checkout's api/dist/main.js, listening on API_URL's port). */
function apiPid(): number {
  const port = new URL(API_URL).port;
  const listening = execSync('ss -ltnpH', { encoding: 'utf8' }).split('\n').find((l) => new RegExp(`:${port}\\s`).test(l));
  const pid = /pid=(\d+)/.exec(listening ?? '')?.[1];
  if (!pid) throw new Error(`no process listens on port ${port}`);
  return Number(pid);
}
/** Resident memory in MB (0 once the process is gone). */
function rssMb(pid: number): number {
  try {
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

async function main() {
  const db = new Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  await seedBenchCases(db);
  // At least 100,000 closed cases: copies of closed bench cases (a closed case may share its patient).
  const [{ closed }] = (await db.query(`SELECT count(*)::int AS closed FROM cases WHERE status = 'Closed'`)).rows;
  if (closed < CLOSED_TARGET) {
    await db.query(
      `INSERT INTO cases (patient_id, status, source_facility_id, source_division_id, contact_phone_number, main_recommendation, criteria,
                          created_at, status_changed_at, closed_at, outcome_type, locating_services_seconds)
       SELECT patient_id, 'Closed', source_facility_id, source_division_id, contact_phone_number, main_recommendation, criteria,
              created_at - interval '1 year', status_changed_at, closed_at - interval '1 year', outcome_type, locating_services_seconds
         FROM cases WHERE status = 'Closed' ORDER BY id LIMIT $1`,
      [CLOSED_TARGET - closed],
    );
  }
  // Some outcomes name the receiving facility, as closed placements do.
  await db.query(
    `UPDATE cases c SET outcome_referring_division_id = d.id
       FROM (SELECT id, row_number() OVER (ORDER BY id) AS n, count(*) OVER () AS k FROM divisions WHERE type = 'Referring') d
      WHERE c.status = 'Closed' AND c.outcome_referring_division_id IS NULL AND c.id % 3 = 0 AND d.n = 1 + c.id % d.k`,
  );
  await db.query('VACUUM (ANALYZE) cases, patients');
  const [{ n: closedNow }] = (await db.query(`SELECT count(*)::int AS n FROM cases WHERE status = 'Closed'`)).rows;
  const referring = (await db.query(`SELECT facility_id AS id FROM divisions WHERE type = 'Referring' ORDER BY id LIMIT 2`)).rows.map((r) => r.id as number);
  const patient = (await db.query(`SELECT p.last_name FROM cases c JOIN patients p ON p.id = c.patient_id WHERE c.status = 'Closed' ORDER BY c.id DESC LIMIT 1`)).rows[0].last_name as string;
  console.log(`bench past cases: ${closedNow} closed cases`);

  const itp = (await signInAs(UserType.ItpUser)).accessToken;
  const group = (await signInAs(UserType.GroupUser)).accessToken;
  const today = new Date();
  const daysAgo = (n: number) => new Date(today.getTime() - n * 86_400_000).toISOString().slice(0, 10);
  const searches: Array<[string, string, PastCaseFilter]> = [
    ['default page (closed, newest first)', itp, {}],
    ['patient or case text', itp, { patientOrCase: patient }],
    ['case number', itp, { patientOrCase: '#000042' }],
    ['from and to (last 30 days)', itp, { from: daysAgo(30), to: daysAgo(0) }],
    ['referring facilities', itp, { referringFacilityIds: referring }],
    ['outcomes', itp, { outcomes: ['LeftAMA', 'NoServiceProvided'] }],
    ['active cases only, 24 hours', itp, { activeOnly: true, activeCaseHours: 24 }],
    ['group user, default page', group, {}],
    ['group user, counties', group, { counties: ['Duval County'] }],
  ];
  const verdicts: Array<[string, boolean]> = [];
  for (const [label, token, filter] of searches) {
    const url = new URL(`${API_URL}/api/cases/past?range=${encodeURIComponent('[0,24]')}&filter=${encodeURIComponent(JSON.stringify(filter))}`);
    const first = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
    await runLoad(() => get(agent, url, token), 32, 2);
    const r = await runLoad(() => get(agent, url, token), 32, SECONDS);
    agent.destroy();
    console.log(`\nGET /api/cases/past — ${label} → ${first.status}, Content-Range: ${first.headers.get('content-range')}\n  ${formatLoad(r)}`);
    verdicts.push([`past cases p95 < 50 ms at 32 clients: ${label}`, r.p95 < 50]);
  }

  // The CSV of every closed case, read to the end while the API's memory is sampled.
  const admin = (await signInAs(UserType.ItpAdmin)).accessToken;
  const pid = apiPid();
  global.gc?.();
  await new Promise((r) => setTimeout(r, 1000));
  const before = rssMb(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
  const t0 = Date.now();
  const res = await fetch(`${API_URL}/api/cases/past/csv`, { headers: { authorization: `Bearer ${admin}` } });
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const b of chunk) if (b === 10) lines++;
  }
  clearInterval(sampler);
  const seconds = (Date.now() - t0) / 1000;
  const growth = peak - before;
  console.log(
    `\nGET /api/cases/past/csv (every closed case) → ${res.status}: ${lines - 1} rows, ${(bytes / 1048576).toFixed(1)} MB in ${seconds.toFixed(1)} s` +
      ` (${Math.round((lines - 1) / seconds)} rows/s); API RSS ${before.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB (growth ${growth.toFixed(1)} MB)`,
  );
  verdicts.push([`CSV of ${lines - 1} rows streamed with API RSS growth < 50 MB`, res.status === 200 && lines - 1 >= CLOSED_TARGET && growth < 50]);

  console.log('\nTargets:');
  for (const [what, ok] of verdicts) console.log(`  ${ok ? 'met   ' : 'MISSED'} ${what}`);
  await db.end();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
