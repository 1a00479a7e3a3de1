/**
 * Placement benchmark (issue 5), over the bench facilities' referring divisions, 100,000 cases
 * and 5,000,000 call entries:
 * - task generation for one case (POST generate/{caseId}) p95 < 100 ms at 4 clients (was 200 ms);
 * - submitting a call log of 20 rows at 16 concurrent coordinators p95 < 150 ms, with every entry
 *   counted afterwards (zero lost);
 * - the calls card query p95 < 50 ms at 32 clients;
 * - 10,000 pending callback timers fire within 2 s of their due time.
 * Run by `npm run bench`, or alone with API_URL, DATABASE_URL and TEMPORAL_ADDRESS set.
 */
import http from 'http';
import { Client as PgClient } from 'pg';
import { Client, Connection } from '@temporalio/client';
import { PLACEMENT_CASE_STATUSES, UserType } from '@crisis/forms';
import { connectionOptions, setCallbackTimer, temporalEnv } from '@crisis/workflows';
import { seedBenchCases } from '../../seed/src/bench-cases';
import { BENCH_COORDINATORS, TASKS_PER_CASE, coordinatorEmail, seedBenchPlacement } from '../../seed/src/bench-placement';
import { signIn, signInAs } from '../support/oidc-client';
import { runLoad, formatLoad } from './load';

const API_URL = process.env.API_URL ?? 'http://127.0.0.1:3200';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const TIMERS = Number(process.env.BENCH_TIMERS ?? 10000);

