// A production-like Temporal server: the `server` binary of go.temporal.io/server (not the CLI's
// single-process dev server) with PostgreSQL persistence and visibility, and several history
// shards. `npm run bench` starts it with BENCH_PROFILE=production, on the bench's own PostgreSQL.
// Plain Node ESM with no dependencies, like cli.mjs.
//
// The binaries (`server`, and `sql`, which creates and upgrades the schemas) are built once with
// `go install` into ${XDG_CACHE_HOME:-~/.cache}/crisis-platform/temporal-server-<version>, with the
// schema files copied beside them (shared/notes/library-facts.md §1d: about 3 minutes on 2 cores).

import { spawn, execFileSync } from 'node:child_process';
import { accessSync, constants, cpSync, existsSync, mkdirSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ensureTemporalCli } from './cli.mjs';
import { canConnect, DEV_DYNAMIC_CONFIG } from './dev-server.mjs';

export const TEMPORAL_SERVER_VERSION = '1.29.1';
const MODULE = 'go.temporal.io/server';
const say = (msg) => console.log(`[temporal-server] ${msg}`);

export function temporalServerDir() {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'crisis-platform', `temporal-server-${TEMPORAL_SERVER_VERSION}`);
}

const isExecutable = (file) => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The directory holding `server`, `sql` and `schema/`, building them the first time. */
export function ensureTemporalServer() {
  const dir = temporalServerDir();
  if (isExecutable(join(dir, 'server')) && isExecutable(join(dir, 'sql')) && existsSync(join(dir, 'schema'))) return dir;
  mkdirSync(dir, { recursive: true });
  say(`building Temporal server v${TEMPORAL_SERVER_VERSION} with Go into ${dir} (once; several minutes)`);
  const env = { ...process.env, CGO_ENABLED: '0', GOBIN: dir };
  execFileSync('go', ['install', `${MODULE}/cmd/server@v${TEMPORAL_SERVER_VERSION}`, `${MODULE}/cmd/tools/sql@v${TEMPORAL_SERVER_VERSION}`], { env, stdio: 'inherit' });
  const modCache = execFileSync('go', ['env', 'GOMODCACHE'], { encoding: 'utf8' }).trim();
  cpSync(join(modCache, `${MODULE}@v${TEMPORAL_SERVER_VERSION}`, 'schema', 'postgresql', 'v12'), join(dir, 'schema'), { recursive: true });
  return dir;
}

/** Server configuration: PostgreSQL stores, `shards` history shards, every port from `port` up. */
function configYaml({ pg, port, shards, databases }) {
  const store = (db, maxConns) => `
      sql:
        pluginName: "postgres12"
        databaseName: "${db}"
        connectAddr: "${pg.host}:${pg.port}"
        connectProtocol: "tcp"
        user: "${pg.user}"
        password: "${pg.password}"
        maxConns: ${maxConns}
        maxIdleConns: ${maxConns}
        maxConnLifetime: "1h"`;
  const service = (grpc, membership, extra = '') => `
    rpc:
      grpcPort: ${grpc}
      membershipPort: ${membership}
      bindOnLocalHost: true${extra}`;
  return `log:
  stdout: true
  level: error
persistence:
  defaultStore: default
  visibilityStore: visibility
  numHistoryShards: ${shards}
  datastores:
    default:${store(databases.main, 20)}
    visibility:${store(databases.visibility, 4)}
global:
  membership:
    maxJoinDuration: 30s
    broadcastAddress: "127.0.0.1"
services:
  frontend:${service(port, port + 100, `\n      httpPort: ${port + 10}`)}
  history:${service(port + 1, port + 101)}
  matching:${service(port + 2, port + 102)}
  worker:${service(port + 6, port + 106)}
clusterMetadata:
  enableGlobalNamespace: false
  failoverVersionIncrement: 10
  masterClusterName: "active"
  currentClusterName: "active"
  clusterInformation:
    active:
      enabled: true
      initialFailoverVersion: 1
      rpcName: "frontend"
      rpcAddress: "127.0.0.1:${port}"
dcRedirectionPolicy:
  policy: "noop"
dynamicConfigClient:
  filepath: "config/dynamicconfig.yaml"
  pollInterval: "60s"
`;
}

