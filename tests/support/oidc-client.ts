/**
 * Signs in through the real identity server over HTTP, as a browser and the admin UI would:
 * authorization code + PKCE, the server-rendered sign-in page (and the sign-in code page when the
 * user's organization requires MFA), the callback's `code`, then the token endpoint.
 *
 *   const { accessToken } = await signInAs('IntegratedTelehealthPartners_Admin');
 *   await fetch(`${API_URL}/api/user/context`, { headers: bearer(accessToken) });
 *
 * Environment: API_URL (base URL of the running API), DATABASE_URL (only to read sign-in codes
 * from outbox_messages when a test does not pass one).
 */
import { createHash, randomBytes } from 'crypto';
import type { UserType } from '@crisis/forms';

export const API_URL = (process.env.API_URL ?? 'http://127.0.0.1:3100').replace(/\/$/, '');
export const CLIENT_ID = 'admin-ui';
/** Registered for the admin UI in every environment; the helper never loads it, it only reads `code` from it. */
export const REDIRECT_URI = process.env.OIDC_REDIRECT_URI ?? 'http://localhost:5173/auth-callback';
export const POST_LOGOUT_REDIRECT_URI = process.env.OIDC_POST_LOGOUT_REDIRECT_URI ?? 'http://localhost:5173/';
export const DEFAULT_SCOPE = 'openid profile email offline_access';

// ------------------------------------------------------------------------------------------------
// A small cookie jar and browser
// ------------------------------------------------------------------------------------------------

interface StoredCookie {
  name: string;
  value: string;
  path: string;
  expires: number | null;
}

/** Cookies of one host (the API's); honours Path, Max-Age and Expires. */
export class CookieJar {
  private cookies = new Map<string, StoredCookie>();

  /** Stores the Set-Cookie headers of a response to `url`. */
  store(url: string, headers: Headers) {
    const list = typeof (headers as any).getSetCookie === 'function' ? (headers as any).getSetCookie() as string[] : splitSetCookie(headers.get('set-cookie'));
    for (const line of list) this.storeOne(url, line);
  }

  private storeOne(url: string, line: string) {
    const [pair, ...attrs] = line.split(';');
    const eq = pair.indexOf('=');
    if (eq <= 0) return;
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    let path = defaultPath(new URL(url).pathname);
    let expires: number | null = null;
    for (const attr of attrs) {
      const [k, ...rest] = attr.split('=');
      const key = k.trim().toLowerCase();
      const v = rest.join('=').trim();
      if (key === 'path' && v.startsWith('/')) path = v;
      else if (key === 'max-age' && /^-?\d+$/.test(v)) expires = Date.now() + Number(v) * 1000;
      else if (key === 'expires' && expires === null) {
        const t = Date.parse(v);
        if (!Number.isNaN(t)) expires = t;
      }
    }
    const key = `${name}\u0000${path}`;
    if ((expires !== null && expires <= Date.now()) || value === '') this.cookies.delete(key);
    else this.cookies.set(key, { name, value, path, expires });
  }

  /** The Cookie header for a request to `url` (longest paths first, as browsers send them). */
  header(url: string): string | undefined {
    const pathname = new URL(url).pathname;
    const now = Date.now();
    const matching = [...this.cookies.values()]
      .filter((c) => (c.expires === null || c.expires > now) && pathMatches(pathname, c.path))
      .sort((a, b) => b.path.length - a.path.length);
    return matching.length ? matching.map((c) => `${c.name}=${c.value}`).join('; ') : undefined;
  }

  names(): string[] {
    return [...this.cookies.values()].map((c) => c.name);
  }

  clear() {
    this.cookies.clear();
  }
}

function splitSetCookie(value: string | null): string[] {
  if (!value) return [];
  // Commas also appear inside Expires dates; split only before "name=".
  return value.split(/,(?=\s*[^;,=\s]+=)/);
}

function defaultPath(pathname: string) {
  const i = pathname.lastIndexOf('/');
  return i <= 0 ? '/' : pathname.slice(0, i);
}

function pathMatches(requestPath: string, cookiePath: string) {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath.charAt(cookiePath.length) === '/';
}

/** Where navigation ended: a page of the API's host, or a redirect to another origin (the callback). */
export interface Page {
  url: string;
  status: number;
  html: string;
  headers: Headers;
  /** Set when the last response redirected away from the API (e.g. to the redirect_uri). */
  leftTo?: URL;
}

export interface HtmlForm {
  action: string;
  method: string;
  fields: Record<string, string>;
  html: string;
}

