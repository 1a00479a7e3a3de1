import { mkdirSync } from 'node:fs';
import { api } from '../support/api';
import { createCase, uniqueLetters } from '../support/cases';
import { signIn as signInApi } from '../support/oidc-client';
import { DEMO_PASSWORD, signIn, expect, test } from './support';

/**
 * The dashboards per role (spec 02 §2 /dashboard): the facility admin gives feedback from the
 * finalized-cases table, the coordinator finds a closed case with the search box and opens it, the
 * group user reads his panel.
 */
const SHOTS = '/tmp/shots-dashboards';
const tokenOf = async (email: string) => (await signInApi({ email, password: DEMO_PASSWORD })).accessToken;

/** A case of the Tampa emergency department, closed by the coordinator (Left AMA). */
async function closedCase(lastName: string) {
  const c = await createCase({ token: await tokenOf('er@tampageneral.example.org'), providerId: null, patient: { firstName: `Dash${uniqueLetters()}`, lastName } });
  const itp = await tokenOf('coordinator@itp.example.org');
  expect((await api('PUT', `/api/requests/${c.requestId}/cancel`, { token: itp, body: { reason: 'No longer needed' } })).status).toBe(200);
  expect((await api('PUT', `/api/cases/${c.id}/close`, { token: itp, body: { outcomeRequired: true, caseOutcomeType: 'LeftAMA' } })).status).toBe(200);
  return c.id;
}

test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

test('the facility admin sees a finalized case and gives feedback from the table', async ({ page }) => {
  const lastName = `Final${uniqueLetters()}`;
  const id = await closedCase(lastName);
  await page.setViewportSize({ width: 1356, height: 900 });
  await signIn(page, 'admin@tampageneral.example.org');
  const row = page.getByTestId('finalized-table').locator('tbody tr', { hasText: lastName });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Left AMA');
  await expect(row.getByTestId('finalized-patient')).toHaveAttribute('href', `/cases/${id}`);
  await expect(row.getByTestId('finalized-feedback')).toHaveText('Feedback');
  await page.getByTestId('dashboard-finalized').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/facility-admin.png`, fullPage: true });

  await row.getByTestId('finalized-feedback').click();
  await page.getByTestId('feedback-rating').locator('label', { hasText: '4 Stars' }).click();
  await page.getByTestId('feedback-note').fill('Placement went smoothly');
  await page.getByTestId('feedback-dialog-submit').click();
  await expect(page.getByText('Thank you for your feedback')).toBeVisible();
  // The row now offers to edit the feedback given.
  await expect(row.getByTestId('finalized-feedback')).toHaveText('Edit feedback');
});

test('the coordinator finds a closed case by the patient name and opens it', async ({ page }) => {
  const lastName = `Srch${uniqueLetters()}`;
  const id = await closedCase(lastName);
  await page.setViewportSize({ width: 1356, height: 900 });
  await signIn(page, 'coordinator@itp.example.org');
  await page.getByTestId('dashboard-search').fill(lastName);
  const link = page.getByTestId('dashboard-search-results').getByTestId('dashboard-search-case');
  await expect(link).toHaveCount(1);
  await expect(link).toHaveText(`#${String(id).padStart(6, '0')}`);
  await page.screenshot({ path: `${SHOTS}/coordinator.png`, fullPage: true });
  await link.click();
  await page.waitForURL((url) => url.pathname === `/cases/${id}`);
});

test('the group user sees his panel', async ({ page }) => {
  await page.setViewportSize({ width: 1356, height: 900 });
  await signIn(page, 'reviewer@nfcrb.example.org');
  await expect(page.getByTestId('group-name')).toHaveText('North Florida Crisis Review Board');
  await expect(page.getByTestId('group-area')).toHaveText('FL · Duval County, Alachua County, Leon County');
  for (const id of ['group-today', 'group-7', 'group-30']) await expect(page.getByTestId(id)).toHaveText(/^\d+$/);
  await expect(page.getByTestId('group-past-cases')).toHaveAttribute('href', '/cases/past');
  await page.screenshot({ path: `${SHOTS}/group-user.png`, fullPage: true });
});
