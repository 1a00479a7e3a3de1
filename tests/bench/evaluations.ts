/**
 * Evaluation benchmark (the evaluation issue): 16 providers filling evaluations at once.
 * - autosave: PUT /api/requests/{id}/evaluation, each provider on his own request, sending the
 *   version it got back (the stale-save check runs on every save) — target p95 < 50 ms;
 * - completion: PUT …/evaluation/complete (every rule checked, then the case workflow's Update that
 *   moves the case to recommendation review) on 64 filled evaluations, 16 at a time — target p95 < 200 ms.
 * Run by `npm run bench` (scripts/bench.mjs), or alone with API_URL and DATABASE_URL set.
 */
import http from 'http';
import { performance } from 'perf_hooks';
import { UserType } from '@crisis/forms';
import { answerEverything, createCase, fillEvaluation, tampaDivisions } from '../support/cases';
import { db } from '../support/db';
import { api } from '../support/api';
import { signInAs } from '../support/oidc-client';
import { formatLoad, runLoad } from './load';

const API_URL = process.env.API_URL ?? 'http://127.0.0.1:3200';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PROVIDERS = 16;
const COMPLETIONS = 64;

function put(agent: http.Agent, path: string, token: string, body: unknown): Promise<{ version: number }> {
  return new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const req = http.request(
      new URL(`${API_URL}${path}`),
      { method: 'PUT', agent, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(text)) : reject(new Error(`HTTP ${res.statusCode} ${text.slice(0, 200)}`))));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

async function startedRequests(n: number, coordinator: string, provider: string, providerId: number): Promise<number[]> {
  const tampa = await tampaDivisions();
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = await createCase({ token: coordinator, facilityId: tampa.facilityId, divisionId: tampa.floorId, providerId });
    for (const step of ['in-progress', 'evaluation/start']) {
      const res = await api('PUT', `/api/requests/${c.requestId}/${step}`, { token: provider });
      if (res.status !== 200) throw new Error(`${step}: ${res.status}`);
    }
    ids.push(c.requestId);
  }
  return ids;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main() {
  const coordinator = (await signInAs(UserType.ItpUser)).accessToken;
  const provider = (await signInAs(UserType.ItpProvider)).accessToken;
  const providerId = (await db.query("SELECT id FROM users WHERE email = 'provider@itp.example.org'")).rows[0].id as number;
  const verdicts: Array<[string, boolean]> = [];
  const diagnosis = (await db.query('SELECT code FROM diagnoses ORDER BY code LIMIT 1')).rows[0].code as string;

  // 1. Autosave: each of 16 providers on his own request.
  const lanes = (await startedRequests(PROVIDERS, coordinator, provider, providerId)).map((requestId) => ({ requestId, version: 0, n: 0, busy: false }));
  const view = (await api('GET', `/api/requests/${lanes[0].requestId}/evaluation`, { token: provider })).body;
  const answers = answerEverything(view.form.items);
  const agent = new http.Agent({ keepAlive: true, maxSockets: PROVIDERS });
  const autosave = async () => {
    const lane = lanes.find((l) => !l.busy)!;
    lane.busy = true;
    try {
      // A provider types: one answer changes between saves.
      const saved = await put(agent, `/api/requests/${lane.requestId}/evaluation`, provider, {
        version: lane.version,
        primaryDiagnosisId: diagnosis,
        mainRecommendation: 'MentalHealthInpatient',
        recommendationCriteria: ['HighAcuity'],
        answers: { ...answers, present_illness: `Typed ${++lane.n} characters` },
      });
      lane.version = saved.version;
    } finally {
      lane.busy = false;
    }
  };
  await runLoad(autosave, PROVIDERS, 2);
  const r = await runLoad(autosave, PROVIDERS, SECONDS);
  console.log(`PUT /api/requests/{id}/evaluation (autosave, ${PROVIDERS} providers, ${view.form.items.length} items on the form)\n  ${formatLoad(r)}`);
  verdicts.push([`evaluation autosave p95 < 50 ms at ${PROVIDERS} providers`, r.p95 < 50 && r.errors === 0]);

  // 2. Completion through the case workflow.
  const ready: { requestId: number; body: { sourceDivisionId: number; version: number } }[] = [];
  for (const requestId of await startedRequests(COMPLETIONS, coordinator, provider, providerId))
    ready.push({ requestId, body: await fillEvaluation(provider, requestId) });
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: PROVIDERS }, async () => {
      while (next < ready.length) {
        const item = ready[next++];
        const t0 = performance.now();
        try {
          await put(agent, `/api/requests/${item.requestId}/evaluation/complete`, provider, item.body);
          latencies.push(performance.now() - t0);
        } catch (err) {
          errors++;
          console.error(String(err));
        }
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `\nPUT /api/requests/{id}/evaluation/complete (${COMPLETIONS} evaluations, ${PROVIDERS} at a time, through the case workflow)\n` +
      `  ${(latencies.length / seconds).toFixed(0)} req/s  p50 ${pct(latencies, 50).toFixed(1)} ms  p95 ${pct(latencies, 95).toFixed(1)} ms  p99 ${pct(latencies, 99).toFixed(1)} ms  (${latencies.length} ok, ${errors} errors)`,
  );
  verdicts.push([`evaluation completion p95 < 200 ms at ${PROVIDERS} providers`, pct(latencies, 95) < 200 && errors === 0]);
  agent.destroy();

  console.log('\nTargets');
  for (const [what, ok] of verdicts) console.log(`  ${ok ? 'met    ' : 'MISSED '} ${what}`);
  await db.end();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
