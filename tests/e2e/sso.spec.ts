import { api } from '../support/api';
import { signIn as signInHttp } from '../support/oidc-client';
import { startSamlIdp, type SamlIdp } from '../support/saml-idp';
import { DEMO_PASSWORD, signIn, expect, test } from './support';

/**
 * SAML single sign-on journey (spec 03 "SSO"): the facility admin configures SSO on
 * /facility/settings against a local SAML identity provider started by this test, signs out, and a
 * facility user signs in through "Sign in with single sign-on" → the IdP's page → the dashboard.
 * The facility's SSO settings are put back at the end (the suites share one database).
 */
const ADMIN = 'admin@tampageneral.example.org';
const USER = 'er@tampageneral.example.org';
const IDP_PORT = Number(process.env.SAML_IDP_PORT ?? 3311);

let idp: SamlIdp;
let original: Record<string, unknown> | null = null;
let facilityId: number | null = null;
let adminToken: string | null = null;

test.beforeAll(async () => {
  idp = await startSamlIdp({ port: IDP_PORT });
  // Remember the settings to restore them afterwards.
  adminToken = (await signInHttp({ email: ADMIN, password: DEMO_PASSWORD })).accessToken;
  const context = await api('GET', '/api/user/context', { token: adminToken });
  facilityId = Number(context.body.organizationId ?? context.body.user?.organizationId);
  const got = await api('GET', `/api/facilities/${facilityId}/external-login-provider-settings`, { token: adminToken });
  original = got.status === 200 ? got.body : null;
});

test.afterAll(async () => {
  try {
    if (adminToken && facilityId) {
      await api('PUT', `/api/facilities/${facilityId}/external-login-provider-settings`, {
        token: adminToken,
        body: {
          enabled: !!original?.enabled,
          identityProviderEntityId: original?.identityProviderEntityId ?? null,
          signInUrl: original?.signInUrl ?? null,
          x509Certificate: original?.x509Certificate ?? null,
          userEmailClaim: original?.userEmailClaim ?? null,
          disablePasswordLogin: !!original?.disablePasswordLogin,
        },
      });
    }
  } finally {
    await idp?.stop();
  }
});

test('a facility admin configures SAML SSO and a facility user signs in through the identity provider', async ({ page }) => {
  // 1. The facility admin configures SSO with the IdP's entity id, URL and certificate.
  await signIn(page, ADMIN, '/facility/settings');
  await page.getByTestId('facility-tab-external-login-provider-settings').click();
  await expect(page.getByTestId('sso-settings')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByLabel('Service provider entity id')).toHaveValue(/\/identity\/saml\/facility-\d+$/);
  const enabled = page.getByLabel('Single sign-on enabled');
  if (!(await enabled.isChecked())) await enabled.check();
  await page.getByLabel('Identity provider entity id').fill(idp.entityId);
  await page.getByLabel('Sign-in URL').fill(idp.signInUrl);
  await page.getByLabel('X.509 certificate (PEM)').fill(idp.certificate);
  await page.getByLabel('User e-mail claim').fill('email');
  await page.getByTestId('sso-save').click();
  await expect(page.getByText(/Single sign-on settings updated/)).toBeVisible({ timeout: 15_000 });

  // 2. She signs out.
  await page.getByTestId('nav-profile-menu').click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible({ timeout: 30_000 });

  // 3. A facility user chooses single sign-on, types her e-mail, and signs in at the IdP.
  await page.goto('/dashboard');
  await page.getByTestId('sso-link').click();
  await expect(page.getByRole('heading', { name: 'Sign in with single sign-on' })).toBeVisible();
  await page.getByLabel('Email').fill(USER);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL((u) => u.origin === new URL(idp.url).origin, { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Test identity provider' })).toBeVisible();
  await page.getByLabel('Email').fill(USER);
  await page.getByRole('button', { name: 'Sign in' }).click();

  // 4. Back in the application, signed in as that user.
  await page.waitForURL((u) => u.pathname === '/dashboard', { timeout: 30_000 });
  await expect(page.getByTestId('nav-dashboard')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('facility-label')).toBeVisible();
  await page.getByTestId('nav-profile-menu').click();
  await page.getByRole('menuitem', { name: 'My profile' }).click();
  await expect(page.getByText(USER).or(page.locator(`input[value="${USER}"]`)).first()).toBeVisible({ timeout: 20_000 });
});
