/**
 * twilio-local: an HTTP server that speaks the part of Twilio's REST API the product uses (Messages
 * and Calls), for development and tests. The app keeps using the real `twilio` SDK, rebased onto
 * this server, and gets its webhooks back signed with X-Twilio-Signature like real Twilio sends them.
 * A JSON control API under /local lets tests and the demo pages play the phone's side: reply to an
 * SMS, answer a call and press keys, inject API failures.
 */
import http from 'node:http';
import https from 'node:https';
import { randomBytes } from 'node:crypto';
import twilio from 'twilio';
import { messageReplies, parseTwiml, type TwimlNode } from './twiml';

/**
 * The newest messages and calls kept, in memory and in the state file: a demo or bench server that
 * runs for weeks answers and saves as fast as a new one (the state file had grown to megabytes,
 * written whole after every burst, and each callback looked its message up in the whole list).
 */
export const TWILIO_LOCAL_KEPT = 2000;
function keepNewest<T>(list: T[]) {
  if (list.length > TWILIO_LOCAL_KEPT) list.splice(0, list.length - TWILIO_LOCAL_KEPT);
}

export interface TwilioLocalOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  accountSid: string;
  authToken: string;
  /** The app's webhook for incoming SMS (a Twilio number's "A message comes in" URL). */
  inboundSmsUrl?: string;
  /** How long an unanswered call rings before it ends with 'no-answer'. */
  ringSeconds?: number;
  /** Delay between a resource's successive status changes (and their callbacks). */
  callbackDelayMs?: number;
  /** History to start from (main.ts loads it from its state file). */
  initialState?: { messages?: LocalMessage[]; calls?: LocalCall[] };
  /** Called after every change of the state (main.ts persists it). */
  onChange?: (state: TwilioLocalState) => void;
  /** Where to report webhooks the app failed to answer; silent by default. */
  log?: (line: string) => void;
}

export type MessageStatus = 'accepted' | 'queued' | 'sent' | 'delivered' | 'received';
export type CallStatus = 'queued' | 'ringing' | 'in-progress' | 'completed' | 'no-answer' | 'busy' | 'failed';
type HttpMethod = 'GET' | 'POST';

/** One request twilio-local made to the app, and how the app answered it. */
export interface WebhookAttempt {
  kind: 'status' | 'incoming' | 'twiml' | 'gather' | 'redirect';
  url: string;
  method: HttpMethod;
  /** The MessageStatus / CallStatus the request carried. */
  status: string;
  /** null when no HTTP response came back (connection refused, timeout, bad URL). */
  httpStatus: number | null;
  error: string | null;
  at: string;
}

export interface LocalMessage {
  sid: string;
  direction: 'outbound' | 'inbound';
  /** Twilio's own direction value, for the REST shape. */
  twilioDirection: 'outbound-api' | 'outbound-reply' | 'inbound';
  to: string;
  /** null when sent through a messaging service, which picks the sender. */
  from: string | null;
  body: string;
  status: MessageStatus;
  messagingServiceSid: string | null;
  statusCallback: string | null;
  createdAt: string;
  updatedAt: string;
  sentAt: string | null;
  callbacks: WebhookAttempt[];
}

export interface LocalCall {
  sid: string;
  to: string;
  from: string;
  status: CallStatus;
  createdAt: string;
  updatedAt: string;
  answeredAt: string | null;
  endedAt: string | null;
  /** Seconds, once the call has ended. */
  duration: number | null;
  /** What the callee heard: the text of each <Say>, in order. */
  spoken: string[];
  /** The keys pressed when the call was answered. */
  digits: string | null;
  twimlUrl: string | null;
  twimlMethod: HttpMethod;
  twiml: string | null;
  statusCallback: string | null;
  statusCallbackMethod: HttpMethod;
  statusCallbackEvents: string[];
  callbacks: WebhookAttempt[];
}

export interface Faults {
  /** Probability (0..1) that a Messages/Calls create answers 500. */
  failRate: number;
  /** The next n creates answer 500, whatever failRate is. */
  failNext: number;
}

export interface TwilioLocalState {
  /** Oldest first; the APIs list them newest first. */
  messages: LocalMessage[];
  calls: LocalCall[];
  faults: Faults;
}

export interface TwilioLocal {
  url: string;
  port: number;
  close(): Promise<void>;
  state: TwilioLocalState;
}

