import { mkdirSync } from 'node:fs';
import { caseReference } from '@crisis/forms';
import { db } from '../support/db';
import { signIn, expect, test } from './support';

/**
 * The ITP admin's EHR tools (issue 16; spec 02 §1 "Athena payer search result", 01 §7 "retry of an
 * EHR claim", 02 §8 "Audit retry failure"): the payer form's plan search in the local EHR, with two
 * addresses shown and the rest in a tooltip; the retry of failed claims from the past cases page.
 */
const SHOTS = '/tmp/shots-ehr-admin';
mkdirSync(SHOTS, { recursive: true });

test('the ITP admin picks a payer plan from the EHR: two addresses shown, the rest in a tooltip', async ({ page }) => {
  await page.setViewportSize({ width: 1356, height: 900 });
  await signIn(page, 'admin@itp.example.org', '/payers/create');
  await page.getByTestId('payer-name').fill(`EHR plan payer ${Date.now().toString(36)}`);
  await page.getByTestId('payer-ehr-search').click();
  // The plan name is required, with the spec's message.
  await page.getByTestId('ehr-plan-search').click();
  await expect(page.getByText('Plan Name is required')).toBeVisible();
  await page.getByTestId('ehr-plan-name').fill('sunshine');
  await page.getByTestId('ehr-plan-search').click();
  const row = page.getByTestId('ehr-plan-row').first();
  await expect(row).toContainText('Sunshine Health');
  // Sunshine Health has three addresses: two shown, the third behind "+1 more".
  await expect(row.getByTestId('ehr-plan-more-addresses')).toHaveText('+1 more');
  await row.getByTestId('ehr-plan-more-addresses').hover();
  await expect(page.getByRole('tooltip')).toContainText('Tampa');
  await page.screenshot({ path: `${SHOTS}/01-plan-search.png`, fullPage: true });
  const packageId = (await row.locator('td').first().textContent())!.trim();
  await row.getByTestId('ehr-plan-choose').click();
  await expect(page.getByTestId('payer-planPackageId')).toHaveValue(packageId);
  await expect(page.getByTestId('payer-planName')).not.toHaveValue('');
  await page.getByTestId('payer-save').click();
  await expect(page.getByText('Payer created')).toBeVisible();
  const saved = await db.query('SELECT plan_package_id FROM payers WHERE plan_package_id = $1', [packageId]);
  expect(saved.rows.length).toBeGreaterThan(0);
});

test('the ITP admin retries EHR claims by case reference numbers from past cases', async ({ page }) => {
  await page.setViewportSize({ width: 1356, height: 900 });
  // A case without a failed claim: nothing to retry for it.
  const some = (
    await db.query("SELECT max(id) AS id FROM cases c WHERE NOT EXISTS (SELECT 1 FROM ehr_deliveries d WHERE d.case_id = c.id AND d.kind = 'Claim' AND d.status = 'Failed')")
  ).rows[0].id as number;
  await signIn(page, 'admin@itp.example.org');
  await page.getByTestId('nav-cases-past').click();
  await page.getByTestId('retry-ehr-claims').click();
  await page.getByTestId('retry-ehr-claims-input').fill(`${caseReference(some)}, #999999999`);
  await page.getByTestId('retry-ehr-claims-submit').click();
  const result = page.getByTestId('retry-ehr-claims-result');
  await expect(result).toContainText(`No failed claim: ${caseReference(some)}`);
  await expect(result).toContainText('Not found: #999999999');
  await page.screenshot({ path: `${SHOTS}/02-retry-claims.png`, fullPage: true });
});
