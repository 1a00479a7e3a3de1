import { mkdirSync } from 'node:fs';
import { type Page } from '@playwright/test';
import { api, eventually } from '../support/api';
import { completeEvaluation } from '../support/cases';
import { signIn as signInApi } from '../support/oidc-client';
import { DEMO_PASSWORD, signIn, expect, test } from './support';

/**
 * The call-log journey of issue 5: two cases reach contacting through the API; in the browser
 * the coordinator claims Sunrise's Adult Inpatient Unit from the calls card (while a second
 * browser, the ITP admin, sees it claimed), logs no answer + left voicemail for both (the draft
 * survives a reload, leaving is blocked, the claim is renewed past its lease), then patient
 * accepted on one, which moves that case to waiting for confirmation. Screenshots at 1356 px.
 */
const SHOTS = '/tmp/shots-calllog';
const FACILITY = 'Sunrise Behavioral Health Hospital';
const DIVISION = 'Adult Inpatient Unit';
const tokenOf = async (email: string) => (await signInApi({ email, password: DEMO_PASSWORD })).accessToken;

async function contactingCase(name: string): Promise<number> {
  const itp = await tokenOf('coordinator@itp.example.org');
  const provider = await tokenOf('provider@itp.example.org');
  const admin = await tokenOf('admin@itp.example.org');
  const providerId = (await api('GET', '/api/user/context', { token: provider })).body.id as number;
  const facilities = await api('GET', `/api/facilities/lookups?q=${encodeURIComponent('Tampa Bay General')}`, { token: admin });
  const facility = (facilities.body as Array<{ id: number; name: string }>).find((f) => f.name === 'Tampa Bay General Hospital')!;
  const divisions = await api('GET', `/api/facilities/${facility.id}/divisions/lookups`, { token: admin });
  const floor = (divisions.body as Array<{ id: number; name: string }>).find((d) => d.name === 'Medical Floor 5 West')!;
  const created = await api('POST', '/api/cases', {
    token: itp,
    body: {
      patient: {
        firstName: name,
        lastName: 'Calllog',
        dateOfBirth: '1985-03-03',
        gender: 'Male',
        address: { streetLine: '1 Bay St', city: 'Tampa', state: 'FL', county: 'Hillsborough County', zipCode: '33606' },
      },
      sourceFacilityId: facility.id,
      sourceDivisionId: floor.id,
      contactPhoneNumber: '+18135550199',
      notificationSendingMethod: 'PhoneCall',
      requestType: 'Assessment',
      evaluationProviderId: providerId,
      patientEpicId: 'E1002', // known to the local EHR (tests/support/cases.ts)
      encounterIdentifier: 'ENC-2002',
      uninsured: true,
    },
  });
  expect(created.status).toBe(201);
  const { id, requestId } = created.body as { id: number; requestId: number };
  await completeEvaluation(provider, requestId);
  const moved = await api('PUT', `/api/cases/${id}/status`, {
    token: itp,
    body: { status: 'LocatingServices_ContactingServiceOrganization', mainRecommendation: 'MentalHealthInpatient', criteria: [], includeOutOfStateFacilities: false },
  });
  expect(moved.status).toBe(200);
  return id;
}

/** The Sunrise Adult Inpatient Unit row of the calls card (filtered by facility, any time window). */
async function sunriseRow(page: Page) {
  const card = page.getByTestId('calls-card');
  await expect(card).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('calls-card-facility-filter').fill('Sunrise');
  const within = page.getByTestId('calls-card-within-two-hours');
  if (await within.isChecked()) await within.uncheck();
  // The debounced filter has applied: only Sunrise's divisions are listed.
  await expect(card.getByTestId('calls-card-row').filter({ hasNotText: FACILITY })).toHaveCount(0, { timeout: 15_000 });
  const row = card.getByTestId('calls-card-row').filter({ hasText: FACILITY }).filter({ hasText: DIVISION });
  await expect(row).toHaveCount(1, { timeout: 15_000 });
  return row;
}

async function pick(page: Page, selectTestId: string, value: string, scope = page.locator('body')) {
  await scope.getByTestId(selectTestId).click();
  await page.locator(`li[role="option"][data-value="${value}"]`).click();
}

/** Selects exactly the rows of the given cases. */
async function selectOnly(page: Page, caseIds: number[]) {
  const rows = page.getByTestId('call-log-row');
  await expect(rows.first()).toBeVisible({ timeout: 20_000 });
  for (const row of await rows.all()) {
    const caseId = Number(await row.getAttribute('data-case-id'));
    const box = row.getByTestId('call-log-row-select');
    if (caseIds.includes(caseId)) await box.check();
    else await box.uncheck();
  }
}

