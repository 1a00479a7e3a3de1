import { api } from '../support/api';
import { createCase } from '../support/cases';
import { signIn as signInApi } from '../support/oidc-client';
import { DEMO_PASSWORD, signIn, expect, test } from './support';

/**
 * Medical information under a claim (spec 01 §4): the coordinator opens Edit on the case page;
 * a second ITP user (the ITP admin, in another browser context) sees Edit disabled with the
 * coordinator's name; after the coordinator saves (and so releases), the admin's Edit comes back.
 */
test('an ITP user edits medical information while a second browser sees Edit disabled with his name', async ({ browser }) => {
  test.setTimeout(150_000); // two sign-ins and one claim poll (10 s) after the release
  const run = Date.now().toString(36).replace(/\d/g, '').slice(-6) || 'x';
  const facility = await signInApi({ email: 'er@tampageneral.example.org', password: DEMO_PASSWORD });
  const created = await createCase({
    token: facility.accessToken,
    patient: { firstName: `Medinfo${run}`, lastName: 'Journey', dateOfBirth: '1979-08-09' },
  });
  const caseId = created.id;
  const coordinator = await signInApi({ email: 'coordinator@itp.example.org', password: DEMO_PASSWORD });
  const me = (await api('GET', '/api/user/context', { token: coordinator.accessToken })).body;
  const coordinatorName = `${me.firstName} ${me.lastName}`.trim();

  const first = await browser.newContext({ baseURL: process.env.API_URL });
  const second = await browser.newContext({ baseURL: process.env.API_URL });
  try {
    const a = await first.newPage();
    await signIn(a, 'coordinator@itp.example.org', `/cases/${caseId}`);
    const cardA = a.getByTestId('medical-information-card');
    await expect(cardA).toBeVisible({ timeout: 30_000 });
    // The real card, not the placeholder the page showed before the card was mounted.
    await expect(cardA.getByText('Not available yet.')).toHaveCount(0);

    await cardA.getByTestId('medical-information-edit-open').click();
    const dialog = a.getByTestId('medical-information-edit');
    await expect(dialog).toBeVisible();
    await dialog.getByTestId('mi-homeMedications').fill('Lithium 300 mg');
    // Legal guardian shows the guardian fields; another status hides them.
    await dialog.getByRole('combobox', { name: 'Legal status' }).click();
    await a.getByRole('option', { name: 'Legal guardian' }).click();
    await expect(dialog.getByTestId('mi-guardianName')).toBeVisible();
    await dialog.getByTestId('mi-guardianName').fill('Jane Roe');

    const b = await second.newPage();
    await signIn(b, 'admin@itp.example.org', `/cases/${caseId}`);
    const editB = b.getByTestId('medical-information-card').getByTestId('medical-information-edit-open');
    await expect(editB).toBeVisible({ timeout: 30_000 });
    await expect(editB).toBeDisabled({ timeout: 15_000 });
    await expect(editB).toHaveAttribute('data-holder', coordinatorName);
    await expect(b.getByTestId('medical-information-holder')).toContainText(coordinatorName);

    await dialog.getByTestId('medical-information-edit-submit').click();
    await expect(dialog).toBeHidden({ timeout: 15_000 });
    await expect(cardA.getByTestId('medical-information-view')).toContainText('Lithium 300 mg');
    await expect(cardA.getByTestId('mi-legal-status')).toContainText('Jane Roe');

    // Released on save: the second browser's poll (every 10 s) enables Edit again.
    await expect(editB).toBeEnabled({ timeout: 25_000 });
  } finally {
    await first.close();
    await second.close();
  }
});
