import path from 'path';
import { Client } from 'pg';
import { readSignInCode } from '../support/oidc-client';
import { DEMO_PASSWORD, signIn, watchAccessToken, expect, test } from './support';

/** Users administration (spec 03 §2 /users, /users/invite): the ITP admin invites a user and finds it in the list. */
test('the ITP admin invites a user through /users/invite and sees it in the list', async ({ page }) => {
  const run = Date.now().toString(36);
  const email = `e2e-${run}@users.example.org`;
  await signIn(page, 'admin@itp.example.org', '/users');
  await expect(page.getByTestId('page-title')).toHaveText('Users');
  await expect(page.getByTestId('user-link').first()).toBeVisible({ timeout: 20_000 });

  await page.getByTestId('users-invite').click();
  await expect(page).toHaveURL(/\/users\/invite$/);
  await expect(page.getByTestId('page-title')).toHaveText('Invite user');
  // Saving the empty form shows the shared schema's messages.
  await page.getByTestId('user-save').click();
  await expect(page.getByText('This field is required').first()).toBeVisible();

  await page.getByTestId('user-firstName').fill('Erin');
  await page.getByTestId('user-lastName').fill(`E2e${run}`);
  await page.getByTestId('user-email').fill(email);
  await page.getByTestId('user-phone').fill('8135550123');
  await page.getByTestId('user-jobTitle').fill('Coordinator');
  // User type ITP user (organization type ITP is the default).
  await page.getByTestId('user-userType').click();
  await page.getByRole('option', { name: 'ITP user' }).click();
  await page.getByTestId('user-save').click();

  await expect(page).toHaveURL(/\/users$/, { timeout: 20_000 });
  await page.getByTestId('users-filter-search').fill(`E2e${run}`);
  const link = page.getByTestId('user-link');
  await expect(link).toHaveCount(1, { timeout: 20_000 });
  await expect(link).toHaveText(`Erin E2e${run}`);
  await expect(page.getByTestId('users-table')).toContainText(email);
  await expect(page.getByTestId('users-table')).toContainText('pending');

  // The edit form opens with the organization type fixed.
  await link.click();
  await expect(page).toHaveURL(/\/users\/\d+$/);
  await expect(page.getByTestId('user-email')).toHaveValue(email);
});

test('form dynamics, bulk applicability toast, profile and change password', async ({ page }) => {
  await signIn(page, 'admin@itp.example.org', '/users/invite');
  // Organization type Facility resets the user type to the first allowed one (Facility admin).
  await page.getByTestId('user-organizationType').click();
  await page.getByRole('option', { name: 'Facility' }).click();
  await expect(page.getByTestId('user-userType')).toContainText('Facility admin');
  await expect(page.getByTestId('user-organizationId')).toBeVisible();
  // User type provider (under ITP) shows provider info with ARNP.
  await page.getByTestId('user-organizationType').click();
  await page.getByRole('option', { name: 'ITP' }).click();
  await page.getByTestId('user-userType').click();
  await page.getByRole('option', { name: 'Provider' }).click();
  await expect(page.getByTestId('user-npi')).toBeVisible();
  await expect(page.getByText('ARNP')).toBeVisible();

  // Activating enabled users: no row qualifies, a toast says so.
  await page.goto('/users');
  await page.getByTestId('users-filter-search').fill('example.org');
  await expect(page.getByTestId('user-link').first()).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('users-table').locator('tbody input[type="checkbox"]').first().check();
  await page.getByTestId('users-bulk-actions').click();
  await page.getByTestId('users-bulk-activate').click();
  await expect(page.getByText('None of the selected users is suitable for this action')).toBeVisible();
  await page.screenshot({ path: path.resolve(__dirname, '..', '..', '.data', 'test', 'e2e-results', 'users-list.png') });

  // /me: the names are editable, the affiliation read-only.
  await page.goto('/me');
  await expect(page.getByTestId('profile-input-firstName')).toHaveValue(/.+/);
  await expect(page.getByTestId('profile-role')).toHaveText('ITP admin');
  await page.getByTestId('profile-input-jobTitle').fill('Administrator');
  await page.getByTestId('profile-save').click();
  await expect(page.getByText('Profile updated')).toBeVisible();

  // /change-password: mismatch in the browser, OPWD from the server on the current-password field.
  await page.goto('/change-password');
  await page.getByTestId('change-password-currentPassword').fill('Wrong1234!');
  await page.getByTestId('change-password-newPassword').fill('NewPass123');
  await page.getByTestId('change-password-confirmPassword').fill('NewPass124');
  await page.getByTestId('change-password-save').click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await page.getByTestId('change-password-confirmPassword').fill('NewPass123');
  await page.getByTestId('change-password-save').click();
  await expect(page.getByText('Current password invalid')).toBeVisible();
});

test('the ITP user opens /unlock-users; /users is not hers', async ({ page }) => {
  await signIn(page, 'coordinator@itp.example.org', '/unlock-users');
  await expect(page.getByTestId('page-title')).toHaveText('Unlock users');
  await expect(page.getByTestId('unlock-users-empty').or(page.getByTestId('unlock-users-table'))).toBeVisible({ timeout: 20_000 });
  await page.goto('/users');
  await expect(page.getByTestId('users-table')).toHaveCount(0);
});