const API_VERSION = '2010-04-01';
const E164 = /^\+[1-9]\d{7,14}$/;
const APPLICATION_ERROR = "We're sorry, an application error has occurred. Goodbye.";
/** Twilio gives up on a webhook after 15 seconds. */
const WEBHOOK_TIMEOUT_MS = 15_000;
const MAX_BODY_BYTES = 1024 * 1024;
/** Guards against Redirect / Gather loops in the app's TwiML. */
const MAX_TWIML_DOCUMENTS = 10;
/** Webhooks go out without keep-alive so the app's server can close promptly. */
const webhookAgents = { 'http:': new http.Agent({ keepAlive: false }), 'https:': new https.Agent({ keepAlive: false }) };

/** Thrown inside a lifecycle to stop it quietly (the server closed or was reset). */
const STOP = Symbol('stop');

class HttpError extends Error {
  constructor(readonly status: number, readonly body: unknown) {
    super(`HTTP ${status}`);
  }
}

const newSid = (prefix: string) => prefix + randomBytes(16).toString('hex');
const nowIso = () => new Date().toISOString();
/** Twilio's dates are RFC 2822 ("Wed, 18 Aug 2010 20:01:40 +0000"). */
const rfc2822 = (iso: string | null) => (iso ? new Date(iso).toUTCString().replace('GMT', '+0000') : null);
const methodOf = (s: string | null | undefined): HttpMethod => (s?.toUpperCase() === 'GET' ? 'GET' : 'POST');

function twilioError(status: number, code: number, message: string): HttpError {
  return new HttpError(status, { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });
}

function isHttpUrl(s: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(s).protocol);
  } catch {
    return false;
  }
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        reject(new HttpError(413, { error: 'request body too large' }));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

interface WebhookResult {
  httpStatus: number | null;
  body: string;
  error: string | null;
}

/** Sends one signed webhook the way Twilio does. Never throws: failures come back in the result. */
function sendWebhook(authToken: string, url: string, method: HttpMethod, params: Record<string, string>): Promise<WebhookResult> {
  let target: URL;
  try {
    target = new URL(url);
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error();
  } catch {
    return Promise.resolve({ httpStatus: null, body: '', error: `invalid URL ${url}` });
  }
  // Twilio signs a GET's full URL with its query, a POST's configured URL plus its sorted form fields.
  for (const [k, v] of method === 'GET' ? Object.entries(params) : []) target.searchParams.append(k, v);
  const signature = method === 'GET'
    ? twilio.getExpectedTwilioSignature(authToken, target.toString(), {})
    : twilio.getExpectedTwilioSignature(authToken, url, params);
  const form = method === 'POST' ? new URLSearchParams(params).toString() : '';
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const req = client.request(target, {
      method,
      agent: webhookAgents[target.protocol as 'http:' | 'https:'],
      timeout: WEBHOOK_TIMEOUT_MS,
      headers: {
        'X-Twilio-Signature': signature,
        'User-Agent': 'TwilioProxy/1.1',
        Accept: '*/*',
        ...(method === 'POST' ? { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': Buffer.byteLength(form) } : {}),
      },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ httpStatus: res.statusCode ?? null, body: Buffer.concat(chunks).toString('utf8'), error: null }));
      res.on('error', (e) => resolve({ httpStatus: res.statusCode ?? null, body: '', error: e.message }));
    });
    req.on('timeout', () => req.destroy(new Error(`no response within ${WEBHOOK_TIMEOUT_MS} ms`)));
    req.on('error', (e) => resolve({ httpStatus: null, body: '', error: e.message || String(e) }));
    req.end(form);
  });
}

