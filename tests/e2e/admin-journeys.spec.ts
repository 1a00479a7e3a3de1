import { readFileSync } from 'node:fs';
import { type APIRequestContext, type Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { accessTokenOf, watchAccessToken, expect, test } from './support';

/**
 * Issue 3's "done means" journeys not covered by the other suites: an invited user signs in through
 * the e-mailed one-time link; a users CSV with errors is fixed and imported; two users are
 * deactivated in bulk; a user locked out by wrong passwords is unlocked on /unlock-users; and the
 * audit log lists these actions and exports a CSV that parses. (The IP allow-list, the group
 * cascade and the payer force confirmation are in organization-settings and reference-data.)
 *
 * Every journey makes its own users (timestamped names) and leaves the demo users untouched.
 */
const PASSWORD = 'Demo1234!';
const NEW_PASSWORD = 'Journey1234!';
const FACILITY = 'Tampa Bay General Hospital';
const DIVISION_OF = 'er@tampageneral.example.org';
const DIVISION = 'Emergency Department';

/** A 1×1 transparent PNG. */
const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const run = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;

async function signIn(page: Page, email: string, path: string, password = PASSWORD) {
  watchAccessToken(page);
  await page.goto(path);
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === path, { timeout: 30_000 });
  await expect(page.getByTestId('nav-dashboard')).toBeVisible({ timeout: 20_000 });
}

/** The signed-in app's access token (the app keeps it in memory: taken from the token endpoint's answer). */
const tokenOf = (page: Page): Promise<string> => accessTokenOf(page);

async function call<T>(request: APIRequestContext, token: string, method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown): Promise<T> {
  const res = await request.fetch(path, { method, headers: { Authorization: `Bearer ${token}` }, data });
  expect(res.ok(), `${method} ${path}: ${res.status()} ${await res.text()}`).toBeTruthy();
  const text = await res.text();
  return (text ? JSON.parse(text) : null) as T;
}

/** The newest one-time link e-mailed to `email` (the demo outbox, readable without sign-in). */
async function mailedLink(request: APIRequestContext, email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get(`/api/demo-tools/outbox?channel=email&to=${encodeURIComponent(email)}`);
        const rows = (await res.json()) as { body: string }[];
        link = rows.map((r) => /https?:\/\/\S+\/identity\/account\/[a-z-]+\?token=\S+/.exec(r.body)?.[0]).find(Boolean);
        return link ?? null;
      },
      { timeout: 20_000 },
    )
    .not.toBeNull();
  // The link carries the API's public URL: keep its path and query on the server under test.
  const url = new URL(link!);
  return `${url.pathname}${url.search}`;
}

/** Sets the password through the e-mailed link with a plain form post (helpers; the UI journey clicks it). */
async function activate(request: APIRequestContext, email: string) {
  const link = await mailedLink(request, email);
  const token = new URL(link, 'http://x').searchParams.get('token')!;
  const res = await request.post(link.split('?')[0], { form: { token, newPassword: PASSWORD, confirmPassword: PASSWORD } });
  expect(await res.text()).toContain('Password saved');
}

interface Affiliation {
  organizationId: number;
  divisionsIds: number[];
}
/** Tampa Bay General's id and the demo ER user's division, to invite facility users beside her. */
async function tampaAffiliation(request: APIRequestContext, token: string): Promise<Affiliation> {
  const rows = await call<{ organizationId: number; divisions: { id: number }[] }[]>(
    request,
    token,
    'GET',
    `/api/user?filter=${encodeURIComponent(JSON.stringify({ q: DIVISION_OF }))}&range=${encodeURIComponent('[0,9]')}`,
  );
  expect(rows.length).toBeGreaterThan(0);
  return { organizationId: rows[0].organizationId, divisionsIds: rows[0].divisions.map((d) => d.id) };
}

/** Invites a Tampa Bay General facility user through the API and activates her with her e-mailed link. */
async function activeFacilityUser(request: APIRequestContext, token: string, who: { firstName: string; lastName: string; email: string }) {
  const aff = await tampaAffiliation(request, token);
  const user = await call<{ id: number }>(request, token, 'POST', '/api/user/invite', {
    ...who,
    phone: '8135550199',
    jobTitle: 'Nurse',
    isEnabled: true,
    organizationType: 'Facility',
    organizationId: aff.organizationId,
    userType: 'Facility_User',
    divisionsIds: aff.divisionsIds.slice(0, 1),
  });
  await activate(request, who.email);
  return user.id;
}

