import { type Page } from '@playwright/test';
import { api } from '../support/api';
import { signIn as signInApi } from '../support/oidc-client';
import { DEMO_PASSWORD, signIn, expect, test } from './support';

/**
 * The browser side of the session and of the Content-Security-Policy:
 * - the tokens (a refresh token among them) never reach localStorage or sessionStorage, where any
 *   script of the origin could read them; a reload signs in again silently from the identity
 *   server's session instead;
 * - the main screens run under the UI's CSP without a single violation.
 */

/** Every token the identity server hands this page (token endpoint answers). */
function watchIssuedTokens(page: Page): string[] {
  const issued: string[] = [];
  page.on('response', async (res) => {
    if (!res.url().includes('/identity/token') || res.request().method() !== 'POST' || !res.ok()) return;
    const body = await res.json().catch(() => null);
    for (const key of ['access_token', 'refresh_token', 'id_token']) if (typeof body?.[key] === 'string') issued.push(body[key]);
  });
  return issued;
}

/** Everything in the page's localStorage and sessionStorage, as "store:key=value" lines. */
const webStorage = (page: Page) =>
  page.evaluate(() => {
    const out: string[] = [];
    for (const [name, store] of [['local', localStorage], ['session', sessionStorage]] as const) {
      for (let i = 0; i < store.length; i++) {
        const key = store.key(i)!;
        out.push(`${name}:${key}=${store.getItem(key)}`);
      }
    }
    return out;
  });

async function expectNoTokenStored(page: Page, issued: string[]) {
  const entries = await webStorage(page);
  for (const entry of entries) {
    expect(entry).not.toMatch(/access_token|refresh_token|id_token|^\w+:oidc\.user:/);
    for (const token of issued) expect(entry.includes(token), `a token in ${entry.split('=')[0]}`).toBe(false);
  }
}

/** Reports of blocked content: the DOM event in every frame, and the console lines Chromium prints. */
function watchCspViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy|Refused to (load|execute|apply|connect|frame)/i.test(msg.text())) violations.push(msg.text());
  });
  void page.exposeFunction('reportCspViolation', (text: string) => violations.push(text));
  void page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { reportCspViolation: (t: string) => void }).reportCspViolation(
        `${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber} (${document.location.pathname})`,
      );
    });
  });
  return violations;
}

test('tokens stay out of web storage, and a reload keeps the user signed in', async ({ page }) => {
  const issued = watchIssuedTokens(page);
  await signIn(page, 'coordinator@itp.example.org');
  await expect.poll(() => issued.length).toBeGreaterThanOrEqual(2);
  await expectNoTokenStored(page, issued);

  // A reload: the app signs in again from the identity server's session, without the sign-in page.
  const signInPages: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame() && frame.url().includes('/identity/')) signInPages.push(frame.url());
  });
  const before = issued.length;
  await page.reload();
  await expect(page.getByTestId('nav-dashboard')).toBeVisible({ timeout: 20_000 });
  expect(new URL(page.url()).pathname).toBe('/dashboard');
  expect(signInPages).toEqual([]);
  // New tokens were issued for the reloaded page, and they are not stored either.
  await expect.poll(() => issued.length).toBeGreaterThan(before);
  await expectNoTokenStored(page, issued);

  // A deep link opened in a new tab of the same browser signs in the same way.
  const other = await page.context().newPage();
  await other.goto('/me');
  await expect(other.getByTestId('nav-dashboard')).toBeVisible({ timeout: 20_000 });
  expect(new URL(other.url()).pathname).toBe('/me');
  await other.close();
});

test('signing out in one tab signs the other tabs out', async ({ page }) => {
  await signIn(page, 'coordinator@itp.example.org');
  const other = await page.context().newPage();
  await other.goto('/dashboard');
  await expect(other.getByTestId('nav-dashboard')).toBeVisible({ timeout: 20_000 });

  await page.getByTestId('nav-profile-menu').click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible({ timeout: 30_000 });
  await expect(other.getByTestId('signed-out')).toBeVisible({ timeout: 15_000 });
  // And a reload there does not sign in again: the identity server's session is over.
  await other.reload();
  await expect(other.getByTestId('signed-out')).toBeVisible({ timeout: 15_000 });
});

test('the main screens run under the Content-Security-Policy without a violation', async ({ page }) => {
  const violations = watchCspViolations(page);
  const documents: Array<{ url: string; csp: string | null }> = [];
  page.on('response', (res) => {
    if (res.request().isNavigationRequest() && res.request().frame() === page.mainFrame() && res.status() === 200) {
      documents.push({ url: res.url(), csp: res.headers()['content-security-policy'] ?? null });
    }
  });

  const token = (await signInApi({ email: 'admin@itp.example.org', password: DEMO_PASSWORD })).accessToken;
  const cases = await api<Array<{ id: number }>>('GET', `/api/cases?range=${encodeURIComponent('[0,0]')}`, { token });
  expect(cases.body.length).toBe(1);

  await signIn(page, 'admin@itp.example.org');
  const screens: Array<[string, string]> = [
    ['/dashboard', 'nav-dashboard'],
    [`/cases/${cases.body[0].id}`, 'case-status-chip'],
    ['/past-cases', 'nav-dashboard'],
    ['/users', 'nav-dashboard'],
    ['/facilities', 'nav-dashboard'],
    ['/payers', 'nav-dashboard'],
    ['/activity', 'nav-dashboard'],
    ['/itp-organization-settings', 'nav-dashboard'],
    ['/me', 'nav-dashboard'],
  ];
  for (const [path, testId] of screens) {
    await page.goto(path);
    await expect(page.getByTestId(testId)).toBeVisible({ timeout: 20_000 });
    // Let the screen's lists, images and the live channel load.
    await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
  }
  // Client-side navigation too (no reload): the Admin menu and a list.
  await page.getByTestId('nav-admin-menu').click();
  await page.getByTestId('admin-entry-/facilities').click();
  await expect(page).toHaveURL(/\/facilities$/);
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
  // A form: its validation runs the shared JSON Schemas in the browser.
  await page.goto('/patient-tags/create');
  await page.getByTestId('patient-tag-save').click();
  await expect(page.getByText('This field is required')).toBeVisible({ timeout: 20_000 });

  const appDocuments = documents.filter((d) => !new URL(d.url).pathname.startsWith('/identity/'));
  expect(appDocuments.length).toBeGreaterThanOrEqual(screens.length);
  for (const d of appDocuments) {
    expect(d.csp, d.url).toContain("script-src 'self'");
    expect(d.csp, d.url).toContain("frame-ancestors 'none'");
  }
  expect(violations).toEqual([]);
});
