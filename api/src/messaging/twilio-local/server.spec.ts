import http from 'node:http';
import twilio from 'twilio';
import type RequestClient from 'twilio/lib/base/RequestClient';
import { createTwilioLocal, type LocalCall, type LocalMessage, type TwilioLocal } from './server';

const ACCOUNT_SID = 'AC' + '0123456789abcdef'.repeat(2);
const AUTH_TOKEN = 'local-test-token';
const FROM = '+15550001111';
const TO = '+15550002222';

/** The twilio SDK, rebased onto twilio-local the way the product's outbox does it. */
class LocalRequestClient extends twilio.RequestClient {
  constructor(private readonly base: string) {
    super();
  }
  override request<T>(opts: RequestClient.RequestOptions<T>) {
    opts.uri = opts.uri.replace(/^https:\/\/api\.twilio\.com/, this.base);
    return super.request<T>(opts);
  }
}

interface Received {
  path: string;
  url: string;
  params: Record<string, string>;
  signature: string;
  valid: boolean;
}

/** A stand-in for the app: records every webhook, checks its signature, answers TwiML by path. */
function startApp() {
  const received: Received[] = [];
  const routes: Partial<Record<string, (p: Record<string, string>) => string>> = {
    '/voice': () => '<?xml version="1.0" encoding="UTF-8"?><Response>'
      + '<Gather action="/voice/gather" method="POST" numDigits="1"><Say>Press 1 to confirm &amp; continue.</Say></Gather>'
      + '<Say>We did not get your answer.</Say><Hangup/><Say>never heard</Say></Response>',
    '/voice/gather': (p) => `<Response><Say>You pressed ${p.Digits}. Thank you.</Say></Response>`,
    '/sms-in': (p) => `<Response><Message>Got it: ${p.Body}</Message></Response>`,
  };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}${req.url}`;
      const params = Object.fromEntries(new URLSearchParams(body));
      const signature = String(req.headers['x-twilio-signature'] ?? '');
      const path = new URL(url).pathname;
      received.push({ path, url, params, signature, valid: twilio.validateRequest(AUTH_TOKEN, signature, url, params) });
      if (path === '/broken') {
        res.writeHead(500).end();
        return;
      }
      const route = routes[path];
      res.writeHead(200, { 'Content-Type': route ? 'text/xml' : 'text/plain' }).end(route ? route(params) : '');
    });
  });
  return new Promise<{ url: string; received: Received[]; close: () => Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({
      url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
      received,
      close: () => new Promise((done) => server.close(() => done())),
    }));
  });
}

/** JSON call to the control API (or any path), with optional basic auth. */
function request(base: string, method: string, path: string, body?: unknown, auth?: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? '' : JSON.stringify(body);
    const req = http.request(`${base}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...(auth ? { Authorization: `Basic ${Buffer.from(auth).toString('base64')}` } : {}) },
    }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    req.end(data);
  });
}

type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

