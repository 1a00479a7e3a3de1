import path from 'path';
import { db } from '../support/db';
import { signIn, expect, test } from './support';

const SHOTS = path.resolve(__dirname, '..', '..', '.data', 'test', 'audit-shots');

/** The audit log journey (spec 03 §2 /activity, /activity/{id}): the ITP admin sees entries and opens one. */
test('the ITP admin opens /activity, sees entries, filters, opens one and downloads the CSV', async ({ page }) => {
  await signIn(page, 'admin@itp.example.org', '/activity');
  await expect(page.getByTestId('page-title')).toHaveText('Audit log');
  // Signing in (and the seed's actions) leave entries of the last day: the default range shows them.
  const links = page.getByTestId('audit-link');
  await expect(links.first()).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('audit-total')).toContainText('found');

  // Newest first: the first row's time is not before the second's (MM/dd/yyyy hh:mm aa).
  const times = await links.allTextContents();
  expect(times[0]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2} (AM|PM)$/);

  // The CSV comes from the API as an attachment named audit-log-<date>.csv.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('audit-download-csv').click()]);
  expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);

  await links.first().click();
  await expect(page).toHaveURL(/\/activity\/\d+$/);
  await expect(page.getByTestId('audit-entry')).toBeVisible();
  await expect(page.getByTestId('audit-entry-performedAt')).toHaveText(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2} (AM|PM)$/);
  await expect(page.getByTestId('audit-entry-body')).toBeVisible();
  await expect(page.getByTestId('audit-entry-success')).toContainText(/Success|Failed/);

  // Back to the list: the entry just seen is highlighted as the last visited.
  await page.getByTestId('audit-back').click();
  await expect(page).toHaveURL(/\/activity$/);
  await expect(links.first()).toBeVisible();
});

test('a range with more than 1,000 entries says "1,000+ found" and pages on', async ({ page }) => {
  const action = `Test.Busy${Date.now()}`;
  await db.query(
    `INSERT INTO audit_log (performed_at, main_action, kind, user_name, email, success)
     SELECT now() - make_interval(secs => g), $1, 'Action', 'Busy Day', 'busy@example.org', true FROM generate_series(1, 1010) g`,
    [action],
  );
  await signIn(page, 'admin@itp.example.org', '/activity');
  await page.goto(`/activity?filter=${encodeURIComponent(JSON.stringify({ mainAction: action }))}`);
  await expect(page.getByTestId('audit-total')).toHaveText('1,000+ found', { timeout: 20_000 });
  const pager = page.getByTestId('list-pager');
  await expect(pager).toContainText('1–25 of 1,000+');
  await pager.getByRole('button', { name: 'Go to next page' }).click();
  await expect(pager).toContainText('26–50 of 1,000+');
  await page.screenshot({ path: `${SHOTS}/audit-capped.png`, fullPage: false });
});
