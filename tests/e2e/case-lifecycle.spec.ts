import { mkdirSync } from 'node:fs';
import { completeEvaluation, createCase, uniqueLetters } from '../support/cases';
import { type Page } from '@playwright/test';
import { api } from '../support/api';
import { signIn as signInApi } from '../support/oidc-client';
import { DEMO_PASSWORD, signIn, expect, test } from './support';

const tokenOf = async (email: string) => (await signInApi({ email, password: DEMO_PASSWORD })).accessToken;

/**
 * The case page journey (spec 01 §2, §4): a coordinator walks a case through OnHold, resume,
 * contacting, close with outcome and facility, and reopen, while a second browser (the ITP
 * admin) sees every change live. Screenshots of the page for three roles at 1356 px.
 */
const SHOTS = '/tmp/shots-casepage';

async function newCaseInRecommendationReview() {
  const c = await newItpCase();
  await completeEvaluation(await tokenOf('provider@itp.example.org'), c.requestId);
  return c;
}

/** A case made by the coordinator on Tampa's medical floor, its Assessment assigned to provider@itp. */
async function newItpCase() {
  const provider = await tokenOf('provider@itp.example.org');
  const ctx = await api('GET', '/api/user/context', { token: provider });
  const tampa = await findTampa();
  const c = await createCase({
    token: await tokenOf('coordinator@itp.example.org'),
    facilityId: tampa.facilityId,
    divisionId: tampa.floorId,
    providerId: ctx.body.id as number,
    patient: { firstName: `Journey${uniqueLetters()}`, lastName: 'Lifecycle', dateOfBirth: '1988-03-09', gender: 'Female' },
  });
  return { id: c.id, requestId: c.requestId };
}

async function findTampa() {
  // Tampa Bay General's divisions through the facilities API (the ITP admin reads facilities).
  const admin = await tokenOf('admin@itp.example.org');
  const facilities = await api('GET', `/api/facilities/lookups?q=${encodeURIComponent('Tampa Bay General')}`, { token: admin });
  const facility = (facilities.body as Array<{ id: number; name: string }>).find((f) => f.name === 'Tampa Bay General Hospital')!;
  const divisions = await api('GET', `/api/facilities/${facility.id}/divisions/lookups`, { token: admin });
  const floor = (divisions.body as Array<{ id: number; name: string }>).find((d) => d.name === 'Medical Floor 5 West')!;
  return { facilityId: facility.id, floorId: floor.id };
}

async function pick(page: Page, selectTestId: string, value: string) {
  await page.getByTestId(selectTestId).click();
  await page.locator(`li[role="option"][data-value="${value}"]`).click();
}

async function pickByText(page: Page, selectTestId: string, text: string) {
  await page.getByTestId(selectTestId).click();
  await page.getByRole('option', { name: text, exact: true }).click();
}

const chip = (page: Page) => page.getByTestId('case-status-chip');