test('an invited user signs in through the e-mailed link, sets her password and lands on the dashboard', async ({ page, browser }) => {
  const r = run();
  const email = `e2e-invite-${r}@journeys.example.org`;
  await signIn(page, 'admin@itp.example.org', '/users/invite');
  await page.getByTestId('user-firstName').fill('Ivy');
  await page.getByTestId('user-lastName').fill(`Invite${r}`);
  await page.getByTestId('user-email').fill(email);
  await page.getByTestId('user-phone').fill('8135550131');
  await page.getByTestId('user-userType').click();
  await page.getByRole('option', { name: 'ITP user' }).click();
  await page.getByTestId('user-save').click();
  await expect(page).toHaveURL(/\/users$/, { timeout: 20_000 });

  const link = await mailedLink(page.request, email);
  expect(link).toMatch(/^\/identity\/account\/set-password\?token=/);

  const her = await browser.newContext();
  try {
    const p = await her.newPage();
    await p.goto(link);
    await p.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await p.getByLabel('Confirm password').fill('Mismatch1234!');
    await p.getByRole('button', { name: 'Save password' }).click();
    await expect(p.getByText(/do not match/i)).toBeVisible();
    await p.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await p.getByLabel('Confirm password').fill(NEW_PASSWORD);
    await p.getByRole('button', { name: 'Save password' }).click();
    await expect(p.getByText('Password saved')).toBeVisible();
    // The link is spent.
    const again = await p.request.get(link);
    expect(again.status()).toBe(400);

    await signIn(p, email, '/dashboard', NEW_PASSWORD);
    await expect(p.getByTestId('nav-profile-menu')).toContainText(`Ivy Invite${r}`);
    // The navbar shows her initials until she uploads a picture on /me, then the picture.
    const navAvatar = p.getByTestId('nav-profile-avatar');
    await expect(navAvatar).toHaveText('II');
    await p.goto('/me');
    await p.getByTestId('profile-avatar-file').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: Buffer.from(PNG_1PX, 'base64') });
    await expect(p.getByText('Avatar updated')).toBeVisible({ timeout: 20_000 });
    await expect(navAvatar).toHaveAttribute('data-loaded', 'true', { timeout: 20_000 });
    await expect(navAvatar).toHaveAttribute('data-avatar', /^avatar-.+\.png$/);
  } finally {
    await her.close();
  }

  // No longer pending in the admin's list.
  await page.getByTestId('users-filter-search').fill(`Invite${r}`);
  await expect(page.getByTestId('user-link')).toHaveCount(1, { timeout: 20_000 });
  await expect(page.getByTestId('users-table')).not.toContainText('pending', { timeout: 20_000 });
});

test('a users CSV with errors is listed by row, fixed and imported', async ({ page }, testInfo) => {
  const r = run();
  const header = 'firstName,lastName,email,phone,jobTitle,organizationType,organization,userType,divisions';
  const good = (n: number) => `Cora,Csv${r}${n},e2e-csv-${r}-${n}@journeys.example.org,8135550140,Nurse,Facility,${FACILITY},Facility_User,${DIVISION}`;
  const broken = [header, good(1), `Cody,Csv${r}2,not-an-email,8135550141,Nurse,Facility,${FACILITY},Facility_Superuser,${DIVISION}`].join('\n');
  const fixed = [header, good(1), good(2)].join('\n');
  const brokenPath = testInfo.outputPath('users-broken.csv');
  const fixedPath = testInfo.outputPath('users-fixed.csv');
  const { writeFileSync, mkdirSync } = await import('node:fs');
  mkdirSync(testInfo.outputDir, { recursive: true });
  writeFileSync(brokenPath, `${broken}\n`);
  writeFileSync(fixedPath, `${fixed}\n`);

  await signIn(page, 'admin@itp.example.org', '/users');
  await page.getByTestId('users-import').click();
  await expect(page.getByTestId('users-import-dialog')).toBeVisible();
  await page.getByTestId('users-import-file').setInputFiles(brokenPath);
  await expect(page.getByTestId('users-import-submit')).toBeDisabled();
  await page.getByTestId('users-import-validate').click();
  const errors = page.getByTestId('users-import-error');
  await expect(errors.first()).toBeVisible({ timeout: 20_000 });
  // Row 3 of the spreadsheet (the header is row 1) has both problems; row 2 has none.
  const texts = await errors.allTextContents();
  expect(texts.length).toBeGreaterThanOrEqual(2);
  expect(texts.every((t) => t.startsWith('Row 3:'))).toBeTruthy();
  expect(texts.join('\n')).toMatch(/email/i);
  expect(texts.join('\n')).toMatch(/userType/i);
  await expect(page.getByTestId('users-import-submit')).toBeDisabled();

  await page.getByTestId('users-import-file').setInputFiles(fixedPath);
  await page.getByTestId('users-import-validate').click();
  await expect(page.getByTestId('users-import-valid')).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('users-import-submit').click();
  await expect(page.getByText('2 user(s) imported and invited')).toBeVisible({ timeout: 20_000 });

  await page.getByTestId('users-filter-search').fill(`Csv${r}`);
  await expect(page.getByTestId('user-link')).toHaveCount(2, { timeout: 20_000 });
  await expect(page.getByTestId('users-table')).toContainText(FACILITY);
});

