import { api } from '../support/api';
import { signIn as signInApi } from '../support/oidc-client';
import { DEMO_PASSWORD, signIn, expect, test } from './support';

/**
 * The ITP admin edits her own organization's IP allow-list on /itp-organization-settings with a
 * list that leaves out the address she works from (the browser reaches the API from 127.0.0.1):
 * the save opens a dialog naming that address; Cancel saves nothing; Confirm saves it, after which
 * the API refuses her. The list is lifted again from an address on it (the suite, as the trusted
 * local proxy, names one) whatever happens.
 */
test('the ITP admin is warned before an IP allow-list shuts her out, and saves it only on confirm', async ({ page }) => {
  const token = (await signInApi({ email: 'admin@itp.example.org', password: DEMO_PASSWORD })).accessToken;
  const itpId = (await api('GET', '/api/itp-organization', { token })).body.id as number;
  const settingsPath = `/api/itp-organization/${itpId}/organization-ip-whitelist-settings`;
  const original = (await api('GET', settingsPath, { token })).body as { ipWhiteListEnabled: boolean; ipAddresses: string | null };
  const LIST = '203.0.113.0/24';
  const onTheList = { 'x-forwarded-for': '203.0.113.9' };

  try {
    await signIn(page, 'admin@itp.example.org', '/itp-organization-settings');
    await page.getByTestId('facility-tab-ip-white-list').click();
    await expect(page.getByTestId('ip-allow-list')).toBeVisible({ timeout: 20_000 });

    const enabled = page.getByLabel('IP allow-list enabled');
    if (!(await enabled.isChecked())) await enabled.check();
    await page.getByTestId('ip-addresses').fill(LIST);
    await page.getByTestId('ip-allow-list-save').click();

    // The dialog names the address she would lose.
    const dialog = page.getByTestId('confirm-dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId('ip-allow-list-self-exclusion')).toContainText('127.0.0.1');

    // Cancel: nothing is saved, the form keeps her edit.
    await dialog.getByTestId('confirm-no').click();
    await expect(dialog).toBeHidden();
    expect((await api('GET', settingsPath, { token })).body).toMatchObject({
      ipWhiteListEnabled: original.ipWhiteListEnabled,
      ipAddresses: original.ipAddresses,
    });
    await expect(page.getByTestId('ip-allow-list-save')).toBeEnabled();

    // Confirm: saved.
    await page.getByTestId('ip-allow-list-save').click();
    await expect(dialog).toBeVisible();
    await dialog.getByTestId('confirm-yes').click();
    await expect(page.getByText('IP allow-list updated')).toBeVisible();
    const saved = await api('GET', settingsPath, { token, headers: onTheList });
    expect(saved.body).toMatchObject({ ipWhiteListEnabled: true, ipAddresses: LIST });
    // From her address the API now refuses her.
    expect((await api('GET', '/api/user/context', { token })).status).toBe(403);
  } finally {
    const restored = await api('PUT', `/api/itp-organization/${itpId}/update-ip-whitelist-settings`, {
      token,
      headers: onTheList,
      body: { facilityId: null, ...original, confirmed: true },
    });
    expect(restored.status).toBe(200);
  }
});
