import { mkdirSync } from 'node:fs';
import { contactingCase as buildContactingCase, uniqueLetters } from '../support/cases';
import { api, eventually } from '../support/api';
import { db } from '../support/db';
import { uploadForm } from '../support/files';
import { createCase } from '../support/cases';
import { signIn as signInApi } from '../support/oidc-client';
import { DEMO_PASSWORD, signIn, expect, test } from './support';

/**
 * Placement rows of spec 02 §2 and §7 as a user sees them: the add-tasks modal tells how many
 * tasks it adds, tasks that will not accept (no callback) leave the placements unless included,
 * facility staff open the placement log (paged by 10) from the case page, and the call log tells
 * of the claimed division: its description, its phones with extensions, its ages, genders and flags.
 */
const SHOTS = '/tmp/shots-placement-rows';
const tokenOf = async (email: string) => (await signInApi({ email, password: DEMO_PASSWORD })).accessToken;

async function contactingCase() {
  const itp = await tokenOf('coordinator@itp.example.org');
  const provider = await tokenOf('provider@itp.example.org');
  const providerId = (await api('GET', '/api/user/context', { token: provider })).body.id as number;
  const d = await db.query(
    `SELECT f.id AS facility, d.id AS division FROM facilities f JOIN divisions d ON d.facility_id = f.id
      WHERE f.name = 'Tampa Bay General Hospital' AND d.name = 'Medical Floor 5 West'`,
  );
  const id = await buildContactingCase({
    token: itp,
    providerToken: provider,
    facilityId: d.rows[0].facility,
    divisionId: d.rows[0].division,
    providerId,
    patient: { firstName: `Rows${uniqueLetters()}` },
  });
  return { id: id as number, itp };
}

const divisionId = async (facility: string, division: string) =>
  (await db.query('SELECT d.id FROM divisions d JOIN facilities f ON f.id = d.facility_id WHERE f.name = $1 AND d.name = $2', [facility, division])).rows[0].id as number;

/** Claims the division, logs the calls one submission at a time, releases. */
async function logCalls(token: string, division: number, calls: unknown[][]) {
  for (const batch of calls) {
    const claim = await eventually(async () => {
      const r = await api('POST', `/api/placement-tasks/division/${division}/claim`, { token, body: {} });
      return r.status === 200 ? r : null;
    }, 'the division claim');
    const saved = await api('PUT', `/api/placement-tasks/claim/${claim.body.claimId}/calls`, { token, body: { calls: batch } });
    expect(saved.status).toBe(200);
    expect((await api('PUT', `/api/placement-tasks/claim/${claim.body.claimId}/release`, { token })).status).toBe(200);
  }
}

test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

test('placement rows: the add-tasks modal says how many tasks it adds', async ({ page }) => {
  const { id: caseId, itp } = await contactingCase();
  // Every fitting division got a task on entering contacting: one more division (the seed's closed
  // Ocala unit, opened for this test) is the one task "add tasks" can add.
  const ocala = await divisionId('Ocala Behavioral Health (closed)', 'Adult Inpatient Unit');
  await db.query('UPDATE divisions SET is_active = true WHERE id = $1', [ocala]);
  await db.query('UPDATE facilities SET is_active = true WHERE id = (SELECT facility_id FROM divisions WHERE id = $1)', [ocala]);
  try {
    await addOne(page, caseId, itp);
  } finally {
    await db.query('UPDATE divisions SET is_active = false WHERE id = $1', [ocala]);
    await db.query('UPDATE facilities SET is_active = false WHERE id = (SELECT facility_id FROM divisions WHERE id = $1)', [ocala]);
  }
});

async function addOne(page: import('@playwright/test').Page, caseId: number, itp: string) {
  const expected = (await api('GET', `/api/cases/${caseId}/placements`, { token: itp })).body.addTasksCount as number;
  expect(expected).toBe(1);
  await signIn(page, 'coordinator@itp.example.org', `/cases/${caseId}`);
  const card = page.getByTestId('placements-card');
  await expect(card.getByTestId('placement-row').first()).toBeVisible({ timeout: 20_000 });
  const before = await card.getByTestId('placement-row').count();
  await page.getByTestId('placements-add-tasks').click();
  const dialog = page.getByRole('dialog', { name: 'Add tasks' });
  await expect(dialog.getByTestId('add-tasks-count')).toHaveText(
    `${expected} ${expected === 1 ? 'task' : 'tasks'} will be added for the best-fitting divisions not yet in the list (at most 5).`,
  );
  await dialog.screenshot({ path: `${SHOTS}/add-tasks.png`, animations: 'disabled' });
  await dialog.getByTestId('add-tasks-submit').click();
  await expect(dialog).toBeHidden();
  await expect.poll(async () => card.getByTestId('placement-row').count(), { timeout: 15_000 }).toBe(before + expected);
  await expect(card).toContainText('Ocala Behavioral Health (closed) / Adult Inpatient Unit');
}

