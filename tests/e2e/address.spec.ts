import path from 'path';
import { createCase } from '../support/cases';
import { signIn as signInApi } from '../support/oidc-client';
import { DEMO_PASSWORD, signIn, expect, test } from './support';

/**
 * Address look-ups in the facility form (spec 03 §2/§5): typing a 5-digit zip fills city, state,
 * county and the coordinates from the local data set; with "Set geo position manually" on, the
 * coordinates are left alone; the county autocomplete suggests after 2 characters.
 */
test('typing zip 33606 on the facility create form fills Tampa, FL, Hillsborough County and the coordinates', async ({ page }) => {
  await signIn(page, 'admin@itp.example.org', '/facilities/create');
  await expect(page.getByTestId('facility-zipCode')).toBeVisible({ timeout: 20_000 });

  await page.getByTestId('facility-zipCode').fill('33606');
  await expect(page.getByTestId('facility-city')).toHaveValue('Tampa');
  await expect(page.getByTestId('facility-state')).toContainText('Florida (FL)');
  await expect(page.getByTestId('facility-county')).toHaveValue('Hillsborough County');
  await expect(page.getByTestId('facility-latitude')).toHaveValue(/^27\.9\d*/);
  await expect(page.getByTestId('facility-longitude')).toHaveValue(/^-82\.4\d*/);

  // Manual geo position: another zip fills the address but keeps the typed coordinates.
  await page.getByLabel('Set geo position manually').check();
  await page.getByTestId('facility-latitude').fill('27.5');
  await page.getByTestId('facility-longitude').fill('-82.5');
  await page.getByTestId('facility-zipCode').fill('32202');
  await expect(page.getByTestId('facility-city')).toHaveValue('Jacksonville');
  await expect(page.getByTestId('facility-county')).toHaveValue('Duval County');
  await expect(page.getByTestId('facility-latitude')).toHaveValue('27.5');
  await expect(page.getByTestId('facility-longitude')).toHaveValue('-82.5');

  // County autocomplete (filtered by the chosen state) after 2 characters.
  await page.getByTestId('facility-county').fill('Hi');
  await page.getByRole('option', { name: 'Hillsborough County, FL' }).click();
  await expect(page.getByTestId('facility-county')).toHaveValue('Hillsborough County');

  // Street autocomplete: the typed line with its apartment part is offered split.
  await page.getByTestId('facility-streetLine').fill('100 Harbor Way Suite 12');
  await page.getByRole('option', { name: /^100 Harbor Way, Apt 12/ }).first().click();
  await expect(page.getByTestId('facility-streetLine')).toHaveValue('100 Harbor Way');
  await expect(page.getByTestId('facility-apartmentNumber')).toHaveValue('12');
});

test('the patient edit dialog of a case fills city, state and county from the zip', async ({ page }) => {
  const run = Date.now().toString(36).replace(/\d/g, '').slice(-6) || 'x';
  const facility = await signInApi({ email: 'er@tampageneral.example.org', password: DEMO_PASSWORD });
  const created = await createCase({
    token: facility.accessToken,
    patient: { firstName: `Addr${run}`, lastName: 'Lookup', dateOfBirth: '1981-02-03', gender: 'Female', address: { streetLine: '5 Bay St', city: 'Tampa', state: 'FL', county: 'Hillsborough County', zipCode: '33606' } },
  });

  await signIn(page, 'er@tampageneral.example.org', `/cases/${created.id}`);
  await page.getByTestId('patient-edit-button').click();
  const dialog = page.getByTestId('patient-edit-dialog');
  await expect(dialog.getByTestId('pe-street').locator('input')).toHaveValue('5 Bay St');
  await dialog.getByLabel('Zip *').fill('32202');
  await expect(dialog.getByTestId('pe-city').locator('input')).toHaveValue('Jacksonville');
  await expect(dialog.getByTestId('pe-county').locator('input')).toHaveValue('Duval County');
  await dialog.getByTestId('pe-save').click();
  await expect(page.getByTestId('patient-address')).toContainText('Jacksonville', { timeout: 15_000 });
});

/** Spec 03 §5 SSN: auto-formatted 3-2-4 while typed; 'The SSN must consist of 9 digits', 'Please enter Valid SSN number'. */
test('the patient edit dialog formats the SSN as it is typed and names what is wrong with it', async ({ page }) => {
  const run = Date.now().toString(36).replace(/\d/g, '').slice(-6) || 'x';
  const facility = await signInApi({ email: 'er@tampageneral.example.org', password: DEMO_PASSWORD });
  const created = await createCase({
    token: facility.accessToken,
    patient: { firstName: `Ssn${run}`, lastName: 'Format', dateOfBirth: '1970-05-06', gender: 'Male', address: { streetLine: '7 Bay St', city: 'Tampa', state: 'FL', county: 'Hillsborough County', zipCode: '33606' } },
  });

  await signIn(page, 'er@tampageneral.example.org', `/cases/${created.id}`);
  await page.getByTestId('patient-edit-button').click();
  const dialog = page.getByTestId('patient-edit-dialog');
  await expect(dialog.getByTestId('pe-ssn')).toHaveCount(0);
  await dialog.getByLabel('Veteran').check();
  const ssn = dialog.getByTestId('pe-ssn').locator('input');
  await ssn.pressSequentially('12345');
  await expect(ssn).toHaveValue('123-45');
  await dialog.getByTestId('pe-save').click();
  await expect(dialog.getByText('The SSN must consist of 9 digits')).toBeVisible();
  await ssn.fill('');
  await ssn.pressSequentially('000123456');
  await expect(ssn).toHaveValue('000-12-3456');
  await dialog.getByTestId('pe-save').click();
  await expect(dialog.getByText('Please enter Valid SSN number')).toBeVisible();
  await page.screenshot({ path: path.resolve(__dirname, '..', '..', '.data', 'test', 'e2e-results', 'patient-edit-ssn.png') });
  await ssn.fill('');
  await ssn.pressSequentially('123-45-6789x');
  await expect(ssn).toHaveValue('123-45-6789');
  await dialog.getByTestId('pe-save').click();
  await expect(dialog).toHaveCount(0, { timeout: 15_000 });
});
