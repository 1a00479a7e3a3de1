import { api } from '../support/api';
import { signIn as signInApi } from '../support/oidc-client';
import { DEMO_PASSWORD, signIn, expect, test } from './support';

/**
 * The ITP admin's facility tabs (spec 03 §2): on a fresh facility with two Source divisions she
 * credentials the demo provider for both (addToNewDivisions follows "all chosen") and adds a
 * preferred facility; both show in their tables, and the provider is no longer offered.
 */
test('the ITP admin adds a credentialed provider and a preferred facility', async ({ page }) => {
  const run = Date.now().toString(36).toUpperCase();
  const { accessToken: token } = await signInApi({ email: 'admin@itp.example.org', password: DEMO_PASSWORD });
  const facility = await api('POST', '/api/facilities', {
    token,
    body: {
      name: `E2E Tabs Hospital ${run}`,
      isActive: true,
      isGeoPositionManually: true,
      address: { streetLine: '5 Tab Way', city: 'Tampa', state: 'FL', zipCode: String(33000 + Math.floor(Math.random() * 900)) },
      geoPosition: { latitude: 27.95, longitude: -82.46 },
    },
  });
  expect(facility.status).toBe(201);
  const id = facility.body.id as number;
  for (const name of ['ER North', 'ER South']) {
    const res = await api('POST', `/api/facilities/${id}/divisions`, {
      token,
      body: { name, type: 'Source', isActive: true, contacts: { phone1: '(813) 555-0110' }, sourceType: 'ErCrisis', requestTypes: ['Assessment'] },
    });
    expect(res.status).toBe(201);
  }

  await signIn(page, 'admin@itp.example.org', `/facilities/${id}/credentialed-providers`);
  const tab = page.getByTestId('credentialed-providers-tab');
  await expect(tab.getByTestId('cp-empty')).toBeVisible({ timeout: 20_000 });

  // Saving the empty modal shows the shared schema's messages.
  await page.getByTestId('cp-add').click();
  const dialog = page.getByTestId('cp-dialog');
  await expect(dialog.getByRole('checkbox', { name: 'ER North' })).toBeVisible({ timeout: 20_000 });
  await dialog.getByTestId('cp-save').click();
  await expect(dialog.getByText('This field is required').first()).toBeVisible();

  await dialog.getByTestId('cp-provider').click();
  await page.getByRole('option', { name: 'Clara Nguyen (MD)' }).click();
  await dialog.getByRole('checkbox', { name: 'ER North' }).check();
  await expect(dialog.getByTestId('add-to-new-divisions')).toContainText('will not get');
  await dialog.getByRole('checkbox', { name: 'ER South' }).check();
  await expect(dialog.getByTestId('add-to-new-divisions')).toContainText('All divisions chosen');
  await dialog.getByRole('checkbox', { name: 'All ages', exact: true }).check();
  await dialog.getByTestId('cp-save').click();
  await expect(dialog).toHaveCount(0, { timeout: 20_000 });
  await expect(tab.getByTestId('cp-row')).toHaveCount(1);
  await expect(tab.getByTestId('cp-table')).toContainText('ER North, ER South');

  const saved = await api('GET', `/api/facilities/${id}/credentialed-providers`, { token });
  expect(saved.body).toHaveLength(1);
  expect(saved.body[0]).toMatchObject({ addToNewDivisions: true, acceptedPatients: { allAges: true } });

  // The preferred facilities tab: add a receiving facility.
  await page.getByTestId('facility-tab-preferences').click();
  const pf = page.getByTestId('preferred-facilities-tab');
  await expect(pf.getByTestId('pf-empty')).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('pf-add').click();
  const pfDialog = page.getByTestId('pf-dialog');
  await pfDialog.getByTestId('pf-facility').fill('Sunrise');
  await page.getByRole('option', { name: /Sunrise Behavioral Health Hospital/ }).click();
  await pfDialog.getByTestId('pf-save').click();
  await expect(pfDialog).toHaveCount(0, { timeout: 20_000 });
  await expect(pf.getByTestId('pf-row')).toHaveCount(1);
  await expect(pf.getByTestId('pf-table')).toContainText('Sunrise Behavioral Health Hospital');

  // Removal asks first.
  await pf.getByTestId('pf-remove').click();
  await page.getByTestId('confirm-yes').click();
  await expect(pf.getByTestId('pf-empty')).toBeVisible({ timeout: 20_000 });
});
