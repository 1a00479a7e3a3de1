import path from 'path';
import { type Page } from '@playwright/test';
import { signIn, expect, test } from './support';

/** Picks an option of a react-admin SelectInput identified by its data-testid. */
async function choose(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function fillFacility(page: Page, name: string, zip: string) {
  await page.getByTestId('facility-name').fill(name);
  await page.getByTestId('facility-streetLine').fill('100 Harbor Way');
  await page.getByTestId('facility-city').fill('Tampa');
  await choose(page, 'facility-state', 'Florida (FL)');
  await page.getByTestId('facility-zipCode').fill(zip);
  await page.getByLabel('Set geo position manually').check();
  await page.getByTestId('facility-latitude').fill('27.95');
  await page.getByTestId('facility-longitude').fill('-82.46');
  await page.getByTestId('facility-phone1').fill('8135550100');
}

/**
 * The ITP admin creates a facility and a division through the UI; a duplicate facility (same name
 * and zip) and a duplicate division name are refused with the error on the field.
 */
test('the ITP admin creates a facility and a division; duplicates are refused on the field', async ({ page }) => {
  const name = `E2E Harbor Hospital ${Date.now().toString(36)}`;
  await signIn(page, 'admin@itp.example.org', '/facilities');
  await expect(page.getByTestId('facility-total')).toBeVisible({ timeout: 20_000 });

  await page.getByTestId('facility-add').click();
  await page.waitForURL((u) => u.pathname === '/facilities/create');
  // The tabs of a saved facility say so before the first save, then General again.
  await page.getByTestId('facility-tab-preferences').click();
  await expect(page.getByTestId('facility-save-first')).toContainText('save the facility first');
  await page.getByTestId('facility-tab-general').click();
  // Saving the empty form shows the shared schema's messages.
  await page.getByTestId('facility-save').click();
  await expect(page.getByText('This field is required').first()).toBeVisible();
  await fillFacility(page, name, '33602');
  await page.getByTestId('facility-save').click();
  await page.waitForURL((u) => /^\/facilities\/\d+/.test(u.pathname), { timeout: 20_000 });

  // A division: a referring inpatient unit for adults.
  await page.getByRole('tab', { name: /divisions/i }).click();
  await page.getByTestId('division-add').click();
  const dialog = page.getByTestId('division-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('division-name').fill('Adult Inpatient');
  await dialog.getByRole('radio', { name: 'Referring' }).check();
  await choose(page, 'division-referringType', 'Mental Health Inpatient');
  await dialog.getByRole('checkbox', { name: 'Female', exact: true }).check();
  await dialog.getByRole('checkbox', { name: 'Male', exact: true }).check();
  await dialog.getByTestId('division-phone1').fill('8135550101');
  await dialog.getByTestId('division-fax1').fill('8135550102');
  await dialog.getByRole('checkbox', { name: 'All ages', exact: true }).check();
  await dialog.getByTestId('division-save').click();
  await expect(dialog).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByTestId('division-row')).toHaveCount(1);
  await expect(page.getByTestId('division-table')).toContainText('Adult Inpatient');

  // The same division name again is refused on the name field.
  await page.getByTestId('division-add').click();
  await dialog.getByTestId('division-name').fill('adult inpatient');
  await dialog.getByRole('radio', { name: 'Source' }).check();
  await choose(page, 'division-sourceType', 'ER Crisis');
  await dialog.getByRole('checkbox', { name: 'Assessment', exact: true }).check();
  await dialog.getByTestId('division-phone1').fill('8135550103');
  await dialog.getByTestId('division-save').click();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(/not unique|already exists/i)).toBeVisible({ timeout: 20_000 });
  await dialog.getByTestId('division-cancel').click();

  // The same facility name and zip again: refused, with the error on the name.
  await page.goto('/facilities/create');
  await fillFacility(page, name, '33602');
  await page.getByTestId('facility-save').click();
  await expect(page.getByText(/not unique|already exists/i).first()).toBeVisible({ timeout: 20_000 });
  expect(new URL(page.url()).pathname).toBe('/facilities/create');

  // The list finds the new facility by name.
  await page.goto('/facilities');
  await page.getByPlaceholder('Search by name').fill(name);
  await expect(page.getByTestId('facility-link')).toHaveText([name], { timeout: 20_000 });
});

/** Spec 03 §2 facility list: "cities (autocomplete)" (2+ characters, §5); picking one filters the list. */
test("the facility list's cities filter suggests cities as they are typed", async ({ page }) => {
  await signIn(page, 'admin@itp.example.org', '/facilities');
  await expect(page.getByTestId('facility-total')).toBeVisible({ timeout: 20_000 });
  const cities = page.getByTestId('facility-filter-cities');
  await cities.fill('S');
  await expect(page.getByTestId('facility-filter-cities-option')).toHaveCount(0);
  await cities.fill('Savan');
  await expect(page.getByRole('option', { name: 'Savannah', exact: true })).toBeVisible();
  await page.screenshot({ path: path.resolve(__dirname, '..', '..', '.data', 'test', 'e2e-results', 'facility-cities-suggestions.png') });
  await page.getByRole('option', { name: 'Savannah', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Savannah', exact: true })).toBeVisible();
  // Only facilities in Savannah remain.
  const rows = page.getByTestId('facility-table').locator('tbody tr');
  await expect(rows.filter({ hasNotText: 'Savannah' })).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByTestId('facility-link')).toContainText(['Savannah Coastal Medical Center']);
  await page.screenshot({ path: path.resolve(__dirname, '..', '..', '.data', 'test', 'e2e-results', 'facility-cities-filter.png') });
});
