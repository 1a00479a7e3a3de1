#!/usr/bin/env node
// `npm run bench`: a throw-away stack like `npm test` (own database on $BENCH_PGPORT (5435),
// Temporal in memory on 7253, API on 3200), 10,000 synthetic facilities, then
// tests/bench/facilities.ts against it.
// Everything stops afterwards; the exit code is the benchmark's.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './lib/deps.mjs';
import { log, runCommand, secondsSince, shutdown } from './lib/procs.mjs';
import { failSetUp, setUpStack } from './lib/stack.mjs';

const API_PORT = 3200;
const SCRIPT = join(ROOT, 'tests', 'bench', 'facilities.ts');
const TSX = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const FACILITIES = Number(process.env.BENCH_FACILITIES || 10000);

async function main() {
  const started = Date.now();
  const stack = await setUpStack({
    runDir: '.data/bench',
    pgDataDir: '.data/bench/pg',
    pgPort: Number(process.env.BENCH_PGPORT || 5435),
    fresh: true,
    temporalPort: 7253,
    temporalDb: null,
    apiPort: API_PORT,
    publicUrl: `http://127.0.0.1:${API_PORT}`,
    logToFiles: true,
  });
  log('bench', `set-up ${secondsSince(started)}`);

  if (!existsSync(SCRIPT)) {
    log('bench', 'tests/bench/facilities.ts does not exist yet: nothing to run');
    return shutdown(0);
  }
  const env = { ...process.env, API_URL: stack.apiUrl, DATABASE_URL: stack.env.DATABASE_URL };
  const seeded = await runCommand('bench', process.execPath, [join(ROOT, 'seed', 'dist', 'bench.js'), String(FACILITIES)], { cwd: ROOT, inherit: true, env });
  if (seeded.code !== 0) return shutdown(1);
  const benchStarted = Date.now();
  const { code, signal } = await runCommand('bench', process.execPath, [TSX, SCRIPT], { cwd: ROOT, inherit: true, env });
  log('bench', `finished in ${secondsSince(benchStarted)} (${signal ?? `exit code ${code}`})`);
  return shutdown(code === 0 ? 0 : 1);
}

main().catch(failSetUp);
