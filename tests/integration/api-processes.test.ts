/**
 * Several API processes behind one port (API_PROCESSES, api/src/main.ts): a user signs in and works
 * whichever process answers each request, a process that dies is replaced while the others go on
 * answering, and stopping the API stops them all. Runs its own API (same database) on a free port.
 */
import { execFileSync, spawn, type ChildProcess } from 'child_process';
import path from 'path';
import { freePort } from '../support/ports';
import { UserType } from '@crisis/forms';
import type * as OidcClient from '../support/oidc-client';

jest.setTimeout(120_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The API processes the primary runs (its children). */
function children(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

async function until<T>(what: string, read: () => T | Promise<T>, ok: (v: T) => boolean, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(v)} after ${ms} ms`);
    await sleep(250);
  }
}

describe('two API processes on one port', () => {
  let api: ChildProcess;
  let output = '';
  let baseUrl: string;
  let oidc: typeof OidcClient;

  beforeAll(async () => {
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    api = spawn(process.execPath, [path.resolve(__dirname, '../../api/dist/main.js')], {
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: baseUrl, NODE_ENV: 'development', API_PROCESSES: '2' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    api.stdout!.on('data', (b: Buffer) => (output += b.toString()));
    api.stderr!.on('data', (b: Buffer) => (output += b.toString()));
    await until('the API answering', () => (api.exitCode !== null ? 'exited' : fetch(`${baseUrl}/api/health`).then((r) => r.status, () => 0)), (s) => s === 200 || s === 'exited', 90_000);
    if (api.exitCode !== null) throw new Error(`the API exited: ${output.slice(-1000)}`);
    // Both processes listen once both have started; the first may answer alone for a moment.
    await until('two API processes', () => children(api.pid!).length, (n) => n === 2);
    process.env.API_URL = baseUrl;
    oidc = require('../support/oidc-client');
  });

  afterAll(async () => {
    if (!api || api.exitCode !== null) return;
    api.kill('SIGKILL');
  });

  it('signs a user in and serves her requests, whichever process answers each one', async () => {
    const { accessToken } = await oidc.signInAs(UserType.ItpAdmin);
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () => fetch(`${baseUrl}/api/user/context`, { headers: { authorization: `Bearer ${accessToken}` } }).then((r) => r.status)),
    );
    expect(statuses).toEqual(Array(20).fill(200));
  });

  it('replaces a process that dies, and the other one answers meanwhile', async () => {
    const [victim, survivor] = children(api.pid!);
    process.kill(victim, 'SIGKILL');
    await until('the survivor answering', () => fetch(`${baseUrl}/api/health`).then((r) => r.status, () => 0), (s) => s === 200, 5_000);
    const now = await until('a new second process', () => children(api.pid!), (pids) => pids.length === 2 && !pids.includes(victim), 60_000);
    expect(now).toContain(survivor);
    expect(output).toMatch(new RegExp(`API process ${victim} exited`));
  });

  it('stops every process on SIGTERM', async () => {
    const pids = children(api.pid!);
    const exited = new Promise<number | null>((r) => api.once('exit', (code) => r(code)));
    api.kill('SIGTERM');
    expect(await Promise.race([exited, sleep(20_000).then(() => 'still running')])).toBe(0);
    const alive = pids.filter((pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
    expect(alive).toEqual([]);
  });
});
