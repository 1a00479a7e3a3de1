#!/usr/bin/env node
// `npm test`: a throw-away stack, then every suite against it, then one summary line.
//
//   PostgreSQL  fresh in .data/test/pg on $TEST_PGPORT (5434)  — or $DATABASE_URL
//   Temporal    dev server in memory on 7243, headless          — or $TEMPORAL_ADDRESS
//   API         http://127.0.0.1:3100 (+ worker), logs in .data/test/logs/
//   Suites      lint (ESLint + declared imports) → unit (jest) → integration (jest, in band)
//               → end-to-end (Playwright, Chromium) → battery (a quick sample of `npm run battery`,
//               on a stack of its own)
//   TEST_RECORD_HISTORIES=1  instead of the suites, record the workflow histories of the replay
//               test (tests/support/record-histories.ts) into tests/fixtures/histories/
//
// The last line is `N passed, N failed[, N skipped]`; the exit code is 1 if anything failed
// or a suite could not run.

import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ensureChromium, ROOT } from './lib/deps.mjs';
import { bold, runCommand, secondsSince, shutdown } from './lib/procs.mjs';
import { failSetUp, setUpStack } from './lib/stack.mjs';

const API_PORT = Number(process.env.TEST_API_PORT || 3100);
// TEST_SUITES=unit,integration runs only those; TEST_FILTER narrows jest (path pattern) and Playwright (grep).
const ONLY = process.env.TEST_SUITES ? process.env.TEST_SUITES.split(',') : null;
const FILTER = process.env.TEST_FILTER || null;
const OUT = join(ROOT, '.data', 'test');

/** The first lines of an error (message, expected, received), without colour codes, on one line. */
function firstLine(text) {
  const lines = String(text ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n').map((l) => l.trim()).filter(Boolean);
  return lines.slice(0, 3).join(' / ').slice(0, 400);
}

/**
 * Counts from a jest --json file. A suite that failed to run (syntax error, bad import) is one failure.
 * `failures` names each failed test, because CI shows only the end of the log; `flaky` each test
 * that passed on its retry (tests/support/retry-once.ts).
 */
function jestCounts(file) {
  const r = JSON.parse(readFileSync(file, 'utf8'));
  const failures = [];
  const flaky = [];
  for (const suite of r.testResults) {
    const path = relative(ROOT, suite.name);
    const failedTests = suite.assertionResults.filter((a) => a.status === 'failed');
    for (const a of failedTests) failures.push(`${path} › ${a.fullName} — ${firstLine(a.failureMessages?.[0])}`);
    if (suite.status === 'failed' && failedTests.length === 0) failures.push(`${path} — ${firstLine(suite.message)}`);
    for (const a of suite.assertionResults.filter((x) => x.status === 'passed' && x.invocations > 1))
      flaky.push(`${path} › ${a.fullName} — ${firstLine(a.retryReasons?.[0])}`);
  }
  return {
    passed: r.numPassedTests,
    failed: r.numFailedTests + r.numRuntimeErrorTestSuites,
    skipped: r.numPendingTests + (r.numTodoTests ?? 0),
    failures,
    flaky,
  };
}

/**
 * Counts from Playwright's JSON report: a flaky test (failed, then passed on its retry) counts as
 * passed, and is named in `flaky` so that the run still says so.
 */
function playwrightCounts(file) {
  const r = JSON.parse(readFileSync(file, 'utf8'));
  const s = r.stats ?? {};
  const failures = [];
  const flaky = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests) {
        const errors = t.results.flatMap((res) => res.errors ?? []);
        const line = `${spec.file} › ${spec.title} — ${firstLine(errors[0]?.message)}`;
        if (t.status === 'unexpected') failures.push(line);
        if (t.status === 'flaky') flaky.push(line);
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of r.suites ?? []) walk(suite);
  for (const e of r.errors ?? []) failures.push(`outside any test — ${firstLine(e.message)}`);
  return {
    passed: (s.expected ?? 0) + (s.flaky ?? 0),
    // Errors outside any test (a broken config or global set-up) count as one failure.
    failed: (s.unexpected ?? 0) + ((r.errors?.length ?? 0) > 0 ? 1 : 0),
    skipped: s.skipped ?? 0,
    failures,
    flaky,
  };
}

/** One line on the accessibility scans of the end-to-end suite: pages scanned, violations, time. */
function axeSummary() {
  const file = join(OUT, 'axe.jsonl');
  if (!existsSync(file)) return;
  const scans = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const pages = new Set(scans.map((s) => s.label)).size;
  const violations = scans.reduce((n, s) => n + s.violations.reduce((m, v) => m + v.targets.length, 0), 0);
  const seconds = (scans.reduce((n, s) => n + s.ms, 0) / 1000).toFixed(1);
  console.log(`axe: ${scans.length} scans of ${pages} pages (WCAG 2.1 A/AA), ${violations} violations, ${seconds} s of scanning`);
}

