#!/usr/bin/env node
// `npm run bench`: its own stack like `npm test` (database on $BENCH_PGPORT (5435) in .data/bench/pg,
// Temporal in memory on 7253, API on 3200), then:
// - 10,000 synthetic facilities and tests/bench/facilities.ts;
// - 10,000 synthetic users and 1,000,000 audit entries over 90 days, and tests/bench/lists.ts
//   (the users list and the audit log);
// - 100,000 cases and 1,000,000 case activity rows, and tests/bench/cases.ts (case list, case page,
//   status changes through the case workflow);
// - 5 placement tasks and 50 calls per case (5,000,000 call entries), and tests/bench/placement.ts
//   (task generation, call-log submits, the calls card, 10,000 callback timers);
// - tests/bench/evaluations.ts (16 providers autosaving and completing evaluations);
// - tests/bench/notifications.ts (1,000,000 notification rows, the bell's list at 32 clients;
//   1,000 facility alerts started in a burst, each texted once);
// - tests/bench/past-cases.ts (100,000 closed cases: the page and each filter at 32 clients, the
//   streamed CSV of all of them with the API's memory sampled);
// - tests/bench/browser.ts (Chromium with web-vitals: LCP and INP of the dashboard, a case page and
//   the call log, and the dashboard's initial JavaScript).
// The database is kept between runs (BENCH_FRESH=1 starts from an empty one): the seeds are
// idempotent and only add what is missing, so a second run starts in seconds instead of minutes.
// Everything stops afterwards; the exit code is the benchmarks'.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, ensureChromium } from './lib/deps.mjs';
import { log, runCommand, secondsSince, shutdown } from './lib/procs.mjs';
import { failSetUp, setUpStack } from './lib/stack.mjs';

// BENCH_API_PORT / BENCH_TEMPORAL_PORT: other ports, for a bench beside another one on the same machine.
const API_PORT = Number(process.env.BENCH_API_PORT || 3200);
const SCRIPT = join(ROOT, 'tests', 'bench', 'facilities.ts');
const LISTS_SCRIPT = join(ROOT, 'tests', 'bench', 'lists.ts');
const CASES_SCRIPT = join(ROOT, 'tests', 'bench', 'cases.ts');
const PLACEMENT_SCRIPT = join(ROOT, 'tests', 'bench', 'placement.ts');
const EVALUATIONS_SCRIPT = join(ROOT, 'tests', 'bench', 'evaluations.ts');
const NOTIFICATIONS_SCRIPT = join(ROOT, 'tests', 'bench', 'notifications.ts');
const PAST_CASES_SCRIPT = join(ROOT, 'tests', 'bench', 'past-cases.ts');
const BROWSER_SCRIPT = join(ROOT, 'tests', 'bench', 'browser.ts');
// BENCH_ONLY=cases,placement runs only the named benches (facilities, lists, cases, placement, evaluations, notifications, past-cases, browser).
const ONLY = (process.env.BENCH_ONLY || '').split(',').map((s) => s.trim()).filter(Boolean);
const TSX = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
// BENCH_PROFILE=production: Temporal's own server with PostgreSQL persistence and 8 history shards
// (temporal/cluster.mjs, built once with Go), two worker processes and two API processes sharing the
// port. The default ("dev") is what `npm test` runs: the dev server in memory, one of each.
const PROFILE = process.env.BENCH_PROFILE || 'dev';
if (!['dev', 'production'].includes(PROFILE)) {
  console.error(`BENCH_PROFILE must be dev or production, not "${PROFILE}"`);
  process.exit(2);
}
const PRODUCTION = PROFILE === 'production';
const FACILITIES = Number(process.env.BENCH_FACILITIES || 10000);
const USERS = Number(process.env.BENCH_USERS || 10000);
const AUDIT_ENTRIES = Number(process.env.BENCH_AUDIT_ENTRIES || 1000000);
const AUDIT_DAYS = Number(process.env.BENCH_AUDIT_DAYS || 90);

async function main() {
  const started = Date.now();
  const stack = await setUpStack({
    runDir: '.data/bench',
    pgDataDir: '.data/bench/pg',
    pgPort: Number(process.env.BENCH_PGPORT || 5435),
    fresh: process.env.BENCH_FRESH === '1',
    temporalPort: Number(process.env.BENCH_TEMPORAL_PORT || 7253),
    temporalDb: null,
    // The deliveries (texts, calls, EHR documents) in a worker process of their own at a lower
    // priority, as production runs them: see "Worker processes" in the README.
    deliveriesWorker: true,
    ...(PRODUCTION ? { temporalCluster: { shards: 8 }, apiProcesses: 2, workerProcesses: 2 } : {}),
    apiPort: API_PORT,
    publicUrl: `http://127.0.0.1:${API_PORT}`,
    logToFiles: true,
  });
  log('bench', `profile ${PROFILE}: ${PRODUCTION ? 'Temporal server on PostgreSQL (8 shards), 2 command workers, 2 API processes' : 'Temporal dev server in memory, 1 command worker, 1 API process'}, 1 deliveries worker; set-up ${secondsSince(started)}`);
  if (!existsSync(SCRIPT)) {
    log('bench', 'tests/bench/facilities.ts does not exist yet: nothing to run');
    return shutdown(0);
  }
  const env = {
    ...process.env,
    API_URL: stack.apiUrl,
    DATABASE_URL: stack.env.DATABASE_URL,
    TEMPORAL_ADDRESS: stack.env.TEMPORAL_ADDRESS,
    // The local Twilio's control API (the notifications bench counts what the phones received).
    TWILIO_LOCAL_URL: stack.twilioUrl ?? '',
    CHROMIUM_PATH: ONLY.length && !ONLY.includes('browser') ? '' : ensureChromium(),
  };
  const seeded = await runCommand('bench', process.execPath, [join(ROOT, 'seed', 'dist', 'bench.js'), String(FACILITIES)], { cwd: ROOT, inherit: true, env });
  if (seeded.code !== 0) return shutdown(1);
  const listsSeeded = await runCommand('bench', process.execPath,
    [join(ROOT, 'seed', 'dist', 'bench-lists.js'), String(USERS), String(AUDIT_ENTRIES), String(AUDIT_DAYS)], { cwd: ROOT, inherit: true, env });
  if (listsSeeded.code !== 0) return shutdown(1);
  let failed = false;
  for (const script of [SCRIPT, LISTS_SCRIPT, CASES_SCRIPT, PLACEMENT_SCRIPT, EVALUATIONS_SCRIPT, NOTIFICATIONS_SCRIPT, PAST_CASES_SCRIPT, BROWSER_SCRIPT]) {
    if (!existsSync(script)) continue;
    if (ONLY.length && !ONLY.some((name) => script.endsWith(`${name}.ts`))) continue;
    const benchStarted = Date.now();
    const { code, signal } = await runCommand('bench', process.execPath, [TSX, script], { cwd: ROOT, inherit: true, env });
    log('bench', `${script.slice(ROOT.length + 1)} finished in ${secondsSince(benchStarted)} (${signal ?? `exit code ${code}`})`);
    failed ||= code !== 0;
  }
  return shutdown(failed ? 1 : 0);
}

main().catch(failSetUp);
