import Fastify from 'fastify';
import helmet from '@fastify/helmet';
import { policyFor, securityHeaders } from './security-headers';

/** The headers a Fastify server with these settings answers GET `path` with (helmet, then the path's policy). */
async function headersOf(publicUrl: string, path: string) {
  const security = securityHeaders(publicUrl);
  const app = Fastify();
  await app.register(helmet, security.helmet);
  app.addHook('onRequest', (req, reply, done) => {
    security.applyPathPolicy(req.raw.url ?? '/', reply.raw);
    done();
  });
  app.get('/*', async () => 'ok');
  const res = await app.inject({ method: 'GET', url: path });
  await app.close();
  return res.headers;
}

describe('security headers', () => {
  it('sends HSTS and upgrades insecure requests only when the public URL is https', async () => {
    const tls = await headersOf('https://crisis.example.org', '/dashboard');
    expect(tls['strict-transport-security']).toMatch(/max-age=31536000; includeSubDomains/);
    expect(tls['content-security-policy']).toContain('upgrade-insecure-requests');
    expect(tls['content-security-policy']).toContain('connect-src \'self\' wss://crisis.example.org');
    expect(securityHeaders('https://crisis.example.org').standalone['strict-transport-security']).toMatch(/max-age=31536000/);

    const plain = await headersOf('http://localhost:3000', '/dashboard');
    expect(plain['strict-transport-security']).toBeUndefined();
    expect(plain['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(plain['content-security-policy']).toContain('connect-src \'self\' ws://localhost:3000');
    expect(securityHeaders('http://localhost:3000').standalone['strict-transport-security']).toBeUndefined();
  });

  it('lets only the silent sign-in page be framed, and only by the UI itself', async () => {
    const page = await headersOf('https://crisis.example.org', '/dashboard');
    expect(page['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page['x-frame-options']).toBe('DENY');
    const silent = await headersOf('https://crisis.example.org', '/silent-renew.html?code=x&state=y');
    expect(silent['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(silent['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('gives the API and the identity server policies of their own', async () => {
    const api = await headersOf('https://crisis.example.org', '/api/cases');
    expect(api['content-security-policy']).toMatch(/^default-src 'none'/);
    const identity = await headersOf('https://crisis.example.org', '/identity/.well-known/openid-configuration');
    expect(identity['content-security-policy']).toMatch(/^default-src 'none'/);
    expect(identity['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it.each([
    ['/api/cases/1', 'api'],
    ['/api', 'api'],
    ['/socket.io/?EIO=4', 'api'],
    ['/identity/auth?prompt=none', 'identity'],
    ['/silent-renew.html?code=1', 'ui-frameable'],
    ['/apiary', 'ui'],
    ['/identityx', 'ui'],
    ['/cases/12', 'ui'],
    ['/assets/main.js', 'ui'],
  ])('%s gets the %s policy', (path, policy) => {
    expect(policyFor(path)).toBe(policy);
  });
});
