import { mkdirSync, readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { type Page } from '@playwright/test';
import { BILLING_CSV_COLUMNS, DIAGNOSTICS_CSV_COLUMNS, PAST_CASE_CSV_COLUMNS } from '@crisis/forms';
import { tampaDivisions, uniqueLetters } from '../support/cases';
import { db } from '../support/db';
import { signIn, expect, test } from './support';

/**
 * Past cases as their users work them (spec 02 §2 "Past cases"): the group user filters by county
 * and exports the CSV; the ITP admin downloads the billing and claim-diagnostics CSVs. Each file
 * is read back.
 */
const SHOTS = '/tmp/shots-past-cases';
const lastName = `Pastui${uniqueLetters()}`;
const ref = (id: number) => `#${String(id).padStart(6, '0')}`;
let duvalCase: number;
let alachuaCase: number;

/** Two closed cases of today from Tampa: one placed in Sunrise (Duval County), one in Gainesville (Alachua County), with an evaluation. */
test.beforeAll(async () => {
  const tampa = await tampaDivisions();
  const q = async (sql: string, params: unknown[] = []) => (await db.query(sql, params)).rows;
  const provider = (await q(`SELECT id FROM users WHERE email = 'provider@itp.example.org'`))[0].id;
  const code = (await q('SELECT id, code FROM billing_codes ORDER BY id LIMIT 1'))[0];
  // "Today" in the browser's zone (this machine's): up to 3 hours back, but never before midnight.
  const midnight = new Date();
  midnight.setHours(0, 0, 0, 0);
  const span = Math.min(3 * 3600, (Date.now() - midnight.getTime()) / 2000);
  const closed = async (first: string, facility: string, outcome: string) => {
    const division = (await q(`SELECT d.id FROM divisions d JOIN facilities f ON f.id = d.facility_id WHERE f.name = $1 AND d.type = 'Referring' ORDER BY d.id LIMIT 1`, [facility]))[0].id;
    const [p] = await q(`INSERT INTO patients (first_name, last_name, date_of_birth, gender, athena_patient_id) VALUES ($1, $2, '1990-02-03', 'Male', 'ATH-77') RETURNING id`, [first, lastName]);
    const [c] = await q(
      `INSERT INTO cases (patient_id, status, source_facility_id, source_division_id, created_at, closed_at, outcome_type, outcome_referring_division_id, locating_services_seconds)
       VALUES ($1, 'Closed', $2, $3, now() - make_interval(secs => $6::float8), now() - make_interval(secs => $6::float8 / 3), $4, $5, 5400) RETURNING id`,
      [p.id, tampa.facilityId, tampa.edId, outcome, division, span],
    );
    const [r] = await q(
      `INSERT INTO requests (case_id, type, status, evaluation_provider_id, completed_at) VALUES ($1, 'Assessment', 'Completed', $2, now() - make_interval(secs => $3::float8 * 2 / 3)) RETURNING id`,
      [c.id, provider, span],
    );
    await q(`INSERT INTO evaluations (request_id, primary_diagnosis, secondary_diagnoses, billing_code_ids) VALUES ($1, 'F32.9', '{F41.1}', $2)`, [r.id, [code.id]]);
    return c.id as number;
  };
  duvalCase = await closed('Dora', 'Sunrise Behavioral Health Hospital', 'Transferred_MentalHealthInpatient');
  alachuaCase = await closed('Abel', 'Gainesville Med-Psych Institute', 'Transferred_MedPsychCenter');
});

async function downloaded(page: Page, testId: string): Promise<{ name: string; rows: string[][] }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  const path = `${SHOTS}/${download.suggestedFilename()}`;
  await download.saveAs(path);
  return { name: download.suggestedFilename(), rows: parse(readFileSync(path, 'utf8')) as string[][] };
}

const rows = (page: Page) => page.getByTestId('past-table').locator('tbody tr');

test('the group user filters past cases by county and exports the CSV', async ({ page }) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'reviewer@nfcrb.example.org');
  await page.getByTestId('nav-cases-past').click();
  await expect(page).toHaveURL(/\/cases\/past$/);
  await page.getByTestId('past-search').fill(lastName);
  await expect(rows(page)).toHaveCount(2);
  // Group users read, they do not open cases: the reference is plain text.
  await expect(rows(page).first().getByTestId('past-reference').locator('a')).toHaveCount(0);
  await expect(rows(page).first().getByTestId('past-created')).toHaveAttribute('data-recency', 'today');

  await page.getByTestId('past-counties').click();
  await page.getByRole('option', { name: 'Duval County' }).click();
  await page.keyboard.press('Escape');
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText(ref(duvalCase));
  await expect(rows(page).first().getByTestId('past-outcome')).toContainText('Sunrise Behavioral Health Hospital');
  await expect(page.getByTestId('past-export-billing')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/group-user.png`, fullPage: true });

  const file = await downloaded(page, 'past-export-csv');
  expect(file.name).toBe('past-cases.csv');
  expect(file.rows[0]).toEqual([...PAST_CASE_CSV_COLUMNS]);
  expect(file.rows.slice(1).map((r) => r[1])).toEqual([ref(duvalCase)]);
  const line = Object.fromEntries(PAST_CASE_CSV_COLUMNS.map((c, i) => [c, file.rows[1][i]]));
  expect(line).toMatchObject({ 'Referring facility': 'Sunrise Behavioral Health Hospital', Outcome: 'Transferred Mental Health Inpatient', 'Locating services time': '1h 30m', Payers: 'Not provided' });
});

test('the ITP admin downloads the billing and claim-diagnostics CSVs of a search and reads them', async ({ page }) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'admin@itp.example.org');
  await page.getByTestId('nav-cases-past').click();
  await page.getByTestId('past-search').fill(lastName);
  await expect(rows(page)).toHaveCount(2);
  // ITP staff open the case from its reference.
  await expect(rows(page).first().getByRole('link', { name: /^#\d{6}$/ })).toHaveCount(1);
  await page.screenshot({ path: `${SHOTS}/itp-admin.png`, fullPage: true });

  const billing = await downloaded(page, 'past-export-billing');
  expect(billing.name).toBe('past-cases-billing.csv');
  expect(billing.rows[0]).toEqual([...BILLING_CSV_COLUMNS]);
  expect(billing.rows.slice(1).map((r) => r[0]).sort()).toEqual([ref(duvalCase), ref(alachuaCase)].sort());
  const col = (name: (typeof BILLING_CSV_COLUMNS)[number]) => BILLING_CSV_COLUMNS.indexOf(name);
  expect(billing.rows.slice(1).every((r) => r[col('Patient last name')] === lastName && r[col('EHR patient id')] === 'ATH-77' && r[col('Billing codes')] !== '')).toBe(true);

  const diagnostics = await downloaded(page, 'past-export-diagnostics');
  expect(diagnostics.name).toBe('past-cases-claim-diagnostics.csv');
  expect(diagnostics.rows[0]).toEqual([...DIAGNOSTICS_CSV_COLUMNS]);
  const code = DIAGNOSTICS_CSV_COLUMNS.indexOf('Diagnosis code');
  // Two evaluations, two diagnoses each: the primary first.
  expect(diagnostics.rows.slice(1).map((r) => r[code])).toEqual(['F32.9', 'F41.1', 'F32.9', 'F41.1']);
});