test('two users are deactivated from the users table in one bulk action', async ({ page }) => {
  const r = run();
  await signIn(page, 'admin@itp.example.org', '/users');
  const token = await tokenOf(page);
  for (const n of [1, 2])
    await activeFacilityUser(page.request, token, { firstName: 'Bea', lastName: `Bulk${r}${n}`, email: `e2e-bulk-${r}-${n}@journeys.example.org` });

  await page.reload();
  await page.getByTestId('users-filter-search').fill(`Bulk${r}`);
  await expect(page.getByTestId('user-link')).toHaveCount(2, { timeout: 20_000 });
  await expect(page.getByTestId('users-table')).not.toContainText('pending');
  const boxes = page.getByTestId('users-table').locator('tbody input[type="checkbox"]');
  await boxes.nth(0).check();
  await boxes.nth(1).check();
  await page.getByTestId('users-bulk-actions').click();
  await page.getByTestId('users-bulk-deactivate').click();
  await expect(page.getByText(/: 2$/)).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('users-table').getByText('disabled')).toHaveCount(2, { timeout: 20_000 });
});

test('five wrong passwords lock a user out; an ITP user unlocks her on /unlock-users and she signs in', async ({ page, browser }) => {
  const r = run();
  const email = `e2e-lock-${r}@journeys.example.org`;
  await signIn(page, 'admin@itp.example.org', '/users');
  await activeFacilityUser(page.request, await tokenOf(page), { firstName: 'Lou', lastName: `Lock${r}`, email });

  // Wrong passwords lock an account only from an address she signed in from (elsewhere they are delayed).
  const before = await browser.newContext();
  try {
    await signIn(await before.newPage(), email, '/dashboard');
  } finally {
    await before.close();
  }
  const her = await browser.newContext();
  try {
    const p = await her.newPage();
    await p.goto('/dashboard');
    const submit = async (password: string) => {
      await p.locator('input[name="email"]').fill(email);
      await p.locator('input[name="password"]').fill(password);
      await Promise.all([
        p.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/login')),
        p.getByRole('button', { name: 'Sign in' }).click(),
      ]);
    };
    for (let i = 0; i < 5; i++) {
      await submit(`Wrong${i}1234!`);
      // The same answer every time: the lock is told only to whoever gives the right password.
      await expect(p.getByText('Invalid email or password')).toBeVisible({ timeout: 20_000 });
    }
    // The right password is refused while she is locked, and says so (after the 5 seconds that a
    // sixth attempt in a row waits).
    await p.waitForTimeout(5_300);
    await submit(PASSWORD);
    await expect(p.getByText('Your account is locked. Contact your administrator.')).toBeVisible();

    const coordinator = await browser.newContext();
    try {
      const c = await coordinator.newPage();
      await signIn(c, 'coordinator@itp.example.org', '/unlock-users');
      const row = c.getByTestId('unlock-users-table').locator('tr', { hasText: email });
      await expect(row).toBeVisible({ timeout: 20_000 });
      await row.getByTestId('unlock-user').click();
      await expect(c.getByTestId('unlock-users-table').locator('tr', { hasText: email })).toHaveCount(0, { timeout: 20_000 });
    } finally {
      await coordinator.close();
    }

    await p.locator('input[name="email"]').fill(email);
    await p.locator('input[name="password"]').fill(PASSWORD);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await expect(p.getByTestId('nav-dashboard')).toBeVisible({ timeout: 30_000 });
  } finally {
    await her.close();
  }
});

test('the audit log lists the admin actions and its CSV export parses', async ({ page }) => {
  const r = run();
  await signIn(page, 'admin@itp.example.org', '/users');
  const token = await tokenOf(page);
  // Actions of this journey: an invitation (and its set-password), a deactivation and an activation.
  const email = `e2e-audit-${r}@journeys.example.org`;
  const id = await activeFacilityUser(page.request, token, { firstName: 'Ada', lastName: `Audit${r}`, email });
  await call(page.request, token, 'POST', '/api/user/deactivate', [id]);
  await call(page.request, token, 'POST', '/api/user/activate', [id]);

  await page.goto('/activity');
  await expect(page.getByTestId('page-title')).toHaveText('Audit log');
  const table = page.getByTestId('audit-table');
  await expect(table).toContainText('User.Deactivate', { timeout: 20_000 });
  await expect(table).toContainText('User.Invite');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('audit-download-csv').click()]);
  const file = await download.path();
  const records = parse(readFileSync(file!), { columns: true, skip_empty_lines: true, bom: true }) as Record<string, string>[];
  expect(records.length).toBeGreaterThan(0);
  const columns = Object.keys(records[0]);
  const actionColumn = columns.find((c) => /main ?action/i.test(c));
  expect(actionColumn, `a main-action column among ${columns.join(', ')}`).toBeTruthy();
  const actions = new Set(records.map((row) => row[actionColumn!]));
  for (const action of ['User.Invite', 'User.SetPassword', 'User.Deactivate', 'User.Activate']) expect(actions, action).toContain(action);
  // The entries of this journey name its user.
  expect(records.some((row) => JSON.stringify(row).includes(String(id)) || JSON.stringify(row).includes(email))).toBeTruthy();
});
