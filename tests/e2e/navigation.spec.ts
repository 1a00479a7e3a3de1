import { signIn, expect, test } from './support';

/**
 * Each role signs in through the real sign-in page and sees its own navigation bar
 * (spec 03 §2 "Navigation bar"): links, Admin dropdown entries, facility label.
 */
const ROLES: Array<{ who: string; email: string; links: string[]; admin: string[]; facilityLabel: boolean }> = [
  {
    who: 'ITP admin',
    email: 'admin@itp.example.org',
    links: ['nav-dashboard', 'nav-cases-past'],
    admin: ['/users', '/facilities', '/group-organizations', '/patients', '/evaluation-forms', '/itp-organization-settings', '/patient-tags', '/activity'],
    facilityLabel: false,
  },
  { who: 'ITP user', email: 'coordinator@itp.example.org', links: ['nav-dashboard', 'nav-cases-past', 'nav-unlock-users'], admin: [], facilityLabel: false },
  { who: 'provider', email: 'provider@itp.example.org', links: ['nav-dashboard', 'nav-cases', 'nav-cases-past'], admin: [], facilityLabel: false },
  {
    who: 'facility admin',
    email: 'admin@tampageneral.example.org',
    links: ['nav-dashboard', 'nav-cases-past'],
    admin: ['/facility/settings', '/users', '/activity'],
    facilityLabel: true,
  },
  { who: 'facility user (source)', email: 'er@tampageneral.example.org', links: ['nav-dashboard'], admin: [], facilityLabel: true },
  { who: 'facility user (referring)', email: 'intake@sunrisebehavioral.example.org', links: ['nav-dashboard'], admin: [], facilityLabel: true },
  { who: 'group user', email: 'reviewer@nfcrb.example.org', links: ['nav-dashboard', 'nav-cases-past'], admin: [], facilityLabel: false },
];
const ALL_LINKS = ['nav-dashboard', 'nav-cases', 'nav-cases-past', 'nav-unlock-users'];

for (const role of ROLES) {
  test(`the ${role.who} signs in and sees their own navigation`, async ({ page }) => {
    await signIn(page, role.email);
    for (const id of ALL_LINKS) await expect(page.getByTestId(id)).toHaveCount(role.links.includes(id) ? 1 : 0);
    if (role.admin.length === 0) {
      await expect(page.getByTestId('nav-admin-menu')).toHaveCount(0);
    } else {
      await page.getByTestId('nav-admin-menu').click();
      const entries = page.locator('[data-testid^="admin-entry-"]');
      await expect(entries.first()).toBeVisible();
      const shown = await entries.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.replace('admin-entry-', '')));
      expect(shown).toEqual(role.admin);
      if (role.who === 'ITP admin') {
        // Billing codes and payers sit in the Insurance submenu.
        await page.getByTestId('admin-group-Insurance').click();
        await expect(page.getByTestId('admin-entry-/billing-codes')).toBeVisible();
        await expect(page.getByTestId('admin-entry-/payers')).toBeVisible();
      }
      await page.keyboard.press('Escape');
      await page.keyboard.press('Escape');
    }
    await expect(page.getByTestId('facility-label')).toHaveCount(role.facilityLabel ? 1 : 0);
    await page.getByTestId('nav-profile-menu').click();
    await expect(page.getByRole('menuitem', { name: 'My profile' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Logout' })).toBeVisible();
  });
}

test('a facility user opening an admin page gets the access-denied page; an unknown path the not-found page', async ({ page }) => {
  await signIn(page, 'er@tampageneral.example.org');
  await page.goto('/facilities');
  await expect(page.getByText("You don't have permission to access this page.")).toBeVisible({ timeout: 20_000 });
  await page.goto('/no-such-page');
  await expect(page.getByTestId('page-not-found')).toBeVisible({ timeout: 20_000 });
});

test('/ goes to the dashboard and /new to the profile', async ({ page }) => {
  await signIn(page, 'coordinator@itp.example.org');
  await page.goto('/');
  await page.waitForURL((u) => u.pathname === '/dashboard', { timeout: 20_000 });
  await page.goto('/new');
  await page.waitForURL((u) => u.pathname === '/me', { timeout: 20_000 });
});

test('signing out returns to the sign-in page', async ({ page }) => {
  await signIn(page, 'coordinator@itp.example.org');
  await page.getByTestId('nav-profile-menu').click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible({ timeout: 30_000 });
});
