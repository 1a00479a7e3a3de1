// Compiles the TypeScript workspaces and the admin UI, skipping what is up to date.

import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './deps.mjs';
import { log, runChecked, secondsSince } from './procs.mjs';

/** Newest mtime (ms) of the files under `paths` (files or directories), 0 if none. */
function newestMtime(paths) {
  let newest = 0;
  const visit = (p) => {
    if (!existsSync(p)) return;
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const entry of readdirSync(p)) {
        if (entry !== 'node_modules' && entry !== 'dist') visit(join(p, entry));
      }
    } else {
      newest = Math.max(newest, st.mtimeMs);
    }
  };
  paths.forEach(visit);
  return newest;
}

/** True when admin-ui/dist/index.html is missing or older than any of the UI's inputs. */
function uiIsStale() {
  const built = join(ROOT, 'admin-ui', 'dist', 'index.html');
  if (!existsSync(built)) return true;
  const inputs = ['admin-ui/src', 'admin-ui/index.html', 'admin-ui/vite.config.ts', 'forms/src']
    .map((p) => join(ROOT, p));
  return newestMtime(inputs) > statSync(built).mtimeMs;
}

/**
 * `tsc -b` over the project references in tsconfig.json (incremental: a no-op when nothing
 * changed), then the UI with Vite only when its sources are newer than its last build.
 */
export async function buildAll() {
  let started = Date.now();
  // The local tsc directly: same as `npx tsc -b` without npx's start-up cost.
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  await runChecked('tsc', process.execPath, [tsc, '-b'], { cwd: ROOT });
  log('build', `tsc -b done in ${secondsSince(started)}`);

  if (uiIsStale()) {
    started = Date.now();
    await runChecked('ui', 'npm', ['run', 'build', '-w', 'admin-ui'], { cwd: ROOT });
    log('build', `admin UI built in ${secondsSince(started)}`);
  } else {
    log('build', 'admin UI is up to date');
  }
}
