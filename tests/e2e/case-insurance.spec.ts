import { api } from '../support/api';
import { createCase } from '../support/cases';
import { signIn as signInApi } from '../support/oidc-client';
import { DEMO_PASSWORD, signIn, expect, test } from './support';

/**
 * The insurances page /cases/{id}/insurances (spec 01 §2, §4, §5 Insurance): the facility user
 * of the emergency department opens it directly for a new case, adds insurances up to the
 * maximum of 3 (the add button disappears), reorders them, and toggles verification.
 */
test('a facility user adds, reorders and verifies insurances of a case', async ({ page }) => {
  const email = 'er@tampageneral.example.org';
  const { accessToken: token } = await signInApi({ email, password: DEMO_PASSWORD });
  const run = Date.now().toString(36).replace(/\d/g, '').toUpperCase() || 'X';
  const created = await createCase({
    token: token,
    patient: { firstName: `Ins${run}`, lastName: 'Journey', dateOfBirth: '1979-06-01', phone: '+18135550100' },
    body: { uninsured: false },
  });
  const caseId = created.id;

  await signIn(page, email, `/cases/${caseId}/insurances`);
  await expect(page.getByTestId('insurance-page')).toBeVisible();
  await expect(page.getByTestId('insurance-empty')).toBeVisible();

  const add = async (memberId: string, opts: { self?: boolean; payerIndex?: number } = {}) => {
    await page.getByTestId('insurance-add').click();
    const dialog = page.getByTestId('insurance-dialog');
    await expect(dialog).toBeVisible();
    await dialog.getByLabel('Payer *').click();
    await page.getByRole('option').filter({ hasText: /\S/ }).nth(opts.payerIndex ?? 0).click();
    await dialog.getByLabel('Insurance ID *').fill(memberId);
    if (opts.self) {
      await dialog.getByLabel('Relation to insured').click();
      await page.getByRole('option', { name: 'Self' }).click();
      // Relation Self copies the patient into the responsible party.
      await expect(dialog.getByLabel('First name')).toHaveValue(`Ins${run}`);
      await expect(dialog.getByLabel('Last name')).toHaveValue('Journey');
    }
    await page.getByTestId('insurance-dialog-save').click();
    await expect(dialog).toBeHidden();
  };

  await add('MEMBER-A', { self: true });
  await add('MEMBER-B', { payerIndex: 1 });
  await add('MEMBER-C');
  const rows = page.getByTestId('insurance-row');
  await expect(rows).toHaveCount(3);
  await expect(page.getByTestId('insurance-member-id')).toHaveText(['MEMBER-A', 'MEMBER-B', 'MEMBER-C']);
  // At 3 the add button is hidden.
  await expect(page.getByTestId('insurance-add')).toHaveCount(0);
  await expect(page.getByTestId('insurance-max')).toBeVisible();

  // Drag the third insurance onto the first row: it becomes primary.
  await rows.nth(2).getByTestId('insurance-drag').dragTo(rows.nth(0));
  await expect(page.getByTestId('insurance-member-id')).toHaveText(['MEMBER-C', 'MEMBER-A', 'MEMBER-B']);
  // And with the move buttons: B up one place.
  await rows.nth(2).getByTestId('insurance-up').click();
  await expect(page.getByTestId('insurance-member-id')).toHaveText(['MEMBER-C', 'MEMBER-B', 'MEMBER-A']);
  await page.reload();
  await expect(page.getByTestId('insurance-member-id')).toHaveText(['MEMBER-C', 'MEMBER-B', 'MEMBER-A']);
  await expect(page.getByTestId('insurance-order').first()).toHaveText('primary');

  // Verify toggles: new insurances are verified; "needs verification" and back.
  const first = page.getByTestId('insurance-row').first();
  await expect(first.getByTestId('insurance-status')).toHaveText('Verified');
  await first.getByTestId('insurance-verify').click();
  await expect(first.getByTestId('insurance-status')).toHaveText('Unverified');
  await first.getByTestId('insurance-verify').click();
  await expect(first.getByTestId('insurance-status')).toHaveText('Verified');

  const stored = await api('GET', `/api/cases/${caseId}/insurances`, { token });
  expect(stored.body.insurances.map((i: any) => i.insuranceId)).toEqual(['MEMBER-C', 'MEMBER-B', 'MEMBER-A']);
  expect(stored.body.insurances[2].responsibleParty).toMatchObject({ firstName: `Ins${run}`, lastName: 'Journey', role: 'Self' });
});
