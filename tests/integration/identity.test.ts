/**
 * The identity server against a running API (API_URL) and its database (DATABASE_URL):
 * sign-in with the real authorization-code + PKCE flow, lock-out, MFA, refresh, change password,
 * token revocation and sign-out. Every user here is created by this file, so demo users stay usable.
 */
import { Client } from 'pg';
import { hashPassword } from '../../api/src/identity/password-hash';
import {
  API_URL,
  POST_LOGOUT_REDIRECT_URI,
  bearer,
  codeFromCallback,
  decodeJwt,
  exchangeCode,
  isCodePage,
  isSignInPage,
  loadDemoUsers,
  pageError,
  readSignInCode,
  refresh,
  signIn,
  signInAs,
  signOut,
  startSignIn,
  TokenError,
  type Browser,
  type Page,
} from '../support/oidc-client';

jest.setTimeout(60_000);

const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const PASSWORD = 'Correct-Horse7';
const db = new Client({ connectionString: process.env.DATABASE_URL });
const facilityIds: number[] = [];
const userIds: number[] = [];

interface NewUser {
  id: number;
  email: string;
  password: string;
}

async function createFacility(mfa: boolean): Promise<number> {
  const { rows } = await db.query(
    `INSERT INTO facilities (name, street_line, city, state, zip_code, latitude, longitude, is_mfa_enabled)
     VALUES ($1, '1 Test Way', 'Testville', 'WA', '98001', 47.3, -122.2, $2) RETURNING id`,
    [`Identity test ${run} ${mfa ? 'MFA' : 'plain'}`, mfa],
  );
  facilityIds.push(rows[0].id);
  return rows[0].id;
}

async function createUser(
  label: string,
  facilityId: number,
  extra: { isActive?: boolean; creating?: boolean; mfaMethod?: 'Email' | 'Sms' | null; phone?: string | null } = {},
): Promise<NewUser> {
  const email = `identity-${run}-${label}@test.example`;
  const { rows } = await db.query(
    `INSERT INTO users (first_name, last_name, email, phone, is_active, creating, email_confirmed, password_hash,
                        organization_type, organization_id, user_type, mfa_method)
     VALUES ('Test', $1, $2, $3, $4, $5, true, $6, 'Facility', $7, 'Facility_Admin', $8) RETURNING id`,
    [label, email, extra.phone ?? null, extra.isActive ?? true, extra.creating ?? false, await hashPassword(PASSWORD), facilityId, extra.mfaMethod ?? null],
  );
  userIds.push(rows[0].id);
  return { id: rows[0].id, email, password: PASSWORD };
}

async function userRow(id: number) {
  return (await db.query('SELECT * FROM users WHERE id = $1', [id])).rows[0];
}

async function submitPassword(email: string, password: string): Promise<{ browser: Browser; page: Page }> {
  const { browser, page } = await startSignIn();
  expect(isSignInPage(page)).toBe(true);
  return { browser, page: await browser.submit(page, { email, password }) };
}

const context = (accessToken: string) => fetch(`${API_URL}/api/user/context`, { headers: bearer(accessToken) });

