import { mkdirSync } from 'node:fs';
import { type Page } from '@playwright/test';
import { isQuestion, type QuestionItem, type QuestionnaireItem } from '@crisis/forms';
import { api } from '../support/api';
import { createCase, startContacting, tampaDivisions, uniqueLetters } from '../support/cases';
import { db } from '../support/db';
import { download, pdfText } from '../support/files';
import { signIn as signInApi } from '../support/oidc-client';
import { DEMO_PASSWORD, signIn, expect, test } from './support';

/**
 * The evaluation journey (spec 02 §2 "Evaluation screen", "Evaluation forms list", "Questionnaire
 * item editor (modal) and preview modal", §4, §5): the ITP admin builds a form with a conditional
 * required question in the editor, previews it, and gives it to Tampa's assessments; the provider
 * starts the evaluation, fills it (the autosave and the tab's draft survive a reload), is refused
 * completion while the conditional answer is missing, completes; the coordinator sees the
 * recommendation; the provider edits with a reason and the change log shows it; the case PDF
 * carries the answers. Screenshots of the editor, the preview and the screen in /tmp/shots-evaluation.
 */
const SHOTS = '/tmp/shots-evaluation';
const tokenOf = async (email: string) => (await signInApi({ email, password: DEMO_PASSWORD })).accessToken;


async function pickOption(page: Page, selectTestId: string, name: string | RegExp) {
  await page.getByTestId(selectTestId).click();
  await page.getByRole('option', { name }).click();
}

/** Before a screenshot: scrolled to the top, dialogs and toasts done fading in. */
async function settled(page: Page) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(500);
}

/** Adds a question in the item editor modal. */
async function addQuestion(page: Page, o: { label: string; type?: 'Text' | 'Single choice'; answers?: string[]; showIf?: { question: string; answer: string } }) {
  await page.getByTestId('evaluation-form-add-question').click();
  const dialog = page.getByTestId('item-editor');
  await expect(dialog).toBeVisible();
  if (o.type && o.type !== 'Single choice') await pickOption(page, 'item-type', o.type);
  await dialog.getByTestId('item-label').fill(o.label);
  for (const [i, answer] of (o.answers ?? []).entries()) await dialog.getByTestId(`item-option-${i}`).fill(answer);
  if (o.showIf) {
    await dialog.getByTestId('item-condition-add').click();
    await pickOption(page, 'item-condition-question-0', o.showIf.question);
    await pickOption(page, 'item-condition-answer-0', o.showIf.answer);
  }
  await dialog.getByTestId('item-editor-save').click();
  await expect(dialog).toBeHidden();
}

