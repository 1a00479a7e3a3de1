/**
 * Refusals raised by the HTTP framework itself (Fastify's router and body parsing, Node's HTTP
 * parser, the CORS plugin), before any of our handlers runs: each still answers with the coded
 * error of spec 03 §8 (body and x-error header) and a correlation id, and with the security headers.
 */
import http from 'http';
import { API_URL, api } from '../support/api';
import { signInAs } from '../support/oidc-client';

jest.setTimeout(60_000);

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * A raw HTTP/1.1 request (fetch refuses some of these, e.g. headers of 20 kB). With `declaredLength`
 * the body is only begun: the server refuses on the Content-Length header, and a client still
 * writing megabytes into a connection the server closed would only see EPIPE.
 */
function raw(method: string, path: string, headers: Record<string, string> = {}, body?: string, declaredLength?: number): Promise<Answer> {
  const url = new URL(API_URL);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') });
        req.destroy();
      });
    });
    req.on('error', reject);
    if (declaredLength !== undefined) {
      req.setHeader('content-length', String(declaredLength));
      req.write(body ?? '');
    } else if (body !== undefined) req.end(body);
    else req.end();
  });
}

/** The coded error of spec 03 §8: code and message in the body and the x-error header, one correlation id. */
function expectCoded(answer: Answer, status: number, code: string) {
  expect(answer.status).toBe(status);
  expect(String(answer.headers['content-type'])).toMatch(/^application\/json/);
  const body = JSON.parse(answer.text);
  expect(body).toEqual(expect.objectContaining({ code, defaultMessage: expect.any(String), correlationId: expect.any(String) }));
  expect(body.defaultMessage.length).toBeGreaterThan(0);
  // Nothing of the framework's own vocabulary leaks out.
  expect(answer.text).not.toMatch(/FST_|statusCode|"error"/);
  const header = JSON.parse(String(answer.headers['x-error']));
  expect(header).toEqual(expect.objectContaining({ code, defaultMessage: body.defaultMessage }));
  expect(answer.headers['x-correlation-id']).toBe(body.correlationId);
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  return body;
}

describe('framework refusals are coded errors', () => {
  let token: string;

  beforeAll(async () => {
    token = (await signInAs('IntegratedTelehealthPartners_Admin')).accessToken;
  });

  it("an id of 121 digits (beyond the router's parameter length) → 414 INV", async () => {
    const answer = await raw('GET', `/api/facilities/${'1'.repeat(121)}`, { authorization: `Bearer ${token}` });
    expectCoded(answer, 414, 'INV');
  });

  it('the caller\'s correlation id is kept on a router refusal', async () => {
    const answer = await raw('GET', `/api/facilities/${'9'.repeat(121)}`, { 'x-correlation-id': 'router-refusal-0001' });
    expect(expectCoded(answer, 414, 'INV').correlationId).toBe('router-refusal-0001');
  });

  it('a path that is not valid percent-encoding → 400 INV', async () => {
    expectCoded(await raw('GET', '/api/facilities/%E0%A4%A'), 400, 'INV');
  });

  it.each(['GET', 'POST', 'DELETE'])('an unknown API path (%s) → 404 NTFND', async (method) => {
    expectCoded(await raw(method, '/api/no-such-thing', { authorization: `Bearer ${token}` }), 404, 'NTFND');
  });

  it('a body over the size limit → 413 INV', async () => {
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const answer = await raw('POST', '/api/facilities', headers, '{"name":"', 22 * 1024 * 1024);
    expectCoded(answer, 413, 'INV');
  });

  it('a body of a type the API does not read → 415 INV', async () => {
    const answer = await raw('POST', '/api/facilities', { authorization: `Bearer ${token}`, 'content-type': 'application/xml' }, '<facility/>');
    expectCoded(answer, 415, 'INV');
  });

  it('request headers over the size limit → 431 INV', async () => {
    const answer = await raw('GET', '/api/settings', { 'x-padding': 'a'.repeat(20_000) });
    expectCoded(answer, 431, 'INV');
  });

  it("an OPTIONS request that is not a CORS preflight (the CORS plugin's refusal) → 400 INV", async () => {
    expectCoded(await raw('OPTIONS', '/api/facilities'), 400, 'INV');
  });

  it('a refusal of our own keeps its detail (the framework handlers do not replace it)', async () => {
    const res = await api('POST', '/api/facilities', { token, body: {} });
    expect(res.status).toBe(400);
    expect(res.error?.code).toBe('INV');
    expect(res.body.fields.length).toBeGreaterThan(0);
  });
});