const changePassword = (accessToken: string, body: Record<string, unknown>) =>
  fetch(`${API_URL}/api/user/password`, {
    method: 'PUT',
    headers: { ...bearer(accessToken), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

let plainFacility: number;
let mfaFacility: number;

beforeAll(async () => {
  await db.connect();
  plainFacility = await createFacility(false);
  mfaFacility = await createFacility(true);
});

afterAll(async () => {
  if (userIds.length) {
    await db.query(`DELETE FROM oidc_payloads WHERE payload->>'accountId' = ANY($1::text[])`, [userIds.map(String)]).catch(() => undefined);
    await db.query('DELETE FROM users WHERE id = ANY($1)', [userIds]).catch(() => undefined);
  }
  if (facilityIds.length) await db.query('DELETE FROM facilities WHERE id = ANY($1)', [facilityIds]).catch(() => undefined);
  await db.end();
});

describe('identity server', () => {
  it('publishes its discovery document with the /identity issuer', async () => {
    const res = await fetch(`${API_URL}/identity/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as Record<string, any>;
    expect(doc.issuer).toMatch(/\/identity$/);
    expect(doc.code_challenge_methods_supported).toEqual(['S256']);
    expect(doc.end_session_endpoint).toMatch(/\/identity\/session\/end$/);
  });

  it('renders the sign-in page with Email, Password and Sign in', async () => {
    const { page } = await startSignIn();
    expect(page.status).toBe(200);
    expect(page.url).toMatch(/\/identity\/interaction\/[\w-]+$/);
    expect(page.html).toContain('Crisis Placement Platform');
    expect(page.html).toMatch(/<label for="email">Email<\/label>/);
    expect(page.html).toMatch(/<label for="password">Password<\/label>/);
    expect(page.html).toMatch(/<button type="submit">Sign in<\/button>/);
    expect(page.headers.get('cache-control')).toContain('no-store');
  });

  it('refuses an authorization request without PKCE', async () => {
    const { browser } = await startSignIn();
    const params = new URLSearchParams({ client_id: 'admin-ui', response_type: 'code', scope: 'openid', redirect_uri: 'http://localhost:5173/auth-callback' });
    const page = await browser.navigate(`${API_URL}/identity/auth?${params}`);
    expect(page.leftTo?.searchParams.get('error')).toBe('invalid_request');
  });

  describe('password sign-in', () => {
    let user: NewUser;
    beforeAll(async () => {
      user = await createUser('good', plainFacility);
    });

    it('issues tokens for a good password; the access token is a JWT for the API with sub = user id', async () => {
      const tokens = await signIn({ email: user.email, password: user.password });
      expect(tokens.codePageShown).toBe(false);
      expect(tokens.refreshToken).toBeTruthy();
      const at = decodeJwt(tokens.accessToken);
      expect(at.sub).toBe(String(user.id));
      expect(at.iss).toBe(`${new URL(at.iss).origin}/identity`);
      expect(at.aud).toMatch(/\/api$/);
      expect(at.client_id).toBe('admin-ui');
      const id = decodeJwt(tokens.idToken);
      expect(id.sub).toBe(String(user.id));
      expect(id.email).toBe(user.email);
      expect(id.amr).toEqual(['pwd']);

      const res = await context(tokens.accessToken);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { id: number }).id).toBe(user.id);

      const row = await userRow(user.id);
      expect(row.failed_login_count).toBe(0);
      expect(row.last_login).not.toBeNull();
    });

    it('accepts the e-mail in another letter case', async () => {
      const tokens = await signIn({ email: user.email.toUpperCase(), password: user.password });
      expect(decodeJwt(tokens.accessToken).sub).toBe(String(user.id));
    });

    it('shows "Invalid email or password" for a bad password and issues no code', async () => {
      const { page } = await submitPassword(user.email, 'Wrong-Password1');
      expect(page.leftTo).toBeUndefined();
      expect(page.status).toBe(200);
      expect(isSignInPage(page)).toBe(true);
      expect(pageError(page.html)).toBe('Invalid email or password');
      // The e-mail stays filled in, the password does not.
      expect(page.html).toContain(`value="${user.email}"`);
      expect((await userRow(user.id)).failed_login_count).toBe(1);
    });

    it('shows the same message for an unknown e-mail', async () => {
      const { page } = await submitPassword(`nobody-${run}@test.example`, 'Whatever-123');
      expect(page.leftTo).toBeUndefined();
      expect(pageError(page.html)).toBe('Invalid email or password');
    });

    it('writes an audit entry for every attempt', async () => {
      const { rows } = await db.query(
        `SELECT success, user_id, "values" FROM audit_log
          WHERE main_action = 'Identity.SignIn' AND kind = 'SignIn' AND "values"->>'email' ILIKE $1 ORDER BY id`,
        [user.email],
      );
      expect(rows.length).toBeGreaterThanOrEqual(3);
      expect(rows.some((r) => r.success === true && r.user_id === user.id)).toBe(true);
      expect(rows.some((r) => r.success === false && r.user_id === user.id)).toBe(true);
      expect(JSON.stringify(rows)).not.toContain('Wrong-Password1');
    });

    it('refuses inactive and pending users', async () => {
      const inactive = await createUser('inactive', plainFacility, { isActive: false });
      const pending = await createUser('pending', plainFacility, { creating: true });
      for (const u of [inactive, pending]) {
        const { page } = await submitPassword(u.email, u.password);
        expect(page.leftTo).toBeUndefined();
        expect(pageError(page.html)).toBe('Invalid email or password');
      }
    });

    it('refuses a user locked due to inactivity', async () => {
      const locked = await createUser('inactivity', plainFacility);
      await db.query('UPDATE users SET locked_due_inactivity = true WHERE id = $1', [locked.id]);
      const { page } = await submitPassword(locked.email, locked.password);
      expect(page.leftTo).toBeUndefined();
      expect(pageError(page.html)).toBe('Your account is locked. Contact your administrator.');
    });
  });

  // Wrong passwords count towards the lock-out from an address the user signed in from (here the
  // suite's own, 127.0.0.1); from other addresses they are delayed instead (sign-in-hardening.test.ts).
  describe('lock-out', () => {
    it('locks the account after 5 wrong passwords from her address, without saying so; then the right password shows the lock', async () => {
      const user = await createUser('lockout', plainFacility);
      await signIn({ email: user.email, password: user.password });
      for (let i = 1; i <= 5; i++) {
        expect((await userRow(user.id)).password_locked_out).toBe(false);
        const { page } = await submitPassword(user.email, `Wrong-Password${i}`);
        expect(pageError(page.html)).toBe('Invalid email or password');
        expect(page.html).not.toContain('request-unlock');
      }
      const row = await userRow(user.id);
      expect(row.password_locked_out).toBe(true);
      expect(row.failed_login_count).toBe(5);

      // After five failures in a row the next attempt waits 5 seconds (progressive delay).
      await new Promise((r) => setTimeout(r, 5300));
      const { page: right } = await submitPassword(user.email, user.password);
      expect(right.leftTo).toBeUndefined();
      expect(pageError(right.html)).toBe('Your account is locked. Contact your administrator.');
      expect(right.html).toContain('request-unlock');
      await expect(signIn({ email: user.email, password: user.password })).rejects.toThrow('Your account is locked');
    });

    it('a good password resets the failure count', async () => {
      const user = await createUser('reset', plainFacility);
      await signIn({ email: user.email, password: user.password });
      await submitPassword(user.email, 'Wrong-Password1');
      await submitPassword(user.email, 'Wrong-Password2');
      expect((await userRow(user.id)).failed_login_count).toBe(2);
      await signIn({ email: user.email, password: user.password });
      expect((await userRow(user.id)).failed_login_count).toBe(0);
    });
  });

  describe('MFA', () => {
    let user: NewUser;
    beforeAll(async () => {
      user = await createUser('mfa', mfaFacility);
    });

    async function toCodePage(u: NewUser) {
      const mark = Number((await db.query('SELECT coalesce(max(id), 0) AS id FROM outbox_messages')).rows[0].id);
      const { browser, pkce, page } = await startSignIn();
      const codePage = await browser.submit(page, { email: u.email, password: u.password });
      return { browser, pkce, codePage, mark };
    }

    it('asks for the code sent by e-mail when the facility requires MFA, and accepts it', async () => {
      const { browser, pkce, codePage, mark } = await toCodePage(user);
      expect(codePage.leftTo).toBeUndefined();
      expect(isCodePage(codePage)).toBe(true);
      expect(codePage.html).toContain('Enter the code we sent to your e-mail');
      expect(codePage.html).toMatch(/<label for="code">Code<\/label>/);
      expect(codePage.html).toMatch(/<button type="submit">Verify<\/button>/);

      const { rows } = await db.query(
        `SELECT channel, recipient, subject, body, user_id FROM outbox_messages WHERE purpose = 'mfa-code' AND id > $1 AND user_id = $2`,
        [mark, user.id],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ channel: 'email', recipient: user.email, subject: 'Your sign-in code' });
      expect(rows[0].body).toMatch(/^Your sign-in code is \d{6}$/);
      const code = /(\d{6})/.exec(rows[0].body)![1];
      // The code is stored hashed, not in clear.
      const stored = await db.query('SELECT code_hash FROM mfa_codes WHERE user_id = $1 ORDER BY id DESC LIMIT 1', [user.id]);
      expect(stored.rows[0].code_hash).not.toContain(code);

      const wrong = await browser.submit(codePage, { code: code === '000000' ? '111111' : '000000' });
      expect(wrong.leftTo).toBeUndefined();
      expect(pageError(wrong.html)).toBe('Invalid code');

      const done = await browser.submit(wrong, { code });
      const tokens = await exchangeCode(codeFromCallback(done, pkce), pkce);
      expect(decodeJwt(tokens.idToken).amr).toEqual(['pwd', 'otp']);
      expect((await context(tokens.accessToken)).status).toBe(200);
    });

    it('signIn() reads the code from the outbox by itself', async () => {
      const tokens = await signIn({ email: user.email, password: user.password });
      expect(tokens.codePageShown).toBe(true);
      expect(decodeJwt(tokens.accessToken).sub).toBe(String(user.id));
    });

    it('voids the code after 5 wrong attempts, which also lock the account: the user starts over', async () => {
      // Wrong codes count towards the lock-out: a user of her own, so the others here stay usable.
      const voided = await createUser('mfa-void', mfaFacility);
      const { browser, codePage, mark } = await toCodePage(voided);
      const code = await readSignInCode(voided.email, mark);
      const wrongCode = code === '999999' ? '888888' : '999999';
      let page = codePage;
      for (let i = 1; i <= 4; i++) {
        page = await browser.submit(page, { code: wrongCode });
        expect(pageError(page.html)).toBe('Invalid code');
      }
      page = await browser.submit(page, { code: wrongCode });
      expect(isSignInPage(page)).toBe(true);
      expect(pageError(page.html)).toBe('Your account is locked. Contact your administrator.');
      expect((await userRow(voided.id)).password_locked_out).toBe(true);
      // The right code is useless now: the code page is gone for this sign-in.
      const interactionUrl = /^(.*\/identity\/interaction\/[\w-]+)/.exec(page.url)![1];
      const retry = await browser.navigate(`${interactionUrl}/code`);
      expect(isSignInPage(retry)).toBe(true);
    });

    it('"Send a new code" does not resend within 30 s, and the pending code still works', async () => {
      const { browser, pkce, codePage, mark } = await toCodePage(user);
      const code = await readSignInCode(user.email, mark);
      const resent = await browser.submit(codePage, {}, (f) => f.action.endsWith('/resend'));
      expect(isCodePage(resent)).toBe(true);
      expect(resent.html).toContain('We sent you a code a moment ago');
      const done = await browser.submit(resent, { code });
      const tokens = await exchangeCode(codeFromCallback(done, pkce), pkce);
      expect(decodeJwt(tokens.accessToken).sub).toBe(String(user.id));
    });

    it('sends the code by SMS when the user chose Sms', async () => {
      const smsUser = await createUser('mfa-sms', mfaFacility, { mfaMethod: 'Sms', phone: '+12065550123' });
      const { codePage, mark } = await toCodePage(smsUser);
      expect(codePage.html).toContain('Enter the code we sent to your phone');
      const { rows } = await db.query(`SELECT channel, recipient FROM outbox_messages WHERE purpose = 'mfa-code' AND id > $1 AND user_id = $2`, [mark, smsUser.id]);
      expect(rows).toEqual([{ channel: 'sms', recipient: '+12065550123' }]);
    });

    it('the user chooses her MFA method: SMS at her first code, e-mail later on /me; a bad method is a coded 400', async () => {
      const chooser = await createUser('mfa-choose', mfaFacility, { phone: '+12065550177' });
      // No method yet: the code goes by e-mail and the page offers SMS instead.
      const first = await toCodePage(chooser);
      expect(first.codePage.html).toContain('Enter the code we sent to your e-mail');
      expect(first.codePage.html).toContain('Send it by SMS instead');
      const bySms = await first.browser.submit(first.codePage, { method: 'sms' });
      expect(bySms.html).toContain('Enter the code we sent to your phone');
      expect(bySms.html).toContain('Send it by e-mail instead');
      const { rows: sms } = await db.query(
        `SELECT channel, recipient, body FROM outbox_messages WHERE purpose = 'mfa-code' AND id > $1 AND user_id = $2 ORDER BY id`,
        [first.mark, chooser.id],
      );
      expect(sms.map((r) => r.channel)).toEqual(['email', 'sms']);
      expect(sms[1].recipient).toBe('+12065550177');
      const texted = /(\d{6})/.exec(sms[1].body)![1];
      const done = await first.browser.submit(bySms, { code: texted }, (f) => 'code' in f.fields);
      const tokens = await exchangeCode(codeFromCallback(done, first.pkce), first.pkce);
      expect((await userRow(chooser.id)).mfa_method).toBe('Sms');
      expect((await (await context(tokens.accessToken)).json()).mfaMethod).toBe('Sms');

      // Chosen: the next sign-in sends by SMS at once and offers no switch.
      const second = await toCodePage(chooser);
      expect(second.codePage.html).toContain('Enter the code we sent to your phone');
      expect(second.codePage.html).not.toContain('instead');

      // On her profile she switches to e-mail; the sign-in after that e-mails the code.
      const profile = (body: Record<string, unknown>) =>
        fetch(`${API_URL}/api/user/profile/${chooser.id}`, {
          method: 'PUT',
          headers: { ...bearer(tokens.accessToken), 'content-type': 'application/json' },
          body: JSON.stringify({ firstName: 'Test', lastName: 'mfa-choose', phone: '+12065550177', ...body }),
        });
      const bad = await profile({ mfaMethod: 'Fax' });
      expect(bad.status).toBe(400);
      const refused = await bad.json();
      expect(refused.code).toMatch(/^INV/);
      expect(JSON.stringify(refused)).toContain('mfaMethod');
      expect((await userRow(chooser.id)).mfa_method).toBe('Sms');
      const saved = await profile({ mfaMethod: 'Email' });
      expect(saved.status).toBe(200);
      expect((await saved.json()).mfaMethod).toBe('Email');
      // Leaving it out (or null) keeps it: clearing is "Reset MFA".
      expect((await profile({ mfaMethod: null })).status).toBe(200);
      expect((await userRow(chooser.id)).mfa_method).toBe('Email');
      const third = await toCodePage(chooser);
      expect(third.codePage.html).toContain('Enter the code we sent to your e-mail');
      expect(third.codePage.html).not.toContain('instead');
    });

    it('does not accept a code in another browser (the code belongs to its sign-in)', async () => {
      const { codePage, mark } = await toCodePage(user);
      const code = await readSignInCode(user.email, mark);
      const other = await startSignIn();
      // The other browser has no code page for its own interaction.
      const attempt = await other.browser.navigate(`${other.page.url}/code`);
      expect(isSignInPage(attempt)).toBe(true);
      // And the first browser's interaction URL is not usable without its cookie.
      const foreign = await other.browser.submit({ ...codePage }, { code });
      expect(foreign.leftTo).toBeUndefined();
      expect(foreign.status).toBe(400);
    });
  });

  describe('refresh tokens', () => {
    it('gives a new access token and rotates the refresh token; reusing an old one revokes the grant', async () => {
      const user = await createUser('refresh', plainFacility);
      const first = await signIn({ email: user.email, password: user.password });
      await new Promise((r) => setTimeout(r, 1100));
      const second = await refresh(first.refreshToken);
      expect(second.accessToken).not.toBe(first.accessToken);
      expect(second.refreshToken).not.toBe(first.refreshToken);
      expect(decodeJwt(second.accessToken).sub).toBe(String(user.id));
      expect((await context(second.accessToken)).status).toBe(200);

      const third = await refresh(second.refreshToken);
      expect((await context(third.accessToken)).status).toBe(200);

      // Replay of a rotated token: refused, and the whole chain is revoked.
      await expect(refresh(first.refreshToken)).rejects.toThrow(TokenError);
      await expect(refresh(third.refreshToken)).rejects.toThrow(TokenError);
    });

    it('allows the token endpoint from the admin UI origin only (CORS)', async () => {
      const user = await createUser('cors', plainFacility);
      const tokens = await signIn({ email: user.email, password: user.password });
      const call = (origin: string, refreshToken: string) =>
        fetch(`${API_URL}/identity/token`, {
          method: 'POST',
          headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: 'admin-ui' }),
        });
      const evil = await call('https://evil.example', tokens.refreshToken);
      expect(evil.status).toBe(400);
      expect(evil.headers.get('access-control-allow-origin')).toBeNull();
      const ui = await call('http://localhost:5173', tokens.refreshToken);
      expect(ui.status).toBe(200);
      expect(ui.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    });

    it('refuses refresh for a user who was deactivated', async () => {
      const user = await createUser('deactivated', plainFacility);
      const tokens = await signIn({ email: user.email, password: user.password });
      await db.query('UPDATE users SET is_active = false WHERE id = $1', [user.id]);
      const err = await refresh(tokens.refreshToken).catch((e) => e);
      expect(err).toBeInstanceOf(TokenError);
      expect((err as TokenError).body.error).toBe('invalid_grant');
    });
  });

  describe('change password', () => {
    it('refuses a wrong current password with 400 OPWD', async () => {
      const user = await createUser('opwd', plainFacility);
      const tokens = await signIn({ email: user.email, password: user.password });
      const res = await changePassword(tokens.accessToken, { currentPassword: 'Not-The-One1', newPassword: 'Brand-New-Pass9', confirmPassword: 'Brand-New-Pass9' });
      expect(res.status).toBe(400);
      const body = (await res.json()) as Record<string, any>;
      expect(body.code).toBe('OPWD');
      expect(body.fields).toEqual([expect.objectContaining({ field: 'currentPassword' })]);
      expect(JSON.parse(res.headers.get('x-error')!).code).toBe('OPWD');
      // Nothing changed: the old password still works.
      await signIn({ email: user.email, password: user.password });
    });

    it('validates the body (confirmation must match)', async () => {
      const user = await createUser('inv', plainFacility);
      const tokens = await signIn({ email: user.email, password: user.password });
      const res = await changePassword(tokens.accessToken, { currentPassword: user.password, newPassword: 'Brand-New-Pass9', confirmPassword: 'Other-Pass9' });
      expect(res.status).toBe(400);
      const body = (await res.json()) as Record<string, any>;
      expect(body.code).toBe('INV');
      expect(body.fields.map((f: { field: string }) => f.field)).toContain('confirmPassword');
    });

    it('requires a signed-in user', async () => {
      const res = await fetch(`${API_URL}/api/user/password`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(res.status).toBe(401);
    });

    it('changes the password; tokens issued before are refused with x-token-revoked; other sessions end', async () => {
      const user = await createUser('change', plainFacility);
      const other = await signIn({ email: user.email, password: user.password });
      const mine = await signIn({ email: user.email, password: user.password });
      // Tokens are compared at second precision with one second of slack.
      await new Promise((r) => setTimeout(r, 2100));

      const newPassword = 'Fresh-Password42';
      const res = await changePassword(mine.accessToken, { currentPassword: user.password, newPassword, confirmPassword: newPassword });
      expect(res.status).toBe(204);

      for (const t of [mine.accessToken, other.accessToken]) {
        const r = await context(t);
        expect(r.status).toBe(403);
        expect(r.headers.get('x-token-revoked')).toBe('true');
      }
      // The session that made the change renews and carries on; the other one is signed out.
      const renewed = await refresh(mine.refreshToken);
      expect((await context(renewed.accessToken)).status).toBe(200);
      await expect(refresh(other.refreshToken)).rejects.toThrow(TokenError);

      const { page } = await submitPassword(user.email, user.password);
      expect(pageError(page.html)).toBe('Invalid email or password');
      const again = await signIn({ email: user.email, password: newPassword });
      expect((await context(again.accessToken)).status).toBe(200);

      const audit = await db.query(
        `SELECT success, body FROM audit_log WHERE main_action = 'User.ChangePassword' AND user_id = $1 ORDER BY id DESC LIMIT 1`,
        [user.id],
      );
      expect(audit.rows[0].success).toBe(true);
      expect(JSON.stringify(audit.rows[0].body)).not.toContain(newPassword);
    });
  });

  describe('sign-out', () => {
    it('ends the session without a confirmation page and redirects to the post-logout URI', async () => {
      const user = await createUser('signout', plainFacility);
      const tokens = await signIn({ email: user.email, password: user.password });

      const params = new URLSearchParams({ id_token_hint: tokens.idToken, post_logout_redirect_uri: POST_LOGOUT_REDIRECT_URI });
      const page = await tokens.browser.navigate(`${API_URL}/identity/session/end?${params}`);
      // The page submits itself: no "are you sure" buttons.
      expect(page.html).not.toMatch(/stay signed in/i);
      expect(page.html).toContain('name="logout" value="yes"');

      const landed = await signOut(tokens);
      expect(landed.href).toBe(POST_LOGOUT_REDIRECT_URI);
      // Refresh tokens of the session are revoked, and the next authorization asks for the password again.
      await expect(refresh(tokens.refreshToken)).rejects.toThrow(TokenError);
      const { page: next } = await startSignIn(tokens.browser);
      expect(isSignInPage(next)).toBe(true);
    });

    it('a signed-in browser gets a new code without the password (single sign-on session)', async () => {
      const user = await createUser('sso', plainFacility);
      const tokens = await signIn({ email: user.email, password: user.password });
      const { pkce, page } = await startSignIn(tokens.browser);
      const again = await exchangeCode(codeFromCallback(page, pkce), pkce);
      expect(decodeJwt(again.accessToken).sub).toBe(String(user.id));
    });
  });

  describe('demo users', () => {
    it('every demo user can sign in (signInAs)', async () => {
      const users = await loadDemoUsers();
      expect(users.length).toBeGreaterThanOrEqual(6);
      const seeded = await db.query('SELECT lower(email) AS email FROM users WHERE lower(email) = ANY($1)', [users.map((u) => u.email.toLowerCase())]);
      expect(seeded.rows).toHaveLength(users.length);
      for (const u of users) {
        const tokens = await signInAs(u.role);
        const res = await context(tokens.accessToken);
        expect(res.status).toBe(200);
        expect(((await res.json()) as { role: string }).role).toBe(u.role);
      }
    });
  });
});