test('a form built in the editor is answered, completed, reviewed, edited with a reason and printed', async ({ browser }) => {
  test.setTimeout(300_000);
  mkdirSync(SHOTS, { recursive: true });
  const formName = `E2E screening ${uniqueLetters()}`;
  const tampa = await tampaDivisions();
  const adminToken = await tokenOf('admin@itp.example.org');
  const previous = (await api('GET', `/api/facilities/${tampa.facilityId}/evaluation-forms`, { token: adminToken })).body.find(
    (r: { requestType: string }) => r.requestType === 'Assessment',
  );

  const adminContext = await browser.newContext({ viewport: { width: 1356, height: 1000 } });
  const admin = await adminContext.newPage();
  try {
    // ── The ITP admin builds the form ────────────────────────────────────────────────────────
    await signIn(admin, 'admin@itp.example.org', '/evaluation-forms');
    await expect(admin.getByTestId('evaluation-form-table')).toContainText('Default Assessment Form- Including Crisis Services');
    // A default form: its name is locked; a medical-information question's type and answers are its field's.
    await admin.getByTestId('evaluation-form-table').getByRole('link', { name: 'Default Assessment Form- Including Crisis Services' }).click();
    await expect(admin.getByTestId('evaluation-form-name')).toBeDisabled();
    await expect(admin.getByTestId('evaluation-form-kind')).toHaveText('Default');
    const ideations = admin.getByTestId('evaluation-form-items').locator(':scope > li', { hasText: 'Homicidal or suicidal ideations' }).first();
    await expect(ideations).toContainText('Medical information: Homicidal or suicidal ideations');
    await ideations.getByTestId('evaluation-form-item-edit').click();
    await expect(admin.getByTestId('item-editor').getByLabel('Medical information')).toBeChecked();
    await expect(admin.getByTestId('item-type')).toHaveAttribute('aria-disabled', 'true');
    await expect(admin.getByTestId('item-option-0')).toBeDisabled();
    await admin.getByTestId('item-editor-cancel').click();
    await admin.screenshot({ path: `${SHOTS}/editor-default.png`, fullPage: true });
    await admin.getByTestId('evaluation-form-preview').click();
    await settled(admin);
    await admin.screenshot({ path: `${SHOTS}/preview-default.png` });
    await admin.getByTestId('preview-close').click();
    await admin.getByTestId('evaluation-form-cancel').click();
    await admin.waitForURL((url) => url.pathname === '/evaluation-forms');

    await admin.getByTestId('evaluation-form-add').click();
    await admin.waitForURL('**/evaluation-forms/create');
    await admin.getByTestId('evaluation-form-name').fill(formName);

    await admin.getByTestId('evaluation-form-add-heading').click();
    await admin.getByTestId('item-label').fill('Screening');
    await admin.getByTestId('item-editor-save').click();

    // Option labels are unique ignoring case; the modal says so and keeps the question until fixed.
    await admin.getByTestId('evaluation-form-add-question').click();
    const editor = admin.getByTestId('item-editor');
    await editor.getByTestId('item-label').fill('Suicidal ideation');
    await editor.getByTestId('item-option-0').fill('Yes');
    await editor.getByTestId('item-option-1').fill('yes');
    // A radio keeps at least two answers: their remove buttons are disabled.
    await expect(editor.getByTestId('item-option-remove-0')).toBeDisabled();
    await editor.getByTestId('item-editor-save').click();
    await expect(editor).toContainText('Options must be unique');
    await editor.getByTestId('item-option-1').fill('No');
    await editor.getByTestId('item-editor-save').click();
    await expect(editor).toBeHidden();

    await addQuestion(admin, { label: 'Describe the plan', type: 'Text', showIf: { question: 'Suicidal ideation', answer: 'Yes' } });
    await expect(admin.getByTestId('evaluation-form-item-2').getByTestId('evaluation-form-item-condition')).toHaveText('Shown if “Suicidal ideation” is “Yes”');
    await addQuestion(admin, { label: 'Who came with the patient', type: 'Text' });
    // Reordering keeps a question below the one it depends on: moving it up past it is refused…
    await admin.getByTestId('evaluation-form-item-2').getByTestId('evaluation-form-item-up').click();
    await expect(admin.getByTestId('evaluation-form-notice')).toContainText('has to stay below');
    // …while dragging the unconditional question to the top is fine.
    await admin.getByTestId('evaluation-form-item-3').dragTo(admin.getByTestId('evaluation-form-item-0'));
    await expect(admin.getByTestId('evaluation-form-item-0').getByTestId('evaluation-form-item-label')).toHaveText('Who came with the patient');
    await admin.screenshot({ path: `${SHOTS}/editor.png`, fullPage: true });

    // Retyping the question another one depends on says, before applying, which condition goes…
    await admin.getByTestId('evaluation-form-item-2').getByTestId('evaluation-form-item-edit').click();
    await pickOption(admin, 'item-type', 'Multiple choice');
    await expect(admin.getByTestId('item-editor-drops')).toContainText('“Describe the plan” no longer depends on “Suicidal ideation” is “Yes”');
    await admin.getByTestId('item-editor-cancel').click();
    // …and so does deleting it.
    await admin.getByTestId('evaluation-form-item-2').getByTestId('evaluation-form-item-delete').click();
    await expect(admin.getByTestId('evaluation-form-delete-drops')).toContainText('“Describe the plan” no longer depends on “Suicidal ideation” is “Yes”');
    await admin.getByTestId('evaluation-form-delete').getByRole('button', { name: 'Cancel' }).click();

    // The item editor modal, as the admin edits the conditional question.
    await admin.getByTestId('evaluation-form-item-3').getByTestId('evaluation-form-item-edit').click();
    await expect(admin.getByTestId('item-condition-0')).toBeVisible();
    await settled(admin);
    await admin.screenshot({ path: `${SHOTS}/item-editor.png` });
    await admin.getByTestId('item-editor-cancel').click();

    // The preview: the real form; the condition shows and hides the question.
    await admin.getByTestId('evaluation-form-preview').click();
    const preview = admin.getByTestId('preview-dialog');
    const planInPreview = preview.getByLabel('Describe the plan');
    await expect(preview.getByLabel('Yes')).toBeVisible();
    // Nothing is answered for the provider: no choice starts on its first option.
    await expect(preview.getByLabel('Yes')).not.toBeChecked();
    await expect(planInPreview).toBeHidden();
    await preview.getByLabel('Yes').check();
    await expect(planInPreview).toBeVisible();
    await preview.getByTestId('preview-check').click();
    await expect(preview).toContainText('This question is required');
    await settled(admin);
    await admin.screenshot({ path: `${SHOTS}/preview.png` });
    await preview.getByLabel('No').check();
    await expect(planInPreview).toBeHidden();
    await preview.getByTestId('preview-close').click();

    // A name another form has: said on the field (spec 02 §8 "not unique name").
    await admin.getByTestId('evaluation-form-name').fill('MercyOne Assessment Form');
    await admin.getByTestId('evaluation-form-save').click();
    await expect(admin.getByTestId('evaluation-form-editor')).toContainText('Not unique name');
    await admin.getByTestId('evaluation-form-name').fill(formName);
    await admin.getByTestId('evaluation-form-save').click();
    await admin.waitForURL('**/evaluation-forms');
    await expect(admin.getByTestId('evaluation-form-table')).toContainText(formName);
    const saved = (await api('GET', `/api/evaluation-forms?filter=${encodeURIComponent(JSON.stringify({ q: formName }))}`, { token: adminToken })).body[0];
    const items: QuestionnaireItem[] = saved.options.items;
    expect(items.map((i) => i.label)).toEqual(['Who came with the patient', 'Screening', 'Suicidal ideation', 'Describe the plan']);
    const [who, , si, plan] = items as [QuestionItem, QuestionnaireItem, QuestionItem, QuestionItem];
    expect(isQuestion(plan) && plan.conditions).toEqual({ kind: 'showIfAny', items: [{ question: si.name, answer: si.options![0].key }] });

    // A form in use cannot be removed later; now it is given to Tampa's assessments (facility page, evaluation forms tab).
    await admin.goto(`/facilities/${tampa.facilityId}/evaluation-forms`);
    await pickOption(admin, 'ef-form-Assessment', formName);
    await expect.poll(async () => (await api('GET', `/api/facilities/${tampa.facilityId}/evaluation-forms`, { token: adminToken })).body.find((r: { requestType: string }) => r.requestType === 'Assessment').evaluationFormId).toBe(saved.id);
    await admin.goto('/evaluation-forms');
    const row = admin.getByTestId('evaluation-form-table').locator('tr', { hasText: formName });
    await row.getByTestId('evaluation-form-remove').click();
    await admin.getByTestId('confirm-yes').click();
    await expect(admin.getByTestId('info-dialog')).toContainText('Tampa Bay General Hospital');
    await admin.getByTestId('info-dialog').getByRole('button', { name: 'OK' }).click();
    // A clone is a custom form of its own, which nobody uses yet: it can go.
    await row.getByTestId('evaluation-form-clone').click();
    await expect(admin.getByTestId('evaluation-form-name')).toHaveValue(`${formName} (copy)`);
    await expect(admin.getByTestId('evaluation-form-items').locator(':scope > li')).toHaveCount(4);
    await admin.getByTestId('evaluation-form-cancel').click();
    await admin.getByTestId('evaluation-form-table').locator('tr', { hasText: `${formName} (copy)` }).getByTestId('evaluation-form-remove').click();
    await admin.getByTestId('confirm-yes').click();
    await expect(admin.getByText('Form removed')).toBeVisible();
    await expect(admin.getByTestId('evaluation-form-table')).not.toContainText(`${formName} (copy)`);

    // ── The provider evaluates ───────────────────────────────────────────────────────────────
    const providerToken = await tokenOf('provider@itp.example.org');
    const providerId = (await api('GET', '/api/user/context', { token: providerToken })).body.id as number;
    const c = await createCase({
      token: await tokenOf('coordinator@itp.example.org'),
      facilityId: tampa.facilityId,
      divisionId: tampa.edId,
      providerId,
      patient: { firstName: `Eval${uniqueLetters()}`, lastName: 'Journey', dateOfBirth: '1990-06-01', gender: 'Female' },
    });
    const diagnosis = (await db.query(`SELECT code FROM diagnoses ORDER BY code LIKE 'F3%' DESC, code LIMIT 1`)).rows[0].code as string;
    const diagnosisLabel = new RegExp(`^${diagnosis.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `);

    const providerContext = await browser.newContext({ viewport: { width: 1356, height: 1000 } });
    const provider = await providerContext.newPage();
    await signIn(provider, 'provider@itp.example.org');
    await provider.goto(`/cases/${c.id}`);
    const requestRow = provider.getByTestId(`request-row-${c.requestId}`);
    await expect(requestRow.getByTestId('request-evaluation')).toHaveText('Start evaluation');
    await requestRow.getByTestId('request-evaluation').click();
    await provider.waitForURL(`**/cases/${c.id}/requests/${c.requestId}/evaluation`);
    const page = provider.getByTestId('evaluation-page');
    await expect(page).toHaveAttribute('data-mode', 'new');
    await expect(provider.getByTestId('evaluation-header')).toContainText(`${formName}`);
    const saveState = provider.getByTestId('evaluation-save-state');
    const planBox = provider.getByTestId(`question-${plan.name}`);

    await expect(planBox).toBeHidden();
    await expect(provider.getByTestId(`question-${si.name}`).getByLabel('Yes')).not.toBeChecked();
    await provider.getByTestId(`question-${si.name}`).getByLabel('Yes').check();
    await expect(planBox).toBeVisible();
    await provider.getByTestId(`question-${who.name}`).getByRole('textbox').fill('His sister');
    await provider.getByTestId('evaluation-primary-diagnosis').fill(diagnosis);
    await provider.getByRole('option', { name: diagnosisLabel }).click();
    // Tampa's emergency department shows billing codes: the active ones of an ER assessment.
    await provider.getByTestId('evaluation-billing-codes').click();
    await expect(provider.getByRole('option', { name: /^99231/ })).toHaveCount(0);
    await provider.getByRole('option', { name: /^90791 / }).click();
    await provider.keyboard.press('Escape');
    await pickOption(provider, 'evaluation-main-recommendation', 'Mental Health Inpatient');
    await provider.getByTestId('evaluation-criterion-HighAcuity').check();
    await expect(saveState).toHaveAttribute('data-state', 'saved');
    await expect(saveState).toHaveText('Saved');

    // The autosave survives a reload…
    await provider.reload();
    await expect(provider.getByTestId(`question-${si.name}`).getByLabel('Yes')).toBeChecked();
    await expect(provider.getByTestId('evaluation-primary-diagnosis')).toHaveValue(diagnosisLabel);
    // …and so does a keystroke the server has not got: while saves cannot get through, the tab keeps the draft.
    const blockSaves = (route: import('@playwright/test').Route) => (route.request().method() === 'PUT' ? route.abort() : route.continue());
    await provider.route('**/api/requests/*/evaluation', blockSaves);
    await provider.getByTestId('evaluation-recommendation-note').fill('Inpatient, high acuity');
    await expect(saveState).toHaveText('Not saved');
    await provider.unroute('**/api/requests/*/evaluation', blockSaves);
    await provider.reload();
    await expect(provider.getByTestId('evaluation-restored')).toBeVisible();
    await expect(provider.getByTestId('evaluation-recommendation-note')).toHaveValue('Inpatient, high acuity');
    await expect(saveState).toHaveAttribute('data-state', 'saved');
    const stored = await api('GET', `/api/requests/${c.requestId}/evaluation`, { token: providerToken });
    expect(stored.body.recommendationNote).toBe('Inpatient, high acuity');

    // Another window saves meanwhile: this one stops before it overwrites that save, and reloads.
    const current = stored.body;
    const other = await api('PUT', `/api/requests/${c.requestId}/evaluation`, {
      token: providerToken,
      body: {
        version: current.version,
        primaryDiagnosisId: current.primaryDiagnosis.code,
        billingCodes: current.billingCodes.map((b: { id: number }) => b.id),
        mainRecommendation: current.mainRecommendation,
        recommendationCriteria: current.recommendationCriteria,
        recommendationNote: 'Inpatient (from the other window)',
        answers: current.answers,
      },
    });
    expect(other.status).toBe(200);
    await provider.getByTestId('evaluation-recommendation-note').fill('Inpatient, high acuity, one to one');
    await expect(provider.getByTestId('evaluation-stale')).toBeVisible();
    await provider.getByTestId('evaluation-stale-reload').click();
    await expect(provider.getByTestId('evaluation-recommendation-note')).toHaveValue('Inpatient (from the other window)');
    await expect(provider.getByTestId('evaluation-stale')).toBeHidden();

    // Completing with the conditional required answer missing: refused, the question says why.
    await provider.getByTestId('evaluation-complete').click();
    await expect(planBox).toContainText('This question is required');
    await expect(provider.getByText('The evaluation cannot be completed')).toBeVisible();
    await settled(provider);
    await provider.screenshot({ path: `${SHOTS}/evaluation-refused.png`, fullPage: true });
    await planBox.getByRole('textbox').fill('Overdose on her mother’s pills');
    await expect(planBox).not.toContainText('This question is required');
    await expect(saveState).toHaveAttribute('data-state', 'saved');
    await settled(provider);
    await provider.screenshot({ path: `${SHOTS}/evaluation.png`, fullPage: true });
    await provider.getByTestId('evaluation-complete').click();
    await provider.getByTestId('evaluation-complete-confirm-confirm').click();
    await provider.waitForURL((url) => url.pathname === '/cases');
    await expect(provider.getByText('Evaluation completed')).toBeVisible();

    // ── The coordinator reviews the recommendation ───────────────────────────────────────────
    const coordinatorContext = await browser.newContext({ viewport: { width: 1356, height: 1000 } });
    const coordinator = await coordinatorContext.newPage();
    await signIn(coordinator, 'coordinator@itp.example.org');
    await coordinator.goto(`/cases/${c.id}`);
    await expect(coordinator.getByTestId('case-status-chip')).toHaveText('Recommendation Review: Waiting On Decision');
    await expect(coordinator.getByTestId('mi-recommendation')).toContainText(/mental health inpatient/i);
    await coordinator.getByTestId(`request-row-${c.requestId}`).getByTestId('request-evaluation-view').click();
    await expect(coordinator.getByTestId('evaluation-page')).toHaveAttribute('data-mode', 'readOnly');
    await expect(coordinator.getByTestId('evaluation-answers')).toContainText('Overdose on her mother’s pills');
    await coordinatorContext.close();
    // The coordinators go on to contact services on that recommendation.
    await startContacting(await tokenOf('coordinator@itp.example.org'), c.id);

    // ── The provider edits the completed evaluation with a reason ────────────────────────────
    await provider.goto(`/cases/${c.id}`);
    await provider.getByTestId(`request-row-${c.requestId}`).getByTestId('request-evaluation-open').click();
    await expect(page).toHaveAttribute('data-mode', 'edit');
    await planBox.getByRole('textbox').fill('Overdose on her mother’s sleeping pills');
    await provider.getByTestId('evaluation-save').click();
    await expect(provider.getByTestId('evaluation-page')).toContainText('A reason for the edit is required');
    await provider.getByTestId('evaluation-reason-for-edit').fill('Collateral from the sister');
    // A new recommendation while services are being contacted: asked first.
    await pickOption(provider, 'evaluation-main-recommendation', 'Intensive Outpatient');
    await expect(provider.getByTestId('evaluation-criterion-HighAcuity')).toHaveCount(0);
    await provider.getByTestId('evaluation-criterion-MentalHealth').check();
    await provider.getByTestId('evaluation-save').click();
    await expect(provider.getByTestId('evaluation-recommendation-confirm')).toContainText('Services are being contacted');
    await provider.getByTestId('evaluation-recommendation-confirm-confirm').click();
    await provider.waitForURL((url) => url.pathname === `/cases/${c.id}`);
    expect((await db.query('SELECT main_recommendation FROM cases WHERE id = $1', [c.id])).rows[0].main_recommendation).toBe('IntensiveOutpatient');
    await provider.getByTestId(`request-row-${c.requestId}`).getByTestId('request-evaluation-open').click();
    const planRow = provider.getByTestId('evaluation-change-log-row').filter({ hasText: 'Describe the plan' });
    await expect(planRow).toContainText('Overdose on her mother’s sleeping pills');
    await expect(planRow).toContainText('Collateral from the sister');
    await expect(provider.getByTestId('evaluation-change-log-row').filter({ hasText: 'Main recommendation' })).toContainText('Mental Health Inpatient');
    await settled(provider);
    await provider.screenshot({ path: `${SHOTS}/evaluation-edit.png`, fullPage: true });
    await providerContext.close();

    // ── The case PDF carries the answers ─────────────────────────────────────────────────────
    const pdf = await download(`/api/cases/${c.id}/pdf?includeEvaluations=true`, await tokenOf('coordinator@itp.example.org'));
    expect(pdf.status).toBe(200);
    const { text } = await pdfText(pdf.bytes);
    for (const expected of ['Suicidal ideation', 'Describe the plan', 'sleeping pills', 'His sister']) expect(text).toContain(expected);
  } finally {
    // Other suites use Tampa's assessments: give them back their form.
    await api('PUT', `/api/facilities/${tampa.facilityId}/evaluation-forms`, {
      token: adminToken,
      body: { requestType: 'Assessment', evaluationFormId: previous?.evaluationFormId ?? null, isAthenaBilled: previous?.isAthenaBilled ?? false },
    });
    await adminContext.close();
  }
});
