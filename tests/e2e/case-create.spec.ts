import { mkdirSync } from 'node:fs';
import { type Page } from '@playwright/test';
import { api } from '../support/api';
import { signIn as signInApi } from '../support/oidc-client';
import { DEMO_PASSWORD, signIn, expect, test } from './support';

/**
 * Case creation and the case lists (spec 01 §2, §5, §9): a facility user creates a case with one
 * insurance for a brand-new patient and finds it in her /cases list; an ITP coordinator then
 * searches the same patient, sees it with its last case and is stopped by the active-case dialog
 * showing the ER line; once that case is closed, continuing with the patient asks for a review of
 * the recent visit (seen at the facility in the last 3 months, spec 01 §9).
 */
const SHOTS = process.env.CASE_SHOTS_DIR ?? '/tmp/shots-cases';
mkdirSync(SHOTS, { recursive: true });
const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });

// Letters only: names are capitalised on the way in.
const run = Date.now().toString(36).replace(/\d/g, '').toUpperCase().slice(0, 6) || 'X';
const FIRST = `Case${run.toLowerCase()}`;
const LAST = 'Journey';
const DOB = '1985-04-12';
const first = FIRST.charAt(0).toUpperCase() + FIRST.slice(1);

async function pick(page: Page, testId: string, option: string | RegExp) {
  await page.getByTestId(testId).getByRole('combobox').click();
  await page.getByRole('option', { name: option }).first().click();
}

