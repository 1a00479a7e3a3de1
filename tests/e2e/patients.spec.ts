import { mkdirSync } from 'fs';
import { createCase } from '../support/cases';
import { db } from '../support/db';
import { signIn as signInApi } from '../support/oidc-client';
import { DEMO_PASSWORD, signIn, expect, test } from './support';

const SHOTS = '/tmp/shots-patients';
mkdirSync(SHOTS, { recursive: true });

/**
 * The patient directory and the merge (spec 02 §2 "Patients", "Merge page"): an emergency room
 * creates a second record for the seeded patient Thomas Hale (the way duplicates arise); the ITP
 * admin filters the directory, opens the read-only details, views the duplicates, merges the two
 * records on the merge page (cells that differ are red), and the surviving record's history shows
 * both cases; the merged-away record's history leads to the survivor.
 */
test('the ITP admin filters patients, views the duplicates of a seeded patient and merges them', async ({ page, context }) => {
  const seeded = (await db.query(`SELECT id FROM patients WHERE first_name = 'Thomas' AND last_name = 'Hale' AND date_of_birth = '1991-03-28' ORDER BY id LIMIT 1`)).rows[0];
  expect(seeded, 'the demo world has Thomas Hale').toBeTruthy();
  const seededCase = (await db.query('SELECT id FROM cases WHERE patient_id = $1', [seeded.id])).rows[0].id as number;
  const { accessToken: er } = await signInApi({ email: 'er@tampageneral.example.org', password: DEMO_PASSWORD });
  const duplicateCase = await createCase({
    token: er,
    patient: { firstName: 'Thomas', lastName: 'Hale', dateOfBirth: '1991-03-28', gender: 'Male', phone: '+18135550142', address: { streetLine: '9 Harbour Dr', city: 'Tampa', state: 'FL', county: 'Hillsborough County', zipCode: '33611' } },
  });
  const duplicate = (await db.query('SELECT patient_id FROM cases WHERE id = $1', [duplicateCase.id])).rows[0].patient_id as number;
  expect(duplicate).not.toBe(seeded.id);

  await signIn(page, 'admin@itp.example.org', '/patients');
  await expect(page.getByTestId('page-title')).toHaveText('Patients');

  // Filters: name, then an age range that excludes him (34 years old), then the one that includes him, and his gender.
  const rows = page.getByTestId('patient-table').locator('tbody tr');
  await page.getByTestId('patient-filter-name').fill('Hale');
  await expect(rows.filter({ hasText: 'Thomas Hale' })).toHaveCount(2);
  await page.getByTestId('patient-filter-ageRanges').click();
  await page.getByRole('option', { name: /^Child/ }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('patient-total')).toHaveText('0 found');
  await page.getByTestId('patient-filter-ageRanges').click();
  await page.getByRole('option', { name: /^Child/ }).click();
  await page.getByRole('option', { name: /^Adult/ }).click();
  await page.keyboard.press('Escape');
  await page.getByTestId('patient-filter-genders').click();
  await page.getByRole('option', { name: 'Male', exact: true }).click();
  await page.keyboard.press('Escape');
  await expect(rows.filter({ hasText: 'Thomas Hale' })).toHaveCount(2);
  await expect(page.getByTestId('patient-total')).toHaveText('2 found');
  await page.screenshot({ path: `${SHOTS}/directory-filtered.png`, fullPage: true, animations: 'disabled' });

  // The read-only details modal.
  await rows.filter({ hasText: String(seeded.id).padStart(5, '0') }).getByTestId('patient-name').click();
  const details = page.getByTestId('patient-details-dialog');
  await expect(details.getByTestId('patient-details-reference')).toHaveText(String(seeded.id).padStart(5, '0'));
  await expect(details.getByTestId('patient-details-dob')).toHaveText('03/28/1991');
  await details.screenshot({ path: `${SHOTS}/details.png`, animations: 'disabled' });
  await details.getByTestId('patient-details-close').click();

  // View duplicates: the group of Thomas Hale with its two records.
  await expect(page.getByTestId('patient-view-duplicates')).toContainText(/View duplicates \(\d+\)/);
  await page.getByTestId('patient-view-duplicates').click();
  const group = page.getByTestId('merge-group-row').filter({ hasText: 'Thomas Hale' });
  await expect(group.getByTestId('merge-group-count')).toHaveText('2');
  await page.getByTestId('merge-groups-dialog').screenshot({ path: `${SHOTS}/duplicates.png`, animations: 'disabled' });
  await group.getByTestId('merge-group-review').click();

  // The merge page: the zip codes differ (no majority of two): red; the names agree.
  await expect(page).toHaveURL(/\/patients\/merge\?firstName=Thomas&lastName=Hale&dateOfBirth=1991-03-28$/);
  const records = page.getByTestId('merge-record-row');
  await expect(records).toHaveCount(2);
  await expect(page.locator('[data-testid="merge-cell-zip"][data-differs="true"]')).toHaveCount(2);
  await expect(page.locator('[data-testid="merge-cell-first-name"][data-differs="true"]')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/merge-page.png`, fullPage: true, animations: 'disabled' });

  await page.getByTestId('merge-selected').click();
  await expect(page.getByText('Select at least two records to merge')).toBeVisible();
  for (const id of [seeded.id, duplicate]) await page.locator(`[data-patient-id="${id}"]`).getByTestId('merge-record-select').check();
  await page.getByTestId('merge-selected').click();
  await page.getByTestId('confirm-yes').click();
  await expect(page.getByText('Patients merged')).toBeVisible();
  await expect(page).toHaveURL(/\/patients\?mergedInto=\d+$/);
  expect((await db.query('SELECT merged_into_id FROM patients WHERE id = $1', [duplicate])).rows[0].merged_into_id).toBe(seeded.id);

  // The directory now lists one Thomas Hale; his history (a new tab) shows both cases.
  await page.getByTestId('patient-filter-name').fill('Thomas Hale');
  await expect(rows.filter({ hasText: 'Thomas Hale' })).toHaveCount(1);
  const [history] = await Promise.all([context.waitForEvent('page'), rows.filter({ hasText: 'Thomas Hale' }).getByTestId('patient-history-link').click()]);
  await history.waitForLoadState();
  await expect(history.getByTestId('patient-history-row')).toHaveCount(2);
  await expect(history.getByTestId('patient-history-table')).toContainText(`#${String(seededCase).padStart(6, '0')}`);
  await expect(history.getByTestId('patient-history-table')).toContainText(`#${String(duplicateCase.id).padStart(6, '0')}`);
  await history.screenshot({ path: `${SHOTS}/history.png`, fullPage: true, animations: 'disabled' });

  // The merged-away record's history follows INV.PATIENT.MERGED to the survivor.
  await history.goto(`/patients/${duplicate}/history`);
  await expect(history).toHaveURL(new RegExp(`/patients/${seeded.id}/history$`));
  await expect(history.getByTestId('patient-history-merged')).toBeVisible();
  await expect(history.getByTestId('patient-history-row')).toHaveCount(2);
});