test("the facility admin invites a facility user into her facility (organization fixed, divisions required)", async ({ page }) => {
  const run = Date.now().toString(36);
  await signIn(page, 'admin@tampageneral.example.org', '/users/invite');
  await expect(page.getByTestId('user-organizationType')).toHaveCount(0);
  await expect(page.getByTestId('user-userType')).toContainText('Facility user');
  await page.getByTestId('user-firstName').fill('Fay');
  await page.getByTestId('user-lastName').fill(`Fac${run}`);
  await page.getByTestId('user-email').fill(`e2e-fac-${run}@users.example.org`);
  await page.getByTestId('user-phone').fill('8135550124');
  await page.getByTestId('user-save').click();
  await expect(page.getByText('This field is required').first()).toBeVisible();
  await page.getByTestId('user-divisionsIds').click();
  await page.getByRole('option').first().click();
  await page.keyboard.press('Escape');
  await page.getByTestId('user-save').click();
  await expect(page).toHaveURL(/\/users$/, { timeout: 20_000 });
  await page.getByTestId('users-filter-search').fill(`Fac${run}`);
  await expect(page.getByTestId('users-table')).toContainText('Tampa Bay General Hospital', { timeout: 20_000 });
});

test("the ITP admin narrows the users list to one facility, then to one of its divisions", async ({ page }) => {
  await signIn(page, 'admin@itp.example.org', '/users');
  await expect(page.getByTestId('user-link').first()).toBeVisible({ timeout: 20_000 });
  const table = page.getByTestId('users-table');
  await page.getByLabel('Organization type').click();
  await page.getByRole('option', { name: 'Facility', exact: true }).click();
  await page.getByTestId('users-filter-organization').fill('Tampa Bay');
  await page.getByRole('option', { name: 'Tampa Bay General Hospital' }).click();
  await expect(table).toContainText('David Brooks', { timeout: 20_000 });
  await expect(table).toContainText('Emma Lopez');
  await expect(table).not.toContainText('Grace Kim'); // another facility's user
  await page.getByTestId('users-filter-divisions').click();
  await page.getByRole('option', { name: 'Emergency Department' }).click();
  await page.keyboard.press('Escape');
  await expect(table).not.toContainText('David Brooks', { timeout: 20_000 }); // the facility admin has no division
  await expect(table).toContainText('Emma Lopez');
  await page.screenshot({ path: path.resolve(__dirname, '..', '..', '.data', 'test', 'e2e-results', 'users-affiliation-filters.png') });
});

/**
 * MFA method (spec 03 §2 "MFA methods: Email, Sms"; §3 User mfaMethod): after "Reset MFA" the user
 * chooses at her next sign-in how codes reach her (the code page offers SMS instead of e-mail); on
 * /me she changes it later; the Reset-MFA dialog names her choice.
 */
test('a user with MFA chooses SMS at her next sign-in after Reset MFA, and e-mail again on /me', async ({ page }) => {
  const email = 'admin@savannahcoastal.example.org';
  const signInWithCode = async (choose?: 'sms') => {
    const mark = await lastOutboxId();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Enter the code we sent to your e-mail')).toBeVisible({ timeout: 20_000 });
    if (choose) {
      await page.screenshot({ path: path.resolve(__dirname, '..', '..', '.data', 'test', 'e2e-results', 'mfa-code-choice.png') });
      await page.getByRole('button', { name: 'Send it by SMS instead' }).click();
      await expect(page.getByText('Enter the code we sent to your phone')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Send it by e-mail instead' })).toBeVisible();
    } else {
      await expect(page.getByRole('button', { name: /instead/ })).toHaveCount(0);
    }
    await page.getByLabel('Code').fill(await readSignInCode(email, mark));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByTestId('nav-dashboard')).toBeVisible({ timeout: 30_000 });
  };

  watchAccessToken(page);
  await page.goto('/me');
  await signInWithCode();
  await page.goto('/me');
  await expect(page.getByTestId('profile-input-mfaMethod')).toHaveText('Email', { timeout: 20_000 });

  // Reset MFA: the method is gone until the next sign-in.
  await page.getByTestId('nav-profile-menu').click();
  await page.getByTestId('profile-entry-reset-mfa').click();
  await expect(page.getByTestId('reset-mfa-text')).toContainText('by Email');
  await page.getByTestId('reset-mfa-confirm').click();
  await expect(page.getByText('MFA has been reset')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('profile-mfa')).toHaveText('Off', { timeout: 20_000 });
  await page.getByTestId('nav-profile-menu').click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible({ timeout: 30_000 });

  // The next sign-in: she takes the code by SMS, which becomes her method.
  await signInWithCode('sms');
  await page.goto('/me');
  const method = page.getByTestId('profile-input-mfaMethod');
  await expect(method).toHaveText('SMS', { timeout: 20_000 });
  await page.getByTestId('nav-profile-menu').click();
  await page.getByTestId('profile-entry-reset-mfa').click();
  await expect(page.getByTestId('reset-mfa-text')).toContainText('by SMS');
  await page.keyboard.press('Escape');

  // On /me she goes back to e-mail.
  await method.click();
  await page.getByTestId('profile-mfa-option-Email').click();
  await page.getByTestId('profile-save').click();
  await expect(page.getByText('Profile updated')).toBeVisible();
  await page.screenshot({ path: path.resolve(__dirname, '..', '..', '.data', 'test', 'e2e-results', 'profile-mfa-method.png') });
  await page.reload();
  await expect(page.getByTestId('profile-input-mfaMethod')).toHaveText('Email', { timeout: 20_000 });
  await page.getByTestId('nav-profile-menu').click();
  await page.getByTestId('profile-entry-reset-mfa').click();
  await expect(page.getByTestId('reset-mfa-text')).toContainText('by Email');
});

async function lastOutboxId(): Promise<number> {
  const db = new Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  try {
    return Number((await db.query('SELECT coalesce(max(id), 0) AS id FROM outbox_messages')).rows[0].id);
  } finally {
    await db.end();
  }
}
