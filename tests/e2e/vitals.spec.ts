import { createCase } from '../support/cases';
import { db } from '../support/db';
import { signIn as signInApi } from '../support/oidc-client';
import { DEMO_PASSWORD, signIn, expect, test } from './support';

/**
 * Vitals (spec 01 §3, §5): the ER nurse types the oxygen saturation in percent; it travels and is
 * kept as a fraction (97 % → 0.97) and shows as 97 % again; 101 % is refused in percent words.
 */
test('the ER user adds vitals with the oxygen saturation in percent', async ({ page }) => {
  const run = Date.now().toString(36).replace(/\d/g, '').slice(-6) || 'x';
  const facility = await signInApi({ email: 'er@tampageneral.example.org', password: DEMO_PASSWORD });
  const created = await createCase({ token: facility.accessToken, patient: { firstName: `Vitals${run}`, lastName: 'Journey', dateOfBirth: '1981-02-03' } });

  await signIn(page, 'er@tampageneral.example.org', `/cases/${created.id}`);
  const card = page.getByTestId('vitals-card');
  await expect(card).toBeVisible({ timeout: 30_000 });
  await card.getByTestId('vitals-add').click();
  const dialog = page.getByTestId('vitals-dialog');
  await dialog.getByTestId('vitals-pulse').fill('82');
  await dialog.getByTestId('vitals-oxygenSaturation').fill('101');
  await dialog.getByTestId('vitals-dialog-submit').click();
  await expect(dialog).toContainText('Must be at most 100 %');
  await dialog.getByTestId('vitals-oxygenSaturation').fill('97');
  await dialog.getByTestId('vitals-dialog-submit').click();
  await expect(dialog).toBeHidden({ timeout: 15_000 });
  await expect(card.getByTestId('vitals-row').first()).toContainText('97%');
  const stored = await db.query('SELECT oxygen_saturation::text AS o FROM vitals WHERE case_id = $1', [created.id]);
  expect(stored.rows).toEqual([{ o: '0.9700' }]);
});