/** The dev server's dynamic config (workflow updates, update-with-start) in the server's file format. */
function dynamicConfigYaml() {
  return DEV_DYNAMIC_CONFIG.map((kv) => {
    const [key, value] = kv.split('=');
    return `${key}:\n  - value: ${value}\n`;
  }).join('');
}

/**
 * Creates (when missing) the two databases and their schemas, writes the configuration, starts
 * the server and registers `namespace`. Resolves with the child (own process group) once the
 * frontend answers and the namespace exists.
 * @param {{ pg: { host: string, port: number, user: string, password: string }, port: number,
 *   shards?: number, namespace?: string, runDir: string, logDir?: string, databasePrefix?: string }} o
 */
export async function startTemporalCluster(o) {
  const { pg, port, shards = 8, namespace = 'default', runDir, logDir, databasePrefix = 'temporal' } = o;
  if (await canConnect(port)) throw new Error(`port ${port} is already in use: another Temporal server is running?`);
  const dir = ensureTemporalServer();
  const databases = { main: databasePrefix, visibility: `${databasePrefix}_visibility` };
  const sql = (db, ...args) =>
    execFileSync(join(dir, 'sql'), ['--plugin', 'postgres12', '--ep', pg.host, '-p', String(pg.port), '-u', pg.user, '--pw', pg.password, '--db', db, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
    });
  for (const [db, schema] of [[databases.main, 'temporal'], [databases.visibility, 'visibility']]) {
    try {
      sql(db, 'create-database');
      sql(db, 'setup-schema', '-v', '0.0');
    } catch (err) {
      if (!/already exists/i.test(String(err.stderr ?? err.message))) throw err;
    }
    sql(db, 'update-schema', '-d', join(dir, 'schema', schema, 'versioned'));
  }

  const root = join(runDir, 'temporal-cluster');
  rmSync(join(root, 'config'), { recursive: true, force: true });
  mkdirSync(join(root, 'config'), { recursive: true });
  writeFileSync(join(root, 'config', 'production.yaml'), configYaml({ pg, port, shards, databases }));
  writeFileSync(join(root, 'config', 'dynamicconfig.yaml'), dynamicConfigYaml());

  let stdio = ['ignore', 'pipe', 'pipe'];
  if (logDir) {
    mkdirSync(logDir, { recursive: true });
    const fd = openSync(join(logDir, 'temporal.log'), 'a');
    stdio = ['ignore', fd, fd];
  }
  const child = spawn(join(dir, 'server'), ['--root', root, '--config', 'config', '--env', 'production', '--allow-no-auth', 'start'], {
    stdio,
    detached: true,
    cwd: root,
  });
  const address = `127.0.0.1:${port}`;
  child.address = address;
  const deadline = Date.now() + 120_000;
  const cli = await ensureTemporalCli();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the Temporal server exited with code ${child.exitCode} (log: ${logDir ?? 'stdout'})`);
    if (await canConnect(port)) {
      try {
        execFileSync(cli, ['operator', 'namespace', 'describe', '--address', address, '-n', namespace], { stdio: 'ignore' });
        break;
      } catch {
        try {
          execFileSync(cli, ['operator', 'namespace', 'create', '--address', address, '-n', namespace, '--retention', '24h'], { stdio: 'ignore' });
          // Every service reads a new namespace from its registry's cache, refreshed every 10 s.
          await new Promise((r) => setTimeout(r, 11_000));
        } catch {
          // the frontend answers before the history shards are owned: try again shortly
        }
      }
    }
    if (Date.now() > deadline) {
      process.kill(-child.pid, 'SIGKILL');
      throw new Error('the Temporal server did not answer within 120 s');
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  say(`${shards} history shards on PostgreSQL ${pg.host}:${pg.port} (${databases.main}, ${databases.visibility}), frontend ${address}`);
  return child;
}
