import { createCase } from '../support/cases';
import { signIn as signInApi } from '../support/oidc-client';
import { DEMO_PASSWORD, signIn, expect, test } from './support';

/**
 * The recommendation is part of the case, whoever edits it: the coordinator sets it from the
 * medical information, and the facility nurse who has the case page open in another browser sees
 * the decision card change without reloading (the change travels through the case workflow and
 * its live event).
 */
test('a recommendation saved from the medical information reaches the decision card of a second browser live', async ({ browser }) => {
  test.setTimeout(150_000); // two sign-ins through the identity pages
  const run = Date.now().toString(36).replace(/\d/g, '').slice(-6) || 'x';
  const facility = await signInApi({ email: 'er@tampageneral.example.org', password: DEMO_PASSWORD });
  const { id: caseId } = await createCase({
    token: facility.accessToken,
    patient: { firstName: `Decision${run}`, lastName: 'Live', dateOfBirth: '1981-02-03' },
  });
  const note = `Needs a secure unit ${run}`;

  const nurseContext = await browser.newContext({ baseURL: process.env.API_URL });
  const coordinatorContext = await browser.newContext({ baseURL: process.env.API_URL });
  try {
    const nurse = await nurseContext.newPage();
    await signIn(nurse, 'er@tampageneral.example.org', `/cases/${caseId}`);
    const decision = nurse.getByTestId('decision-card');
    await expect(decision.getByTestId('decision-none')).toBeVisible({ timeout: 30_000 });

    const coordinator = await coordinatorContext.newPage();
    await signIn(coordinator, 'coordinator@itp.example.org', `/cases/${caseId}`);
    const card = coordinator.getByTestId('medical-information-card');
    await expect(card.getByTestId('medical-information-edit-open')).toBeEnabled({ timeout: 30_000 });
    await card.getByTestId('medical-information-edit-open').click();
    const dialog = coordinator.getByTestId('medical-information-edit');
    await dialog.getByRole('combobox', { name: 'Main recommendation' }).click();
    await coordinator.getByRole('option', { name: /^mental health inpatient$/i }).click();
    await dialog.getByTestId('mi-recommendationNote').fill(note);
    await dialog.getByTestId('medical-information-edit-submit').click();
    // A changed recommendation is confirmed before it is saved (spec 01 §5).
    await coordinator.getByRole('button', { name: 'Confirm' }).click();
    await expect(dialog).toBeHidden({ timeout: 15_000 });

    // No reload on the nurse's page: the case's live event brings the new recommendation.
    await expect(decision).toContainText(note, { timeout: 15_000 });
    await expect(decision).toContainText(/mental health inpatient/i);
    await expect(decision.getByTestId('decision-none')).toHaveCount(0);
  } finally {
    await nurseContext.close();
    await coordinatorContext.close();
  }
});