test('placement rows: tasks that will not accept, with no callback, leave the placements unless included', async ({ page }) => {
  const { id: caseId, itp } = await contactingCase();
  const sunriseAdult = await divisionId('Sunrise Behavioral Health Hospital', 'Adult Inpatient Unit');
  const task = (await api('GET', `/api/cases/${caseId}/placements`, { token: itp })).body.tasks.find((t: any) => t.divisionId === sunriseAdult);
  await logCalls(itp, sunriseAdult, [[{ placementTaskId: task.id, result: 'WillNotAccept', spokeWith: 'Charge nurse' }]]);
  await signIn(page, 'coordinator@itp.example.org', `/cases/${caseId}`);
  const card = page.getByTestId('placements-card');
  await expect(card.getByTestId('placement-row').first()).toBeVisible({ timeout: 20_000 });
  const sunrise = card.getByTestId('placement-row').filter({ hasText: 'Sunrise Behavioral Health Hospital / Adult Inpatient Unit' });
  await expect(sunrise).toHaveCount(0);
  const include = page.getByTestId('placements-include-will-not-accept');
  await expect(card).toContainText('1 hidden');
  await include.check();
  await expect(sunrise).toHaveCount(1);
  await expect(sunrise).toContainText('Will Not Accept');
  await card.screenshot({ path: `${SHOTS}/will-not-accept-included.png`, animations: 'disabled' });
});