/** Polls until probe returns something truthy, and returns that. */
async function waitFor<T>(probe: () => T | Promise<T>, what: string, timeoutMs = 5000): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function rejection(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

describe('twilio-local', () => {
  let app: Awaited<ReturnType<typeof startApp>>;
  let local: TwilioLocal;
  let client: twilio.Twilio;

  const messages = async (): Promise<LocalMessage[]> => (await request(local.url, 'GET', '/local/messages')).body;
  const calls = async (): Promise<LocalCall[]> => (await request(local.url, 'GET', '/local/calls')).body;
  const hooks = (path: string) => app.received.filter((r) => r.path === path);

  beforeAll(async () => {
    app = await startApp();
    local = await createTwilioLocal({
      accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, inboundSmsUrl: `${app.url}/sms-in`, callbackDelayMs: 10,
    });
    client = twilio(ACCOUNT_SID, AUTH_TOKEN, { httpClient: new LocalRequestClient(local.url) });
  });

  afterAll(async () => {
    await local.close();
    await app.close();
  });

  beforeEach(async () => {
    await request(local.url, 'POST', '/local/reset');
    app.received.length = 0;
  });

  it('sends an SMS and calls the status callback, signed, for sent and delivered', async () => {
    const msg = await client.messages.create({ to: TO, from: FROM, body: 'Your evaluation is at 3pm', statusCallback: `${app.url}/sms-status` });
    expect(msg.sid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(msg).toMatchObject({ status: 'queued', direction: 'outbound-api', to: TO, from: FROM, body: 'Your evaluation is at 3pm', accountSid: ACCOUNT_SID });
    expect(msg.dateCreated).toBeInstanceOf(Date);

    const callbacks = await waitFor(() => hooks('/sms-status').length === 2 && hooks('/sms-status'), 'two status callbacks');
    expect(callbacks.map((r) => r.params.MessageStatus)).toEqual(['sent', 'delivered']);
    for (const r of callbacks) {
      expect(r.valid).toBe(true);
      expect(r.params).toMatchObject({ MessageSid: msg.sid, SmsSid: msg.sid, AccountSid: ACCOUNT_SID, From: FROM, To: TO });
      // The signature proves the token and the content: another token or a changed field fails.
      expect(twilio.validateRequest('wrong-token', r.signature, r.url, r.params)).toBe(false);
      expect(twilio.validateRequest(AUTH_TOKEN, r.signature, r.url, { ...r.params, MessageStatus: 'failed' })).toBe(false);
    }

    const [stored] = await waitFor(async () => {
      const list = await messages();
      return list[0]?.callbacks.length === 2 && list;
    }, 'recorded callbacks');
    expect(stored).toMatchObject({ sid: msg.sid, direction: 'outbound', status: 'delivered' });
    expect(stored.callbacks.map((c) => [c.status, c.httpStatus])).toEqual([['sent', 200], ['delivered', 200]]);

    // The REST reads the SDK offers.
    expect((await client.messages(msg.sid).fetch()).status).toBe('delivered');
    expect((await client.messages.list({ to: TO })).map((m) => m.sid)).toEqual([msg.sid]);
    expect(await client.messages.list({ to: '+15559999999' })).toEqual([]);
  });

  it('refuses a bad To, a missing body and wrong credentials the way Twilio does', async () => {
    const badTo = await rejection(client.messages.create({ to: '555-1234', from: FROM, body: 'hi' }));
    expect(badTo).toBeInstanceOf(twilio.RestException);
    expect(badTo).toMatchObject({ status: 400, code: 21211 });
    expect(badTo.message).toContain("'To' number 555-1234");

    expect(await rejection(client.messages.create({ to: TO, from: FROM, body: '' }))).toMatchObject({ status: 400, code: 21602 });

    const stranger = twilio(ACCOUNT_SID, 'not-the-token', { httpClient: new LocalRequestClient(local.url) });
    expect(await rejection(stranger.messages.create({ to: TO, from: FROM, body: 'hi' }))).toMatchObject({ status: 401, code: 20003 });
    expect(await rejection(stranger.calls.list())).toMatchObject({ status: 401, code: 20003 });

    // Right credentials, someone else's account in the path.
    const other = await request(local.url, 'GET', `/2010-04-01/Accounts/AC${'f'.repeat(32)}/Messages.json`, undefined, `${ACCOUNT_SID}:${AUTH_TOKEN}`);
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ code: 20404, status: 404 });

    expect(await messages()).toEqual([]);
  });

  it('fails the next create on request and stores nothing for it', async () => {
    expect((await request(local.url, 'POST', '/local/faults', { failNext: 1 })).body).toEqual({ failRate: 0, failNext: 1 });
    expect(await rejection(client.messages.create({ to: TO, from: FROM, body: 'first' }))).toMatchObject({ status: 500, code: 20500 });
    expect(await messages()).toEqual([]);

    const ok = await client.messages.create({ to: TO, from: FROM, body: 'second' });
    expect((await messages()).map((m) => [m.sid, m.body])).toEqual([[ok.sid, 'second']]);
    expect((await request(local.url, 'GET', '/local/faults')).body).toEqual({ failRate: 0, failNext: 0 });
  });

  it('fails creates at the configured rate; only the accepted ones exist', async () => {
    await request(local.url, 'POST', '/local/faults', { failRate: 0.5 });
    const results = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => client.messages.create({ to: TO, from: FROM, body: `n${i}` })));
    const accepted = results.filter((r) => r.status === 'fulfilled').length;
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(accepted).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((r) => r.reason.status === 500)).toBe(true);
    expect(await messages()).toHaveLength(accepted);
    expect((await request(local.url, 'POST', '/local/faults', { failRate: 2 })).status).toBe(400);
  });

  it('places a call, fetches its TwiML, submits the pressed key and reports completion', async () => {
    const call = await client.calls.create({
      to: TO, from: FROM, url: `${app.url}/voice`,
      statusCallback: `${app.url}/call-status`, statusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
    });
    expect(call.sid).toMatch(/^CA[0-9a-f]{32}$/);
    expect(call.status).toBe('queued');

    await waitFor(async () => (await calls())[0]?.status === 'ringing', 'ringing');
    const answered = await request(local.url, 'POST', `/local/calls/${call.sid}/answer`, { digits: '1' });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ sid: call.sid, status: 'completed', digits: '1' });
    expect(answered.body.spoken).toEqual(['Press 1 to confirm & continue.', 'You pressed 1. Thank you.']);

    const [fetch] = hooks('/voice');
    expect(fetch).toMatchObject({ valid: true, params: { CallSid: call.sid, CallStatus: 'in-progress', Direction: 'outbound-api', From: FROM, To: TO } });
    const [gather] = hooks('/voice/gather');
    expect(gather).toMatchObject({ valid: true, params: { CallSid: call.sid, Digits: '1', CallStatus: 'in-progress' } });

    const statuses = await waitFor(() => hooks('/call-status').length === 4 && hooks('/call-status'), 'four call status callbacks');
    expect(statuses.map((r) => r.params.CallStatus)).toEqual(['initiated', 'ringing', 'in-progress', 'completed']);
    expect(statuses.every((r) => r.valid)).toBe(true);
    expect(Number(statuses[3].params.CallDuration)).toBeGreaterThanOrEqual(1);

    const fetched = await client.calls(call.sid).fetch();
    expect(fetched.status).toBe('completed');
    expect((await request(local.url, 'POST', `/local/calls/${call.sid}/answer`, {})).status).toBe(409);
  });

  it('goes on after a Gather nobody answers, and plays inline Twiml as the product sends it', async () => {
    const viaUrl = await client.calls.create({ to: TO, from: FROM, url: `${app.url}/voice` });
    const inline = new twilio.twiml.VoiceResponse();
    inline.say('Crisis case 42 needs an evaluator.');
    const viaTwiml = await client.calls.create({ to: TO, from: FROM, twiml: inline.toString() });
    await waitFor(async () => (await calls()).every((c) => c.status === 'ringing'), 'both ringing');

    const timedOut = (await request(local.url, 'POST', `/local/calls/${viaUrl.sid}/answer`)).body;
    // Hangup ends the call: the verb after it is never heard.
    expect(timedOut.spoken).toEqual(['Press 1 to confirm & continue.', 'We did not get your answer.']);
    expect(hooks('/voice/gather')).toEqual([]);

    const spoken = (await request(local.url, 'POST', `/local/calls/${viaTwiml.sid}/answer`, {})).body;
    expect(spoken).toMatchObject({ status: 'completed', spoken: ['Crisis case 42 needs an evaluator.'], twimlUrl: null });
  });

  it('reports an application error when the TwiML URL fails, without crashing', async () => {
    const call = await client.calls.create({ to: TO, from: FROM, url: `${app.url}/broken`, statusCallback: 'http://127.0.0.1:1/refused' });
    await waitFor(async () => (await calls())[0]?.status === 'ringing', 'ringing');
    const ended = (await request(local.url, 'POST', `/local/calls/${call.sid}/answer`, { digits: '1' })).body as LocalCall;
    expect(ended.spoken).toEqual(["We're sorry, an application error has occurred. Goodbye."]);
    expect(ended.callbacks.find((c) => c.kind === 'twiml')).toMatchObject({ httpStatus: 500 });
    const refused = await waitFor(async () => (await calls())[0]?.callbacks.find((c) => c.kind === 'status'), 'the refused status callback');
    expect(refused).toMatchObject({ status: 'completed', httpStatus: null, error: expect.any(String) });
    expect((await request(local.url, 'GET', '/local/faults')).status).toBe(200);
  });

  it('ends a call nobody answers with no-answer, sending only the events asked for', async () => {
    const ringing = await createTwilioLocal({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, ringSeconds: 0.3, callbackDelayMs: 10 });
    try {
      const sdk = twilio(ACCOUNT_SID, AUTH_TOKEN, { httpClient: new LocalRequestClient(ringing.url) });
      const call = await sdk.calls.create({ to: TO, from: FROM, url: `${app.url}/voice`, statusCallback: `${app.url}/call-status`, statusCallbackEvent: ['ringing'] });
      const statuses = await waitFor(() => hooks('/call-status').length === 2 && hooks('/call-status'), 'ringing and completed');
      expect(statuses.map((r) => [r.params.CallStatus, r.params.CallDuration])).toEqual([['ringing', undefined], ['no-answer', '0']]);
      expect(statuses.every((r) => r.valid && r.params.CallSid === call.sid)).toBe(true);
      expect(hooks('/voice')).toEqual([]);
      expect(ringing.state.calls[0]).toMatchObject({ status: 'no-answer', answeredAt: null });
      expect((await sdk.calls(call.sid).fetch()).status).toBe('no-answer');
    } finally {
      await ringing.close();
    }
  });

  it('ends a ringing call as no-answer on request', async () => {
    const call = await client.calls.create({ to: TO, from: FROM, url: `${app.url}/voice`, statusCallback: `${app.url}/call-status` });
    await waitFor(async () => (await calls())[0]?.status === 'ringing', 'ringing');
    expect((await request(local.url, 'POST', `/local/calls/${call.sid}/no-answer`)).body).toMatchObject({ status: 'no-answer' });
    const [completed] = await waitFor(() => hooks('/call-status').length === 1 && hooks('/call-status'), 'the completed event');
    expect(completed.params).toMatchObject({ CallStatus: 'no-answer', CallDuration: '0' });
    expect((await request(local.url, 'POST', `/local/calls/${call.sid}/answer`)).status).toBe(409);
  });

  it('delivers an inbound SMS to the app, signed, and records its <Message> reply', async () => {
    const res = await request(local.url, 'POST', '/local/messages/inbound', { from: TO, to: FROM, body: 'YES' });
    expect(res.status).toBe(201);
    const [hook] = hooks('/sms-in');
    expect(hook).toMatchObject({ valid: true, params: { Body: 'YES', From: TO, To: FROM, NumMedia: '0', AccountSid: ACCOUNT_SID } });
    expect(hook.params.MessageSid).toBe(res.body.message.sid);
    expect(res.body).toMatchObject({
      webhookStatus: 200,
      message: { direction: 'inbound', from: TO, to: FROM, body: 'YES', status: 'received' },
      reply: { direction: 'outbound', from: FROM, to: TO, body: 'Got it: YES' },
    });
    expect((await messages()).map((m) => [m.direction, m.body])).toEqual([['outbound', 'Got it: YES'], ['inbound', 'YES']]);
    expect((await request(local.url, 'GET', `/local/messages?from=${encodeURIComponent(TO)}`)).body).toHaveLength(1);
    expect((await request(local.url, 'POST', '/local/messages/inbound', { from: TO })).status).toBe(400);
  });
});
