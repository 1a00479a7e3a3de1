import { readFileSync } from 'node:fs';
import { contactingCase as buildContactingCase, uniqueLetters } from '../support/cases';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { api, eventually } from '../support/api';
import { signIn as signInApi } from '../support/oidc-client';
import { DEMO_PASSWORD, signIn, expect, test } from './support';

const tokenOf = async (email: string) => (await signInApi({ email, password: DEMO_PASSWORD })).accessToken;

/** The text of a PDF through pdf-parse in a child Node process. */
function pdfText(file: string): string {
  const script = `
    const { PDFParse } = require('pdf-parse');
    const parser = new PDFParse({ data: require('fs').readFileSync(process.argv[1]) });
    parser.getText().then(async (r) => { await parser.destroy(); process.stdout.write(r.text); });`;
  return execFileSync(process.execPath, ['-e', script, file], { cwd: path.resolve(__dirname, '../integration') }).toString('utf8').replace(/\s+/g, ' ');
}

/** A male adult case moved to contacting with MentalHealthInpatient (tasks are generated then). */
async function contactingCase() {
  const itp = await tokenOf('coordinator@itp.example.org');
  const provider = await tokenOf('provider@itp.example.org');
  const providerId = (await api('GET', '/api/user/context', { token: provider })).body.id as number;
  const admin = await tokenOf('admin@itp.example.org');
  const facilities = await api('GET', `/api/facilities/lookups?q=${encodeURIComponent('Tampa Bay General')}`, { token: admin });
  const list = Array.isArray(facilities.body) ? facilities.body : facilities.body.items;
  const tampa = list.find((f: any) => f.name === 'Tampa Bay General Hospital');
  const divisions = await api('GET', `/api/facilities/${tampa.id}/divisions/lookups`, { token: admin });
  const floor = (Array.isArray(divisions.body) ? divisions.body : divisions.body.items).find((d: any) => d.name === 'Medical Floor 5 West');
  const id = await buildContactingCase({
    token: itp,
    providerToken: provider,
    facilityId: tampa.id,
    divisionId: floor.id,
    providerId,
    patient: { firstName: `Place${uniqueLetters()}` },
  });
  return { id: id as number, itp };
}

test('placements: generated tasks, add tasks, the full log with undo and its CSV / PDF exports', async ({ page }) => {
  const { id: caseId, itp } = await contactingCase();
  await signIn(page, 'coordinator@itp.example.org', `/cases/${caseId}`);
  const card = page.getByTestId('placements-card');
  await expect(card.getByTestId('placement-row').first()).toBeVisible({ timeout: 20_000 });
  await expect(card).toContainText('Sunrise Behavioral Health Hospital / Adult Inpatient Unit');
  const before = await card.getByTestId('placement-row').count();

  // Add tasks: the modal says how many; every fitting division already has a task (the first ten
  // are made on entering contacting), so none would be added and the button stays disabled.
  await card.getByRole('button', { name: 'Add tasks' }).click();
  const addDialog = page.getByRole('dialog', { name: 'Add tasks' });
  await expect(addDialog.getByTestId('add-tasks-count')).toHaveText('No further division fits this case: no task will be added.');
  await expect(addDialog.getByTestId('add-tasks-submit')).toBeDisabled();
  await addDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(addDialog).toBeHidden();
  expect(await card.getByTestId('placement-row').count()).toBe(before);

  // A call logged through the API (claim, submit, release) shows up live.
  const sunriseAdult = (await api('GET', `/api/cases/${caseId}/placements`, { token: itp })).body.tasks.find((t: any) => t.divisionName === 'Adult Inpatient Unit');
  const claim = await eventually(async () => {
    const r = await api('POST', `/api/placement-tasks/division/${sunriseAdult.divisionId}/claim`, { token: itp, body: {} });
    return r.status === 200 ? r : null;
  }, 'the division claim');
  const saved = await api('PUT', `/api/placement-tasks/claim/${claim.body.claimId}/calls`, {
    token: itp,
    body: { calls: [{ placementTaskId: sunriseAdult.id, result: 'WaitingToHearBack', spokeWith: 'Nurse E2E', note: 'E2E call note' }] },
  });
  expect(saved.status).toBe(200);
  expect((await api('PUT', `/api/placement-tasks/claim/${claim.body.claimId}/release`, { token: itp })).status).toBe(200);
  await expect(card).toContainText('Waiting To Hear Back', { timeout: 15_000 });

  // The full log: the call, undo with confirmation, crossed out.
  await card.getByRole('button', { name: 'Full log' }).click();
  const log = page.getByTestId('placement-full-log');
  const row = log.getByTestId('log-row').first();
  await expect(row).toContainText('Nurse E2E');
  await row.getByRole('button', { name: 'Undo' }).click();
  const confirm = page.getByRole('dialog', { name: 'Undo the call' });
  await expect(confirm).toContainText('Undo the Waiting To Hear Back call?');
  await confirm.getByRole('button', { name: 'Undo' }).click();
  await expect(log.getByTestId('log-row').first()).toHaveAttribute('data-undone', 'true');
  await expect(log.getByTestId('log-row').first().locator('td').first()).toHaveCSS('text-decoration-line', 'line-through');
  await expect(log.getByTestId('log-row').first().getByRole('button', { name: 'Undo' })).toHaveCount(0);

  // Exports: download both and read them.
  const [csvDownload] = await Promise.all([page.waitForEvent('download'), log.getByRole('button', { name: 'Export CSV' }).click()]);
  const csvPath = await csvDownload.path();
  const rows: string[][] = parse(readFileSync(csvPath!, 'utf8'));
  expect(rows[0][0]).toBe('Date contact');
  expect(rows[1]).toEqual(expect.arrayContaining(['Nurse E2E', 'Waiting To Hear Back', 'E2E call note', 'Yes']));
  const [pdfDownload] = await Promise.all([page.waitForEvent('download'), log.getByRole('button', { name: 'Export PDF' }).click()]);
  expect(pdfDownload.suggestedFilename()).toMatch(/^placement-log-\d{6}\.pdf$/);
  const text = pdfText((await pdfDownload.path())!);
  expect(text).toContain('Placement log');
  expect(text).toContain('E2E call note');
});
