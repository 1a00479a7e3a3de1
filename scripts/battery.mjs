#!/usr/bin/env node
// `npm run battery`: the reliability battery (issue: security hardening) on a stack of its own
// (API 3300, PostgreSQL 5436 in .data/battery/pg, Temporal 7273 with its state in a file, so that
// killing it loses nothing), then every tests/battery/<name>.battery.ts in turn.
//
//   --quick       a small sample of each battery (what `npm test` runs as its last suite)
//   --json FILE   the reports of every battery in one file (scripts/test.mjs reads its counts)
//   BATTERY_ONLY=fuzz,kill   only the named batteries
//
// A battery is a script run with tsx. It reads API_URL, DATABASE_URL, TEMPORAL_ADDRESS,
// BATTERY_QUICK ('1' for the sample), BATTERY_PIDS (the stack's pid file: the processes it may
// kill) and writes its report to BATTERY_REPORT (tests/battery/support.ts: writeReport): checks
// that pass or fail and the figures the issue asks for. The last line is `N passed, N failed`,
// one per check.

import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureNodeModules, ROOT } from './lib/deps.mjs';
import { bold, log, runCommand, secondsSince, shutdown } from './lib/procs.mjs';
import { failSetUp, setUpStack } from './lib/stack.mjs';

const QUICK = process.argv.includes('--quick');
const jsonAt = process.argv.indexOf('--json');
const JSON_OUT = jsonAt > 0 ? process.argv[jsonAt + 1] : null;
const ONLY = (process.env.BATTERY_ONLY || '').split(',').map((s) => s.trim()).filter(Boolean);
const API_PORT = Number(process.env.BATTERY_API_PORT || 3300);
const RUN_DIR = QUICK ? '.data/battery-quick' : '.data/battery';
const DIR = join(ROOT, 'tests', 'battery');
// Batteries that disturb the stack (kill -9) run last.
const ORDER = ['fuzz', 'authorization', 'audit', 'load', 'kill'];
const rank = (name) => (ORDER.includes(name) ? ORDER.indexOf(name) : ORDER.length - 1.5);

async function main() {
  const started = Date.now();
  ensureNodeModules();
  const names = readdirSync(DIR)
    .filter((f) => f.endsWith('.battery.ts'))
    .map((f) => f.slice(0, -'.battery.ts'.length))
    .filter((name) => !ONLY.length || ONLY.includes(name))
    .sort((a, b) => rank(a) - rank(b));
  const stack = await setUpStack({
    runDir: RUN_DIR,
    pgDataDir: `${RUN_DIR}/pg`,
    pgPort: Number(process.env.BATTERY_PGPORT || 5436),
    fresh: true,
    temporalPort: Number(process.env.BATTERY_TEMPORAL_PORT || 7273),
    temporalDb: `${RUN_DIR}/temporal.db`,
    apiPort: API_PORT,
    publicUrl: `http://127.0.0.1:${API_PORT}`,
    extraEnv: { TRUSTED_PROXIES: '127.0.0.1' },
    logToFiles: true,
  });
  log('battery', `set-up ${secondsSince(started)}; batteries: ${names.join(', ')}${QUICK ? ' (quick sample)' : ''}`);

  const reportDir = join(ROOT, RUN_DIR, 'reports');
  rmSync(reportDir, { recursive: true, force: true });
  mkdirSync(reportDir, { recursive: true });
  const tsx = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  const reports = [];
  for (const name of names) {
    const batteryStarted = Date.now();
    const reportFile = join(reportDir, `${name}.json`);
    console.log(`\n${bold(`── battery: ${name} ──`)}`);
    const { code, signal } = await runCommand(name, process.execPath, [tsx, join(DIR, `${name}.battery.ts`)], {
      cwd: ROOT,
      inherit: true,
      env: {
        ...stack.env,
        API_URL: stack.apiUrl,
        BATTERY_QUICK: QUICK ? '1' : '',
        BATTERY_PIDS: join(ROOT, RUN_DIR, 'pids.json'),
        BATTERY_REPORT: reportFile,
      },
    });
    let report = existsSync(reportFile) ? JSON.parse(readFileSync(reportFile, 'utf8')) : null;
    if (!report) report = { name, checks: [{ name: 'wrote a report', ok: false, detail: `exit ${signal ?? code}` }], figures: {} };
    else if (code !== 0 && report.checks.every((c) => c.ok))
      report.checks.push({ name: 'exited cleanly', ok: false, detail: `exit ${signal ?? code}` });
    report.seconds = Math.round((Date.now() - batteryStarted) / 100) / 10;
    reports.push(report);
  }

  console.log(`\n${bold('Battery figures')}${QUICK ? ' (quick sample)' : ''}:`);
  for (const r of reports) {
    console.log(`  ${bold(r.name)} (${r.seconds} s)`);
    for (const [k, v] of Object.entries(r.figures ?? {})) console.log(`    ${k}: ${typeof v === 'object' ? JSON.stringify(v) : v}`);
    for (const c of r.checks) console.log(`    ${c.ok ? 'ok  ' : 'FAIL'} ${c.name}${c.detail ? ` — ${c.detail}` : ''}`);
  }
  if (stack.crashed.length) log('battery', `${stack.crashed.join(', ')} exited during the run`);
  const checks = reports.flatMap((r) => r.checks);
  const passed = checks.filter((c) => c.ok).length;
  const failed = checks.length - passed;
  if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify({ passed, failed, reports }, null, 1));
  console.log(`\nTiming: ${secondsSince(started)}`);
  process.on('exit', () => console.log(`${passed} passed, ${failed} failed`));
  return shutdown(failed ? 1 : 0);
}

main().catch((err) => {
  process.on('exit', () => console.log('0 passed, 1 failed'));
  return failSetUp(err);
});