/** Counts from scripts/lint.mjs: one per check (eslint, check-imports). */
function lintCounts(file) {
  const r = JSON.parse(readFileSync(file, 'utf8'));
  return { passed: r.passed, failed: r.failed, skipped: 0 };
}

const SUITES = [
  {
    name: 'lint',
    output: join(OUT, 'lint.json'),
    cmd: ['node', 'scripts/lint.mjs', '--json', join(OUT, 'lint.json')],
    counts: lintCounts,
    unfiltered: true,
  },
  {
    name: 'unit',
    output: join(OUT, 'unit.json'),
    cmd: ['npx', 'jest', '--config', 'jest.unit.config.js', '--json', `--outputFile=${join(OUT, 'unit.json')}`],
    counts: jestCounts,
  },
  {
    name: 'integration',
    output: join(OUT, 'integration.json'),
    cmd: ['npx', 'jest', '--config', 'tests/jest.config.js', '--runInBand', '--json',
      `--outputFile=${join(OUT, 'integration.json')}`],
    counts: jestCounts,
  },
  {
    name: 'e2e',
    output: join(OUT, 'e2e.json'),
    // list: progress on the console; json: the counts, written to PLAYWRIGHT_JSON_OUTPUT_NAME.
    cmd: ['npx', 'playwright', 'test', '-c', 'tests/playwright.config.ts', '--reporter=list,json',
      '--pass-with-no-tests'],
    // AXE_REPORT: each accessibility scan (tests/e2e/support.ts expectAccessible) appends a line.
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: join(OUT, 'e2e.json'), AXE_REPORT: join(OUT, 'axe.jsonl') },
    extraOutputs: [join(OUT, 'axe.jsonl')],
    counts: playwrightCounts,
    after: axeSummary,
  },
  {
    // A quick sample of the reliability battery, on a stack of its own (it kills processes).
    name: 'battery',
    output: join(OUT, 'battery.json'),
    cmd: ['node', 'scripts/battery.mjs', '--quick', '--json', join(OUT, 'battery.json')],
    // Not this stack's database and Temporal: the battery starts its own and kills them.
    env: { DATABASE_URL: process.env.DATABASE_URL, TEMPORAL_ADDRESS: process.env.TEMPORAL_ADDRESS },
    counts: (file) => {
      const r = JSON.parse(readFileSync(file, 'utf8'));
      return { passed: r.passed, failed: r.failed, skipped: 0 };
    },
    unfiltered: true,
  },
];

