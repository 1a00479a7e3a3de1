import { expect, test } from '@playwright/test';
import { signIn } from './support';

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