test.describe.serial('case creation', () => {
  let caseId = 0;

  test('a facility user creates a case with an insurance for a new patient', async ({ page }) => {
    await page.setViewportSize({ width: 1356, height: 900 });
    await signIn(page, 'er@tampageneral.example.org', '/cases/create/search');

    // Tampa Bay General is EHR-integrated: the ids are required with the spec's messages.
    await page.getByTestId('search-next').click();
    await expect(page.getByText('Patient EPIC ID or MRN is required')).toBeVisible();
    await expect(page.getByText('Patient Encounter ID is required')).toBeVisible();
    await shot(page, '01-search-errors');

    await page.getByTestId('search-patient-epic-id').locator('input').fill(`E2E-${run}`);
    await page.getByTestId('search-encounter-id').locator('input').fill(`ENC-${run}`);
    await page.getByTestId('search-first-name').locator('input').fill(`  ${FIRST.toLowerCase()} `);
    await page.getByTestId('search-last-name').locator('input').fill(LAST.toLowerCase());
    await page.getByTestId('search-dob').locator('input').fill(DOB);
    await shot(page, '02-search-filled');
    await page.getByTestId('search-next').click();

    // No match: straight to the creation form, names trimmed and capitalised.
    await page.waitForURL((u) => u.pathname === '/cases/create');
    await expect(page.getByTestId('patient-first-name').locator('input')).toHaveValue(first);
    await expect(page.getByTestId('patient-last-name').locator('input')).toHaveValue(LAST);
    await expect(page.getByTestId('patient-dob').locator('input')).toHaveValue(DOB);

    await pick(page, 'patient-gender', 'Female');
    await page.getByTestId('patient-phone').locator('input').fill('8135550123');
    await page.getByTestId('patient-veteran').locator('input').check();
    await expect(page.getByTestId('patient-ssn')).toBeVisible();
    // The SSN is formatted 3-2-4 as it is typed (spec 03 §5).
    await page.getByTestId('patient-ssn').locator('input').pressSequentially('123456789');
    await expect(page.getByTestId('patient-ssn').locator('input')).toHaveValue('123-45-6789');
    await page.getByTestId('patient-veteran').locator('input').uncheck();
    await expect(page.getByTestId('patient-ssn')).toHaveCount(0);
    await page.getByTestId('patient-homeless').locator('input').check();
    await expect(page.getByTestId('homeless-warning')).toBeVisible();
    await page.getByTestId('patient-street').locator('input').fill('12 Bayshore Blvd');
    await page.getByTestId('patient-city').locator('input').fill('Tampa');
    await pick(page, 'patient-state', 'Florida (FL)');
    await page.getByTestId('patient-county').locator('input').fill('Hillsborough County');
    await page.getByTestId('patient-zip').locator('input').fill('33606');

    // One insurance (a payer from the seed).
    await page.getByTestId('insurance-add').click();
    await pick(page, 'insurance-payer', 'Aetna');
    await page.getByTestId('insurance-id').locator('input').fill(`AET-${run}`);
    await shot(page, '03-create-patient-tab');

    await page.getByTestId('create-next').click();
    await expect(page.getByTestId('create-case-tab')).toBeVisible();
    // The division is fixed to the user's own; the EHR ids come from the search.
    await expect(page.getByTestId('case-source-division-fixed').locator('input')).toHaveValue('Emergency Department');
    await expect(page.getByTestId('case-patient-epic-id').locator('input')).toHaveValue(`E2E-${run}`);

    await page.getByTestId('create-save').click();
    await expect(page.getByText('This field is required').first()).toBeVisible();
    await page.getByTestId('case-contact-phone').locator('input').fill('8135550199');
    await page.getByTestId('case-rn').locator('input').fill('Nurse Rivera');
    await pick(page, 'case-request-type', 'Assessment');
    await page.getByTestId('case-request-note').locator('textarea').first().fill('Patient agitated, needs an assessment.');
    await shot(page, '04-create-case-tab');

    await page.getByTestId('create-save').click();
    await page.waitForURL((u) => /^\/cases\/\d+$/.test(u.pathname), { timeout: 30_000 });
    caseId = Number(new URL(page.url()).pathname.split('/').pop());
    expect(caseId).toBeGreaterThan(0);
    await expect(page.getByText('Case created')).toBeVisible();
    // The case page itself belongs to the case-page suite; this journey continues with the list.
    await shot(page, '05-case-created');

    // The new case is in her case list (facility table), newest first: the suites leave many open cases.
    await page.goto('/cases?sort=timeElapsed&order=ASC&page=1&perPage=25');
    const row = page.getByTestId('case-table').locator('tr', { hasText: `${first} ${LAST}` });
    await expect(row).toBeVisible({ timeout: 20_000 });
    await expect(row).toContainText('Assessment');
    await shot(page, '06-facility-case-list');
    await row.click();
    await page.waitForURL((u) => u.pathname === `/cases/${caseId}`);
  });

  test('an ITP coordinator finds the patient and is stopped by the active-case dialog', async ({ page }) => {
    expect(caseId).toBeGreaterThan(0);
    await page.setViewportSize({ width: 1356, height: 900 });
    await signIn(page, 'coordinator@itp.example.org', '/cases');
    await expect(page.getByTestId('case-table')).toBeVisible({ timeout: 20_000 });
    await shot(page, '07-itp-case-list');

    await page.getByTestId('case-create').click();
    await page.waitForURL((u) => u.pathname === '/cases/create/search');
    await page.getByTestId('search-first-name').locator('input').fill(first);
    await page.getByTestId('search-last-name').locator('input').fill(LAST);
    await page.getByTestId('search-dob').locator('input').fill(DOB);
    await page.getByTestId('search-next').click();

    await page.waitForURL((u) => u.pathname === '/cases/create/search/result');
    await expect(page.getByTestId('search-result-message')).toContainText('One patient');
    const row = page.getByTestId('search-result-row');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(`${first} ${LAST}`);
    await expect(row.getByTestId('search-result-last-case')).toHaveText(`#${String(caseId).padStart(6, '0')}`);
    await expect(row).toContainText('04/12/1985');

    // A patient must be chosen.
    await page.getByTestId('result-continue').click();
    await expect(page.getByTestId('patient-required')).toBeVisible();
    await shot(page, '08-search-result');

    await row.click();
    await page.getByTestId('result-continue').click();
    const dialog = page.getByTestId('active-case-dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('contact the ITP team');
    await expect(page.getByTestId('active-case-er-line')).toHaveText('(800) 555-0100');
    await shot(page, '09-active-case-dialog');
    await page.getByTestId('active-case-ok').click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/cases\/create\/search\/result/);
  });

  test('providers and referring users get their own case tables', async ({ page, browser }) => {
    await page.setViewportSize({ width: 1356, height: 900 });
    await signIn(page, 'provider@itp.example.org', '/cases');
    await expect(page.getByTestId('case-table').or(page.getByText('No results found'))).toBeVisible({ timeout: 20_000 });
    // The active-for-hours number is enabled only with 'show all cases'.
    await expect(page.getByTestId('case-active-hours')).toBeDisabled();
    await page.getByTestId('case-show-all').check();
    await expect(page.getByTestId('case-active-hours')).toBeEnabled();
    await expect(page.getByTestId('case-table')).toBeVisible();
    // Other suites create many cases: the search box finds this journey's one.
    await page.getByTestId('case-search').fill(first);
    await expect(page.getByTestId('case-patient')).toHaveCount(1);
    await expect(page.getByTestId('case-table')).toContainText(`${first} ${LAST}`);
    await shot(page, '10-provider-case-list');

    const referring = await browser.newPage({ viewport: { width: 1356, height: 900 } });
    await signIn(referring, 'intake@sunrisebehavioral.example.org', '/cases');
    await expect(referring.getByTestId('case-waiting-toggle')).toBeVisible({ timeout: 20_000 });
    await referring.getByTestId('case-waiting-toggle').locator('input').check();
    await expect(referring).toHaveURL(/patientAcceptedCreatedAt/);
    await shot(referring, '11-referring-case-list');
    await referring.close();
  });

  test('once the case is closed, continuing with the patient asks for a review of the recent visit', async ({ page }) => {
    expect(caseId).toBeGreaterThan(0);
    const token = (await signInApi({ email: 'coordinator@itp.example.org', password: DEMO_PASSWORD })).accessToken;
    const details = await api('GET', `/api/cases/${caseId}`, { token });
    if (details.body.activeRequest)
      expect((await api('PUT', `/api/requests/${details.body.activeRequest.id}/cancel`, { token, body: { reason: 'Journey over' } })).status).toBe(200);
    expect((await api('PUT', `/api/cases/${caseId}/close`, { token, body: { outcomeRequired: true, caseOutcomeType: 'LeftAMA' } })).status).toBe(200);

    await page.setViewportSize({ width: 1356, height: 900 });
    await signIn(page, 'coordinator@itp.example.org', '/cases/create/search');
    await page.getByTestId('search-first-name').locator('input').fill(first);
    await page.getByTestId('search-last-name').locator('input').fill(LAST);
    await page.getByTestId('search-dob').locator('input').fill(DOB);
    await page.getByTestId('search-next').click();
    await page.waitForURL((u) => u.pathname === '/cases/create/search/result');
    await page.getByTestId('search-result-row').click();
    await page.getByTestId('result-continue').click();

    const dialog = page.getByTestId('patient-review-dialog');
    await expect(dialog).toBeVisible();
    await expect(page.getByTestId('patient-review-recent')).toContainText('in the last 3 months');
    await expect(dialog).toContainText('Tampa Bay General Hospital');
    await shot(page, '12-patient-review');
    await page.getByTestId('patient-review-cancel').click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/cases\/create\/search\/result/);
    await page.getByTestId('result-continue').click();
    await page.getByTestId('patient-review-continue').click();
    await page.waitForURL((u) => u.pathname === '/cases/create' && u.searchParams.has('patientId'));
  });
});