async function main() {
  const started = Date.now();
  mkdirSync(OUT, { recursive: true });
  let chromium;
  const stack = await setUpStack({
    runDir: '.data/test',
    pgDataDir: '.data/test/pg',
    pgPort: Number(process.env.TEST_PGPORT || 5434),
    fresh: true,
    temporalPort: Number(process.env.TEST_TEMPORAL_PORT || 7243),
    temporalDb: null,
    apiPort: API_PORT,
    // The browser uses exactly this origin, so the identity provider's issuer must match it.
    publicUrl: `http://127.0.0.1:${API_PORT}`,
    extraEnv: {
      CLAIM_SWEEP_TEST: '1',
      CLAIM_DEFAULT_SECONDS: '3',
      // A division claim lapses quickly, so the call log's overdue flow is testable.
      DIVISION_CLAIM_SECONDS: '4',
      LOCKOUT_MAX_FAILURES: '5',
      // The suites act as a local proxy that names the client's address (IP allow-list tests);
      // a client on another loopback address is not one (input-at-the-edge tests).
      TRUSTED_PROXIES: '127.0.0.1',
      // Facility alerts: two attempts 4 s apart, so that an unconfirmed alert escalates within
      // the suite (tests/integration/messaging.test.ts); calls ring 8 s, long enough for a
      // person on the demo-tools page (tests/e2e/demo-phone.spec.ts).
      FACILITY_ALERT_ATTEMPTS: '2',
      FACILITY_ALERT_RETRY_SECONDS: '4',
      EHR_RETRY_SECONDS: '1',
      EHR_RETRY_ATTEMPTS: '4',
      TWILIO_LOCAL_RING_SECONDS: '8',
    },
    logToFiles: true,
    beforeServices: () => { chromium = ensureChromium(); },
  });
  const timings = [`set-up ${secondsSince(started)} (${Object.entries(stack.timings).map(([k, v]) => `${k} ${v}`).join(', ')})`];

  const suiteEnv = {
    ...process.env,
    API_URL: stack.apiUrl,
    DATABASE_URL: stack.env.DATABASE_URL,
    TEMPORAL_ADDRESS: stack.env.TEMPORAL_ADDRESS,
    TEMPORAL_NAMESPACE: stack.env.TEMPORAL_NAMESPACE,
    // The local Twilio's control API (the suites play the facility's phone) and the signing token.
    TWILIO_LOCAL_URL: stack.twilioUrl ?? '',
    // The local FHIR R4 server (the EHR of the demo facility) and its /local control API.
    EHR_LOCAL_BASE_URL: stack.fhirUrl,
    // A worker a suite starts itself gives Twilio the same webhook URLs as the stack's.
    PUBLIC_URL: stack.env.PUBLIC_URL,
    ...Object.fromEntries(['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM', 'TWILIO_API_BASE_URL'].map((k) => [k, stack.env[k] ?? ''])),
    CHROMIUM_PATH: chromium,
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
  };

  // TEST_RECORD_HISTORIES=1: record the workflow histories the replay test reads, instead of the suites.
  if (process.env.TEST_RECORD_HISTORIES) {
    console.log(`\n${bold('── recording workflow histories ──')}`);
    const { code, signal } = await runCommand('record', 'npx', ['tsx', 'tests/support/record-histories.ts'],
      { env: suiteEnv, cwd: ROOT, inherit: true });
    const okay = code === 0;
    return stopAndPrint(okay ? 'histories recorded in tests/fixtures/histories/' : `recording failed (exit ${signal ?? code})`, okay ? 0 : 1);
  }

  const total = { passed: 0, failed: 0, skipped: 0 };
  const problems = [];
  const failures = [];
  const flaky = [];
  // A narrowed run (TEST_FILTER) skips the battery unless TEST_SUITES names it.
  const chosen = (s) => (ONLY ? ONLY.includes(s.name) : !(FILTER && s.name === 'battery'));
  for (const suite of SUITES.filter(chosen)) {
    const suiteStarted = Date.now();
    rmSync(suite.output, { force: true }); // never count a previous run's results
    for (const file of suite.extraOutputs ?? []) rmSync(file, { force: true });
    console.log(`\n${bold(`── ${suite.name} ──`)}`);
    const [cmd, ...args] = suite.cmd;
    if (FILTER && !suite.unfiltered) args.push(...(suite.name === 'e2e' ? ['--grep', FILTER] : ['--testPathPatterns', FILTER]));
    const { code, signal } = await runCommand(suite.name, cmd, args, {
      env: { ...suiteEnv, ...suite.env },
      cwd: ROOT,
      inherit: true,
    });
    let counts = null;
    if (existsSync(suite.output)) {
      try {
        counts = suite.counts(suite.output);
      } catch (err) {
        problems.push(`${suite.name}: unreadable report ${suite.output} (${err.message})`);
      }
    } else {
      problems.push(`${suite.name}: no report written (exit ${signal ?? code})`);
    }
    if (counts) {
      // A runner that failed with nothing failing in its report crashed outside the tests.
      if (code !== 0 && counts.failed === 0) {
        problems.push(`${suite.name}: exited with ${signal ?? `code ${code}`} but reported no failed test`);
        counts.failed = 1;
      }
      total.passed += counts.passed;
      total.failed += counts.failed;
      total.skipped += counts.skipped;
      failures.push(...(counts.failures ?? []).map((f) => `${suite.name}: ${f}`));
      flaky.push(...(counts.flaky ?? []).map((f) => `${suite.name}: ${f}`));
    } else {
      total.failed += 1;
    }
    suite.after?.();
    timings.push(`${suite.name} ${secondsSince(suiteStarted)}` +
      (counts ? ` (${counts.passed} passed, ${counts.failed} failed)` : ' (crashed)'));
  }

  console.log(`\n${bold('Timing:')} ${timings.join('; ')}; total ${secondsSince(started)}`);
  if (stack.crashed.length) {
    // Tests may not notice a dead worker; the run must.
    problems.push(`${stack.crashed.join(' and ')} exited during the run (see ${stack.logDir})`);
    total.failed += stack.crashed.length;
  }
  for (const problem of problems) console.log(`problem: ${problem}`);
  // Named at the very end, next to the summary: CI keeps only the tail of the log.
  for (const line of flaky) console.log(`flaky (failed, then passed on retry): ${line}`);
  for (const line of failures) console.log(`failed: ${line}`);
  if (total.failed) console.log(`service logs: ${stack.logDir}`);

  const failed = total.failed > 0;
  const summary = `${total.passed} passed, ${total.failed} failed` +
    (total.skipped ? `, ${total.skipped} skipped` : '');
  await stopAndPrint(summary, failed ? 1 : 0);
}

/** Stops the stack, then prints the summary so that it really is the last line. */
async function stopAndPrint(summary, exitCode) {
  process.on('exit', () => console.log(summary));
  await shutdown(exitCode);
}

main().catch((err) => {
  // Set-up failed: no suite ran. Still end with the summary line CI reads.
  process.on('exit', () => console.log('0 passed, 1 failed'));
  return failSetUp(err);
});
