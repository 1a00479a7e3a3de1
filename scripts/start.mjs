#!/usr/bin/env node
// `npm start`: the whole platform on this machine, nothing to install by hand.
//
//   PostgreSQL  embedded, data in .data/pg, port $PGPORT (5433)   — or $DATABASE_URL
//   Temporal    dev server, .data/temporal/temporal.db, $TEMPORAL_PORT (7233), UI $TEMPORAL_UI_PORT
//               (8233) — or $TEMPORAL_ADDRESS
//   API + UI    http://localhost:$PORT (3000), worker alongside
//
// `npm start -- --infra` starts only PostgreSQL and Temporal and prints their addresses, for
// running the API or worker yourself (watch mode, debugger).
// A process that dies is started again (back-off 1 s, 2 s, 4 s … 30 s): the demo keeps running.
// Ctrl-C stops everything this started.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startTemporalDevServer } from '../temporal/dev-server.mjs';
import { ensureNodeModules, ROOT } from './lib/deps.mjs';
import { startPostgres } from './lib/postgres.mjs';
import { bold, installShutdownHandlers, log, secondsSince, supervise, track, usePidFile } from './lib/procs.mjs';
import { failSetUp, setUpStack } from './lib/stack.mjs';

const PORT = Number(process.env.PORT || 3000);
const PGPORT = Number(process.env.PGPORT || 5433);
const PUBLIC_URL = process.env.PUBLIC_URL || `http://localhost:${PORT}`;
const TEMPORAL = {
  port: Number(process.env.TEMPORAL_PORT || 7233),
  uiPort: Number(process.env.TEMPORAL_UI_PORT || 8233),
  db: '.data/temporal/temporal.db',
};

/** The demo sign-ins the seed created, from seed/dist/demo-users.js. */
async function printSignIns() {
  const file = join(ROOT, 'seed', 'dist', 'demo-users.js');
  if (!existsSync(file)) {
    console.log('  (no demo sign-ins yet: seed/dist/demo-users.js does not exist)');
    return;
  }
  const mod = await import(pathToFileURL(file).href);
  const users = mod.demoUsers ?? mod.default?.demoUsers ?? [];
  const forms = await import(pathToFileURL(join(ROOT, 'forms', 'dist', 'index.js')).href);
  const labels = forms.USER_TYPE_LABELS ?? forms.default?.USER_TYPE_LABELS ?? {};
  const rows = [['role', 'e-mail', 'password', 'note'], ...users.map((u) => [labels[u.role] ?? u.role, u.email, u.password, u.note ?? ''])];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  rows.forEach((r, n) => {
    const line = r.map((cell, i) => String(cell).padEnd(widths[i])).join('  ').trimEnd();
    console.log(`  ${n === 0 ? bold(line) : line}`);
  });
}

async function infraOnly() {
  installShutdownHandlers();
  await usePidFile(join(ROOT, '.data', 'pids.json'));
  ensureNodeModules();
  const startTemporal = async () => track(await startTemporalDevServer({
    port: TEMPORAL.port, uiPort: TEMPORAL.uiPort, dbFile: join(ROOT, TEMPORAL.db), namespace: 'default',
  }), 'temporal', { stopLate: true });
  const [pg, server] = await Promise.all([
    startPostgres({ dataDir: join(ROOT, '.data', 'pg'), port: PGPORT }),
    process.env.TEMPORAL_ADDRESS ? null : startTemporal(),
  ]);
  // Both are started again if they die, as in the full stack.
  if (server) supervise('temporal', server, { start: startTemporal });
  if (pg.restart) supervise('postgres', pg.child, { start: () => pg.restart() });
  console.log(`\n${bold('Infrastructure is up')} (Ctrl-C stops it):`);
  console.log(`  DATABASE_URL=${pg.url}`);
  console.log(`  TEMPORAL_ADDRESS=${server?.address ?? process.env.TEMPORAL_ADDRESS}`);
  if (server) console.log(`  Temporal UI: http://localhost:${TEMPORAL.uiPort}`);
}

async function main() {
  const started = Date.now();
  const stack = await setUpStack({
    runDir: '.data',
    pgDataDir: '.data/pg',
    pgPort: PGPORT,
    temporalPort: TEMPORAL.port,
    temporalUiPort: TEMPORAL.uiPort,
    temporalDb: TEMPORAL.db,
    apiPort: PORT,
    portVar: 'PORT',
    publicUrl: PUBLIC_URL,
  });
  log('setup', `ready in ${secondsSince(started)} ` +
    `(${Object.entries(stack.timings).map(([k, v]) => `${k} ${v}`).join(', ')})`);

  console.log(`\n${bold('Crisis platform is running:')} ${PUBLIC_URL}`);
  if (!process.env.TEMPORAL_ADDRESS) console.log(`Temporal UI: http://localhost:${TEMPORAL.uiPort}`);
  console.log(`Local FHIR R4 server (the demo facility's EHR): ${stack.fhirUrl}`);
  console.log('\nDemo sign-ins:');
  await printSignIns();
  console.log('\nA process that dies is started again. Ctrl-C stops everything.\n');
}

(process.argv.includes('--infra') ? infraOnly() : main()).catch(failSetUp);
