/**
 * SAML single sign-on end to end without a browser: a facility admin configures SSO for her
 * facility against the local test IdP (tests/support/saml-idp.ts, port 3311), then a facility user
 * signs in through "Sign in with single sign-on" → the IdP → the ACS → the OIDC callback → tokens.
 * Negative cases: a wrong certificate, an e-mail the facility does not have, another facility's
 * user, a replayed response, and "disable password login".
 */
import { api } from '../support/api';
import { db } from '../support/db';
import {
  API_URL,
  Browser,
  codeFromCallback,
  decodeJwt,
  exchangeCode,
  pageError,
  parseForms,
  signIn,
  startSignIn,
  type Page,
} from '../support/oidc-client';
import { generateKeyPair, startSamlIdp, type SamlIdp } from '../support/saml-idp';

const ADMIN = 'admin@tampageneral.example.org';
const USER = 'er@tampageneral.example.org';
const OTHER_FACILITY_USER = 'er@savannahcoastal.example.org';
const PASSWORD = 'Demo1234!';
const IDP_PORT = Number(process.env.SAML_IDP_PORT ?? 3311);

let idp: SamlIdp;
let adminToken: string;
let facilityId: number;
let original: Record<string, unknown>;

async function configure(overrides: Record<string, unknown> = {}) {
  const res = await api('PUT', `/api/facilities/${facilityId}/external-login-provider-settings`, {
    token: adminToken,
    body: {
      enabled: true,
      identityProviderEntityId: idp.entityId,
      signInUrl: idp.signInUrl,
      x509Certificate: idp.certificate,
      userEmailClaim: 'email',
      disablePasswordLogin: false,
      ...overrides,
    },
  });
  expect(res.status).toBe(200);
  return res.body;
}

/** From the sign-in page to the IdP's auto-posting form; returns what the browser would POST to the ACS. */
async function throughIdp(startEmail: string, idpEmail = startEmail, organizationKey = `facility-${facilityId}`) {
  const { browser, pkce, page } = await startSignIn(new Browser());
  const link = /href="([^"]*\/sso)"/.exec(page.html)?.[1];
  expect(link).toBeTruthy();
  const ssoPage = await browser.navigate(new URL(link!, API_URL).href);
  const toIdp = await browser.submit(ssoPage, { email: startEmail });
  if (!toIdp.leftTo) return { browser, pkce, stopped: toIdp, acs: null };
  expect(toIdp.leftTo.origin).toBe(new URL(idp.url).origin);
  expect(toIdp.leftTo.searchParams.get('SAMLRequest')).toBeTruthy();

  // The IdP's login page, then its auto-posting form (fetch: the IdP needs no cookies).
  const loginHtml = await (await fetch(toIdp.leftTo)).text();
  const [login] = parseForms(loginHtml);
  const posted = await fetch(new URL(login.action, idp.url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...login.fields, email: idpEmail }).toString(),
  });
  const [auto] = parseForms(await posted.text());
  expect(auto.action).toBe(`${API_URL}/identity/saml/${organizationKey}/acs`);
  expect(auto.fields.RelayState).toBeTruthy();
  return { browser, pkce, stopped: null, acs: auto };
}

function postAcs(browser: Browser, acs: { action: string; fields: Record<string, string> }): Promise<Page> {
  return browser.navigate(acs.action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(acs.fields).toString(),
  });
}

beforeAll(async () => {
  idp = await startSamlIdp({ port: IDP_PORT });
  adminToken = (await signIn({ email: ADMIN, password: PASSWORD })).accessToken;
  const { rows } = await db.query(`SELECT organization_id FROM users WHERE email = $1`, [ADMIN]);
  facilityId = Number(rows[0].organization_id);
  const got = await api('GET', `/api/facilities/${facilityId}/external-login-provider-settings`, { token: adminToken });
  expect(got.status).toBe(200);
  original = got.body;
});

afterAll(async () => {
  try {
    if (adminToken && original) {
      await api('PUT', `/api/facilities/${facilityId}/external-login-provider-settings`, {
        token: adminToken,
        body: {
          enabled: original.enabled,
          identityProviderEntityId: original.identityProviderEntityId,
          signInUrl: original.signInUrl,
          x509Certificate: original.x509Certificate,
          userEmailClaim: original.userEmailClaim,
          disablePasswordLogin: original.disablePasswordLogin,
        },
      });
    }
  } finally {
    await idp?.stop();
    await db.end();
  }
});