test('a coordinator walks a case from OnHold to closed and reopened; another user sees it live', async ({ browser }) => {
  test.setTimeout(180_000);
  mkdirSync(SHOTS, { recursive: true });
  const c = await newCaseInRecommendationReview();

  const coordinatorContext = await browser.newContext({ viewport: { width: 1356, height: 1000 } });
  const page = await coordinatorContext.newPage();
  await signIn(page, 'coordinator@itp.example.org');
  await page.goto(`/cases/${c.id}`);
  await expect(page.getByTestId('page-title')).toHaveText(`Case #${String(c.id).padStart(6, '0')}`);
  await expect(chip(page)).toHaveText('Recommendation Review: Waiting On Decision');
  await expect(page.getByTestId('placements-card')).toBeVisible();

  const adminContext = await browser.newContext({ viewport: { width: 1356, height: 1000 } });
  const watcher = await adminContext.newPage();
  await signIn(watcher, 'admin@itp.example.org');
  await watcher.goto(`/cases/${c.id}`);
  await expect(chip(watcher)).toHaveText('Recommendation Review: Waiting On Decision');
  await page.screenshot({ path: `${SHOTS}/itp-case-page.png`, fullPage: true });

  // OnHold needs a note: the schema's message shows on the field.
  await pick(page, 'status-select', 'OnHold_MissingDocumentation');
  const noteDialog = page.getByTestId('status-note-dialog');
  await noteDialog.getByTestId('status-note-dialog-submit').click();
  await expect(noteDialog).toContainText('required');
  await noteDialog.getByTestId('status-note').fill('Waiting for the labs.');
  await noteDialog.getByTestId('status-note-dialog-submit').click();
  await expect(chip(page)).toHaveText('On Hold: Missing Documentation');
  // The second browser follows without reloading.
  await expect(chip(watcher)).toHaveText('On Hold: Missing Documentation', { timeout: 15_000 });
  await expect(page.getByTestId('activity-row').first()).toContainText('On Hold: Missing Documentation');

  // Undo the change: the undone row is struck through; then put the case on hold again.
  await page.getByTestId('case-undo').click();
  await page.getByTestId('status-confirm-confirm').click();
  await expect(chip(page)).toHaveText('Recommendation Review: Waiting On Decision');
  await expect(page.locator('[data-testid="activity-row"][data-undone="true"]')).toHaveCount(1);
  await pick(page, 'status-select', 'OnHold_MissingDocumentation');
  await page.getByTestId('status-note').fill('Still waiting for the labs.');
  await page.getByTestId('status-note-dialog-submit').click();
  await expect(chip(page)).toHaveText('On Hold: Missing Documentation');

  // Resume: the confirmation shows the status the case returns to.
  await page.getByTestId('case-resume').click();
  await expect(page.getByTestId('status-confirm-new-status')).toHaveText('Recommendation Review: Waiting On Decision');
  await page.getByTestId('status-confirm-confirm').click();
  await expect(chip(page)).toHaveText('Recommendation Review: Waiting On Decision');
  await expect(chip(watcher)).toHaveText('Recommendation Review: Waiting On Decision', { timeout: 15_000 });

  // Contacting: recommendation, criteria, out-of-state (required).
  await pick(page, 'status-select', 'LocatingServices_ContactingServiceOrganization');
  const contacting = page.getByTestId('contacting-dialog');
  await pick(page, 'contacting-recommendation', 'MentalHealthInpatient');
  await contacting.getByTestId('contacting-dialog-submit').click();
  await expect(contacting.getByTestId('contacting-out-of-state')).toContainText('required');
  await contacting.getByTestId('criterion-HighAcuity').check();
  await contacting.getByTestId('contacting-note').fill('Inpatient, high acuity.');
  await contacting.getByTestId('out-of-state-no').check();
  await contacting.getByTestId('contacting-dialog-submit').click();
  await expect(chip(page)).toHaveText('Locating Services: Contacting Service Organization');
  await expect(chip(watcher)).toHaveText('Locating Services: Contacting Service Organization', { timeout: 15_000 });

  // Close with an outcome that names the receiving facility.
  await pick(page, 'status-select', 'Closed');
  const outcome = page.getByTestId('outcome-dialog');
  await pick(page, 'outcome-type', 'Transferred_MentalHealthInpatient');
  await outcome.getByTestId('outcome-dialog-submit').click();
  await expect(outcome).toContainText('required');
  await pickByText(page, 'outcome-division', 'Sunrise Behavioral Health Hospital — Adult Inpatient Unit');
  await outcome.getByTestId('outcome-dialog-submit').click();
  await expect(chip(page)).toHaveText('Closed');
  await expect(page.getByTestId('case-closed-banner')).toContainText('Sunrise Behavioral Health Hospital');
  await expect(chip(watcher)).toHaveText('Closed', { timeout: 15_000 });
  await expect(watcher.getByTestId('case-closed-banner')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/itp-case-page-closed.png`, fullPage: true });

  // Reopen: the confirmation shows the status the case returns to.
  await page.getByTestId('case-reopen').click();
  await expect(page.getByTestId('status-confirm-new-status')).toHaveText('Locating Services: Contacting Service Organization');
  await page.getByTestId('status-confirm-confirm').click();
  await expect(chip(page)).toHaveText('Locating Services: Contacting Service Organization');
  await expect(page.getByTestId('case-closed-banner')).toHaveCount(0);
  await expect(chip(watcher)).toHaveText('Locating Services: Contacting Service Organization', { timeout: 15_000 });

  await coordinatorContext.close();
  await adminContext.close();
});

test('the facility user and the provider get their own layouts; unknown cases show page not found', async ({ browser }) => {
  test.setTimeout(120_000);
  mkdirSync(SHOTS, { recursive: true });
  const c = await newCaseInRecommendationReview();

  const providerContext = await browser.newContext({ viewport: { width: 1356, height: 1000 } });
  const provider = await providerContext.newPage();
  await signIn(provider, 'provider@itp.example.org');
  await provider.goto(`/cases/${c.id}`);
  // Read-only status: the header chip, no selector.
  await expect(provider.getByTestId('case-status-chip')).toHaveText('Recommendation Review: Waiting On Decision');
  await expect(provider.getByTestId('status-control')).toHaveCount(0);
  await expect(provider.getByTestId('requests-card')).toBeVisible();
  await expect(provider.getByTestId('placements-card')).toHaveCount(0);
  await expect(provider.getByTestId('case-activity-card')).toHaveCount(0);

  // Opening a case with his Pending request moves it to InProgress; then he starts the evaluation.
  const pending = await newItpCase();
  await provider.goto(`/cases/${pending.id}`);
  const row = provider.getByTestId(`request-row-${pending.requestId}`);
  await expect(row.getByTestId('request-status')).toHaveText('In Progress');
  await expect(row.getByTestId('request-not-ready')).toBeVisible();
  await provider.screenshot({ path: `${SHOTS}/provider-case-page.png`, fullPage: true });
  await row.getByTestId('request-evaluation').click();
  await provider.waitForURL(`**/cases/${pending.id}/requests/${pending.requestId}/evaluation`);
  await expect(provider.getByTestId('evaluation-page')).toHaveAttribute('data-mode', 'new');
  await provider.goto('/cases/99999999');
  await expect(provider.getByTestId('page-not-found')).toBeVisible();
  await providerContext.close();

  // A Tampa emergency-department user: a case of his own division.
  const facilityToken = await tokenOf('er@tampageneral.example.org');
  const created = await api('POST', '/api/cases', {
    token: facilityToken,
    body: {
      patient: {
        firstName: `Facility${Date.now().toString(36).replace(/\d/g, '').slice(-5)}`,
        lastName: 'Layout',
        dateOfBirth: '1979-11-02',
        gender: 'Male',
        address: { streetLine: '2 Bay St', city: 'Tampa', state: 'FL', county: 'Hillsborough County', zipCode: '33606' },
      },
      contactPhoneNumber: '+18135550102',
      notificationSendingMethod: 'SMS',
      requestType: 'Assessment',
      patientEpicId: 'E1002',
      encounterIdentifier: 'ENC-2002',
      uninsured: true,
    },
  });
  expect(created.status).toBe(201);
  const facilityContext = await browser.newContext({ viewport: { width: 1356, height: 1000 } });
  const facility = await facilityContext.newPage();
  await signIn(facility, 'er@tampageneral.example.org');
  await facility.goto(`/cases/${created.body.id}`);
  await expect(facility.getByTestId('case-status-chip')).toBeVisible();
  await expect(facility.getByTestId('status-control')).toHaveCount(0);
  await expect(facility.getByTestId('decision-card')).toBeVisible();
  await expect(facility.getByTestId('case-activity-card')).toHaveCount(0);
  await facility.screenshot({ path: `${SHOTS}/facility-case-page.png`, fullPage: true });
  // Another facility's case is out of scope.
  await facility.goto(`/cases/${c.id}`);
  await expect(facility.getByTestId('access-denied')).toBeVisible();
  await facilityContext.close();
});
