/**
 * Sign-in hardening, as an attacker or a user would notice it: request limits on every sign-in
 * step (429 with Retry-After, a readable page), a progressive delay instead of a lock for bursts
 * of wrong passwords from unknown addresses, the locked message only for the right password, one
 * MFA budget per sign-in whose wrong codes count towards the lock-out, password hashes at the
 * current scrypt cost (older ones rehashed on sign-in), signing keys sealed at rest and rotated,
 * and the IP allow-list applied at sign-in.
 *
 * The test runner is a trusted proxy (TRUSTED_PROXIES=127.0.0.1): each test names its own client
 * addresses with X-Forwarded-For, so the limits of one test do not reach another.
 */
import { generateKeyPairSync, randomBytes, scryptSync } from 'crypto';
import { UserType } from '@crisis/forms';
import { api, eventually } from '../support/api';
import { db } from '../support/db';
import { hashPassword } from '../../api/src/identity/password-hash';
import {
  API_URL,
  Browser,
  decodeJwt,
  isCodePage,
  isSignInPage,
  pageError,
  readSignInCode,
  signInOnce,
  signInAs,
  startSignIn,
  type Page,
} from '../support/oidc-client';

jest.setTimeout(120_000);

const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const PASSWORD = 'Correct-Horse7';
const INVALID = 'Invalid email or password';
const LOCKED = 'Your account is locked. Contact your administrator.';
const facilityIds: number[] = [];
const userIds: number[] = [];

/** A browser behind the trusted proxy, which names `address` as the client's. */
class BrowserAt extends Browser {
  constructor(readonly address: string) {
    super();
  }

  override fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('x-forwarded-for', this.address);
    return super.fetch(url, { ...init, headers });
  }
}

