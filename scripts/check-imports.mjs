#!/usr/bin/env node
// Every workspace declares what it imports (ARCHITECTURE "Packages"): scans each workspace's
// sources for bare imports (import/export … from, import(), require()) and fails when the
// package is not in that workspace's package.json (dependencies, devDependencies or
// peerDependencies). Node built-ins are exempt; so is the workspace's own name. It also refuses
// deep imports of another workspace's build output (`@crisis/x/dist/…`): use its entry points.
//
//   node scripts/check-imports.mjs            problems on stderr, exit 1 if any
//   node scripts/check-imports.mjs --json F   also writes { passed, failed, problems } to F
import { builtinModules } from 'node:module';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SKIP_DIRS = new Set(['node_modules', 'dist', '.data', 'test-results', 'playwright-report', 'coverage']);
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs|jsx)$/;
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, m.split('/')[0]]));
// import … from 'x' | export … from 'x' (statements: no quote between the keyword and `from`),
// import 'x', import('x'), require('x'). A specifier has no white space.
const SPECIFIER = /(?:(?:^|;)\s*(?:import|export)\b[^'"`;]*?\bfrom\s*|(?:^|;)\s*import\s*|\bimport\(\s*|\brequire\(\s*)['"]([^'"\s]+)['"]/gm;

function* sourceFiles(dir) {
  for (const name of readdirSync(dir)) {
    if (SKIP_DIRS.has(name) || name.startsWith('.')) continue;
    const path = join(dir, name);
    const st = statSync(path);
    if (st.isDirectory()) yield* sourceFiles(path);
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) yield path;
  }
}


/** 'lodash/fp' → 'lodash', '@scope/pkg/sub' → '@scope/pkg'; null for relative, absolute and built-in. */
function packageOf(spec) {
  if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:') || spec.includes(':')) return null;
  const parts = spec.split('/');
  const name = spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return BUILTINS.has(name) ? null : name;
}

/** Strips comments, so examples in doc comments are not taken for imports. */
const withoutComments = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/[^\n]*/g, '$1');

export function checkImports(root = ROOT) {
  const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const problems = [];
  for (const ws of rootPkg.workspaces) {
    const dir = join(root, ws);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const declared = new Set([pkg.name, ...Object.keys({ ...pkg.dependencies, ...pkg.devDependencies, ...pkg.peerDependencies })]);
    for (const file of sourceFiles(dir)) {
      const text = withoutComments(readFileSync(file, 'utf8'));
      for (const [, spec] of text.matchAll(SPECIFIER)) {
        const where = relative(root, file);
        if (/^@crisis\/[^/]+\/dist(\/|$)/.test(spec)) problems.push(`${where}: deep import '${spec}' of another workspace's build output`);
        const name = packageOf(spec);
        if (name && !declared.has(name)) problems.push(`${where}: '${name}' is imported but not declared in ${ws}/package.json`);
      }
    }
  }
  return [...new Set(problems)];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const problems = checkImports();
  for (const p of problems) console.error(p);
  console.log(problems.length ? `check-imports: ${problems.length} problem(s)` : 'check-imports: every import is declared');
  const jsonAt = process.argv.indexOf('--json');
  if (jsonAt > 0) writeFileSync(process.argv[jsonAt + 1], JSON.stringify({ passed: problems.length ? 0 : 1, failed: problems.length ? 1 : 0, problems }));
  process.exitCode = problems.length ? 1 : 0;
}