test('placement rows: facility staff open the placement log from the case page, 10 calls a page', async ({ page }) => {
  const { id: caseId, itp } = await contactingCase();
  const sunriseAdult = await divisionId('Sunrise Behavioral Health Hospital', 'Adult Inpatient Unit');
  const task = (await api('GET', `/api/cases/${caseId}/placements`, { token: itp })).body.tasks.find((t: any) => t.divisionId === sunriseAdult);
  await logCalls(itp, sunriseAdult, Array.from({ length: 11 }, (_x, i) => [{ placementTaskId: task.id, result: 'NoAnswer', note: `Attempt ${i + 1}` }]));

  await signIn(page, 'admin@tampageneral.example.org', `/cases/${caseId}`);
  await page.getByTestId('case-placement-log').click();
  const log = page.getByTestId('placement-full-log');
  await expect(log.getByTestId('log-row')).toHaveCount(10, { timeout: 15_000 });
  await expect(log.getByTestId('log-row').first()).toContainText('No Answer');
  await expect(log).toContainText('1–10 of 11');
  // Facility staff read it: export yes, undo no.
  await expect(log.getByRole('button', { name: 'Export CSV' })).toBeVisible();
  await expect(log.getByRole('button', { name: 'Undo' })).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/facility-placement-log.png`, animations: 'disabled' });
  await log.getByRole('button', { name: 'Go to next page' }).click();
  await expect(log.getByTestId('log-row')).toHaveCount(1);
  // A search from before 01/01/1902 is refused on the screen as the server would.
  await log.getByTestId('log-from').fill('1901-12-31');
  await expect(log).toContainText('From must not be before 01/01/1902');
});

test('placement rows: the call log tells of the claimed division (description, extensions, ages, genders, flags)', async ({ page }) => {
  const senior = await divisionId('Sunrise Behavioral Health Hospital', 'Senior Care Unit');
  const saved = (await db.query('SELECT contacts, description, veteran_only FROM divisions WHERE id = $1', [senior])).rows[0];
  await db.query(
    `UPDATE divisions SET description = 'Locked geriatric unit; ask for the charge nurse.', veteran_only = true,
            contacts = contacts || '{"phone1Ext": "214", "phone2": "+19045550199"}'::jsonb WHERE id = $1`,
    [senior],
  );
  try {
    await signIn(page, 'coordinator@itp.example.org');
    const token = await tokenOf('coordinator@itp.example.org');
    const claim = await eventually(async () => {
      const r = await api('POST', `/api/placement-tasks/division/${senior}/claim`, { token, body: {} });
      return r.status === 200 ? r : null;
    }, 'the division claim');
    // The claim is the browser's user's too (same account): the page renews and releases it.
    await page.goto(`/call-log/claim/${claim.body.claimId}`);
    const header = page.getByTestId('call-log-header');
    await expect(header.getByTestId('call-log-description')).toHaveText('Locked geriatric unit; ask for the charge nurse.', { timeout: 20_000 });
    await expect(header.getByTestId('call-log-contact').first()).toHaveText('Phone: (904) 555-0104 ext. 214');
    await expect(header).toContainText('Phone: (904) 555-0199');
    await expect(header).not.toContainText('Phone: 214');
    const facts = header.getByTestId('call-log-fact');
    await expect(facts).toContainText(['Geriatric 55–110', 'Female, Male', 'Veterans only']);
    await header.screenshot({ path: `${SHOTS}/call-log-header.png`, animations: 'disabled' });
    await page.getByTestId('call-log-cancel').click();
    await page.waitForURL(/\/dashboard$/);
  } finally {
    await db.query('UPDATE divisions SET contacts = $2, description = $3, veteran_only = $4 WHERE id = $1', [senior, saved.contacts, saved.description, saved.veteran_only]);
  }
});

test('case page: a referring facility user reads the requests of a case her division has access to', async ({ page }) => {
  const { id: caseId, itp } = await contactingCase();
  const sunriseAdult = await divisionId('Sunrise Behavioral Health Hospital', 'Adult Inpatient Unit');
  const task = (await api('GET', `/api/cases/${caseId}/placements`, { token: itp })).body.tasks.find((t: any) => t.divisionId === sunriseAdult);
  // Granted access opens the case to the referring division.
  await logCalls(itp, sunriseAdult, [[{ placementTaskId: task.id, result: 'GrantedAccess', spokeWith: 'Intake nurse' }]]);
  await signIn(page, 'intake@sunrisebehavioral.example.org', `/cases/${caseId}`);
  const card = page.getByTestId('requests-card');
  await expect(card).toBeVisible({ timeout: 20_000 });
  const row = card.locator('tr[data-testid^="request-row-"]');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Assessment');
  await expect(row).toContainText('Completed');
  // Fewer columns and no actions: no notes, no new / edit / cancel.
  await expect(card.locator('th')).toHaveText(['Type', 'Status', 'Provider', 'Created']);
  await expect(card.getByTestId('request-new')).toHaveCount(0);
  await expect(card.getByTestId('request-edit')).toHaveCount(0);
  await expect(card.getByTestId('request-cancel')).toHaveCount(0);
  // The calls made to other facilities are not the referring division's to read.
  await expect(page.getByTestId('case-placement-log')).toHaveCount(0);
  const intake = await tokenOf('intake@sunrisebehavioral.example.org');
  expect((await api('GET', `/api/placement-tasks/log/${caseId}`, { token: intake })).status).toBe(403);
  expect((await api('GET', `/api/cases/${caseId}`, { token: intake })).status).toBe(200);
  await page.screenshot({ path: `${SHOTS}/referring-requests.png`, fullPage: true, animations: 'disabled' });
});

test('case page: a facility user edits and removes only the files she submitted', async ({ page }) => {
  const er = await tokenOf('er@tampageneral.example.org');
  const itp = await tokenOf('coordinator@itp.example.org');
  const c = await createCase({ token: er, patient: { firstName: `Files${uniqueLetters()}` } });
  const pdf = (text: string) => new TextEncoder().encode(`%PDF-1.4\n1 0 obj <</Type /Catalog>> endobj\n% ${text}\ntrailer <</Root 1 0 R>>\n%%EOF\n`);
  const up = async (token: string, name: string) => {
    const r = await uploadForm(`/api/cases/${c.id}/files`, token, { content: pdf(name), name, type: 'application/pdf' });
    expect(r.status).toBe(201);
  };
  await up(er, 'Her discharge.pdf');
  await up(itp, 'ITP labs.pdf');

  await signIn(page, 'er@tampageneral.example.org', `/cases/${c.id}`);
  const rows = page.getByTestId('files-card').getByTestId('file-row');
  await expect(rows).toHaveCount(2, { timeout: 20_000 });
  const hers = rows.filter({ hasText: 'Her discharge' });
  const theirs = rows.filter({ hasText: 'ITP labs' });
  await expect(hers.getByTestId('file-edit')).toBeVisible();
  await expect(hers.getByTestId('file-remove')).toBeVisible();
  await expect(theirs.getByTestId('file-edit')).toHaveCount(0);
  await expect(theirs.getByTestId('file-remove')).toHaveCount(0);
  await page.getByTestId('files-card').screenshot({ path: `${SHOTS}/files-own-only.png`, animations: 'disabled' });
  await hers.getByTestId('file-remove').click();
  await page.getByTestId('file-remove-dialog-confirm').click();
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText('ITP labs');
});

test('case page: the assigned provider lists the inpatient facilities nearby, nearest first, in miles', async ({ page }) => {
  const itp = await tokenOf('coordinator@itp.example.org');
  const provider = await tokenOf('provider@itp.example.org');
  const providerId = (await api('GET', '/api/user/context', { token: provider })).body.id as number;
  const d = await db.query(
    `SELECT f.id AS facility, d.id AS division FROM facilities f JOIN divisions d ON d.facility_id = f.id
      WHERE f.name = 'Tampa Bay General Hospital' AND d.name = 'Medical Floor 5 West'`,
  );
  const c = await createCase({ token: itp, facilityId: d.rows[0].facility, divisionId: d.rows[0].division, providerId, patient: { firstName: `Near${uniqueLetters()}` } });
  const inpatient = Number(
    (await db.query(`SELECT count(*) FROM divisions d JOIN facilities f ON f.id = d.facility_id
                      WHERE d.type = 'Referring' AND d.referring_type = 'MentalHealthInpatient' AND d.is_active AND f.is_active`)).rows[0].count,
  );

  await signIn(page, 'provider@itp.example.org', `/cases/${c.id}`);
  await page.getByTestId('request-inpatient-nearby').click();
  const dialog = page.getByTestId('inpatient-nearby-dialog');
  const rows = dialog.getByTestId('inpatient-nearby-row');
  await expect(rows).toHaveCount(Math.min(inpatient, 20), { timeout: 15_000 });
  await expect(dialog).toContainText('Sunrise Behavioral Health Hospital / Adult Inpatient Unit');
  const miles = (await rows.locator('td:last-child').allTextContents()).map((t) => {
    expect(t).toMatch(/^\d+\.\d mi$/);
    return Number.parseFloat(t);
  });
  expect(miles).toEqual([...miles].sort((a, b) => a - b));
  await dialog.screenshot({ path: `${SHOTS}/inpatient-nearby.png`, animations: 'disabled' });

});

test('insurance form: a facility user looks the payer up by plan name', async ({ page }) => {
  const email = 'er@tampageneral.example.org';
  const er = await tokenOf(email);
  const c = await createCase({ token: er, patient: { firstName: `Plan${uniqueLetters()}` }, body: { uninsured: false } });
  await signIn(page, email, `/cases/${c.id}/insurances`);
  await page.getByTestId('insurance-add').click();
  const dialog = page.getByTestId('insurance-dialog');
  await dialog.getByTestId('insurance-plan-lookup').click();
  const lookup = page.getByTestId('payer-lookup-dialog');
  // The plan name is required, as the server says.
  await lookup.getByTestId('payer-lookup-search').click();
  await expect(lookup).toContainText('Plan Name is required');
  await lookup.getByTestId('payer-lookup-plan').fill('gold plus');
  await lookup.getByTestId('payer-lookup-search').click();
  const result = lookup.getByTestId('payer-lookup-result');
  await expect(result).toHaveCount(1);
  await expect(result).toContainText('Humana Gold Plus HMO — Humana');
  await expect(result).toContainText('500 W Main St, Louisville, KY 40202');
  await lookup.screenshot({ path: `${SHOTS}/payer-lookup.png`, animations: 'disabled' });
  await result.click();
  await expect(lookup).toBeHidden();
  await expect(dialog.getByLabel('Payer *')).toHaveText('Humana');
  await dialog.getByLabel('Insurance ID *').fill('HUM-1');
  await page.getByTestId('insurance-dialog-save').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('insurance-row')).toContainText('Humana');
});
