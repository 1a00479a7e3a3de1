#!/usr/bin/env node
// The `lint` suite of `npm test`: ESLint over the repository (import directions, no
// `@crisis/*/dist` imports) and scripts/check-imports.mjs (every workspace declares what it
// imports). Each check counts as one test, passed or failed.
//
//   node scripts/lint.mjs [--json FILE]   FILE gets { passed, failed, checks }
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { checkImports } from './check-imports.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const checks = [];

const eslint = spawnSync('npx', ['eslint', '.'], { cwd: ROOT, stdio: 'inherit' });
checks.push({ name: 'eslint', ok: eslint.status === 0 });

const problems = checkImports(ROOT);
for (const p of problems) console.error(p);
checks.push({ name: 'check-imports', ok: problems.length === 0 });

for (const c of checks) console.log(`${c.ok ? 'ok  ' : 'FAIL'} ${c.name}`);
const passed = checks.filter((c) => c.ok).length;
const result = { passed, failed: checks.length - passed, checks };
const jsonAt = process.argv.indexOf('--json');
if (jsonAt > 0) writeFileSync(process.argv[jsonAt + 1], JSON.stringify(result));
process.exitCode = result.failed ? 1 : 0;