test('call log: claim from the calls card, no answer + voicemail, patient accepted', async ({ browser, baseURL }) => {
  test.setTimeout(240_000);
  mkdirSync(SHOTS, { recursive: true });
  const suffix = Date.now().toString(36).replace(/\d/g, '').slice(-5) || 'x';
  const first = await contactingCase(`Alpha${suffix}`);
  const second = await contactingCase(`Bravo${suffix}`);

  const coordinatorCtx = await browser.newContext({ baseURL, viewport: { width: 1356, height: 900 } });
  const adminCtx = await browser.newContext({ baseURL, viewport: { width: 1356, height: 900 } });
  const page = await coordinatorCtx.newPage();
  const other = await adminCtx.newPage();
  page.on('dialog', (d) => void d.accept()); // the beforeunload confirmation of the reload below

  await signIn(page, 'coordinator@itp.example.org');
  await signIn(other, 'admin@itp.example.org');

  // The calls card: find the division and claim it.
  let row = await sunriseRow(page);
  await expect(row).toHaveAttribute('data-circle', /expired|active|claimed/);
  await page.getByTestId('calls-card').screenshot({ path: `${SHOTS}/calls-card.png` });
  await row.getByTestId('calls-card-claim-button').click();
  await page.waitForURL(/\/call-log\/claim\/\d+$/);
  const claimUrl = page.url();
  await expect(page.getByTestId('call-log-division')).toHaveText(`${FACILITY} / ${DIVISION}`);

  // The second browser sees the division claimed, live, and cannot claim it.
  const otherRow = await sunriseRow(other);
  await expect(otherRow.getByTestId('calls-card-claim')).toContainText('Claimed by', { timeout: 15_000 });
  await expect(otherRow).toHaveAttribute('data-circle', /claimed|expired/);
  await otherRow.getByTestId('calls-card-claim-button').click();
  await expect(other.getByTestId('calls-card-already-claimed')).toContainText('Already claimed by');
  await other.screenshot({ path: `${SHOTS}/calls-card-claimed-by-other.png`, fullPage: true });

  // No answer with left voicemail for both new cases.
  await selectOnly(page, [first, second]);
  await page.getByTestId('call-log-no-answer').click();
  await page.getByTestId('no-answer-left-voicemail').check();
  await page.getByTestId('no-answer-apply').click();
  const entries = page.getByTestId('call-log-entry');
  await expect(entries).toHaveCount(2);
  await expect(entries.first().getByTestId('call-log-result')).toHaveText('Left Voicemail');
  await expect(entries.first().getByTestId('call-log-follow-up')).toHaveText('in 1 h');
  await page.screenshot({ path: `${SHOTS}/call-log.png`, fullPage: true });

  // The draft (autosaved after 1 s) survives a reload.
  await page.waitForTimeout(2000);
  await page.reload();
  await expect(page.getByTestId('call-log-entry')).toHaveCount(2, { timeout: 20_000 });
  await expect(page.getByTestId('call-log-entry').first().getByTestId('call-log-result')).toHaveText('Left Voicemail');

  // Leaving is blocked while unsaved.
  await page.getByTestId('nav-dashboard').click();
  await expect(page.getByTestId('leave-stay')).toBeVisible();
  await page.getByTestId('leave-stay').click();
  expect(page.url()).toBe(claimUrl);

  // The claim outlives its 20 s lease while the page renews it.
  await page.waitForTimeout(25_000);
  await page.getByTestId('call-log-save').click();
  await expect(page.getByText('Call log saved')).toBeVisible({ timeout: 15_000 });
  await page.waitForURL((u) => u.pathname === '/dashboard');

  // Claim again: patient accepted (spoke with, accept grid adult male) on the first case.
  row = await sunriseRow(page);
  await row.click();
  await page.waitForURL(/\/call-log\/claim\/\d+$/);
  await selectOnly(page, [first]);
  const entry = page.getByTestId('call-log-entry');
  await expect(entry).toHaveCount(1);
  await pick(page, 'call-log-result', 'PatientAccepted', entry);
  await entry.getByTestId('call-log-spoke-with').fill('Intake nurse Lee');
  await entry.getByTestId('accept-male-adult').check();
  await expect(entry.getByTestId('accept-male-adolescent')).toBeDisabled();
  await entry.getByTestId('call-log-note').click();
  await page.getByTestId('note-dialog-text').fill('   ');
  await page.getByTestId('note-dialog-save').click();
  await expect(page.getByTestId('note-dialog')).toContainText('Required');
  await page.getByTestId('note-dialog-text').fill('  Bed 12 ready  ');
  await page.getByTestId('note-dialog-save').click();
  await expect(entry.getByTestId('call-log-note-text')).toHaveText('Bed 12 ready');
  await expect(page.getByTestId('note-dialog')).toBeHidden();
  await page.screenshot({ path: `${SHOTS}/call-log-accepted.png`, fullPage: true });
  await page.getByTestId('call-log-save').click();
  await expect(page.getByText('Call log saved')).toBeVisible({ timeout: 15_000 });
  await page.waitForURL((u) => u.pathname === '/dashboard');

  const token = await tokenOf('coordinator@itp.example.org');
  await eventually(async () => (await api('GET', `/api/cases/${first}`, { token })).body?.status === 'ServicesLocated_WaitingForConfirmation', 'case waiting for confirmation', 20_000);
  await page.goto(`/cases/${first}`);
  await expect(page.getByTestId('case-status-chip')).toContainText(/Waiting for confirmation/i, { timeout: 20_000 });
  await page.screenshot({ path: `${SHOTS}/case-accepted.png`, fullPage: true });

  // The second case still contacting, with its voicemail logged.
  expect((await api('GET', `/api/cases/${second}`, { token })).body.status).toBe('LocatingServices_ContactingServiceOrganization');
  const log = await api('GET', `/api/placement-tasks/log/${second}`, { token });
  expect((log.body as Array<{ result: string }>).map((r) => r.result)).toContain('LeftVoicemail');

  // A claim that lapses (released elsewhere): renewal stops, the user is told and leaves.
  await page.goto('/dashboard');
  row = await sunriseRow(page);
  await row.click();
  await page.waitForURL(/\/call-log\/claim\/\d+$/);
  const claimId = Number(/claim\/(\d+)$/.exec(page.url())![1]);
  await expect(page.getByTestId('call-log-row').first()).toBeVisible({ timeout: 20_000 });
  expect((await api('PUT', `/api/placement-tasks/claim/${claimId}/release`, { token })).status).toBe(200);
  await expect(page.getByTestId('call-log-message')).toContainText('The claim has expired', { timeout: 20_000 });
  await page.getByTestId('call-log-message-ok').click();
  await page.waitForURL((u) => u.pathname === '/dashboard');

  await coordinatorCtx.close();
  await adminCtx.close();
});