const subnet = 20 + Math.floor(Math.random() * 200);
let nextHost = 0;
/** A client address no other test (or earlier run on this database) used. */
const newAddress = () => `10.${subnet}.${Math.floor(nextHost / 250)}.${(nextHost++ % 250) + 1}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface NewUser {
  id: number;
  email: string;
  password: string;
}

async function createFacility(label: string, mfa: boolean): Promise<number> {
  const { rows } = await db.query(
    `INSERT INTO facilities (name, street_line, city, state, zip_code, latitude, longitude, is_mfa_enabled)
     VALUES ($1, '1 Test Way', 'Testville', 'WA', '98001', 47.3, -122.2, $2) RETURNING id`,
    [`Hardening ${run} ${label}`, mfa],
  );
  facilityIds.push(rows[0].id);
  return rows[0].id;
}

async function createUser(label: string, facilityId: number, passwordHash?: string): Promise<NewUser> {
  const email = `hardening-${run}-${label}@test.example`;
  const { rows } = await db.query(
    `INSERT INTO users (first_name, last_name, email, is_active, creating, email_confirmed, password_hash,
                        organization_type, organization_id, user_type)
     VALUES ('Test', $1, $2, true, false, true, $3, 'Facility', $4, 'Facility_User') RETURNING id`,
    [label, email, passwordHash ?? (await hashPassword(PASSWORD)), facilityId],
  );
  userIds.push(rows[0].id);
  return { id: rows[0].id, email, password: PASSWORD };
}

const userRow = async (id: number) => (await db.query('SELECT * FROM users WHERE id = $1', [id])).rows[0];

/** One password attempt on a fresh sign-in page, from `address`. */
async function attempt(address: string, email: string, password: string): Promise<Page> {
  const { browser, page } = await startSignIn(new BrowserAt(address));
  return browser.submit(page, { email, password });
}

const signInFrom = (address: string, user: NewUser) => signInOnce({ email: user.email, password: user.password, browser: new BrowserAt(address) });

/** A password sign-in of an MFA user from `address`, up to the code page. */
async function toCodePage(address: string, user: NewUser) {
  const mark = Number((await db.query('SELECT coalesce(max(id), 0) AS id FROM outbox_messages')).rows[0].id);
  const { browser, pkce, page } = await startSignIn(new BrowserAt(address));
  const codePage = await browser.submit(page, { email: user.email, password: user.password });
  expect(isCodePage(codePage)).toBe(true);
  return { browser, pkce, codePage, code: await readSignInCode(user.email, mark) };
}

const otherCode = (code: string) => (code === '000000' ? '111111' : '000000');
const interactionOf = (page: Page) => /\/identity\/interaction\/([\w-]+)/.exec(page.url)![1];
/** Lets "Send a new code" send at once (it waits 30 s after the previous code). */
const ageCodes = (page: Page) =>
  db.query(`UPDATE mfa_codes SET created_at = created_at - interval '1 minute' WHERE interaction_uid = $1`, [interactionOf(page)]);

function expectTooMany(page: Page) {
  expect(page.status).toBe(429);
  expect(Number(page.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(pageError(page.html)).toMatch(/^Too many attempts\. Try again in \d+ (second|minute)s?\.$/);
}

let plainFacility: number;
let mfaFacility: number;

beforeAll(async () => {
  plainFacility = await createFacility('plain', false);
  mfaFacility = await createFacility('MFA', true);
});

afterAll(async () => {
  if (userIds.length) {
    await db.query(`DELETE FROM oidc_payloads WHERE payload->>'accountId' = ANY($1::text[])`, [userIds.map(String)]).catch(() => undefined);
    await db.query('DELETE FROM users WHERE id = ANY($1)', [userIds]).catch(() => undefined);
  }
  if (facilityIds.length) await db.query('DELETE FROM facilities WHERE id = ANY($1)', [facilityIds]).catch(() => undefined);
  await db.end();
});

describe('wrong passwords and the lock-out', () => {
  it('answers a wrong password on a locked, an unknown and a normal account alike, in similar time; only the right password shows the lock', async () => {
    const normal = await createUser('same-normal', plainFacility);
    const locked = await createUser('same-locked', plainFacility);
    await db.query('UPDATE users SET password_locked_out = true WHERE id = $1', [locked.id]);
    const accounts = { normal: normal.email, locked: locked.email, unknown: `nobody-${run}@test.example` };
    const address = newAddress();

    const times: Record<string, number[]> = { normal: [], locked: [], unknown: [] };
    const answers = new Set<string>();
    // Four rounds: the fifth attempt on an e-mail below must not be delayed yet.
    for (let round = 0; round < 4; round++) {
      for (const [name, email] of Object.entries(accounts)) {
        const { browser, page } = await startSignIn(new BrowserAt(address));
        const started = performance.now();
        const answer = await browser.submit(page, { email, password: 'Wrong-Password9' });
        times[name].push(performance.now() - started);
        answers.add(JSON.stringify({ status: answer.status, error: pageError(answer.html), unlockLink: answer.html.includes('request-unlock') }));
      }
    }
    expect([...answers]).toEqual([JSON.stringify({ status: 200, error: INVALID, unlockLink: false })]);
    // Every answer verified one password hash at the same cost: no account state shows in the time
    // (skipping the hash would make one several times faster; the margin is for a busy machine).
    const medians = Object.values(times).map((t) => {
      const sorted = [...t].sort((a, b) => a - b);
      return (sorted[1] + sorted[2]) / 2;
    });
    expect(Math.max(...medians) / Math.min(...medians)).toBeLessThan(3);

    const right = await attempt(address, locked.email, locked.password);
    expect(pageError(right.html)).toBe(LOCKED);
    expect(right.html).toContain('data-testid="request-unlock"');
  });

  it('delays a burst of wrong passwords from an unknown address instead of locking; the owner signs in from her usual address', async () => {
    const user = await createUser('burst', plainFacility);
    const home = newAddress();
    await signInFrom(home, user);

    const attacker = newAddress();
    for (let i = 1; i <= 5; i++) expect(pageError((await attempt(attacker, user.email, `Wrong-Password${i}`)).html)).toBe(INVALID);
    const sixth = await attempt(attacker, user.email, 'Wrong-Password6');
    expectTooMany(sixth);
    // While the delay runs even the right password is not tried: the answer is the same.
    expectTooMany(await attempt(attacker, user.email, user.password));
    // An unknown e-mail from another address gets the same treatment after as many failures.
    const elsewhere = newAddress();
    for (let i = 1; i <= 5; i++) expect(pageError((await attempt(elsewhere, `ghost-${run}@test.example`, `Wrong-Password${i}`)).html)).toBe(INVALID);
    expectTooMany(await attempt(elsewhere, `ghost-${run}@test.example`, 'Wrong-Password6'));

    expect((await userRow(user.id)).password_locked_out).toBe(false);
    const tokens = await signInFrom(home, user);
    expect(decodeJwt(tokens.accessToken).sub).toBe(String(user.id));

    // The delay grows with each failure: after the wait one more try, then a longer wait.
    const first = Number(sixth.headers.get('retry-after'));
    await sleep(first * 1000 + 300);
    expect(pageError((await attempt(attacker, user.email, 'Wrong-Password7')).html)).toBe(INVALID);
    const eighth = await attempt(attacker, user.email, 'Wrong-Password8');
    expectTooMany(eighth);
    expect(Number(eighth.headers.get('retry-after'))).toBeGreaterThan(first);
  });

  it('locks the account after five wrong passwords from her usual address, silently: the right password then shows the lock', async () => {
    const user = await createUser('usual', plainFacility);
    const home = newAddress();
    await signInFrom(home, user);
    for (let i = 1; i <= 5; i++) {
      const page = await attempt(home, user.email, `Wrong-Password${i}`);
      expect(page.status).toBe(200);
      expect(pageError(page.html)).toBe(INVALID);
    }
    const row = await userRow(user.id);
    expect(row.password_locked_out).toBe(true);
    expect(row.failed_login_count).toBe(5);
    // A sixth attempt in a row waits like any other (5 s), even with the right password.
    const waited = await attempt(home, user.email, user.password);
    expectTooMany(waited);
    await sleep(Number(waited.headers.get('retry-after')) * 1000 + 300);
    const right = await attempt(home, user.email, user.password);
    expect(pageError(right.html)).toBe(LOCKED);
    expect(right.html).toContain('data-testid="request-unlock"');
  });

  it('delays many failed sign-ins from one address, whatever the accounts', async () => {
    const address = newAddress();
    for (let i = 1; i <= 20; i++) expect(pageError((await attempt(address, `spray-${i}-${run}@test.example`, 'Summer2026!')).html)).toBe(INVALID);
    expectTooMany(await attempt(address, `spray-21-${run}@test.example`, 'Summer2026!'));
    // Another address is not held back.
    expect(pageError((await attempt(newAddress(), `spray-21-${run}@test.example`, 'Summer2026!')).html)).toBe(INVALID);
  });
});

describe('request limits', () => {
  it('allows 20 sign-ins a minute per account and address, then 429 with Retry-After; counters are in PostgreSQL, shared by replicas', async () => {
    const user = await createUser('limit', plainFacility);
    const address = newAddress();
    for (let i = 0; i < 20; i++) await signInFrom(address, user);
    expectTooMany(await attempt(address, user.email, user.password));
    // Another address, or another account from this address, is not limited.
    await signInFrom(newAddress(), user);
    const other = await createUser('limit-other', plainFacility);
    await signInFrom(address, other);
    // The limit is state in the database, not in one process: cleared there, it is gone at once.
    await db.query('DELETE FROM rate_limit_counters');
    await signInFrom(address, user);
  });

  it('limits sign-in code entries per account and address', async () => {
    const user = await createUser('code-limit', mfaFacility);
    const address = newAddress();
    const { browser, codePage, code } = await toCodePage(address, user);
    let page = codePage;
    for (let i = 1; i <= 10; i++) {
      page = await browser.navigate(`${API_URL}/identity/interaction/${interactionOf(codePage)}/code`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ code: otherCode(code) }).toString(),
      });
      expect(page.status).toBe(200);
    }
    page = await browser.navigate(`${API_URL}/identity/interaction/${interactionOf(codePage)}/code`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ code }).toString(),
    });
    expectTooMany(page);
  });

  it('limits "Send a new code"', async () => {
    const user = await createUser('resend-limit', mfaFacility);
    const { browser, codePage } = await toCodePage(newAddress(), user);
    let page = codePage;
    const statuses: number[] = [];
    for (let i = 0; i < 6 && page.status !== 429; i++) {
      await ageCodes(codePage);
      page = await browser.submit(isCodePage(page) ? page : codePage, {}, (f) => f.action.endsWith('/resend'));
      statuses.push(page.status);
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expectTooMany(page);
    const sent = await db.query(`SELECT count(*)::int AS n FROM outbox_messages WHERE purpose = 'mfa-code' AND user_id = $1`, [user.id]);
    expect(sent.rows[0].n).toBe(6);
  });

  it('limits unlock requests per address, with a readable page', async () => {
    const browser = new BrowserAt(newAddress());
    const form = await browser.navigate(`${API_URL}/identity/account/unlock-request`);
    let page = form;
    for (let i = 1; i <= 10; i++) {
      page = await browser.submit(form, { email: `unlock-${i}-${run}@test.example` });
      expect(page.status).toBe(200);
    }
    page = await browser.submit(form, { email: `unlock-11-${run}@test.example` });
    expect(page.status).toBe(429);
    expect(Number(page.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(page.html).toMatch(/Too many attempts\. Try again in \d+ (second|minute)s?\./);
  });

  it('limits the set-password and reset-password links per address', async () => {
    const browser = new BrowserAt(newAddress());
    for (let i = 1; i <= 30; i++) {
      const page = await browser.navigate(`${API_URL}/identity/account/${i % 2 ? 'set-password' : 'reset-password'}?token=${randomBytes(24).toString('base64url')}`);
      expect(page.status).toBe(400);
    }
    const page = await browser.navigate(`${API_URL}/identity/account/set-password?token=${randomBytes(24).toString('base64url')}`);
    expect(page.status).toBe(429);
    expect(Number(page.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(page.html).toMatch(/Too many attempts\. Try again in \d+ (second|minute)s?\./);
  });

  it('limits password changes per account and address with a coded 429 and Retry-After', async () => {
    const user = await createUser('change-limit', plainFacility);
    const { accessToken } = await signInFrom(newAddress(), user);
    const address = newAddress();
    const change = (from: string) =>
      api('PUT', '/api/user/password', {
        token: accessToken,
        headers: { 'x-forwarded-for': from },
        body: { currentPassword: 'Not-The-One1', newPassword: 'Brand-New-Pass9', confirmPassword: 'Brand-New-Pass9' },
      });
    for (let i = 1; i <= 10; i++) expect((await change(address)).status).toBe(400);
    const refused = await change(address);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('INV.TOO_MANY_ATTEMPTS');
    expect(refused.error?.code).toBe('INV.TOO_MANY_ATTEMPTS');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await change(newAddress())).status).toBe(400);
  });
});

describe('MFA budget', () => {
  it('allows five wrong codes in all per sign-in, across "Send a new code"', async () => {
    const user = await createUser('budget', mfaFacility);
    const address = newAddress();
    const { browser, codePage, code } = await toCodePage(address, user);
    let page = codePage;
    for (let i = 1; i <= 3; i++) {
      page = await browser.submit(page, { code: otherCode(code) });
      expect(pageError(page.html)).toBe('Invalid code');
    }
    await ageCodes(codePage);
    const mark = Number((await db.query('SELECT coalesce(max(id), 0) AS id FROM outbox_messages')).rows[0].id);
    page = await browser.submit(page, {}, (f) => f.action.endsWith('/resend'));
    expect(page.html).toContain('We sent you a new code');
    const second = await readSignInCode(user.email, mark);
    page = await browser.submit(page, { code: otherCode(second) });
    expect(pageError(page.html)).toBe('Invalid code');
    page = await browser.submit(page, { code: otherCode(second) });
    // The budget is spent: the code page is gone, even the right new code is of no use.
    expect(isSignInPage(page)).toBe(true);
    const retry = await browser.navigate(`${API_URL}/identity/interaction/${interactionOf(codePage)}/code`);
    expect(isSignInPage(retry)).toBe(true);
  });

  it('counts wrong codes towards the lock-out, across sign-ins', async () => {
    const user = await createUser('code-lock', mfaFacility);
    const address = newAddress();
    const one = await toCodePage(address, user);
    let page = one.codePage;
    for (let i = 1; i <= 3; i++) page = await one.browser.submit(page, { code: otherCode(one.code) });
    expect(pageError(page.html)).toBe('Invalid code');

    const two = await toCodePage(address, user);
    page = await two.browser.submit(two.codePage, { code: otherCode(two.code) });
    expect(pageError(page.html)).toBe('Invalid code');
    page = await two.browser.submit(page, { code: otherCode(two.code) });
    // Whoever typed these codes knew the password: the lock is shown.
    expect(pageError(page.html)).toBe(LOCKED);
    expect((await userRow(user.id)).password_locked_out).toBe(true);
  });
});

describe('password hashes', () => {
  const legacyHash = (password: string) => {
    const salt = randomBytes(16);
    const key = scryptSync(password.normalize('NFKC'), salt, 64, { N: 16384, r: 8, p: 1 });
    return `scrypt$16384$8$1$${salt.toString('base64')}$${key.toString('base64')}`;
  };

  it('stores a new password with scrypt N=2^17, r=8, p=1, the parameters in the hash', async () => {
    const user = await createUser('cost', plainFacility);
    const { accessToken } = await signInFrom(newAddress(), user);
    const res = await api('PUT', '/api/user/password', {
      token: accessToken,
      body: { currentPassword: user.password, newPassword: 'Brand-New-Pass9', confirmPassword: 'Brand-New-Pass9' },
    });
    expect(res.status).toBe(204);
    expect((await userRow(user.id)).password_hash).toMatch(/^scrypt\$131072\$8\$1\$/);
  });

  it('rehashes an older hash on the next successful sign-in; a wrong password leaves it alone', async () => {
    const old = legacyHash(PASSWORD);
    const user = await createUser('legacy', plainFacility, old);
    const address = newAddress();
    expect(pageError((await attempt(address, user.email, 'Wrong-Password1')).html)).toBe(INVALID);
    expect((await userRow(user.id)).password_hash).toBe(old);

    await signInFrom(address, user);
    const rehashed = (await userRow(user.id)).password_hash;
    expect(rehashed).toMatch(/^scrypt\$131072\$8\$1\$/);
    await signInFrom(address, user);
    expect((await userRow(user.id)).password_hash).toBe(rehashed);
  });
});

describe('signing keys', () => {
  const jwksKids = async () => {
    const res = await fetch(`${API_URL}/identity/jwks`);
    return ((await res.json()) as { keys: { kid: string; d?: string }[] }).keys;
  };
  const PRIVATE_MEMBER = /"(d|p|q|dp|dq|qi)"\s*:/;

  it('keeps no private key material in clear in the database', async () => {
    const user = await createUser('keys', plainFacility);
    const { accessToken } = await signInFrom(newAddress(), user);
    const { kid } = JSON.parse(Buffer.from(accessToken.split('.')[0], 'base64url').toString());
    const { rows } = await db.query('SELECT to_jsonb(k) AS row FROM identity_keys k');
    expect(rows.map((r) => r.row.kid)).toContain(kid);
    for (const { row } of rows) expect(JSON.stringify(row)).not.toMatch(PRIVATE_MEMBER);
    const published = await jwksKids();
    expect(published.map((k) => k.kid)).toContain(kid);
    expect(published.some((k) => 'd' in k)).toBe(false);
  });

  it('seals a key stored in clear by an earlier version', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const kid = `clear-${run}`;
    const jwk = { ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
    await db.query(`INSERT INTO identity_keys (kid, private_jwk, created_at) VALUES ($1, $2, now() - interval '40 days')`, [kid, JSON.stringify(jwk)]);
    await eventually(async () => {
      await jwksKids();
      const { rows } = await db.query('SELECT to_jsonb(k) AS row FROM identity_keys k WHERE kid = $1', [kid]);
      return !PRIVATE_MEMBER.test(JSON.stringify(rows[0].row));
    }, 'the clear key to be sealed');
    // It was not made the signing key (a newer one signs), and is published while tokens it signed may live.
    const user = await createUser('sealed', plainFacility);
    const { accessToken } = await signInFrom(newAddress(), user);
    expect(JSON.parse(Buffer.from(accessToken.split('.')[0], 'base64url').toString()).kid).not.toBe(kid);
    expect((await jwksKids()).map((k) => k.kid)).toContain(kid);
  });

  it('rotates the signing key when it is older than the rotation age; tokens of the old key verify until it is dropped', async () => {
    const user = await createUser('rotate', plainFacility);
    const before = await signInFrom(newAddress(), user);
    // Not shown to the API before the old key is dropped (the API remembers tokens it verified).
    const unused = await signInFrom(newAddress(), user);
    const kidOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[0], 'base64url').toString()).kid as string;
    const oldKid = kidOf(before.accessToken);
    expect(kidOf(unused.accessToken)).toBe(oldKid);

    await db.query(`UPDATE identity_keys SET created_at = now() - interval '31 days' WHERE kid = $1`, [oldKid]);
    const newKid = await eventually(async () => {
      const kids = (await jwksKids()).map((k) => k.kid);
      return kids.find((k) => k !== oldKid && kids.indexOf(oldKid) >= 0 && !k.startsWith('clear-'));
    }, 'a new signing key');
    const after = await signInFrom(newAddress(), user);
    expect(kidOf(after.accessToken)).toBe(newKid);
    expect(kidOf(after.idToken)).toBe(newKid);

    // The old key still verifies the tokens it signed, on the API and in the published set.
    for (const t of [before.accessToken, after.accessToken]) expect((await api('GET', '/api/user/context', { token: t })).status).toBe(200);
    expect((await jwksKids()).map((k) => k.kid)).toEqual(expect.arrayContaining([oldKid, newKid]));

    // Once every token it signed has expired, it is dropped.
    await db.query(`UPDATE identity_keys SET retired_at = now() - interval '3 days' WHERE kid = $1`, [oldKid]);
    await eventually(async () => !(await jwksKids()).some((k) => k.kid === oldKid), 'the old key to be dropped', 20_000);
    await eventually(async () => (await api('GET', '/api/user/context', { token: unused.accessToken })).status === 401, 'the old key\'s token to be refused', 20_000);
    expect((await api('GET', '/api/user/context', { token: after.accessToken })).status).toBe(200);
  });
});

describe('IP allow-list at sign-in', () => {
  it("refuses a facility user outside her facility's allow-list with the API's message, and audits it", async () => {
    const facilityId = await createFacility('allow-list', false);
    const user = await createUser('allow-list', facilityId);
    const itpAdmin = (await signInAs(UserType.ItpAdmin)).accessToken;
    const itpId = (await api('GET', '/api/itp-organization', { token: itpAdmin })).body.id;
    const settings = `/api/itp-organization/${itpId}/update-ip-whitelist-settings`;
    const on = await api('PUT', settings, { token: itpAdmin, body: { facilityId, ipWhiteListEnabled: true, ipAddresses: '10.251.0.0/16' } });
    expect(on.status).toBe(200);
    try {
      const outside = `10.252.${Math.floor(Math.random() * 250)}.7`;
      const refused = await attempt(outside, user.email, user.password);
      expect(refused.leftTo).toBeUndefined();
      expect(pageError(refused.html)).toBe("You don't have permission to perform this action");
      // A wrong password from there learns nothing more.
      expect(pageError((await attempt(outside, user.email, 'Wrong-Password1')).html)).toBe(INVALID);
      const audit = await db.query(
        `SELECT success, user_id, "values" FROM audit_log WHERE main_action = 'Identity.SignIn' AND user_id = $1 AND "values"->>'ip' = $2 ORDER BY id`,
        [user.id, outside],
      );
      expect(audit.rows[0]).toMatchObject({ success: false, values: expect.objectContaining({ reason: 'ipNotAllowed' }) });

      const inside = await signInFrom(`10.251.${Math.floor(Math.random() * 250)}.9`, user);
      expect((await api('GET', '/api/user/context', { token: inside.accessToken, headers: { 'x-forwarded-for': '10.251.1.1' } })).status).toBe(200);
    } finally {
      await api('PUT', settings, { token: itpAdmin, body: { facilityId, ipWhiteListEnabled: false, ipAddresses: '10.251.0.0/16' } });
    }
  });
});