function call(agent: http.Agent, method: string, url: string, token: string, body?: unknown): Promise<any> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      new URL(url, API_URL),
      { method, agent, headers: { authorization: `Bearer ${token}`, ...(data ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {}) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => (res.statusCode === 200 ? resolve(text ? JSON.parse(text) : null) : reject(new Error(`HTTP ${res.statusCode} ${text.slice(0, 200)}`))));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

const fmt = formatLoad;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function main() {
  const db = new PgClient({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  let t0 = Date.now();
  const cases = await seedBenchCases(db);
  const placement = await seedBenchPlacement(db);
  console.log(`bench placement: ${cases.cases} cases, ${placement.calls} call entries (${placement.seeded ? `seeded in ${((Date.now() - t0) / 1000).toFixed(0)} s` : 'already there'})`);
  const refs = await db.query(`SELECT count(*)::int AS n FROM divisions WHERE type = 'Referring' AND is_active`);
  console.log(`  ${refs.rows[0].n} active referring divisions`);
  const verdicts: Array<[string, boolean]> = [];
  const itp = (await signInAs(UserType.ItpUser)).accessToken;

  // 1. Task generation on cases being placed.
  {
    const open = (
      await db.query(
        `SELECT c.id FROM cases c JOIN patients p ON p.id = c.patient_id
          WHERE p.last_name LIKE 'Bench%' AND c.status = 'LocatingServices_ContactingServiceOrganization' ORDER BY c.id LIMIT 400`,
      )
    ).rows.map((r) => r.id as number);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    let i = 0;
    const r = await runLoad(() => call(agent, 'POST', `/api/placement-tasks/generate/${open[i++ % open.length]}`, itp, { notes: 'bench' }), 4, SECONDS);
    console.log(`\nPOST /api/placement-tasks/generate/{caseId} (matching + ranking + insert through the case workflow)\n  ${fmt(r)}`);
    verdicts.push(['task generation p95 < 100 ms at 4 clients', r.p95 < 100]);
    agent.destroy();
  }

  // 2. Submitting call logs of 20 rows, 16 coordinators on 16 divisions.
  {
    const tokens = await Promise.all(Array.from({ length: BENCH_COORDINATORS }, (_, k) => signIn({ email: coordinatorEmail(k + 1), password: 'Demo1234!' }).then((s) => s.accessToken)));
    const agent = new http.Agent({ keepAlive: true, maxSockets: BENCH_COORDINATORS });
    const lanes: Array<{ token: string; claimId: number; taskIds: number[] }> = [];
    for (const [k, divisionId] of placement.hotDivisions.entries()) {
      await db.query(`UPDATE claims SET released_at = now(), release_reason = 'released' WHERE object_type = 'PlacementTask' AND object_id = $1 AND released_at IS NULL`, [String(divisionId)]);
      const claim = await call(agent, 'POST', `/api/placement-tasks/division/${divisionId}/claim`, tokens[k], {});
      const log = await call(agent, 'GET', `/api/placement-tasks/claim/${claim.claimId}`, tokens[k]);
      lanes.push({ token: tokens[k], claimId: claim.claimId, taskIds: log.tasks.slice(0, 20).map((t: any) => t.id) });
    }
    const short = lanes.filter((l) => l.taskIds.length < 20).length;
    if (short) console.log(`  note: ${short} division(s) have fewer than 20 open tasks`);
    const started = new Date();
    const busy = new Array<boolean>(lanes.length).fill(false);
    let ok = 0;
    const r = await runLoad(async () => {
      const k = busy.findIndex((b) => !b);
      busy[k] = true;
      try {
        const lane = lanes[k];
        await call(agent, 'PUT', `/api/placement-tasks/claim/${lane.claimId}/calls`, lane.token, {
          calls: lane.taskIds.map((id) => ({ placementTaskId: id, result: 'NoAnswer', note: 'bench' })),
        });
        ok += lane.taskIds.length;
      } finally {
        busy[k] = false;
      }
    }, lanes.length, SECONDS);
    const counted = await db.query(`SELECT count(*)::int AS n FROM placement_calls WHERE created_at >= $1 AND note = 'bench' AND claim_id = ANY($2::bigint[])`, [
      started,
      lanes.map((l) => l.claimId),
    ]);
    console.log(`\nPUT /api/placement-tasks/claim/{id}/calls (20 rows each, ${lanes.length} coordinators)\n  ${fmt(r)}`);
    console.log(`  entries acknowledged ${ok}, entries in the database ${counted.rows[0].n}: ${ok === counted.rows[0].n ? 'none lost' : 'MISMATCH'}`);
    verdicts.push(['call log submit p95 < 150 ms at 16 coordinators', r.p95 < 150 && r.errors === 0]);
    verdicts.push(['zero lost call entries', ok === counted.rows[0].n]);
    for (const lane of lanes) await call(agent, 'PUT', `/api/placement-tasks/claim/${lane.claimId}/release`, lane.token).catch(() => undefined);
    agent.destroy();
  }

  // 3. The calls card.
  {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
    const url = `/api/placement-tasks/division/group?range=${encodeURIComponent('[0,5]')}&filter=${encodeURIComponent('{"withinTwoHours":true}')}`;
    await runLoad(() => call(agent, 'GET', url, itp), 32, 2);
    const r = await runLoad(() => call(agent, 'GET', url, itp), 32, SECONDS);
    console.log(`\nGET /api/placement-tasks/division/group (calls card, within two hours, page of 6)\n  ${fmt(r)}`);
    verdicts.push(['calls card p95 < 50 ms at 32 clients', r.p95 < 50]);
    agent.destroy();
  }

  // 4. 10,000 pending callback timers.
  {
    const env = temporalEnv();
    const connection = await Connection.connect(connectionOptions(env));
    const client = new Client({ connection, namespace: env.namespace });
    // A callback fires only for a case being placed (markCallbackDue reads the case under lock).
    // The bench cases are mostly closed: enough of them are put back in placement for the
    // measurement, and closed again after it.
    const pick = async () =>
      (
        await db.query(
          `SELECT t.id FROM placement_tasks t JOIN cases c ON c.id = t.case_id WHERE c.status = ANY($2::text[]) ORDER BY t.id LIMIT $1`,
          [TIMERS, PLACEMENT_CASE_STATUSES],
        )
      ).rows.map((r) => r.id as number);
    let tasks = await pick();
    const reopened: number[] = [];
    if (tasks.length < TIMERS) {
      const { rows: back } = await db.query(
        `UPDATE cases SET status = 'LocatingServices_ContactingServiceOrganization'
          WHERE id IN (SELECT c.id FROM cases c WHERE c.status = 'Closed' AND EXISTS (SELECT 1 FROM placement_tasks t WHERE t.case_id = c.id)
                        ORDER BY c.id LIMIT $1)
          RETURNING id`,
        [Math.ceil((TIMERS - tasks.length) / TASKS_PER_CASE) + 10],
      );
      reopened.push(...back.map((r) => r.id as number));
      tasks = await pick();
    }
    try {
      const firstDue = Date.now() + 90_000 + tasks.length * 6; // after every timer is set
      const dueOf = (i: number) => new Date(firstDue + Math.floor((i * 60_000) / tasks.length)).toISOString();
      await db.query(
        `UPDATE placement_tasks t SET callback_at = x.at::timestamptz, due_at = NULL
           FROM jsonb_to_recordset($1::jsonb) AS x(id int, at text) WHERE t.id = x.id`,
        [JSON.stringify(tasks.map((id, i) => ({ id, at: dueOf(i) })))],
      );
      t0 = Date.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: 32 }, async () => {
          while (next < tasks.length) {
            const i = next++;
            await setCallbackTimer(client, tasks[i], dueOf(i));
          }
        }),
      );
      console.log(`\n${tasks.length} callback timers set in ${((Date.now() - t0) / 1000).toFixed(1)} s; due over one minute from ${new Date(firstDue).toISOString()}`);
      const deadline = firstDue + 60_000 + 60_000;
      for (;;) {
        const { rows } = await db.query('SELECT count(*)::int AS n FROM placement_tasks WHERE id = ANY($1::int[]) AND due_at IS NOT NULL', [tasks]);
        if (rows[0].n === tasks.length || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 2000));
      }
      const { rows } = await db.query(
        `SELECT extract(epoch FROM (due_at - callback_at)) * 1000 AS late FROM placement_tasks WHERE id = ANY($1::int[]) AND due_at IS NOT NULL`,
        [tasks],
      );
      const late = rows.map((r) => Number(r.late));
      console.log(
        `  fired ${late.length} of ${tasks.length}; lateness p50 ${pct(late, 50)?.toFixed(0)} ms, p95 ${pct(late, 95)?.toFixed(0)} ms, ` +
          `p99 ${pct(late, 99)?.toFixed(0)} ms, max ${Math.max(...late).toFixed(0)} ms`,
      );
      verdicts.push(['10,000 timers: every one fires, p99 lateness ≤ 2 s', late.length === tasks.length && (pct(late, 99) ?? Infinity) <= 2000]);
      await db.query('UPDATE placement_tasks SET callback_at = NULL, due_at = NULL WHERE id = ANY($1::int[])', [tasks]);
    } finally {
      if (reopened.length) await db.query(`UPDATE cases SET status = 'Closed' WHERE id = ANY($1::int[])`, [reopened]);
    }
    await connection.close();
  }

  console.log('\nTargets');
  for (const [what, ok] of verdicts) console.log(`  ${ok ? 'met    ' : 'MISSED '} ${what}`);
  await db.end();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