/** A cookie-keeping HTTP client that follows redirects by hand, like a browser without JavaScript. */
export class Browser {
  readonly jar = new CookieJar();
  /** Every URL visited, for diagnostics. */
  readonly history: string[] = [];

  constructor(readonly baseUrl = API_URL) {}

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const cookie = this.jar.header(url);
    if (cookie) headers.set('cookie', cookie);
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.jar.store(url, res.headers);
    this.history.push(`${init.method ?? 'GET'} ${url} → ${res.status}`);
    return res;
  }

  /** Requests `url` and follows redirects within the API's origin; stops at a redirect elsewhere. */
  async navigate(url: string, init: RequestInit = {}): Promise<Page> {
    let current = new URL(url, this.baseUrl).href;
    let res = await this.fetch(current, init);
    for (let hops = 0; hops < 20; hops++) {
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) break;
      await res.arrayBuffer().catch(() => undefined);
      const next = new URL(location, current);
      if (next.origin !== new URL(this.baseUrl).origin) {
        return { url: current, status: res.status, html: '', headers: res.headers, leftTo: next };
      }
      current = next.href;
      res = await this.fetch(current);
    }
    return { url: current, status: res.status, html: await res.text(), headers: res.headers };
  }

  /** Submits a form of `page` (the first one that has every field in `values`, or matched by `pick`). */
  async submit(page: Page, values: Record<string, string>, pick?: (form: HtmlForm) => boolean): Promise<Page> {
    const forms = parseForms(page.html);
    const form = forms.find(pick ?? ((f) => Object.keys(values).every((k) => k in f.fields)));
    if (!form) throw new SignInError(`No matching form on ${page.url}`, page);
    const body = new URLSearchParams({ ...form.fields, ...values });
    const action = new URL(form.action || page.url, page.url).href;
    if (form.method === 'get') return this.navigate(`${action.split('?')[0]}?${body}`);
    return this.navigate(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
    });
  }
}

/** The forms of a page with their action, method and input values (hidden inputs included). */
export function parseForms(html: string): HtmlForm[] {
  const forms: HtmlForm[] = [];
  const formRe = /<form\b([^>]*)>([\s\S]*?)<\/form>/gi;
  for (let m = formRe.exec(html); m; m = formRe.exec(html)) {
    const attrs = parseAttributes(m[1]);
    const fields: Record<string, string> = {};
    const inputRe = /<(input|textarea|button)\b([^>]*)>/gi;
    for (let i = inputRe.exec(m[2]); i; i = inputRe.exec(m[2])) {
      const a = parseAttributes(i[2]);
      if (!a.name || i[1].toLowerCase() === 'button') continue;
      fields[a.name] = a.value ?? '';
    }
    forms.push({ action: attrs.action ?? '', method: (attrs.method ?? 'get').toLowerCase(), fields, html: m[0] });
  }
  return forms;
}

function parseAttributes(source: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /([\w:.-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    out[m[1].toLowerCase()] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
  }
  return out;
}

export function decodeEntities(s: string): string {
  return s
    .replace(/&#(\d+);/g, (_, d) => String.fromCodePoint(Number(d)))
    .replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The error shown on a sign-in page (`role="alert"`), if any. */
export function pageError(html: string): string | null {
  const m = /<div class="alert error"[^>]*>([\s\S]*?)<\/div>/i.exec(html);
  return m ? decodeEntities(m[1].replace(/<[^>]+>/g, '').trim()) : null;
}

export const isSignInPage = (page: Page) => parseForms(page.html).some((f) => 'email' in f.fields && 'password' in f.fields);
export const isCodePage = (page: Page) => parseForms(page.html).some((f) => 'code' in f.fields);

// ------------------------------------------------------------------------------------------------
// The flow
// ------------------------------------------------------------------------------------------------

export class SignInError extends Error {
  constructor(
    message: string,
    readonly page?: Page,
  ) {
    super(message);
    this.name = 'SignInError';
  }
}

export class TokenError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(`token endpoint ${status}: ${String(body.error ?? '')} ${String(body.error_description ?? '')}`.trim());
    this.name = 'TokenError';
  }
}

export interface Tokens {
  accessToken: string;
  refreshToken: string;
  idToken: string;
  expiresIn: number;
  scope: string;
}

export interface SignInOptions {
  email: string;
  password: string;
  /**
   * The sign-in code when the user's organization requires MFA: a string, or a function called once
   * the code page is shown. Omitted: read from outbox_messages through DATABASE_URL.
   */
  code?: string | ((email: string) => Promise<string>);
  scope?: string;
  /** Reuse a browser (its identity-server session cookie), e.g. to sign out later. */
  browser?: Browser;
}

export interface SignInResult extends Tokens {
  /** The browser that signed in; it holds the identity server's session cookie. */
  browser: Browser;
  /** The authorization code's pages, for tests that look at them. */
  codePageShown: boolean;
}

export interface Pkce {
  verifier: string;
  challenge: string;
  state: string;
  nonce: string;
}

export function newPkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return {
    verifier,
    challenge: createHash('sha256').update(verifier).digest('base64url'),
    state: randomBytes(12).toString('base64url'),
    nonce: randomBytes(12).toString('base64url'),
  };
}