/** Starts twilio-local; resolves once it listens. */
export async function createTwilioLocal(options: TwilioLocalOptions): Promise<TwilioLocal> {
  const { accountSid, authToken } = options;
  if (!/^AC\w+$/.test(accountSid)) throw new Error('twilio-local: accountSid must start with AC');
  if (!authToken) throw new Error('twilio-local: authToken is required');
  const host = options.host ?? '127.0.0.1';
  const ringMs = (options.ringSeconds ?? 30) * 1000;
  const delayMs = options.callbackDelayMs ?? 50;
  const log = options.log ?? (() => undefined);
  const accountPath = `/${API_VERSION}/Accounts/${accountSid}`;

  const state: TwilioLocalState = {
    messages: (options.initialState?.messages ?? []).slice(-TWILIO_LOCAL_KEPT),
    calls: (options.initialState?.calls ?? []).slice(-TWILIO_LOCAL_KEPT),
    faults: { failRate: 0, failNext: 0 },
  };
  let closed = false;
  /** Bumped by reset, so lifecycles of cleared records stop. */
  let epoch = 0;
  const timers = new Set<NodeJS.Timeout>();
  const ringTimers = new Map<string, NodeJS.Timeout>();
  /** Per-resource queue, so a resource's callbacks reach the app in order. */
  const chains = new Map<string, Promise<void>>();

  const changed = () => options.onChange?.(state);

  function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });
  }

  /** Runs step after the resource's earlier steps; `pause` waits and then stops the step if the server closed or was reset. */
  function enqueue(sid: string, step: (pause: (ms: number) => Promise<void>) => Promise<void>): Promise<void> {
    const started = epoch;
    const pause = async (ms: number) => {
      await sleep(ms);
      if (closed || epoch !== started) throw STOP;
    };
    const run = (chains.get(sid) ?? Promise.resolve())
      .then(() => (closed || epoch !== started ? undefined : step(pause)))
      .catch((e: unknown) => {
        if (e !== STOP) log(`twilio-local: ${sid}: ${(e as Error).message ?? e}`);
      })
      .finally(() => {
        if (chains.get(sid) === run) chains.delete(sid);
      });
    chains.set(sid, run);
    return run;
  }

  async function webhook(record: { sid: string; callbacks: WebhookAttempt[] }, kind: WebhookAttempt['kind'], url: string,
    method: HttpMethod, status: string, params: Record<string, string>): Promise<WebhookResult> {
    const result = await sendWebhook(authToken, url, method, params);
    record.callbacks.push({ kind, url, method, status, httpStatus: result.httpStatus, error: result.error, at: nowIso() });
    if (result.httpStatus === null || result.httpStatus >= 400) {
      log(`twilio-local: ${record.sid} ${kind} ${method} ${url} -> ${result.httpStatus ?? result.error}`);
    }
    changed();
    return result;
  }

  // ---- messages ----

  function storeMessage(m: Omit<LocalMessage, 'sid' | 'createdAt' | 'updatedAt' | 'sentAt' | 'callbacks'>): LocalMessage {
    const at = nowIso();
    const message: LocalMessage = { sid: newSid('SM'), createdAt: at, updatedAt: at, sentAt: null, callbacks: [], ...m };
    state.messages.push(message);
    keepNewest(state.messages);
    changed();
    return message;
  }

  /** queued → sent → delivered, with a status callback at each step when the sender asked for them. */
  function deliver(m: LocalMessage) {
    void enqueue(m.sid, async (pause) => {
      for (const status of ['sent', 'delivered'] as const) {
        await pause(delayMs);
        m.status = status;
        m.updatedAt = nowIso();
        if (status === 'sent') m.sentAt = m.updatedAt;
        changed();
        if (!m.statusCallback) continue;
        await webhook(m, 'status', m.statusCallback, 'POST', status, {
          MessageSid: m.sid, SmsSid: m.sid, AccountSid: accountSid, ...(m.from ? { From: m.from } : {}), To: m.to,
          MessageStatus: status, SmsStatus: status, ApiVersion: API_VERSION,
          ...(m.messagingServiceSid ? { MessagingServiceSid: m.messagingServiceSid } : {}),
        });
      }
    });
  }

  function messageResource(m: LocalMessage) {
    const uri = `${accountPath}/Messages/${m.sid}.json`;
    return {
      account_sid: accountSid, api_version: API_VERSION, body: m.body,
      date_created: rfc2822(m.createdAt), date_sent: rfc2822(m.sentAt), date_updated: rfc2822(m.updatedAt),
      direction: m.twilioDirection, error_code: null, error_message: null, from: m.from,
      messaging_service_sid: m.messagingServiceSid, num_media: '0',
      num_segments: String(Math.max(1, Math.ceil(m.body.length / (m.body.length > 160 ? 153 : 160)))),
      price: null, price_unit: 'USD', sid: m.sid, status: m.status,
      subresource_uris: { media: uri.replace(/\.json$/, '/Media.json') }, to: m.to, uri,
    };
  }

  function createMessage(form: URLSearchParams): LocalMessage {
    const to = form.get('To') ?? '';
    const from = form.get('From') || null;
    const messagingServiceSid = form.get('MessagingServiceSid') || null;
    const body = form.get('Body') ?? '';
    const statusCallback = form.get('StatusCallback') || null;
    if (!E164.test(to)) throw twilioError(400, 21211, `The 'To' number ${to} is not a valid phone number.`);
    if (!from && !messagingServiceSid) throw twilioError(400, 21603, "The 'From' phone number is required.");
    if (!body) throw twilioError(400, 21602, 'Message body is required.');
    if (body.length > 1600) throw twilioError(400, 21617, 'The concatenated message body exceeds the 1600 character limit.');
    if (statusCallback && !isHttpUrl(statusCallback)) throw twilioError(400, 21609, `Invalid StatusCallback URL ${statusCallback}`);
    // A messaging service picks the sender later, which Twilio reports as 'accepted'.
    const m = storeMessage({
      direction: 'outbound', twilioDirection: 'outbound-api', to, from, body,
      status: from ? 'queued' : 'accepted', messagingServiceSid, statusCallback,
    });
    deliver(m);
    return m;
  }

  async function receiveMessage(input: Record<string, unknown>) {
    const { from, to, body } = input;
    if (typeof from !== 'string' || !from || typeof to !== 'string' || !to || typeof body !== 'string') {
      throw new HttpError(400, { error: 'from, to and body (strings) are required' });
    }
    const url = typeof input.url === 'string' && input.url ? input.url : options.inboundSmsUrl;
    const message = storeMessage({
      direction: 'inbound', twilioDirection: 'inbound', to, from, body, status: 'received', messagingServiceSid: null, statusCallback: null,
    });
    if (!url) return { message, webhookStatus: null, reply: null, replies: [] };
    const result = await webhook(message, 'incoming', url, 'POST', 'received', {
      MessageSid: message.sid, SmsSid: message.sid, SmsMessageSid: message.sid, AccountSid: accountSid,
      From: from, To: to, Body: body, NumMedia: '0', NumSegments: '1', SmsStatus: 'received', ApiVersion: API_VERSION,
    });
    // The app may answer with messaging TwiML; each <Message> goes back to the sender.
    const replies: LocalMessage[] = [];
    if (result.httpStatus !== null && result.httpStatus < 300 && result.body.trim().startsWith('<')) {
      let root: TwimlNode | null = null;
      try {
        root = parseTwiml(result.body);
      } catch (e) {
        log(`twilio-local: ${message.sid}: the app's reply is not valid TwiML: ${(e as Error).message}`);
      }
      for (const r of root?.name === 'Response' ? messageReplies(root) : []) {
        const reply = storeMessage({
          direction: 'outbound', twilioDirection: 'outbound-reply', to: r.to ?? from, from: r.from ?? to, body: r.body,
          status: 'queued', messagingServiceSid: null, statusCallback: null,
        });
        deliver(reply);
        replies.push(reply);
      }
    }
    return { message, webhookStatus: result.httpStatus, reply: replies[0] ?? null, replies };
  }

  // ---- calls ----

  const callParams = (c: LocalCall, callStatus: string): Record<string, string> => ({
    CallSid: c.sid, AccountSid: accountSid, From: c.from, To: c.to, CallStatus: callStatus, Direction: 'outbound-api', ApiVersion: API_VERSION,
  });

  /** Sends a call status callback if the caller asked for this event ('completed' is always sent). */
  async function callStatus(c: LocalCall, event: string, status: string, extra: Record<string, string> = {}) {
    if (!c.statusCallback || (event !== 'completed' && !c.statusCallbackEvents.includes(event))) return;
    await webhook(c, 'status', c.statusCallback, c.statusCallbackMethod, status, {
      ...callParams(c, status), CallbackSource: 'call-progress-events', Timestamp: rfc2822(nowIso()) ?? '', ...extra,
    });
  }

  function setCallStatus(c: LocalCall, status: CallStatus) {
    c.status = status;
    c.updatedAt = nowIso();
    changed();
  }

  function armRing(c: LocalCall) {
    const t = setTimeout(() => {
      ringTimers.delete(c.sid);
      if (c.status === 'ringing') void finish(c, 'no-answer');
    }, ringMs);
    ringTimers.set(c.sid, t);
  }

  function stopRing(c: LocalCall) {
    clearTimeout(ringTimers.get(c.sid));
    ringTimers.delete(c.sid);
  }

  /** queued → (initiated) → ringing; then it rings until answered or ringSeconds pass. */
  function dial(c: LocalCall) {
    void enqueue(c.sid, async (pause) => {
      await pause(delayMs);
      await callStatus(c, 'initiated', 'initiated');
      await pause(delayMs);
      if (c.status !== 'queued') return;
      setCallStatus(c, 'ringing');
      armRing(c);
      await callStatus(c, 'ringing', 'ringing');
    });
  }

  /** Ends the call and sends the 'completed' event (carrying the final status). */
  function finish(c: LocalCall, status: 'completed' | 'no-answer' | 'busy' | 'failed'): Promise<void> {
    stopRing(c);
    c.endedAt = nowIso();
    // An answered call lasts at least a second, as Twilio bills it.
    c.duration = c.answeredAt ? Math.max(1, Math.round((Date.parse(c.endedAt) - Date.parse(c.answeredAt)) / 1000)) : 0;
    setCallStatus(c, status);
    return enqueue(c.sid, async (pause) => {
      await pause(delayMs);
      await callStatus(c, 'completed', status, { CallDuration: String(c.duration) });
    });
  }

  interface TwimlDocument {
    root: TwimlNode;
    /** Where it came from; relative URLs in it resolve against this. null for inline Twiml. */
    url: string | null;
  }

  /** Fetches TwiML from the app; on any failure the caller hears Twilio's application-error notice. */
  async function fetchTwiml(c: LocalCall, kind: WebhookAttempt['kind'], url: string, method: HttpMethod,
    params: Record<string, string>): Promise<TwimlDocument | null> {
    const result = await webhook(c, kind, url, method, 'in-progress', params);
    try {
      if (result.httpStatus === null || result.httpStatus >= 300) throw new Error(`HTTP ${result.httpStatus ?? result.error}`);
      const root = parseTwiml(result.body);
      if (root.name !== 'Response') throw new Error(`root element is <${root.name}>`);
      return { root, url };
    } catch (e) {
      log(`twilio-local: ${c.sid}: no usable TwiML from ${url}: ${(e as Error).message}`);
      c.spoken.push(APPLICATION_ERROR);
      changed();
      return null;
    }
  }

  /** Plays one TwiML document; returns the document control moves to (Gather action, Redirect) or null when the call ends. */
  async function play(c: LocalCall, doc: TwimlDocument, input: { digits: string | null }): Promise<TwimlDocument | null> {
    const resolve = (target: string) => {
      try {
        return new URL(target, doc.url ?? undefined).toString();
      } catch {
        return null;
      }
    };
    const say = (n: TwimlNode) => {
      if (n.text) c.spoken.push(n.text);
      changed();
    };
    for (const verb of doc.root.children) {
      switch (verb.name) {
        case 'Say':
          say(verb);
          break;
        case 'Gather': {
          verb.children.filter((n) => n.name === 'Say').forEach(say);
          // No keys pressed: the Gather times out and the call goes on with the next verb.
          if (input.digits === null) break;
          const finishOnKey = verb.attrs.finishOnKey ?? '#';
          const numDigits = Number(verb.attrs.numDigits) || Infinity;
          let pressed = input.digits;
          input.digits = null;
          if (finishOnKey && pressed.includes(finishOnKey)) pressed = pressed.slice(0, pressed.indexOf(finishOnKey));
          pressed = pressed.slice(0, numDigits);
          // Without an action Twilio submits to the current document's URL.
          const action = verb.attrs.action ? resolve(verb.attrs.action) : doc.url;
          if (!action) return null;
          return fetchTwiml(c, 'gather', action, methodOf(verb.attrs.method), { ...callParams(c, 'in-progress'), Digits: pressed });
        }
        case 'Redirect': {
          const target = resolve(verb.text);
          if (!target) {
            c.spoken.push(APPLICATION_ERROR);
            changed();
            return null;
          }
          return fetchTwiml(c, 'redirect', target, methodOf(verb.attrs.method), callParams(c, 'in-progress'));
        }
        case 'Hangup':
        case 'Reject':
          return null;
        default:
          // <Pause>, <Play>, <Dial>…: nothing to simulate.
          break;
      }
    }
    return null;
  }

  /** The call's own Twiml parameter; a document that does not parse is an application error, as on Twilio. */
  function inlineTwiml(c: LocalCall, xml: string): TwimlDocument | null {
    try {
      const root = parseTwiml(xml);
      if (root.name === 'Response') return { root, url: null };
    } catch {
      // reported below
    }
    c.spoken.push(APPLICATION_ERROR);
    changed();
    return null;
  }

  async function answer(c: LocalCall, digits: string | null): Promise<LocalCall> {
    if (c.status !== 'ringing') throw new HttpError(409, { error: `call ${c.sid} is ${c.status}, not ringing` });
    const started = epoch;
    stopRing(c);
    c.answeredAt = nowIso();
    c.digits = digits;
    setCallStatus(c, 'in-progress');
    await enqueue(c.sid, async (pause) => {
      await pause(delayMs);
      await callStatus(c, 'answered', 'in-progress');
      let doc = c.twiml !== null
        ? inlineTwiml(c, c.twiml)
        : await fetchTwiml(c, 'twiml', c.twimlUrl ?? '', c.twimlMethod, callParams(c, 'in-progress'));
      const input = { digits };
      for (let n = 0; doc && n < MAX_TWIML_DOCUMENTS; n++) doc = await play(c, doc, input);
    });
    if (!closed && epoch === started) await finish(c, 'completed');
    return c;
  }

  function callResource(c: LocalCall) {
    return {
      account_sid: accountSid, annotation: null, answered_by: null, api_version: API_VERSION, caller_name: null,
      date_created: rfc2822(c.createdAt), date_updated: rfc2822(c.updatedAt), direction: 'outbound-api',
      duration: c.duration === null ? null : String(c.duration), end_time: rfc2822(c.endedAt), forwarded_from: null,
      from: c.from, from_formatted: c.from, group_sid: null, parent_call_sid: null, phone_number_sid: null,
      price: null, price_unit: 'USD', queue_time: '0', sid: c.sid,
      start_time: rfc2822(c.status === 'queued' ? null : c.createdAt), status: c.status,
      subresource_uris: {}, to: c.to, to_formatted: c.to, trunk_sid: null, uri: `${accountPath}/Calls/${c.sid}.json`,
    };
  }

  function createCall(form: URLSearchParams): LocalCall {
    const to = form.get('To') ?? '';
    const from = form.get('From') ?? '';
    const url = form.get('Url') || null;
    const twiml = form.get('Twiml') || null;
    const statusCallback = form.get('StatusCallback') || null;
    if (!E164.test(to)) throw twilioError(400, 21211, `The 'To' number ${to} is not a valid phone number.`);
    if (!from) throw twilioError(400, 21213, "No 'From' number is specified.");
    if (!url && !twiml) throw twilioError(400, 21205, 'Url parameter is required.');
    if (url && !isHttpUrl(url)) throw twilioError(400, 21205, `Url is not a valid URL: ${url}`);
    if (statusCallback && !isHttpUrl(statusCallback)) throw twilioError(400, 21609, `Invalid StatusCallback URL ${statusCallback}`);
    const at = nowIso();
    const c: LocalCall = {
      sid: newSid('CA'), to, from, status: 'queued', createdAt: at, updatedAt: at, answeredAt: null, endedAt: null,
      duration: null, spoken: [], digits: null, twimlUrl: twiml ? null : url, twimlMethod: methodOf(form.get('Method')),
      twiml, statusCallback, statusCallbackMethod: methodOf(form.get('StatusCallbackMethod')),
      // The SDK repeats the field for an array; people also write "initiated ringing".
      statusCallbackEvents: form.getAll('StatusCallbackEvent').flatMap((e) => e.split(/[\s,]+/)).filter(Boolean),
      callbacks: [],
    };
    state.calls.push(c);
    keepNewest(state.calls);
    changed();
    dial(c);
    return c;
  }

  // ---- HTTP ----

  /** Fault injection: decides whether this create fails, before anything is stored. */
  function injectFault() {
    if (state.faults.failNext > 0) {
      state.faults.failNext--;
    } else if (!(state.faults.failRate > 0 && Math.random() < state.faults.failRate)) {
      return;
    }
    throw twilioError(500, 20500, 'Internal Server Error');
  }

  function listPage(key: string, items: unknown[], query: URLSearchParams, path: string, filters: Record<string, string>) {
    const pageSize = Math.min(1000, Math.max(1, Number(query.get('PageSize')) || 50));
    const page = Math.max(0, Math.floor(Number(query.get('Page')) || 0));
    const start = page * pageSize;
    const slice = items.slice(start, start + pageSize);
    const uriFor = (p: number) => `${path}?${new URLSearchParams({ ...filters, Page: String(p), PageSize: String(pageSize) })}`;
    return {
      [key]: slice, end: start + slice.length - 1, first_page_uri: uriFor(0),
      next_page_uri: start + pageSize < items.length ? uriFor(page + 1) : null, page, page_size: pageSize,
      previous_page_uri: page > 0 ? uriFor(page - 1) : null, start, uri: uriFor(page),
    };
  }

  async function handleRest(req: http.IncomingMessage, url: URL): Promise<[number, unknown]> {
    const [user, pass] = Buffer.from((req.headers.authorization ?? '').replace(/^Basic\s+/i, ''), 'base64').toString('utf8').split(':');
    if (user !== accountSid || pass !== authToken) throw twilioError(401, 20003, 'Authenticate');
    const match = /^\/2010-04-01\/Accounts\/([^/]+)\/(Messages|Calls)(?:\/([^/]+))?\.json$/.exec(url.pathname);
    if (!match || match[1] !== accountSid) throw twilioError(404, 20404, `The requested resource ${url.pathname} was not found`);
    const [, , resource, sid] = match;
    const newestFirst = <T>(list: T[]) => list.slice().reverse();
    const filters = (names: string[]) => Object.fromEntries(names.filter((n) => url.searchParams.get(n)).map((n) => [n, url.searchParams.get(n) ?? '']));

    if (req.method === 'POST' && !sid) {
      const form = new URLSearchParams(await readBody(req));
      injectFault();
      return resource === 'Messages' ? [201, messageResource(createMessage(form))] : [201, callResource(createCall(form))];
    }
    if (req.method !== 'GET') throw twilioError(405, 20004, 'Method not allowed');
    if (resource === 'Messages') {
      if (sid) {
        const m = state.messages.find((x) => x.sid === sid);
        if (!m) throw twilioError(404, 20404, `The requested resource ${url.pathname} was not found`);
        return [200, messageResource(m)];
      }
      const f = filters(['To', 'From']);
      const list = newestFirst(state.messages).filter((m) => (!f.To || m.to === f.To) && (!f.From || m.from === f.From));
      return [200, listPage('messages', list.map(messageResource), url.searchParams, url.pathname, f)];
    }
    if (sid) {
      const c = state.calls.find((x) => x.sid === sid);
      if (!c) throw twilioError(404, 20404, `The requested resource ${url.pathname} was not found`);
      return [200, callResource(c)];
    }
    const f = filters(['To', 'From', 'Status']);
    const list = newestFirst(state.calls).filter((c) => (!f.To || c.to === f.To) && (!f.From || c.from === f.From) && (!f.Status || c.status === f.Status));
    return [200, listPage('calls', list.map(callResource), url.searchParams, url.pathname, f)];
  }

  async function jsonBody(req: http.IncomingMessage): Promise<Record<string, unknown>> {
    const text = await readBody(req);
    if (!text.trim()) return {};
    try {
      const value: unknown = JSON.parse(text);
      if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // answered below
    }
    throw new HttpError(400, { error: 'expected a JSON object' });
  }

  function reset() {
    epoch++;
    for (const t of [...timers, ...ringTimers.values()]) clearTimeout(t);
    timers.clear();
    ringTimers.clear();
    chains.clear();
    state.messages.length = 0;
    state.calls.length = 0;
    state.faults = { failRate: 0, failNext: 0 };
    changed();
  }

  async function handleLocal(req: http.IncomingMessage, url: URL): Promise<[number, unknown]> {
    const route = `${req.method} ${url.pathname.replace(/\/+$/, '')}`;
    const q = (name: string) => url.searchParams.get(name);
    if (route === 'GET /local/messages') {
      return [200, state.messages.slice().reverse().filter((m) => (!q('to') || m.to === q('to')) && (!q('from') || m.from === q('from')))];
    }
    if (route === 'POST /local/messages/inbound') return [201, await receiveMessage(await jsonBody(req))];
    if (route === 'GET /local/calls') {
      return [200, state.calls.slice().reverse().filter((c) => (!q('to') || c.to === q('to')) && (!q('from') || c.from === q('from')))];
    }
    const callAction = /^POST \/local\/calls\/([^/]+)\/(answer|no-answer|busy|failed)$/.exec(route);
    if (callAction) {
      const c = state.calls.find((x) => x.sid === callAction[1]);
      if (!c) throw new HttpError(404, { error: `no call ${callAction[1]}` });
      const body = await jsonBody(req);
      if (callAction[2] === 'answer') {
        if (body.digits !== undefined && (typeof body.digits !== 'string' || !/^[0-9*#w]*$/.test(body.digits))) {
          throw new HttpError(400, { error: 'digits must be a string of 0-9 * #' });
        }
        return [200, await answer(c, typeof body.digits === 'string' ? body.digits : null)];
      }
      if (c.status !== 'ringing' && c.status !== 'queued') throw new HttpError(409, { error: `call ${c.sid} is ${c.status}, not ringing` });
      await finish(c, callAction[2] as 'no-answer' | 'busy' | 'failed');
      return [200, c];
    }
    if (route === 'GET /local/faults') return [200, state.faults];
    if (route === 'POST /local/faults') {
      const body = await jsonBody(req);
      const { failRate, failNext } = body;
      if (failRate !== undefined && (typeof failRate !== 'number' || !(failRate >= 0 && failRate <= 1))) {
        throw new HttpError(400, { error: 'failRate must be a number from 0 to 1' });
      }
      if (failNext !== undefined && (typeof failNext !== 'number' || !Number.isInteger(failNext) || failNext < 0)) {
        throw new HttpError(400, { error: 'failNext must be a non-negative integer' });
      }
      state.faults = { failRate: failRate ?? state.faults.failRate, failNext: failNext ?? state.faults.failNext };
      return [200, state.faults];
    }
    if (route === 'POST /local/reset') {
      reset();
      return [200, { ok: true }];
    }
    throw new HttpError(404, { error: `no route ${route}` });
  }

  // The demo pages may call the control API straight from the browser.
  const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': 'Content-Type', 'Access-Control-Allow-Methods': 'GET, POST, OPTIONS' };

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://twilio-local');
    const local = url.pathname.startsWith('/local/');
    const headers: Record<string, string> = local ? cors : {};
    try {
      if (local && req.method === 'OPTIONS') {
        res.writeHead(204, cors).end();
        return;
      }
      if (!local && !url.pathname.startsWith(`/${API_VERSION}/`)) {
        throw twilioError(404, 20404, `The requested resource ${url.pathname} was not found`);
      }
      const [status, body] = local ? await handleLocal(req, url) : await handleRest(req, url);
      sendJson(res, status, body, headers);
    } catch (e) {
      if (e instanceof HttpError) {
        sendJson(res, e.status, e.body, e.status === 401 ? { ...headers, 'WWW-Authenticate': 'Basic realm="Twilio API"' } : headers);
      } else {
        log(`twilio-local: ${req.method} ${url.pathname} failed: ${(e as Error).stack ?? e}`);
        if (!res.headersSent) sendJson(res, 500, { code: 20500, message: 'Internal Server Error', status: 500 }, headers);
        else res.end();
      }
    }
  }

  // Calls that were under way when the previous process stopped: a ringing call rings again, an
  // answered one ends now, so none is left open forever.
  for (const c of state.calls) {
    if (c.status === 'queued' || c.status === 'ringing') {
      c.status = 'ringing';
      armRing(c);
    } else if (c.status === 'in-progress') {
      void finish(c, 'completed');
    }
  }

  const server = http.createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;

  return {
    url: `http://${urlHost}:${port}`,
    port,
    state,
    close: () => new Promise<void>((resolve, reject) => {
      closed = true;
      for (const t of [...timers, ...ringTimers.values()]) clearTimeout(t);
      timers.clear();
      ringTimers.clear();
      server.close((e) => (e ? reject(e) : resolve()));
      server.closeAllConnections();
    }),
  };
}
