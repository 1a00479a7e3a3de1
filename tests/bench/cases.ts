/**
 * Case-domain benchmark (issue 4): with 100,000 cases and 1,000,000 activity rows seeded,
 * - the ITP case list (status + recommendation filter, default sort, page of 25) at 1 and 32 clients;
 * - the full case page payload (GET /api/cases/{id}) at 32 clients over the open cases;
 * - a status change through the case workflow (PUT /api/cases/{id}/status, a Temporal Update
 *   round trip) at 8 concurrent coordinators, each toggling its own case between recommendation
 *   review and contacting.
 * Run by `npm run bench` (scripts/bench.mjs), or alone with API_URL and DATABASE_URL set.
 */
import http from 'http';
import { Client } from 'pg';
import { REQUEST_QUEUE_PAGE_SIZE, UserType } from '@crisis/forms';
import { seedBenchCases } from '../../seed/src/bench-cases';
import { signInAs } from '../support/oidc-client';
import { runLoad, formatLoad } from './load';

const API_URL = process.env.API_URL ?? 'http://127.0.0.1:3200';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

function request(agent: http.Agent, method: string, url: URL, token: string, body?: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      url,
      { method, agent, headers: { authorization: `Bearer ${token}`, ...(data ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {}) } },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

const fmt = formatLoad;

async function main() {
  const db = new Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  const t0 = Date.now();
  const seeded = await seedBenchCases(db);
  console.log(`bench cases: ${seeded.cases} cases, ${seeded.activities} activity rows (${seeded.seeded ? `seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s` : 'already there'})`);
  // The other benches' cases (test patients 'Journey') stay open after their runs and pile up in the
  // statuses this list filters on: 2,838 of them after a few dozen runs, the list matching 3,038
  // cases instead of about 650. The list is measured on the seeded world: they are closed first.
  const leftovers = await db.query(
    `UPDATE cases SET status = 'Closed', closed_at = now(), status_changed_at = now(), outcome_type = 'LeftAMA'
      WHERE status <> 'Closed' AND patient_id IN (SELECT id FROM patients WHERE last_name = 'Journey')`,
  );
  if (leftovers.rowCount) console.log(`closed ${leftovers.rowCount} cases earlier benches left open`);
  // As autovacuum keeps a live database: the visibility map lets the list read its index alone.
  await db.query('VACUUM (ANALYZE) cases, requests, case_activities');
  const { accessToken } = await signInAs(UserType.ItpUser);
  const verdicts: Array<[string, boolean]> = [];

  // 1. The ITP case list.
  const filter = { status: ['PendingAssignment_DocumentationReview', 'LocatingServices_ContactingServiceOrganization', 'RecommendationReview_WaitingOnDecision'], mainRecommendation: ['MentalHealthInpatient', 'CrisisCenter'] };
  const listUrl = new URL(`${API_URL}/api/cases?sort=${encodeURIComponent('["timeElapsed","DESC"]')}&range=${encodeURIComponent('[0,24]')}&filter=${encodeURIComponent(JSON.stringify(filter))}`);
  const first = await fetch(listUrl, { headers: { authorization: `Bearer ${accessToken}` } });
  console.log(`\nGET /api/cases (ITP list, filtered, default sort) → ${first.status}, Content-Range: ${first.headers.get('content-range')}`);
  for (const c of [1, 32]) {
    const agent = new http.Agent({ keepAlive: true, maxSockets: c });
    await runLoad(() => request(agent, 'GET', listUrl, accessToken), c, 2);
    const r = await runLoad(() => request(agent, 'GET', listUrl, accessToken), c, SECONDS);
    console.log(`  ${fmt(r)}`);
    if (c === 32) verdicts.push(['ITP case list p95 < 50 ms at 32 clients', r.p95 < 50]);
    agent.destroy();
  }

  // 1b. The ITP queue (spec 02 §2): its default page of 6, longest waiting first, as the
  // coordinators on shift keep it open (8) and at the list benches' 32.
  const queueUrl = new URL(`${API_URL}/api/requests/itp-queue?sort=${encodeURIComponent('["timeElapsed","DESC"]')}&range=${encodeURIComponent(`[0,${REQUEST_QUEUE_PAGE_SIZE.itp - 1}]`)}`);
  const queued = await fetch(queueUrl, { headers: { authorization: `Bearer ${accessToken}` } });
  console.log(`\nGET /api/requests/itp-queue (default page) → ${queued.status}, Content-Range: ${queued.headers.get('content-range')}`);
  for (const c of [1, 8, 32]) {
    const agent = new http.Agent({ keepAlive: true, maxSockets: c });
    await runLoad(() => request(agent, 'GET', queueUrl, accessToken), c, 2);
    const r = await runLoad(() => request(agent, 'GET', queueUrl, accessToken), c, SECONDS);
    console.log(`  ${fmt(r)}`);
    if (c === 8) verdicts.push(['ITP queue p95 < 30 ms at 8 coordinators', r.p95 < 30]);
    agent.destroy();
  }

  // 2. The case page payload over the open cases.
  const open = (await db.query(`SELECT id FROM cases WHERE status <> 'Closed' ORDER BY id LIMIT 2000`)).rows.map((r) => r.id as number);
  let i = 0;
  {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
    const next = () => new URL(`${API_URL}/api/cases/${open[i++ % open.length]}`);
    await runLoad(() => request(agent, 'GET', next(), accessToken), 32, 2);
    const r = await runLoad(() => request(agent, 'GET', next(), accessToken), 32, SECONDS);
    console.log(`\nGET /api/cases/{id} (case page payload, ${open.length} open cases)\n  ${fmt(r)}`);
    verdicts.push(['case page payload p95 < 50 ms at 32 clients', r.p95 < 50]);
    agent.destroy();
  }

  // 3. Status changes through the workflow: 8 coordinators, each on its own case.
  const candidates = (
    await db.query(`SELECT id, status FROM cases WHERE status IN ('RecommendationReview_WaitingOnDecision', 'LocatingServices_ContactingServiceOrganization') ORDER BY id LIMIT 40`)
  ).rows as Array<{ id: number; status: string }>;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const lanes: Array<{ id: number; status: string }> = [];
  // Each concurrent client toggles its own case (two on one case would race on expectedStatus).
  const perLane = (k: number) => async () => {
    const lane = lanes[k];
    const toContacting = lane.status === 'RecommendationReview_WaitingOnDecision';
    const body = toContacting
      ? { status: 'LocatingServices_ContactingServiceOrganization', mainRecommendation: 'MentalHealthInpatient', criteria: [], includeOutOfStateFacilities: false, expectedStatus: lane.status }
      : { status: 'RecommendationReview_WaitingOnDecision', note: 'Bench review', expectedStatus: lane.status };
    await request(agent, 'PUT', new URL(`${API_URL}/api/cases/${lane.id}/status`), accessToken, body);
    lane.status = body.status;
  };
  // Warm-up starts each case's workflow (update-with-start). The production profile's Temporal
  // keeps its workflows between runs while the dev profile's runs change the same database, so a
  // kept workflow may know another status than the case row and refuse (409): such a case is
  // left out, the next one taken.
  let refused = 0;
  for (const c of candidates) {
    if (lanes.length === 8) break;
    lanes.push({ ...c });
    await perLane(lanes.length - 1)().catch(() => {
      lanes.pop();
      refused++;
    });
  }
  if (refused) console.log(`  ${refused} case${refused > 1 ? 's' : ''} left out: ${refused > 1 ? 'their workflows' : 'its workflow'} refused the first change`);
  const r = await runLoad(laneTaskSerialPerLane(lanes.length, perLane), lanes.length, SECONDS);
  console.log(`\nPUT /api/cases/{id}/status (Temporal Update round trip, ${lanes.length} coordinators)\n  ${fmt(r)}`);
  verdicts.push(['status change p95 < 150 ms at 8 coordinators', r.p95 < 150 && r.errors === 0]);
  agent.destroy();

  console.log('\nTargets');
  for (const [what, ok] of verdicts) console.log(`  ${ok ? 'met    ' : 'MISSED '} ${what}`);
  await db.end();
}

/**
 * runLoad runs `concurrency` loops over one task; each loop must stay on its own case (two loops
 * on one case would race on expectedStatus). Hands each loop a lane the first time it calls.
 */
function laneTaskSerialPerLane(n: number, perLane: (k: number) => () => Promise<void>): () => Promise<void> {
  const busy = new Array<boolean>(n).fill(false);
  return async () => {
    const k = busy.findIndex((b) => !b);
    busy[k] = true;
    try {
      await perLane(k)();
    } finally {
      busy[k] = false;
    }
  };
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