/** GET /identity/auth with a fresh PKCE pair; the returned page is usually the sign-in page. */
export async function startSignIn(browser = new Browser(), scope = DEFAULT_SCOPE): Promise<{ browser: Browser; pkce: Pkce; page: Page }> {
  const pkce = newPkce();
  const params = new URLSearchParams({
    client_id: CLIENT_ID,
    response_type: 'code',
    scope,
    redirect_uri: REDIRECT_URI,
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
    state: pkce.state,
    nonce: pkce.nonce,
  });
  const page = await browser.navigate(`${API_URL}/identity/auth?${params}`);
  return { browser, pkce, page };
}

/** The authorization code from the callback URL, checking state; throws on an error response. */
export function codeFromCallback(page: Page, pkce: Pkce): string {
  if (!page.leftTo) {
    throw new SignInError(pageError(page.html) ?? `Sign-in did not reach the callback (stopped at ${page.url}, status ${page.status})`, page);
  }
  const url = page.leftTo;
  if (url.href.split('?')[0] !== REDIRECT_URI) throw new SignInError(`Redirected to ${url.href}, not the callback`, page);
  const error = url.searchParams.get('error');
  if (error) throw new SignInError(`${error}: ${url.searchParams.get('error_description') ?? ''}`, page);
  if (url.searchParams.get('state') !== pkce.state) throw new SignInError('state mismatch on the callback', page);
  const code = url.searchParams.get('code');
  if (!code) throw new SignInError('no code on the callback', page);
  return code;
}

