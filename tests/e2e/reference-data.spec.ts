import { type Page } from '@playwright/test';
import { db } from '../support/db';
import { expect, test } from './support';

/**
 * Reference data journeys (spec 03 §2 /patient-tags, /billing-codes): the ITP admin signs in
 * through the real sign-in page, creates and removes a patient tag, and creates a billing code in
 * the modal (a duplicate code is marked on the field).
 */
async function signIn(page: Page, path: string) {
  await page.goto(path);
  await page.getByLabel('Email').fill('admin@itp.example.org');
  await page.getByLabel('Password').fill('Demo1234!');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === path, { timeout: 30_000 });
}

const RUN = Date.now().toString(36).toUpperCase();


test('the ITP admin creates and removes a patient tag, then creates a billing code', async ({ page }) => {
  await signIn(page, '/patient-tags');
  await expect(page.getByTestId('page-title')).toHaveText('Patient tags');

  // Create: /patient-tags/create, required name, success toast, back on the list.
  const tag = `E2E tag ${RUN}`;
  await page.getByTestId('patient-tag-add').click();
  await expect(page).toHaveURL(/\/patient-tags\/create$/);
  await page.getByTestId('patient-tag-save').click();
  await expect(page.getByText('This field is required')).toBeVisible();
  await page.getByTestId('patient-tag-name').fill(tag);
  await page.getByTestId('patient-tag-save').click();
  await expect(page.getByText('Patient tag created')).toBeVisible();
  await expect(page).toHaveURL(/\/patient-tags$/);
  await page.getByTestId('patient-tag-filter-q').fill(tag);
  const row = page.getByTestId('patient-tag-table').getByRole('row').filter({ hasText: tag });
  await expect(row).toHaveCount(1);

  // The same name again is refused on the field (INV.NOT.UNIQ).
  await page.goto('/patient-tags/create');
  await page.getByTestId('patient-tag-name').fill(tag.toUpperCase());
  await page.getByTestId('patient-tag-save').click();
  await expect(page.locator('.MuiFormHelperText-root', { hasText: 'Value is not unique' })).toBeVisible();
  await expect(page).toHaveURL(/\/patient-tags\/create$/);

  // Remove, after the confirmation dialog.
  await page.goto('/patient-tags');
  await page.getByTestId('patient-tag-filter-q').fill(tag);
  await expect(row).toHaveCount(1);
  await row.getByTestId('patient-tag-remove').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Patient tag removed')).toBeVisible();
  await expect(row).toHaveCount(0);

  // Billing code: the modal, with its required fields and the unique code.
  await page.goto('/billing-codes');
  await expect(page.getByTestId('page-title')).toHaveText('Billing codes');
  const code = `E2E${RUN}`;
  await page.getByTestId('billing-code-add').click();
  const dialog = page.getByTestId('billing-code-dialog');
  await dialog.getByTestId('billing-code-save').click();
  await expect(dialog.getByText('This field is required').first()).toBeVisible();
  await dialog.getByTestId('billing-code-code').fill(code);
  await dialog.getByTestId('billing-code-description').fill('End-to-end crisis evaluation');
  await dialog.getByLabel('ER Crisis').check();
  await dialog.getByLabel('Assessment', { exact: true }).check();
  await dialog.getByTestId('billing-code-save').click();
  await expect(page.getByText('Billing code created')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await page.getByTestId('billing-code-filter-q').fill(code);
  const codeRow = page.getByTestId('billing-code-table').getByRole('row').filter({ hasText: code });
  await expect(codeRow).toHaveCount(1);
  await expect(codeRow).toContainText('ER Crisis');
  await expect(codeRow).toContainText('Active');

  // A second code with the same value: the code field says so and the modal stays open.
  await page.getByTestId('billing-code-add').click();
  await dialog.getByTestId('billing-code-code').fill(code.toLowerCase());
  await dialog.getByTestId('billing-code-description').fill('Duplicate');
  await dialog.getByLabel('Med Floor').check();
  await dialog.getByLabel('File Review').check();
  await dialog.getByTestId('billing-code-save').click();
  await expect(dialog.locator('.MuiFormHelperText-root', { hasText: 'Value is not unique' })).toBeVisible();
  await dialog.getByTestId('billing-code-cancel').click();

  // Edit in the modal: deactivate.
  await codeRow.click();
  await expect(dialog.getByTestId('billing-code-code')).toHaveValue(code);
  await dialog.getByTestId('billing-code-isActive').uncheck();
  await dialog.getByTestId('billing-code-save').click();
  await expect(page.getByText('Billing code updated')).toBeVisible();
  await expect(codeRow).toContainText('Inactive');
});

test('the ITP admin creates a group with the states → counties → facilities cascade', async ({ page }) => {
  await signIn(page, '/group-organizations');
  await expect(page.getByTestId('page-title')).toHaveText('Group organizations');
  const name = `E2E group ${RUN}`;
  await page.getByTestId('group-add').click();
  const dialog = page.getByTestId('group-dialog');
  await dialog.getByTestId('group-name').fill(name);

  // Escape would close the whole dialog: a click on its title closes an open option list instead.
  const closeList = () => dialog.locator('h2').click();
  const combo = (label: RegExp) => dialog.getByRole('combobox', { name: label });
  const pick = async (label: RegExp, text: string, option: string | RegExp) => {
    await combo(label).click();
    await combo(label).fill(text);
    await page.getByRole('option', { name: option }).click();
    await closeList();
  };

  // Facilities are offered only once states are chosen, and only those of the chosen states.
  await expect(combo(/^Facilities/)).toBeDisabled();
  await pick(/^States/, 'Florida', 'FL – Florida');
  // Counties autocomplete (2+ letters) within the chosen states.
  await dialog.getByTestId('group-counties').fill('Hillsb');
  await page.getByRole('option', { name: 'Hillsborough County' }).click();
  await expect(dialog.getByRole('button', { name: 'Hillsborough County' })).toBeVisible();
  await closeList();
  await pick(/^Facilities/, 'Tampa', /Tampa Bay General Hospital/);
  await combo(/^Facilities/).fill('Atlanta');
  await expect(page.getByRole('option', { name: /Atlanta Peachtree/ })).toHaveCount(0);
  await closeList();

  // Changing the states resets counties and the facility lists.
  await pick(/^States/, 'Georgia', 'GA – Georgia');
  await expect(dialog.getByRole('button', { name: /Tampa Bay General Hospital/ })).toHaveCount(0);
  await expect(dialog.getByText('Hillsborough County')).toHaveCount(0);

  // Facilities and excluded facilities exclude each other.
  await pick(/^Facilities/, 'Atlanta', /Atlanta Peachtree Regional Hospital/);
  await combo(/^Excluded facilities/).click();
  await combo(/^Excluded facilities/).fill('Atlanta Peachtree');
  await expect(page.getByRole('option', { name: /Atlanta Peachtree Regional Hospital/ })).toHaveCount(0);
  await closeList();
  await pick(/^Excluded facilities/, 'Savannah', /Savannah Coastal Medical Center/);
  await dialog.getByTestId('group-counties').fill('Fulton County');
  await dialog.getByTestId('group-counties').press('Enter');

  await dialog.getByTestId('group-save').click();
  await expect(page.getByText('Group organization created')).toBeVisible();
  await page.getByTestId('group-filter-q').fill(name);
  const row = page.getByTestId('group-table').getByRole('row').filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('FL, GA');
  await expect(row).toContainText('Fulton County');

  // The same name again is refused on the name field.
  await page.getByTestId('group-add').click();
  await dialog.getByTestId('group-name').fill(name.toUpperCase());
  await pick(/^States/, 'Georgia', 'GA – Georgia');
  await pick(/^Facilities/, 'Atlanta', /Atlanta Peachtree Regional Hospital/);
  await dialog.getByTestId('group-save').click();
  await expect(dialog.locator('.MuiFormHelperText-root', { hasText: 'Value is not unique' })).toBeVisible();
});

test('the ITP admin creates a payer and edits it', async ({ page }) => {
  await signIn(page, '/payers');
  await expect(page.getByTestId('page-title')).toHaveText('Payers');
  const name = `E2E payer ${RUN}`;
  await page.getByTestId('payer-add').click();
  await expect(page).toHaveURL(/\/payers\/create$/);
  await page.getByTestId('payer-name').fill(name);
  await page.getByTestId('payer-planName').fill('E2E Gold');
  await page.getByTestId('payer-zip').fill('12');
  await page.getByTestId('payer-save').click();
  await expect(page.locator('.MuiFormHelperText-root', { hasText: 'Invalid format' })).toBeVisible();
  await page.getByTestId('payer-zip').fill('33602');
  await page.getByTestId('payer-save').click();
  await expect(page.getByText('Payer created')).toBeVisible();
  await expect(page).toHaveURL(/\/payers\/\d+$/);
  await page.getByTestId('payer-code').fill('E2E');
  await page.getByTestId('payer-save').click();
  await expect(page.getByText('Payer updated')).toBeVisible();
  await page.goto('/payers');
  await page.getByTestId('payer-filter-q').fill(name);
  await expect(page.getByTestId('payer-table').getByRole('row').filter({ hasText: name })).toContainText('E2E Gold');
});

test('a payer used by patients is edited after the force confirmation', async ({ page }) => {
  const name = `E2E used payer ${RUN}`;
  const { rows } = await db.query("INSERT INTO payers (name, code, plan_name) VALUES ($1, 'USED', 'Used Plan') RETURNING id", [name]);
  const id = rows[0].id;
  // A patient's insurance on one of the demo cases uses the payer.
  const [kase] = (await db.query('SELECT id, patient_id FROM cases ORDER BY id LIMIT 1')).rows;
  const [insurance] = (
    await db.query(`INSERT INTO patient_insurances (case_id, patient_id, payer_id, insurance_id, position) VALUES ($1, $2, $3, 'USED-E2E', 2) RETURNING id`, [
      kase.id,
      kase.patient_id,
      id,
    ])
  ).rows;
  try {
    await signIn(page, `/payers/${id}`);
    await expect(page.getByTestId('payer-name')).toHaveValue(name);
    await page.getByTestId('payer-code').fill('USED2');
    await page.getByTestId('payer-isActive').uncheck();
    await page.getByTestId('payer-save').click();
    const confirm = page.getByTestId('payer-force-dialog');
    await expect(confirm).toContainText('The payer is used by patients: deactivate and edit it anyway?');
    await confirm.getByTestId('payer-force-confirm').click();
    await expect(page.getByText('Payer updated')).toBeVisible();
    const saved = (await db.query('SELECT code, is_active FROM payers WHERE id = $1', [id])).rows[0];
    expect(saved).toEqual({ code: 'USED2', is_active: false });
  } finally {
    await db.query('DELETE FROM patient_insurances WHERE id = $1', [insurance.id]);
  }
});
