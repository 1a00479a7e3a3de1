import { mkdirSync } from 'node:fs';
import { type Page } from '@playwright/test';
import { api } from '../support/api';
import { completeEvaluation } from '../support/cases';
import { db } from '../support/db';
import { signIn as signInApi } from '../support/oidc-client';
import { DEMO_PASSWORD, signIn, expect, test } from './support';

/**
 * The EHR in the browser (spec 01 §5, §7; 02 §2): Tampa Bay General is EHR-integrated in the demo
 * world, its connection pointing at the local FHIR R4 server that npm test starts. The ER nurse
 * types an MRN and sees the patient filled from the EHR, an encounter of another patient is refused
 * and cleared; the provider completes the assessment and the coordinator sees the upload in the
 * case activity.
 */
const SHOTS = process.env.CASE_SHOTS_DIR ?? '/tmp/shots-ehr';
mkdirSync(SHOTS, { recursive: true });
const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
const tokenOf = async (email: string) => (await signInApi({ email, password: DEMO_PASSWORD })).accessToken;

async function pick(page: Page, testId: string, option: string | RegExp) {
  await page.getByTestId(testId).getByRole('combobox').click();
  await page.getByRole('option', { name: option }).first().click();
}

test('the ER nurse creates a case from an MRN filled by the EHR, and the evaluation is uploaded after completion', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1356, height: 900 });
  await signIn(page, 'er@tampageneral.example.org', '/cases/create/search');

  // An MRN the EHR does not know: the spec's not-found message.
  const mrn = page.getByTestId('search-patient-epic-id').locator('input');
  const encounter = page.getByTestId('search-encounter-id').locator('input');
  await mrn.fill('E-NOBODY');
  await encounter.focus();
  await expect(page.getByTestId('search-patient-epic-id')).toContainText(/not found/i);

  // Jordan Rivera's MRN: names and date of birth come from the EHR.
  await mrn.fill('E1001');
  await encounter.focus();
  await expect(page.getByTestId('search-first-name').locator('input')).toHaveValue('Jordan');
  await expect(page.getByTestId('search-last-name').locator('input')).toHaveValue('Rivera');
  await expect(page.getByTestId('search-dob').locator('input')).toHaveValue('1990-06-15');
  await expect(page.getByTestId('search-patient-epic-id')).toContainText('Found in the EHR: Jordan Rivera');

  // An encounter of another patient: refused, and the field is cleared.
  await encounter.fill('ENC-2002');
  await page.getByTestId('search-first-name').locator('input').focus();
  await expect(page.getByTestId('search-encounter-id')).toContainText(/another patient|does not belong|not found/i);
  await expect(encounter).toHaveValue('');
  await shot(page, '01-encounter-refused');

  await encounter.fill('ENC-1001');
  await page.getByTestId('search-first-name').locator('input').focus();
  await expect(page.getByTestId('search-encounter-id').locator('p.Mui-error')).toHaveCount(0);
  await shot(page, '02-search-from-ehr');
  await page.getByTestId('search-next').click();

  // The creation form starts from the EHR's patient (address too).
  await page.waitForURL((u) => u.pathname === '/cases/create');
  await expect(page.getByTestId('patient-first-name').locator('input')).toHaveValue('Jordan');
  await expect(page.getByTestId('patient-city').locator('input')).toHaveValue('Tampa');
  await pick(page, 'patient-gender', 'Female');
  await page.getByTestId('patient-county').locator('input').fill('Hillsborough County');
  await pick(page, 'patient-state', 'Florida (FL)');
  await shot(page, '03-create-from-ehr');
  await page.getByTestId('create-next').click();
  await page.getByTestId('case-contact-phone').locator('input').fill('8135550142');
  await pick(page, 'case-request-type', 'Assessment');
  await pick(page, 'case-provider', 'Clara Nguyen'); // provider@itp, credentialed at Tampa
  await page.getByTestId('create-save').click();
  await page.waitForURL(/\/cases\/\d+$/);
  const caseId = Number(new URL(page.url()).pathname.split('/').pop());

  const row = (await db.query('SELECT c.patient_epic_id, c.encounter_identifier_id, r.id AS request_id FROM cases c JOIN requests r ON r.case_id = c.id WHERE c.id = $1', [caseId])).rows[0];
  expect(row).toMatchObject({ patient_epic_id: 'E1001', encounter_identifier_id: 'ENC-1001' });

  // The provider completes the assessment (the evaluation screen's calls).
  await completeEvaluation(await tokenOf('provider@itp.example.org'), row.request_id);

  // The coordinator sees the upload in the case activity (live: no reload).
  const coordinator = await (await browser.newContext({ viewport: { width: 1356, height: 1000 } })).newPage();
  await signIn(coordinator, 'coordinator@itp.example.org', `/cases/${caseId}`);
  await expect(coordinator.getByTestId('activity-row').filter({ hasText: 'EHR: evaluation document uploaded' })).toHaveCount(1, { timeout: 60_000 });
  // The patient card says what the EHR knows now: the encounter, and no field the EHR has otherwise.
  await expect(coordinator.getByTestId('ehr-panel-encounter')).toContainText('EHR encounter ENC-1001: In progress');
  await expect(coordinator.getByTestId('ehr-panel-differences')).toHaveCount(0);
  await shot(coordinator, '04-activity-upload');

  // Exactly one document in the EHR for this request.
  const ehr = process.env.EHR_LOCAL_BASE_URL!;
  const docs = (await (await fetch(`${ehr}/local/resources/DocumentReference`)).json()) as any[];
  const key = `EvaluationDocument:request:${row.request_id}`;
  expect(docs.filter((d) => (d.identifier ?? []).some((i: any) => i.value === key))).toHaveLength(1);
  expect((await api('GET', `/api/cases/${caseId}/activity`, { token: await tokenOf('coordinator@itp.example.org') })).status).toBe(200);
});
