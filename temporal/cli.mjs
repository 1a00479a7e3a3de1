// Locates the `temporal` CLI, or builds it once into a per-user cache outside the clone.
//
// Plain Node ESM with no dependencies: it runs on a fresh clone before `npm install`.
//
// Order: `temporal` on PATH → the cache → `go install` into the cache → (no Go) the release
// tarball from temporal.download. An existing binary is never rebuilt.
//
// v1.5.1 is pinned on purpose: later tags carry a `replace` directive in go.mod, which
// `go install pkg@version` refuses (see shared/notes/library-facts.md §1a).

import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, openSync, closeSync, writeSync,
  readFileSync, rmSync, renameSync, createWriteStream } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';

export const TEMPORAL_CLI_VERSION = '1.5.1';
const MODULE = 'github.com/temporalio/cli';

const say = (msg) => console.log(`[temporal-cli] ${msg}`);

/** `${XDG_CACHE_HOME:-~/.cache}/crisis-platform/temporal-1.5.1` */
export function temporalCacheDir() {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'crisis-platform', `temporal-${TEMPORAL_CLI_VERSION}`);
}

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Like `which`: the first executable `name` on PATH, or null. */
export function findOnPath(name) {
  for (const dir of (process.env.PATH || '').split(delimiter)) {
    if (dir && isExecutable(join(dir, name))) return join(dir, name);
  }
  return null;
}

/**
 * Returns the path of a `temporal` binary, building or downloading it the first time.
 * Concurrent callers (two `npm test` at once) serialise on a lock file in the cache dir;
 * the second one finds the binary the first one built.
 */
export async function ensureTemporalCli() {
  const onPath = findOnPath('temporal');
  if (onPath) return onPath;

  const dir = temporalCacheDir();
  const bin = join(dir, 'temporal');
  if (isExecutable(bin)) return bin;

  mkdirSync(dir, { recursive: true });
  const release = await acquireLock(join(dir, '.build.lock'));
  try {
    if (isExecutable(bin)) return bin; // another process finished it while we waited
    if (findOnPath('go')) await goInstall(dir);
    else await downloadRelease(dir);
    if (!isExecutable(bin)) throw new Error(`the build finished but ${bin} is not there`);
    say(`ready: ${bin}`);
    return bin;
  } finally {
    release();
  }
}

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM'; // exists, owned by someone else
  }
}

/** An exclusive lock file holding our pid; a lock whose pid is gone is stale and taken over. */
async function acquireLock(lockFile) {
  let announced = false;
  for (;;) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        rmSync(lockFile, { force: true });
      };
      process.once('exit', release);
      return release;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
    const holder = Number.parseInt(readFileSync(lockFile, 'utf8'), 10);
    if (!holder || !pidAlive(holder)) {
      rmSync(lockFile, { force: true }); // left by a killed build
      continue;
    }
    if (!announced) {
      say(`another process (pid ${holder}) is building the temporal CLI; waiting for it…`);
      announced = true;
    }
    await new Promise((r) => setTimeout(r, 2000));
  }
}

/** Runs a command, echoing its output with a prefix, printing a heartbeat while it is silent. */
function runWithProgress(cmd, args, env, label) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = [];
    const onData = (buf) => {
      for (const line of buf.toString().split('\n')) {
        if (!line.trim()) continue;
        tail = [...tail.slice(-40), line];
        // `go: downloading …` is hundreds of lines; print every line only when asked to.
        if (process.env.TEMPORAL_BUILD_VERBOSE || !line.startsWith('go: downloading')) say(line);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const beat = setInterval(() => {
      say(`${label}: still working (${Math.round((Date.now() - started) / 1000)} s)…`);
    }, 30_000);
    child.on('error', (err) => {
      clearInterval(beat);
      reject(err);
    });
    child.on('exit', (code, signal) => {
      clearInterval(beat);
      if (code === 0) resolve();
      else reject(new Error(`${label} failed (${signal ?? `exit ${code}`}):\n${tail.join('\n')}`));
    });
  });
}

async function goInstall(dir) {
  const started = Date.now();
  say(`building temporal CLI v${TEMPORAL_CLI_VERSION} with Go into ${dir}`);
  say('this happens once per machine and takes several minutes (multi-GB Go build)…');
  // Install into a staging dir and rename, so an interrupted build never leaves a truncated
  // binary at the final path (which would then be trusted forever).
  const staging = join(dir, '.staging');
  rmSync(staging, { recursive: true, force: true });
  const env = {
    ...process.env,
    // The SQLite driver is pure Go (modernc.org/sqlite); releases are built without cgo too.
    CGO_ENABLED: '0',
    GOBIN: staging,
  };
  await runWithProgress('go', [
    'install',
    '-ldflags', `-X ${MODULE}/temporalcli.Version=${TEMPORAL_CLI_VERSION}`,
    `${MODULE}/cmd/temporal@v${TEMPORAL_CLI_VERSION}`,
  ], env, 'go install');
  renameSync(join(staging, 'temporal'), join(dir, 'temporal'));
  rmSync(staging, { recursive: true, force: true });
  say(`built in ${Math.round((Date.now() - started) / 1000)} s`);
}

/** No Go toolchain: fetch the official release archive (needs internet access). */
async function downloadRelease(dir) {
  const platform = { linux: 'linux', darwin: 'darwin' }[process.platform];
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch];
  if (!platform || !arch) {
    throw new Error(`no Go toolchain and no temporal release for ${process.platform}/${process.arch}; ` +
      'install Go ≥1.25 or put `temporal` on PATH');
  }
  const url = `https://temporal.download/cli/archive/v${TEMPORAL_CLI_VERSION}?platform=${platform}&arch=${arch}`;
  say(`\`go\` not found: downloading ${url}`);
  const hint = 'install Go ≥1.25 (the CLI is then built from source) or put `temporal` on PATH';
  const archive = join(dir, `temporal-${TEMPORAL_CLI_VERSION}.tar.gz.part`);
  try {
    const res = await fetch(url, { redirect: 'follow' });
    if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
    await pipeline(Readable.fromWeb(res.body), createWriteStream(archive));
  } catch (err) {
    rmSync(archive, { force: true });
    throw new Error(`could not download the temporal CLI (${err.cause?.code ?? err.message}); ${hint}`);
  }
  const staging = join(dir, '.extract');
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging);
  await runWithProgress('tar', ['-xzf', archive, '-C', staging], process.env, 'tar');
  if (!existsSync(join(staging, 'temporal'))) throw new Error(`no \`temporal\` binary in ${url}`);
  renameSync(join(staging, 'temporal'), join(dir, 'temporal'));
  rmSync(staging, { recursive: true, force: true });
  rmSync(archive, { force: true });
}

// `node temporal/cli.mjs` prints the path (building the CLI if needed).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  ensureTemporalCli().then((p) => console.log(p), (err) => {
    console.error(err.message);
    process.exit(1);
  });
}