async function tokenRequest(params: Record<string, string>): Promise<Tokens> {
  const res = await fetch(`${API_URL}/identity/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ client_id: CLIENT_ID, ...params }).toString(),
  });
  const body = (await res.json().catch(() => ({}))) as Record<string, any>;
  if (!res.ok) throw new TokenError(res.status, body);
  return {
    accessToken: body.access_token,
    refreshToken: body.refresh_token,
    idToken: body.id_token,
    expiresIn: body.expires_in,
    scope: body.scope,
  };
}

/** POST /identity/token with the authorization code and the PKCE verifier. */
export function exchangeCode(code: string, pkce: Pkce): Promise<Tokens> {
  return tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: pkce.verifier });
}

/** A new access token (and a rotated refresh token) from a refresh token. */
export async function refresh(refreshToken: string): Promise<Tokens> {
  const tokens = await tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken });
  return { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken };
}

/** Signs in through the real identity flow and returns the tokens. Throws SignInError with the page's message on failure. */
/**
 * The identity server's request limits (20 sign-ins a minute per account and address) are met by
 * suites that sign the same demo users in from one address: like a person, the client waits the
 * time the refusal names and tries again. Tests of the limits themselves use `signInOnce`.
 */
export async function signIn(options: SignInOptions): Promise<SignInResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await signInOnce(options);
    } catch (err) {
      const wait = /Too many attempts\. Try again in (\d+) (second|minute)/.exec((err as Error).message);
      if (!(err instanceof SignInError) || !wait || attempt >= 4) throw err;
      await new Promise((r) => setTimeout(r, Number(wait[1]) * (wait[2] === 'minute' ? 60_000 : 1000) + 250));
    }
  }
}

export async function signInOnce(options: SignInOptions): Promise<SignInResult> {
  const { browser, pkce, page: first } = await startSignIn(options.browser, options.scope);
  let page = first;
  let codePageShown = false;
  let outboxMark: number | null = null;

  for (let step = 0; step < 5 && !page.leftTo; step++) {
    if (isSignInPage(page)) {
      if (step > 0) throw new SignInError(pageError(page.html) ?? 'Sign-in page shown again', page);
      if (options.code === undefined) outboxMark = await lastOutboxId();
      page = await browser.submit(page, { email: options.email, password: options.password });
      continue;
    }
    if (isCodePage(page)) {
      if (codePageShown) throw new SignInError(pageError(page.html) ?? 'Code page shown again', page);
      codePageShown = true;
      const code =
        typeof options.code === 'string' ? options.code
        : typeof options.code === 'function' ? await options.code(options.email)
        : await readSignInCode(options.email, outboxMark ?? 0);
      page = await browser.submit(page, { code });
      continue;
    }
    throw new SignInError(pageError(page.html) ?? `Unexpected page ${page.url} (status ${page.status})`, page);
  }
  const tokens = await exchangeCode(codeFromCallback(page, pkce), pkce);
  return { ...tokens, browser, codePageShown };
}

/**
 * RP-initiated logout as the UI does it: end_session with id_token_hint and post_logout_redirect_uri.
 * Returns where the browser was sent (the post-logout URI).
 */
export async function signOut(result: Pick<SignInResult, 'idToken' | 'browser'>): Promise<URL> {
  const params = new URLSearchParams({ id_token_hint: result.idToken, post_logout_redirect_uri: POST_LOGOUT_REDIRECT_URI });
  let page = await result.browser.navigate(`${API_URL}/identity/session/end?${params}`);
  // The sign-out page submits itself (script); without JavaScript we submit its form.
  for (let i = 0; i < 2 && !page.leftTo; i++) {
    page = await result.browser.submit(page, {}, (f) => f.method === 'post' && 'xsrf' in f.fields);
  }
  if (!page.leftTo) throw new SignInError(`Sign-out did not redirect (stopped at ${page.url})`, page);
  return page.leftTo;
}

// ------------------------------------------------------------------------------------------------
// Sign-in codes from the outbox
// ------------------------------------------------------------------------------------------------

async function withDb<T>(fn: (db: import('pg').Client) => Promise<T>): Promise<T> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new SignInError('A sign-in code is needed: pass `code`, or set DATABASE_URL so it can be read from outbox_messages');
  const { Client } = require('pg') as typeof import('pg');
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    return await fn(db);
  } finally {
    await db.end();
  }
}

async function lastOutboxId(): Promise<number | null> {
  if (!process.env.DATABASE_URL) return null;
  return withDb(async (db) => Number((await db.query('SELECT coalesce(max(id), 0) AS id FROM outbox_messages')).rows[0].id));
}

/** The newest sign-in code sent to the user (after outbox id `afterId`), read from outbox_messages. */
export async function readSignInCode(email: string, afterId = 0): Promise<string> {
  return withDb(async (db) => {
    for (let i = 0; i < 20; i++) {
      const { rows } = await db.query(
        `SELECT o.body FROM outbox_messages o JOIN users u ON u.id = o.user_id
          WHERE o.purpose = 'mfa-code' AND lower(u.email) = lower($1) AND o.id > $2
          ORDER BY o.id DESC LIMIT 1`,
        [email, afterId],
      );
      const code = /(\d{6})/.exec(rows[0]?.body ?? '')?.[1];
      if (code) return code;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new SignInError(`No sign-in code found in the outbox for ${email}`);
  });
}

// ------------------------------------------------------------------------------------------------
// Demo users
// ------------------------------------------------------------------------------------------------

interface DemoUser {
  role: UserType;
  email: string;
  password: string;
}

const cache = new Map<UserType, { at: number; result: Promise<SignInResult> }>();

/** The seed's demo users (seed/src/demo-users.ts). */
export async function loadDemoUsers(): Promise<DemoUser[]> {
  const mod = (await import('../../seed/src/demo-users')) as { demoUsers: DemoUser[] };
  return mod.demoUsers;
}

/**
 * Signs in as the demo user of a role (a UserType value such as 'Facility_Admin'). Tokens are reused
 * within a test file while they have more than a minute left; pass { fresh: true } for a new session.
 */
export async function signInAs(role: UserType, options: { fresh?: boolean } = {}): Promise<SignInResult> {
  const users = await loadDemoUsers();
  const user = users.find((u) => u.role === role);
  if (!user) throw new SignInError(`No demo user with role ${role} in seed/src/demo-users.ts`);
  const hit = cache.get(role);
  if (!options.fresh && hit) {
    const result = await hit.result.catch(() => null);
    if (result && Date.now() - hit.at < (result.expiresIn - 60) * 1000) return result;
  }
  const entry = { at: Date.now(), result: signIn({ email: user.email, password: user.password }) };
  cache.set(role, entry);
  entry.result.catch(() => cache.delete(role));
  return entry.result;
}

// ------------------------------------------------------------------------------------------------
// Small helpers for tests
// ------------------------------------------------------------------------------------------------

export const bearer = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });

/** The payload of a JWT, without verifying it. */
export function decodeJwt<T = Record<string, any>>(jwt: string): T {
  return JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8')) as T;
}
