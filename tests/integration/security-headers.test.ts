/**
 * Security headers on every kind of answer the server gives a browser: the UI's pages and files,
 * the API, and the identity server at /identity (whose own sign-in page headers must survive).
 * The stack under test is plain http, so no HSTS here (api/src/common/security-headers.spec.ts
 * covers the https case).
 */
import { createHash } from 'crypto';
import { API_URL } from '../support/api';
import { startSignIn } from '../support/oidc-client';

jest.setTimeout(60_000);

/** The CSP header as directive → sources. */
function csp(res: Response): Record<string, string[]> {
  const header = res.headers.get('content-security-policy');
  expect(header).toBeTruthy();
  const out: Record<string, string[]> = {};
  for (const part of header!.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) out[name.toLowerCase()] = sources;
  }
  return out;
}

const get = (path: string, init?: RequestInit) => fetch(API_URL + path, { redirect: 'manual', ...init });

function expectCommonHeaders(res: Response) {
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  // Plain http: HSTS would be ignored by browsers and would lock a mis-set-up host out.
  expect(res.headers.get('strict-transport-security')).toBeNull();
}

describe('security headers', () => {
  const wsOrigin = API_URL.replace(/^http/, 'ws');

  it.each(['/', '/dashboard', '/cases/123'])('the UI page %s: a CSP without inline script, no framing', async (path) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const policy = csp(res);
    expect(policy['default-src']).toEqual(["'self'"]);
    // Scripts of the origin only: no inline script, no other host, no data: or blob: URL.
    // ('unsafe-eval': the forms' JSON Schemas are compiled by ajv in the browser.)
    expect(policy['script-src']).toContain("'self'");
    for (const source of policy['script-src']) expect(["'self'", "'unsafe-eval'"]).toContain(source);
    expect(policy['script-src-attr']).toEqual(["'none'"]);
    expect(policy['object-src']).toEqual(["'none'"]);
    expect(policy['base-uri']).toEqual(["'none'"]);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    // The API and the live channel (socket.io over a websocket on the same origin).
    expect(policy['connect-src']).toEqual(expect.arrayContaining(["'self'", wsOrigin]));
    // Avatars and previews of files being uploaded.
    expect(policy['img-src']).toEqual(expect.arrayContaining(["'self'", 'data:', 'blob:']));
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expectCommonHeaders(res);

    // The page itself carries no inline script the policy would have to allow.
    const html = await res.text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/\bsrc=/);
      expect(body.trim()).toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
  });

  it("the UI's script files carry the same policy", async () => {
    const html = await (await get('/')).text();
    const src = /<script\b[^>]*\bsrc="([^"]+)"/i.exec(html)![1];
    const res = await get(src);
    expect(res.status).toBe(200);
    expect(csp(res)['frame-ancestors']).toEqual(["'none'"]);
    expectCommonHeaders(res);
  });

  it('the silent sign-in page may be framed by the UI itself, and by nobody else', async () => {
    const res = await get('/silent-renew.html');
    expect(res.status).toBe(200);
    const policy = csp(res);
    expect(policy['frame-ancestors']).toEqual(["'self'"]);
    for (const source of policy['script-src']) expect(["'self'", "'unsafe-eval'"]).toContain(source);
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expectCommonHeaders(res);
  });

  it.each([
    ['an answer', '/api/settings', 200],
    ['a refusal', '/api/user/context', 401],
    ['an unknown path', '/api/no-such-thing', 404],
  ])('the API (%s): nothing may run or be framed', async (_what, path, status) => {
    const res = await get(path);
    expect(res.status).toBe(status);
    const policy = csp(res);
    expect(policy['default-src']).toEqual(["'none'"]);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expectCommonHeaders(res);
  });

  it("the identity server's endpoints get the headers, and its sign-in page keeps its own policy", async () => {
    const discovery = await get('/identity/.well-known/openid-configuration');
    expect(discovery.status).toBe(200);
    expect(csp(discovery)['default-src']).toEqual(["'none'"]);
    expect(csp(discovery)['frame-ancestors']).toEqual(["'none'"]);
    expectCommonHeaders(discovery);

    const { page } = await startSignIn();
    expect(page.status).toBe(200);
    const res = new Response(null, { headers: page.headers });
    const policy = csp(res);
    // The sign-in page's own policy (identity.server.ts): styles inline, no script at all.
    expect(policy['default-src']).toEqual(["'none'"]);
    expect(policy['style-src']).toEqual(["'unsafe-inline'"]);
    expect(policy['script-src']).toBeUndefined();
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-correlation-id')).toBeTruthy();
    expectCommonHeaders(res);
  });

  it("the identity server's own auto-submitting sign-out form still runs: its inline script's hash is allowed", async () => {
    // Without a session, oidc-provider answers end_session with its own form and inline script,
    // and adds that script's hash to the policy's script-src.
    const res = await get('/identity/session/end');
    expect(res.status).toBe(200);
    const html = await res.text();
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1];
    const hash = `'sha256-${createHash('sha256').update(script).digest('base64')}'`;
    const policy = csp(res);
    expect(policy['script-src']).toContain(hash);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    expectCommonHeaders(res);
  });
});
