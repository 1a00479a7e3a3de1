// Installs what the scripts need and nothing else by hand: node_modules and Chromium.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findOnPath } from '../../temporal/cli.mjs';
import { log, secondsSince } from './procs.mjs';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');

/** sha256 of package-lock.json, or of every package.json when there is no lock. */
function dependencyHash() {
  const hash = createHash('sha256');
  const lock = join(ROOT, 'package-lock.json');
  if (existsSync(lock)) {
    hash.update(readFileSync(lock));
    return hash.digest('hex');
  }
  const rootPkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  for (const dir of ['.', ...(rootPkg.workspaces ?? [])]) {
    const file = join(ROOT, dir, 'package.json');
    if (existsSync(file)) hash.update(`${dir}\0`).update(readFileSync(file));
  }
  return hash.digest('hex');
}

function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', ...opts });
  if (res.error) throw res.error;
  if (res.status !== 0) throw new Error(`\`${[cmd, ...args].join(' ')}\` failed (exit code ${res.status})`);
}

/**
 * Makes node_modules match the lock file. The stamp `node_modules/.install-stamp` holds the
 * hash of package-lock.json at the last install, so an unchanged tree costs nothing.
 *
 * A fresh clone (no node_modules) gets `npm ci`, the reproducible install. When node_modules
 * already exists and only the lock changed (a teammate added a package), `npm install` brings
 * it up to date in place: `npm ci` would delete node_modules under whatever is running from it.
 */
export function ensureNodeModules() {
  const stamp = join(ROOT, 'node_modules', '.install-stamp');
  const want = dependencyHash();
  if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === want) return;

  const started = Date.now();
  const hasLock = existsSync(join(ROOT, 'package-lock.json'));
  const fresh = !existsSync(join(ROOT, 'node_modules'));
  const args = hasLock && fresh ? ['ci', '--no-audit', '--no-fund'] : ['install', '--no-audit', '--no-fund'];
  log('deps', `node_modules is out of date: npm ${args.join(' ')}`);
  // Serialise with other installs on this machine that use the same convention.
  if (findOnPath('flock')) run('flock', [join(tmpdir(), 'npm.lock'), 'npm', ...args]);
  else run('npm', args);
  // `npm install` may have rewritten the lock: stamp what is there now.
  writeFileSync(stamp, dependencyHash() + '\n');
  log('deps', `installed in ${secondsSince(started)}`);
}

/**
 * Path of a Chromium for Playwright: CHROMIUM_PATH or /usr/bin/chromium, installed from
 * Debian's packages when missing and we are root (the machines here have no browser download).
 */
export function ensureChromium() {
  const path = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (existsSync(path)) return path;
  const isRoot = process.getuid?.() === 0;
  if (!isRoot || !findOnPath('apt-get')) {
    throw new Error(`no Chromium at ${path}: install it (Debian: apt-get install chromium) ` +
      'or set CHROMIUM_PATH to a Chromium/Chrome binary');
  }
  const started = Date.now();
  log('deps', `${path} is missing: apt-get install chromium`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // Wait for a dpkg lock held by another apt run instead of failing at once.
  const lockWait = ['-o', 'DPkg::Lock::Timeout=600'];
  run('apt-get', [...lockWait, 'update', '-q'], { env });
  run('apt-get', [...lockWait, 'install', '-y', '-q', 'chromium'], { env });
  if (!existsSync(path)) throw new Error(`apt-get installed chromium but ${path} does not exist; set CHROMIUM_PATH`);
  log('deps', `chromium installed in ${secondsSince(started)}`);
  return path;
}
