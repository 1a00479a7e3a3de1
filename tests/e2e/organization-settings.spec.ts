import { signIn, expect, test } from './support';

/**
 * The ITP admin edits the ITP organization's ER line on /itp-organization-settings: a blank value is
 * refused on the field by the shared schema; a new number is saved and then shown to a facility
 * user in the navigation bar's facility label. The original value is restored at the end.
 */
test("the ITP admin changes the ER line and a facility user sees it", async ({ page, browser }) => {
  await signIn(page, 'admin@itp.example.org', '/itp-organization-settings');
  await expect(page.getByTestId('itp-general')).toBeVisible({ timeout: 20_000 });
  const erLine = page.getByTestId('er-line');
  await expect(erLine).not.toHaveValue('');
  const original = await erLine.inputValue();

  await erLine.fill('');
  await page.getByTestId('itp-general-save').click();
  await expect(page.getByText('This field is required')).toBeVisible();

  const digits = String(Date.now() % 10000).padStart(4, '0');
  const next = `(800) 555-${digits}`;
  await erLine.fill(next);
  await page.getByTestId('itp-general-save').click();
  await expect(page.getByText('Organization settings updated')).toBeVisible();

  // The other tabs are reachable.
  await page.getByTestId('facility-tab-ip-white-list').click();
  await expect(page.getByTestId('ip-allow-list')).toBeVisible();
  await page.getByTestId('facility-tab-external-login-provider-settings').click();
  await expect(page.getByTestId('sso-settings')).toBeVisible();

  // A facility user sees the new ER line in her navigation bar (user context cached a few seconds).
  const other = await browser.newContext();
  const facilityPage = await other.newPage();
  await signIn(facilityPage, 'er@tampageneral.example.org');
  await expect(async () => {
    await facilityPage.reload();
    await expect(facilityPage.getByTestId('facility-label-er-line')).toContainText(`555-${digits}`, { timeout: 3000 });
  }).toPass({ timeout: 20_000 });
  await other.close();

  // Restore.
  await page.getByTestId('facility-tab-general').click();
  await page.getByTestId('er-line').fill(original);
  await page.getByTestId('itp-general-save').click();
  await expect(page.getByText('Organization settings updated').first()).toBeVisible();
});

/**
 * The ITP admin configures a facility's IP allow-list that excludes the test client (127.0.0.1):
 * the shared rules refuse a bad list on the field; once saved, the facility's user is refused by
 * the API (the app cannot load her context); disabling the list restores her access.
 */
test("a facility's IP allow-list excluding the client makes the API refuse its user", async ({ page, browser }) => {
  await signIn(page, 'admin@itp.example.org', '/facilities');
  // Other suites add facilities: find it by name rather than hoping it is on the first page.
  await page.getByPlaceholder('Search by name').fill('Tampa Bay General');
  // The list applies the search after a pause; clicking before that, the search lands afterwards and
  // takes the page back to the list.
  await page.waitForURL((u) => u.pathname === '/facilities' && u.search.includes('Tampa'));
  await page.getByRole('link', { name: 'Tampa Bay General Hospital' }).first().click();
  await page.waitForURL((u) => /^\/facilities\/\d+/.test(u.pathname));
  await page.getByTestId('facility-tab-ipWhiteList').click();
  await expect(page.getByTestId('ip-allow-list')).toBeVisible({ timeout: 20_000 });

  const enabled = page.getByLabel('IP allow-list enabled');
  const addresses = page.getByTestId('ip-addresses');
  await enabled.check();
  await addresses.fill('');
  await page.getByTestId('ip-allow-list-save').click();
  await expect(page.getByText('IP Address is required')).toBeVisible();
  await addresses.fill('203.0.113.0/24, 10.0.0.300');
  await page.getByTestId('ip-allow-list-save').click();
  await expect(page.getByText('Invalid IP address list')).toBeVisible();

  await addresses.fill('203.0.113.0/24, 198.51.100.7');
  await page.getByTestId('ip-allow-list-save').click();
  // Saved: the form reloads the stored list (normalised) and is clean again. (Toasts queue behind
  // the earlier validation ones, so they are not the signal here.)
  await expect(page.getByTestId('ip-allow-list-save')).toBeDisabled();
  await expect(addresses).toHaveValue('203.0.113.0/24, 198.51.100.7');

  const other = await browser.newContext();
  try {
    const userPage = await other.newPage();
    await userPage.goto('/dashboard');
    await userPage.getByLabel('Email').fill('er@tampageneral.example.org');
    await userPage.getByLabel('Password').fill('Demo1234!');
    await userPage.getByRole('button', { name: 'Sign in' }).click();
    // The list is applied at sign-in already: the right password from the wrong address gets the
    // API's refusal on the sign-in page, and no session.
    await expect(userPage.getByText("You don't have permission to perform this action")).toBeVisible({ timeout: 30_000 });
    await expect(userPage.getByTestId('nav-dashboard')).toHaveCount(0);

    // Lift the list: her next attempt loads the app.
    await enabled.uncheck();
    await page.getByTestId('ip-allow-list-save').click();
    await expect(page.getByTestId('ip-allow-list-save')).toBeDisabled();
    await expect(enabled).not.toBeChecked();
    await userPage.goto('/dashboard');
    await userPage.getByLabel('Email').fill('er@tampageneral.example.org');
    await userPage.getByLabel('Password').fill('Demo1234!');
    await userPage.getByRole('button', { name: 'Sign in' }).click();
    await expect(userPage.getByTestId('nav-dashboard')).toBeVisible({ timeout: 30_000 });
  } finally {
    await other.close();
    // Whatever happened above, the facility's users must not stay shut out for the other suites.
    if (await enabled.isChecked().catch(() => false)) {
      await enabled.uncheck();
      await page.getByTestId('ip-allow-list-save').click();
    }
  }
});

/** The facility admin's SSO tab on /facility/settings checks the settings with the shared rules before saving. */
test('the facility admin sees SSO validation on her settings page', async ({ page }) => {
  await signIn(page, 'admin@tampageneral.example.org', '/facility/settings');
  await page.getByTestId('facility-tab-external-login-provider-settings').click();
  await expect(page.getByTestId('sso-settings')).toBeVisible({ timeout: 20_000 });
  const enabled = page.getByLabel('Single sign-on enabled');
  if (await enabled.isChecked()) await enabled.uncheck();
  await enabled.check();
  await page.getByLabel('Identity provider entity id').fill('');
  await page.getByLabel('X.509 certificate (PEM)').fill('not a certificate!');
  await page.getByTestId('sso-save').click();
  await expect(page.getByText('Invalid X509 Certificate')).toBeVisible();
  await expect(page.getByText('This field is required').first()).toBeVisible();
});