describe('SAML single sign-on', () => {
  it('serves the service-provider metadata of a facility', async () => {
    const res = await fetch(`${API_URL}/identity/saml/facility-${facilityId}`);
    expect(res.status).toBe(200);
    const xml = await res.text();
    expect(xml).toContain(`entityID="${API_URL}/identity/saml/facility-${facilityId}"`);
    expect(xml).toContain(`Location="${API_URL}/identity/saml/facility-${facilityId}/acs"`);
    expect((await fetch(`${API_URL}/identity/saml/facility-abc`)).status).toBe(404);
  });

  it('the settings show the service provider id', async () => {
    const saved = await configure();
    expect(saved.serviceProviderId).toBe(`${API_URL}/identity/saml/facility-${facilityId}`);
    expect(saved.enabled).toBe(true);
  });

  it('signs a facility user in through the IdP and issues tokens', async () => {
    await configure();
    const before = Number((await db.query(`SELECT coalesce(max(id), 0) AS id FROM audit_log`)).rows[0].id);
    const { browser, pkce, acs } = await throughIdp(USER);
    const done = await postAcs(browser, acs!);
    const tokens = await exchangeCode(codeFromCallback(done, pkce), pkce);
    const { rows } = await db.query(`SELECT id FROM users WHERE email = $1`, [USER]);
    const access = decodeJwt(tokens.accessToken);
    expect(access.sub).toBe(String(rows[0].id));
    expect(decodeJwt(tokens.idToken).amr).toEqual(['ext']);

    const context = await api('GET', '/api/user/context', { token: tokens.accessToken });
    expect(context.status).toBe(200);
    expect(context.body.email ?? context.body.user?.email).toBe(USER);

    // Audited like a password sign-in.
    const audit = await db.query(
      `SELECT success, values FROM audit_log WHERE id > $1 AND main_action = 'Identity.SignIn' ORDER BY id DESC LIMIT 1`,
      [before],
    );
    expect(audit.rows[0].success).toBe(true);
    expect(JSON.stringify(audit.rows[0].values)).toContain('saml');

    // The same response cannot be used twice.
    const replay = await postAcs(new Browser(), acs!);
    expect(replay.status).toBe(403);
    expect(replay.leftTo).toBeUndefined();
  });

  it('refuses a response signed with another certificate than the configured one', async () => {
    await configure({ x509Certificate: generateKeyPair('Somebody else').certificate });
    const { browser, acs } = await throughIdp(USER);
    const page = await postAcs(browser, acs!);
    expect(page.status).toBe(403);
    expect(page.leftTo).toBeUndefined();
    expect(pageError(page.html)).toMatch(/could not be verified/);
  });

  it('refuses an e-mail that is not a user of the facility', async () => {
    await configure();
    for (const email of ['nobody@tampageneral.example.org', OTHER_FACILITY_USER]) {
      const { browser, acs } = await throughIdp(USER, email);
      const page = await postAcs(browser, acs!);
      expect(page.status).toBe(403);
      expect(page.leftTo).toBeUndefined();
      expect(pageError(page.html)).toMatch(/no account of this organization/);
    }
  });

  it('refuses locked and inactive users with a clear message', async () => {
    await configure();
    try {
      await db.query(`UPDATE users SET password_locked_out = true WHERE email = $1`, [USER]);
      let { browser, acs } = await throughIdp(USER);
      let page = await postAcs(browser, acs!);
      expect(page.status).toBe(403);
      expect(pageError(page.html)).toMatch(/locked/);
      await db.query(`UPDATE users SET password_locked_out = false, is_active = false WHERE email = $1`, [USER]);
      ({ browser, acs } = await throughIdp(USER));
      page = await postAcs(browser, acs!);
      expect(page.status).toBe(403);
      expect(pageError(page.html)).toMatch(/not active/);
    } finally {
      await db.query(`UPDATE users SET password_locked_out = false, is_active = true WHERE email = $1`, [USER]);
    }
  });

  it('signs ITP staff in through the ITP organization\'s identity provider', async () => {
    const itpAdmin = (await signIn({ email: 'admin@itp.example.org', password: PASSWORD })).accessToken;
    const path = '/api/itp-organization/external-login-provider-settings';
    const before = (await api('GET', path, { token: itpAdmin })).body;
    try {
      const put = await api('PUT', path, {
        token: itpAdmin,
        body: { enabled: true, identityProviderEntityId: idp.entityId, signInUrl: idp.signInUrl, x509Certificate: idp.certificate, userEmailClaim: null },
      });
      expect(put.status).toBe(200);
      expect(put.body.serviceProviderId).toBe(`${API_URL}/identity/saml/itp`);
      // No e-mail claim: the NameID is the e-mail.
      const { browser, pkce, acs } = await throughIdp('coordinator@itp.example.org', 'coordinator@itp.example.org', 'itp');
      const tokens = await exchangeCode(codeFromCallback(await postAcs(browser, acs!), pkce), pkce);
      expect(decodeJwt(tokens.idToken).email).toBe('coordinator@itp.example.org');
      // A facility user's e-mail is not a user of the ITP organization.
      const other = await throughIdp('coordinator@itp.example.org', USER, 'itp');
      expect((await postAcs(other.browser, other.acs!)).status).toBe(403);
    } finally {
      await api('PUT', path, {
        token: itpAdmin,
        body: {
          enabled: !!before.enabled,
          identityProviderEntityId: before.identityProviderEntityId,
          signInUrl: before.signInUrl,
          x509Certificate: before.x509Certificate,
          userEmailClaim: before.userEmailClaim,
          disablePasswordLogin: !!before.disablePasswordLogin,
        },
      });
    }
  });

  it('does not start single sign-on for an organization without it', async () => {
    await configure();
    const { stopped } = await throughIdp(OTHER_FACILITY_USER);
    expect(stopped).toBeTruthy();
    expect(pageError(stopped!.html)).toMatch(/not set up/);
  });

  it('"disable password login" refuses password sign-in of facility users, not of the facility admin', async () => {
    await configure({ disablePasswordLogin: true });
    await expect(signIn({ email: USER, password: PASSWORD })).rejects.toThrow(/Password sign-in is turned off/);
    const admin = await signIn({ email: ADMIN, password: PASSWORD });
    expect(admin.accessToken).toBeTruthy();
    // Single sign-on still works for that user.
    const { browser, pkce, acs } = await throughIdp(USER);
    const tokens = await exchangeCode(codeFromCallback(await postAcs(browser, acs!), pkce), pkce);
    expect(tokens.accessToken).toBeTruthy();
  });

  it('an unknown organization key or a missing response is refused without a server error', async () => {
    const res = await fetch(`${API_URL}/identity/saml/facility-999999/acs`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'SAMLResponse=abc&RelayState=nope',
    });
    expect(res.status).toBe(403);
    const bad = await fetch(`${API_URL}/identity/saml/nothing/acs`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    expect(bad.status).toBe(403);
  });
});
