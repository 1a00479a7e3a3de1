import { api } from '../support/api';
import { completeEvaluation, createCase, startContacting, tampaDivisions, uniqueLetters } from '../support/cases';
import { signIn as signInApi } from '../support/oidc-client';
import { DEMO_PASSWORD, expect, expectAccessible, signIn, test } from './support';
import type { Page } from '@playwright/test';

/**
 * Every page of every role passes axe-core's WCAG 2.1 A/AA rules (issue 18): each role signs in
 * and opens every page of its menu, the case page with its cards, the main dialogs and the
 * identity server's pages; each is scanned once loaded. The scans are soft, so one run lists
 * every page's violations; the test fails if any page has one.
 */
const tokenOf = async (email: string) => (await signInApi({ email, password: DEMO_PASSWORD })).accessToken;

/**
 * Opens a path of the signed-in app as its own links do (the router follows the history, no
 * reload), waits until its content has loaded, then scans it.
 */
async function scan(page: Page, path: string, label: string, ready?: (page: Page) => Promise<unknown>) {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: {} }));
  }, path);
  await page.waitForURL((u) => u.pathname + u.search === path);
  await expect(page.getByTestId('nav-dashboard')).toBeVisible({ timeout: 20_000 });
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
  if (ready) await ready(page);
  await expectAccessible(page, label, { soft: true });
}

/** Opens the admin menu and the notification bell where the role has them, scanning each. */
async function scanMenus(page: Page, who: string) {
  if (await page.getByTestId('nav-admin-menu').count()) {
    await page.getByTestId('nav-admin-menu').click();
    await expect(page.locator('[data-testid^="admin-entry-"]').first()).toBeVisible();
    await expectAccessible(page, `${who}: admin menu`, { soft: true });
    await page.keyboard.press('Escape');
  }
  await page.getByTestId('nav-profile-menu').click();
  await expect(page.getByRole('menuitem', { name: 'Logout' })).toBeVisible();
  await expectAccessible(page, `${who}: profile menu`, { soft: true });
  await page.keyboard.press('Escape');
  if (await page.getByTestId('notification-bell').count()) {
    await page.getByTestId('notification-bell').click();
    await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
    await expectAccessible(page, `${who}: notifications open`, { soft: true });
    await page.keyboard.press('Escape');
  }
}

let caseIds: { onTampaFloor: number; onTampaEr: number; contacting: number; requestId: number } = { onTampaFloor: 0, onTampaEr: 0, contacting: 0, requestId: 0 };

