/**
 * The sign-in's life on the server (spec 03 §2, §9 auto-logout): a refresh token left unused for
 * longer than the idle time is refused, each use rotates it and restarts the idle clock, and
 * nothing outlives the absolute cap. The identity server's session (what a page reload signs in
 * again with, prompt=none) follows the same clock and is kept alive by refreshes.
 *
 * The idle time is 15 minutes in production; this file runs its own API process (same database)
 * with SESSION_IDLE_SECONDS / SESSION_MAX_SECONDS of a few seconds, so the stack under test keeps
 * the spec's values for every other suite.
 */
import { spawn, type ChildProcess } from 'child_process';
import path from 'path';
import { freePort } from '../support/ports';
import type * as OidcClient from '../support/oidc-client';

jest.setTimeout(120_000);

const IDLE_SECONDS = 6;
const MAX_SECONDS = 16;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('session lifetime on the server', () => {
  let api: ChildProcess | undefined;
  let output = '';
  let baseUrl: string;
  let oidc: typeof OidcClient;
  let user: { email: string; password: string };

  beforeAll(async () => {
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    api = spawn(process.execPath, [path.resolve(__dirname, '../../api/dist/main.js')], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: baseUrl,
        NODE_ENV: 'development',
        SESSION_IDLE_SECONDS: String(IDLE_SECONDS),
        SESSION_MAX_SECONDS: String(MAX_SECONDS),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    api.stdout!.on('data', (b: Buffer) => (output += b.toString()));
    api.stderr!.on('data', (b: Buffer) => (output += b.toString()));
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (api.exitCode !== null) throw new Error(`the API exited (${api.exitCode}): ${output.slice(-1000)}`);
      const ok = await fetch(`${baseUrl}/api/health`).then((r) => r.ok, () => false);
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`the API did not start: ${output.slice(-1000)}`);
      await sleep(250);
    }
    // The helpers talk to API_URL, read when they are loaded: load them for this API.
    process.env.API_URL = baseUrl;
    oidc = require('../support/oidc-client');
    const demo = (await oidc.loadDemoUsers()).find((u) => u.role === 'IntegratedTelehealthPartners_User')!;
    user = { email: demo.email, password: demo.password };
  });

  afterAll(async () => {
    if (!api || api.exitCode !== null) return;
    let timer: NodeJS.Timeout | undefined;
    const exited = new Promise((r) => api!.once('exit', r));
    api.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 10_000)))]);
    clearTimeout(timer);
    if (api.exitCode === null) api.kill('SIGKILL');
  });

  /** An authorization request with prompt=none, as the UI's hidden iframe sends it after a reload. */
  async function silentSignIn(browser: OidcClient.Browser): Promise<URLSearchParams> {
    const pkce = oidc.newPkce();
    const params = new URLSearchParams({
      client_id: oidc.CLIENT_ID,
      response_type: 'code',
      scope: oidc.DEFAULT_SCOPE,
      redirect_uri: oidc.REDIRECT_URI,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
      state: pkce.state,
      nonce: pkce.nonce,
      prompt: 'none',
    });
    const page = await browser.navigate(`${baseUrl}/identity/auth?${params}`);
    expect(page.leftTo?.href.split('?')[0]).toBe(oidc.REDIRECT_URI);
    return page.leftTo!.searchParams;
  }

  const refreshFails = async (refreshToken: string) => {
    const err = await oidc.refresh(refreshToken).then(() => null, (e) => e);
    expect(err).toBeInstanceOf(oidc.TokenError);
    expect(err.body.error).toBe('invalid_grant');
  };

  it('use rotates the refresh token and keeps the sign-in alive; left unused for the idle time, it is refused', async () => {
    const started = Date.now();
    const signedIn = await oidc.signIn(user);
    expect(signedIn.refreshToken).toBeTruthy();

    // Used at intervals shorter than the idle time, for longer than the idle time in all.
    let current = signedIn.refreshToken;
    while (Date.now() - started < (IDLE_SECONDS + 2) * 1000) {
      await sleep((IDLE_SECONDS * 1000) / 2);
      const next = await oidc.refresh(current);
      expect(next.refreshToken).not.toBe(current);
      current = next.refreshToken;
    }
    // The identity session was kept alive by the refreshes too: a reload signs in silently.
    expect((await silentSignIn(signedIn.browser)).get('code')).toBeTruthy();

    // Then nothing for longer than the idle time: the refresh token and the session are over.
    await sleep((IDLE_SECONDS + 2) * 1000);
    await refreshFails(current);
    expect((await silentSignIn(signedIn.browser)).get('error')).toBe('login_required');
  });

  it('nothing outlives the absolute cap, however active the user is', async () => {
    const started = Date.now();
    const signedIn = await oidc.signIn(user);
    let current = signedIn.refreshToken;
    let lastGood = 0;
    for (;;) {
      await sleep((IDLE_SECONDS * 1000) / 2);
      const elapsed = (Date.now() - started) / 1000;
      const next = await oidc.refresh(current).catch(() => null);
      if (!next) {
        // Refused only once the cap is reached, not before.
        expect(elapsed).toBeGreaterThanOrEqual(MAX_SECONDS - 1);
        break;
      }
      lastGood = elapsed;
      current = next.refreshToken;
      expect(elapsed).toBeLessThan(MAX_SECONDS + 1);
    }
    expect(lastGood).toBeGreaterThan(IDLE_SECONDS);
    // The identity session ends at the same cap: a reload no longer signs in, even though each visit
    // renews a session's idle time (the adapter refuses a session past the cap from its sign-in).
    expect((await silentSignIn(signedIn.browser)).get('error')).toBe('login_required');
  });
});