test.describe('accessibility (axe-core, WCAG 2.1 A/AA)', () => {
  // Each page is scanned on the way; the end-of-journey scan would repeat the last one.
  test.use({ axeAfterTest: false });
  test.beforeAll(async () => {
    const itp = await tokenOf('coordinator@itp.example.org');
    const providerToken = await tokenOf('provider@itp.example.org');
    const providerId = (await api('GET', '/api/user/context', { token: providerToken })).body.id as number;
    const tampa = await tampaDivisions();
    const name = () => ({ firstName: `Axe${uniqueLetters()}`, lastName: 'Access', dateOfBirth: '1980-05-05', gender: 'Male' });
    const floor = await createCase({ token: itp, facilityId: tampa.facilityId, divisionId: tampa.floorId, providerId, patient: name() });
    const er = await createCase({ token: await tokenOf('er@tampageneral.example.org'), providerId, patient: name() });
    const placing = await createCase({ token: itp, facilityId: tampa.facilityId, divisionId: tampa.floorId, providerId, patient: name() });
    await completeEvaluation(providerToken, placing.requestId);
    await startContacting(itp, placing.id);
    caseIds = { onTampaFloor: floor.id, onTampaEr: er.id, contacting: placing.id, requestId: floor.requestId };
  });

  test('the identity pages: sign-in and MFA code', async ({ page }) => {
    await page.goto('/dashboard');
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible({ timeout: 30_000 });
    await expectAccessible(page, 'sign-in page', { soft: true });
    // A wrong password shows the error on the same page.
    await page.getByLabel('Email').fill('coordinator@itp.example.org');
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await expectAccessible(page, 'sign-in page with an error', { soft: true });
    await page.getByLabel('Email').fill('er@savannahcoastal.example.org');
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByLabel('Code')).toBeVisible({ timeout: 20_000 });
    await expectAccessible(page, 'MFA code page', { soft: true });
    await page.goto('/demo-tools');
    await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
    await expectAccessible(page, 'demo tools (signed out)', { soft: true });
  });

  test('the ITP admin: every page of the admin menu', async ({ page }) => {
    test.setTimeout(300_000);
    await page.setViewportSize({ width: 1356, height: 900 });
    await signIn(page, 'admin@itp.example.org');
    const who = 'ITP admin';
    await expectAccessible(page, `${who}: dashboard`, { soft: true });
    await scanMenus(page, who);
    const tampa = await tampaDivisions();
    const users = await api<Array<{ id: number }>>('GET', `/api/users?range=${encodeURIComponent('[0,0]')}`, { token: await tokenOf('admin@itp.example.org') });
    const pages: Array<[string, string]> = [
      ['/cases/past', 'past cases'],
      ['/users', 'users list'],
      [`/users/${users.body[0]?.id ?? 1}`, 'user edit'],
      ['/users/invite', 'user invite'],
      ['/facilities', 'facilities list'],
      ['/facilities/create', 'facility create'],
      [`/facilities/${tampa.facilityId}`, 'facility general tab'],
      [`/facilities/${tampa.facilityId}/divisions`, 'facility divisions tab'],
      [`/facilities/${tampa.facilityId}/credentialed-providers`, 'facility credentialed providers tab'],
      [`/facilities/${tampa.facilityId}/preferences`, 'facility preferred facilities tab'],
      [`/facilities/${tampa.facilityId}/evaluation-forms`, 'facility evaluation forms tab'],
      [`/facilities/${tampa.facilityId}/restrictions`, 'facility restrictions tab'],
      [`/facilities/${tampa.facilityId}/ip-white-list`, 'facility IP allow-list tab'],
      ['/group-organizations', 'group organizations list'],
      ['/group-organizations/create', 'group organization create'],
      ['/patients', 'patients list'],
      ['/patients/merge', 'patient merge'],
      ['/evaluation-forms', 'evaluation forms list'],
      ['/itp-organization-settings', 'ITP organization settings: general'],
      ['/itp-organization-settings/external-login-provider-settings', 'ITP organization settings: SSO'],
      ['/itp-organization-settings/ip-white-list', 'ITP organization settings: IP allow-list'],
      ['/billing-codes', 'billing codes list'],
      ['/billing-codes/create', 'billing code create'],
      ['/payers', 'payers list'],
      ['/payers/create', 'payer create'],
      ['/patient-tags', 'patient tags list'],
      ['/patient-tags/create', 'patient tag create'],
      ['/activity', 'audit log'],
      ['/me', 'my profile'],
      ['/change-password', 'change password'],
      ['/demo-tools', 'demo tools'],
      ['/about-us', 'about us'],
      ['/terms-and-conditions', 'terms and conditions'],
      [`/cases/${caseIds.onTampaFloor}`, 'case page'],
      [`/cases/${caseIds.onTampaFloor}/insurances`, 'case insurances'],
      ['/no-such-page', 'not found page'],
    ];
    for (const [path, label] of pages) await scan(page, path, `${who}: ${label}`);

    // A user's edit page, a facility's division, the audit entry and an evaluation form's editor.
    await scan(page, '/activity', `${who}: audit log`);
    const firstEntry = page.locator('table tbody tr').first();
    if (await firstEntry.count()) {
      await firstEntry.click();
      await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
      await expectAccessible(page, `${who}: audit log entry`, { soft: true });
    }
    await scan(page, '/evaluation-forms', `${who}: evaluation forms list`);
    await page.getByTestId('evaluation-form-link').first().click();
    await page.waitForURL(/\/evaluation-forms\/.+/, { timeout: 20_000 });
    await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
    await expectAccessible(page, `${who}: evaluation form editor`, { soft: true });
    await scan(page, '/patients', `${who}: patients list`);
    const patientRow = page.locator('table tbody tr').first();
    if (await patientRow.count()) {
      await patientRow.click();
      await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
      await expectAccessible(page, `${who}: patient history`, { soft: true });
    }
  });

  test('the coordinator: dashboard, queue, case page and its dialogs, call log', async ({ page }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width: 1356, height: 900 });
    await signIn(page, 'coordinator@itp.example.org');
    const who = 'coordinator';
    await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
    await expectAccessible(page, `${who}: dashboard`, { soft: true });
    await scanMenus(page, who);
    for (const [path, label] of [
      ['/queue', 'queue'],
      ['/cases/past', 'past cases'],
      ['/unlock-users', 'unlock users'],
      ['/me', 'my profile'],
      [`/cases/${caseIds.onTampaFloor}`, 'case page (evaluation)'],
    ] as const) await scan(page, path, `${who}: ${label}`);

    // The status change dialog (a note is required for OnHold).
    await page.getByTestId('status-select').click();
    await expectAccessible(page, `${who}: status select open`, { soft: true });
    await page.locator('li[role="option"][data-value="OnHold_MissingDocumentation"]').click();
    await expect(page.getByTestId('status-note-dialog')).toBeVisible();
    await page.getByTestId('status-note-dialog-submit').click();
    await expect(page.getByTestId('status-note-dialog')).toContainText('required');
    await expectAccessible(page, `${who}: status change dialog with an error`, { soft: true });
    await page.keyboard.press('Escape');

    // The case being placed; the dashboard's calls card, then the call log of a claimed division.
    await scan(page, `/cases/${caseIds.contacting}`, `${who}: case page (contacting)`);
    await scan(page, '/dashboard', `${who}: dashboard with the calls card`, (p) => expect(p.getByTestId('calls-card-claim-button').first()).toBeVisible({ timeout: 20_000 }));
    const claim = page.getByTestId('calls-card-claim-button').first();
    await claim.click();
    await page.waitForURL(/\/call-log\/claim\/\d+$/, { timeout: 20_000 });
    await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
    await expect(page.getByTestId('call-log-row').first()).toBeVisible({ timeout: 20_000 });
    await expectAccessible(page, `${who}: call log`, { soft: true });
  });

  test('the provider: dashboard, cases, queue, past cases, evaluation screen', async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 1356, height: 900 });
    await signIn(page, 'provider@itp.example.org');
    const who = 'provider';
    await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
    await expectAccessible(page, `${who}: dashboard`, { soft: true });
    await scanMenus(page, who);
    for (const [path, label] of [
      ['/cases', 'cases'],
      ['/queue', 'queue'],
      ['/cases/past', 'past cases'],
      [`/cases/${caseIds.onTampaFloor}`, 'case page'],
    ] as const) await scan(page, path, `${who}: ${label}`);
    await scan(page, `/cases/${caseIds.onTampaFloor}/requests/${caseIds.requestId}/evaluation`, `${who}: evaluation screen`);
  });

  test('the facility admin: dashboard, facility settings, users, audit log', async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 1356, height: 900 });
    await signIn(page, 'admin@tampageneral.example.org');
    const who = 'facility admin';
    await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
    await expectAccessible(page, `${who}: dashboard`, { soft: true });
    await scanMenus(page, who);
    for (const [path, label] of [
      ['/facility/settings', 'facility settings: general'],
      ['/facility/settings/divisions', 'facility settings: divisions'],
      ['/facility/settings/external-login-provider-settings', 'facility settings: SSO'],
      ['/users', 'users list'],
      ['/users/invite', 'user invite'],
      ['/activity', 'audit log'],
      ['/cases/past', 'past cases'],
    ] as const) await scan(page, path, `${who}: ${label}`);
  });

  test('the source facility user: dashboard, case creation, case page', async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 1356, height: 900 });
    await signIn(page, 'er@tampageneral.example.org');
    const who = 'source facility user';
    await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
    await expectAccessible(page, `${who}: dashboard`, { soft: true });
    await scanMenus(page, who);
    await scan(page, '/cases/create/search', `${who}: case search`);
    await page.getByTestId('search-next').click();
    await expect(page.getByText('Patient EPIC ID or MRN is required')).toBeVisible();
    await expectAccessible(page, `${who}: case search with errors`, { soft: true });
    await page.getByTestId('search-patient-epic-id').locator('input').fill(`AXE-${uniqueLetters()}`);
    await page.getByTestId('search-encounter-id').locator('input').fill(`ENC-${uniqueLetters()}`);
    await page.getByTestId('search-first-name').locator('input').fill(`Axe${uniqueLetters()}`);
    await page.getByTestId('search-last-name').locator('input').fill('Access');
    await page.getByTestId('search-dob').locator('input').fill('1980-05-05');
    await page.getByTestId('search-next').click();
    await page.waitForURL((u) => u.pathname === '/cases/create', { timeout: 20_000 });
    await expectAccessible(page, `${who}: create case form (patient)`, { soft: true });
    await page.getByTestId('create-next').click();
    await page.waitForTimeout(300);
    await expectAccessible(page, `${who}: create case form (patient, errors or case tab)`, { soft: true });
    await scan(page, `/cases/${caseIds.onTampaEr}`, `${who}: case page`);
    await scan(page, '/me', `${who}: my profile`);
  });

  test('the referring facility user and the county reviewer: their pages', async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 1356, height: 900 });
    await signIn(page, 'intake@sunrisebehavioral.example.org');
    await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
    await expectAccessible(page, 'referring facility user: dashboard', { soft: true });
    await scanMenus(page, 'referring facility user');
    await scan(page, '/me', 'referring facility user: my profile');
    await page.getByTestId('nav-profile-menu').click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible({ timeout: 30_000 });

    await signIn(page, 'reviewer@nfcrb.example.org');
    await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
    await expectAccessible(page, 'county reviewer: dashboard', { soft: true });
    await scanMenus(page, 'county reviewer');
    await scan(page, '/cases/past', 'county reviewer: past cases');
    const pastRow = page.locator('table tbody tr').first();
    if (await pastRow.count()) {
      await pastRow.click();
      await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
      await expectAccessible(page, 'county reviewer: a past case', { soft: true });
    }
  });
});
