import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { type Browser, type Locator, type Page } from '@playwright/test';
import { api, eventually } from '../support/api';
import { contactingCase, createCase, tampaDivisions, uniqueLetters } from '../support/cases';
import { signIn as signInApi } from '../support/oidc-client';
import { DEMO_PASSWORD, expect, test } from './support';

/**
 * Keyboard-only journeys (issue 18): a coordinator signs in, claims a division from the calls
 * card, logs three calls and changes a case's status with Tab, Shift+Tab, Enter, Space, the arrows
 * and Escape only (page.goto for the starting URLs; locators only to check where the focus is and
 * what was saved). Focus is visible and comes back to the control that opened a dialog. Then the
 * bell, and the live region that says what changes by itself.
 */
const SHOTS = path.resolve(__dirname, '..', '..', '.data', 'test', 'screenshots');
const FACILITY = 'Sunrise Behavioral Health Hospital';
const DIVISION = 'Adult Inpatient Unit';
const tokenOf = async (email: string) => (await signInApi({ email, password: DEMO_PASSWORD })).accessToken;

const isFocused = (target: Locator) => target.evaluate((el) => el === document.activeElement).catch(() => false);

/** Presses Tab (or Shift+Tab when the target comes earlier in the page) until `target` has the focus. */
async function tabTo(page: Page, target: Locator, max = 80) {
  await expect(target).toBeAttached();
  for (let i = 0; i < max; i++) {
    if (await isFocused(target)) return;
    const before = await target.evaluate((el) => {
      const a = document.activeElement;
      return !!a && a !== document.body && !!(el.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    await page.keyboard.press(before ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`no focus on ${target} after ${max} key presses (on ${await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 200))})`);
}

/** The focused control shows a ring: an outline (on it, or on the MUI control that wraps a hidden input) or a focused field's frame. */
async function expectVisibleFocus(page: Page) {
  const ring = await page.evaluate(() => {
    const a = document.activeElement as HTMLElement | null;
    if (!a || a === document.body) return 'no focus';
    const field = a.closest('.MuiInputBase-root');
    if (field) {
      const frame = field.querySelector('fieldset');
      return field.classList.contains('Mui-focused') && frame && parseFloat(getComputedStyle(frame).borderTopWidth) >= 2 ? 'ring' : 'no field frame';
    }
    const el = (a.closest('.Mui-focusVisible') as HTMLElement | null) ?? a;
    const s = getComputedStyle(el);
    return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2 ? 'ring' : `no outline on ${el.outerHTML.slice(0, 120)}`;
  });
  expect(ring).toBe('ring');
}

/** Opens a MUI select with the keyboard and moves with the arrows to the option `value`, then Enter. */
async function chooseWithArrows(page: Page, value: string) {
  await page.keyboard.press('Enter');
  const listbox = page.getByRole('listbox');
  await expect(listbox).toBeVisible();
  const wanted = listbox.locator(`li[role="option"][data-value="${value}"]`);
  await expect(wanted).toHaveCount(1);
  for (let i = 0; i < 40 && !(await isFocused(wanted)); i++) await page.keyboard.press('ArrowDown');
  await expect(wanted).toBeFocused();
  await expectVisibleFocus(page);
  await page.keyboard.press('Enter');
  await expect(listbox).toBeHidden();
}

/** Signs in on the identity page with the keyboard. */
async function keyboardSignIn(page: Page, email: string, landing = '/dashboard') {
  await page.goto(landing);
  const emailField = page.getByLabel('Email');
  await expect(emailField).toBeVisible({ timeout: 30_000 });
  await tabTo(page, emailField);
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.keyboard.type(DEMO_PASSWORD);
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.pathname === landing, { timeout: 30_000 });
  await expect(page.getByTestId('nav-dashboard')).toBeVisible({ timeout: 20_000 });
}

/** A new case at Tampa for the provider, and a 1280 × 800 window signed in by keyboard as `email`. */
async function newCaseInBrowser(browser: Browser, baseURL: string | undefined, firstName: string, email: string) {
  const provider = await tokenOf('provider@itp.example.org');
  const providerId = (await api('GET', '/api/user/context', { token: provider })).body.id as number;
  const tampa = await tampaDivisions();
  const c = await createCase({
    token: await tokenOf('coordinator@itp.example.org'),
    facilityId: tampa.facilityId,
    divisionId: tampa.floorId,
    providerId,
    patient: { firstName: `${firstName}${uniqueLetters()}`, lastName: 'Keyboard', dateOfBirth: '1990-05-05', gender: 'Female' },
  });
  return { c, ...(await keyboardWindow(browser, baseURL, email)) };
}

/** A 1280 × 800 window signed in by keyboard as `email`. */
async function keyboardWindow(browser: Browser, baseURL: string | undefined, email: string) {
  const ctx = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  await keyboardSignIn(page, email);
  return { ctx, page };
}

test('keyboard only: a coordinator logs three calls and changes a case status', async ({ browser, baseURL }) => {
  test.setTimeout(240_000);
  mkdirSync(SHOTS, { recursive: true });
  const itp = await tokenOf('coordinator@itp.example.org');
  const provider = await tokenOf('provider@itp.example.org');
  const providerId = (await api('GET', '/api/user/context', { token: provider })).body.id as number;
  const tampa = await tampaDivisions();
  const run = uniqueLetters();
  const caseIds: number[] = [];
  for (const name of ['Kilo', 'Lima', 'Mike'])
    caseIds.push(
      await contactingCase({
        token: itp,
        providerToken: provider,
        facilityId: tampa.facilityId,
        divisionId: tampa.floorId,
        providerId,
        patient: { firstName: `${name}${run}`, lastName: 'Keyboard', dateOfBirth: '1980-02-02', gender: 'Male' },
      }),
    );

  const { ctx, page } = await keyboardWindow(browser, baseURL, 'coordinator@itp.example.org');

  // The calls card: filter to Sunrise, any time, and claim its Adult Inpatient Unit.
  const card = page.getByTestId('calls-card');
  await expect(card).toBeVisible({ timeout: 20_000 });
  await tabTo(page, page.getByTestId('calls-card-facility-filter'));
  await expectVisibleFocus(page);
  await page.keyboard.type('Sunrise');
  await page.keyboard.press('Tab');
  const within = page.getByTestId('calls-card-within-two-hours');
  await expect(within).toBeFocused();
  await expectVisibleFocus(page);
  if (await within.isChecked()) await page.keyboard.press('Space');
  await expect(within).not.toBeChecked();
  await expect(card.getByTestId('calls-card-row').filter({ hasNotText: FACILITY })).toHaveCount(0, { timeout: 15_000 });
  const row = card.getByTestId('calls-card-row').filter({ hasText: FACILITY }).filter({ hasText: DIVISION });
  await expect(row).toHaveCount(1, { timeout: 15_000 });
  await tabTo(page, row.getByTestId('calls-card-claim-button'));
  await expectVisibleFocus(page);
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/call-log\/claim\/\d+$/);
  await expect(page.getByTestId('call-log-division')).toHaveText(`${FACILITY} / ${DIVISION}`, { timeout: 20_000 });

  // Tasks selected on opening (a draft or a held task from earlier work) are unselected with Space.
  await expect(page.getByTestId('call-log-row').first()).toBeVisible({ timeout: 20_000 });
  const others = page.locator('[data-testid="call-log-row"]').filter({ has: page.locator('input[data-testid="call-log-row-select"]:checked') });
  while ((await others.count()) > 0) {
    const taskId = await others.first().getAttribute('data-task-id');
    const box = page.locator(`[data-testid="call-log-row"][data-task-id="${taskId}"]`).getByTestId('call-log-row-select');
    await tabTo(page, box);
    await page.keyboard.press('Space');
    await expect(box).not.toBeChecked();
  }

  // Select the three cases' tasks with Space, set each result with the arrows.
  const results = ['NoAnswer', 'LeftVoicemail', 'NoAnswer'];
  const taskIds: number[] = [];
  for (const caseId of caseIds) {
    const taskRow = page.locator(`[data-testid="call-log-row"][data-case-id="${caseId}"]`);
    await expect(taskRow).toHaveCount(1, { timeout: 20_000 });
    taskIds.push(Number(await taskRow.getAttribute('data-task-id')));
    const box = taskRow.getByTestId('call-log-row-select');
    await tabTo(page, box);
    await expectVisibleFocus(page);
    await page.keyboard.press('Space');
    await expect(box).toBeChecked();
  }
  for (const [i, taskId] of taskIds.entries()) {
    const entry = page.locator(`[data-testid="call-log-entry"][data-task-id="${taskId}"]`);
    const result = entry.getByTestId('call-log-result');
    await tabTo(page, result);
    await expectVisibleFocus(page);
    await chooseWithArrows(page, results[i]);
    // The menu gives the focus back to its select.
    await expect(result).toBeFocused();
    await expect(result).toHaveText(results[i] === 'NoAnswer' ? 'No Answer' : 'Left Voicemail');
  }

  // A note through its dialog: Escape closes it and the focus is back on its button.
  const firstEntry = page.locator(`[data-testid="call-log-entry"][data-task-id="${taskIds[0]}"]`);
  const noteButton = firstEntry.getByTestId('call-log-note');
  await tabTo(page, noteButton);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('note-dialog-text')).toBeFocused();
  await page.keyboard.type('Rang twice');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('note-dialog')).toBeHidden();
  await expect(noteButton).toBeFocused();
  await page.screenshot({ path: `${SHOTS}/keyboard-call-log.png`, fullPage: true });

  await tabTo(page, page.getByTestId('call-log-save'));
  await expectVisibleFocus(page);
  await page.keyboard.press('Enter');
  await expect(page.getByText('Call log saved')).toBeVisible({ timeout: 15_000 });
  await page.waitForURL((u) => u.pathname === '/dashboard');

  // The three calls are saved.
  for (const [i, caseId] of caseIds.entries()) {
    const log = await api('GET', `/api/placement-tasks/log/${caseId}`, { token: itp });
    expect((log.body as Array<{ result: string }>).map((r) => r.result)).toContain(results[i]);
  }

  // The first case, found with the dashboard's search and opened from its link.
  await tabTo(page, page.getByTestId('dashboard-search'));
  await page.keyboard.type(`Kilo${run}`);
  const found = page.getByTestId('dashboard-search-case');
  await expect(found).toHaveCount(1, { timeout: 15_000 });
  await tabTo(page, found);
  await expectVisibleFocus(page);
  await page.keyboard.press('Enter');
  await page.waitForURL((u) => u.pathname === `/cases/${caseIds[0]}`, { timeout: 20_000 });

  // The status control: Escape on its dialog, then OnHold with a note.
  const chip = page.getByTestId('case-status-chip');
  await expect(chip).toContainText(/Contacting/i, { timeout: 20_000 });
  const select = page.getByTestId('status-select');
  await tabTo(page, select);
  await expectVisibleFocus(page);
  await chooseWithArrows(page, 'OnHold_WaitingForFacility');
  const dialog = page.getByTestId('status-note-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('status-note')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(select).toBeFocused();

  await chooseWithArrows(page, 'OnHold_WaitingForFacility');
  await expect(dialog.getByTestId('status-note')).toBeFocused();
  await page.keyboard.type('Waiting for the facility to call back.');
  // No keyboard trap beyond the dialog's own: Tab stays inside it and reaches its buttons.
  await page.keyboard.press('Tab');
  await expect(dialog.getByTestId('status-note-dialog-cancel')).toBeFocused();
  await expectVisibleFocus(page);
  await page.keyboard.press('Tab');
  await expect(dialog.getByTestId('status-note-dialog-submit')).toBeFocused();
  await page.screenshot({ path: `${SHOTS}/keyboard-status-dialog.png` });
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden({ timeout: 20_000 });
  await expect(chip).toContainText(/Waiting for facility/i, { timeout: 20_000 });
  await expect(select).toBeFocused();
  await eventually(async () => (await api('GET', `/api/cases/${caseIds[0]}`, { token: itp })).body?.status === 'OnHold_WaitingForFacility', 'case on hold', 20_000);

  // A row of the dashboard's case list takes the focus and opens its case with Enter.
  await page.goto('/dashboard');
  const caseRow = page.getByTestId('case-table').locator('tbody tr').first();
  await expect(caseRow).toBeVisible({ timeout: 20_000 });
  await tabTo(page, caseRow, 120);
  await expectVisibleFocus(page);
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/cases\/\d+$/, { timeout: 20_000 });

  await ctx.close();
});

test('keyboard only: the bell opens, moves through, closes with Escape; new notifications are said in the live region', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const { ctx, page } = await keyboardWindow(browser, baseURL, 'coordinator@itp.example.org');
  const bell = page.getByTestId('notification-bell');
  await expect(bell).toHaveAttribute('aria-label', /Notifications \(\d+ unresolved\)/);
  const region = page.getByTestId('live-announcer');
  await expect(region).toHaveAttribute('role', 'status');
  await expect(region).toHaveAttribute('aria-live', 'polite');
  await page.waitForTimeout(1000);

  // The facility's nurse creates a case: a toast, said in the live region.
  const facility = await tokenOf('er@tampageneral.example.org');
  const run = uniqueLetters();
  await createCase({ token: facility, patient: { firstName: `Bell${run}`, lastName: 'Keys' } });
  await expect(page.getByTestId('notification-toast').first()).toBeVisible({ timeout: 10_000 });
  await expect(region).toContainText(`New notification: New request for Bell${run} Keys`, { timeout: 5000 });

  await tabTo(page, bell);
  await expectVisibleFocus(page);
  await page.keyboard.press('Enter');
  const dropdown = page.getByTestId('notification-dropdown');
  await expect(dropdown).toBeVisible();
  // Tab moves through the dropdown: the resolved switch, then the notifications and their buttons.
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('notification-resolved-switch').locator('input')).toBeFocused();
  await expectVisibleFocus(page);
  await page.keyboard.press('Tab');
  const item = page.getByTestId('notification-item').filter({ hasText: `Bell${run}` });
  await expect(item.getByRole('button').first()).toBeFocused();
  await expectVisibleFocus(page);
  await page.keyboard.press('Tab');
  await expect(item.getByTestId('notification-resolve')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dropdown).toBeHidden();
  await expect(bell).toBeFocused();
  await ctx.close();
});

test('the calls card says in the live region when a division is claimed by someone else', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const { ctx, page } = await keyboardWindow(browser, baseURL, 'coordinator@itp.example.org');
  const card = page.getByTestId('calls-card');
  await expect(card).toBeVisible({ timeout: 20_000 });
  await tabTo(page, page.getByTestId('calls-card-facility-filter'));
  await page.keyboard.type('Sunrise');
  await page.keyboard.press('Tab');
  if (await page.getByTestId('calls-card-within-two-hours').isChecked()) await page.keyboard.press('Space');
  const row = card.getByTestId('calls-card-row').filter({ hasText: FACILITY }).filter({ hasText: DIVISION });
  await expect(row).toHaveCount(1, { timeout: 15_000 });
  await page.waitForTimeout(1000);
  const divisionId = Number(await row.getAttribute('data-division-id'));

  // The ITP admin claims the division elsewhere.
  const admin = await tokenOf('admin@itp.example.org');
  const claimed = await api('POST', `/api/placement-tasks/division/${divisionId}/claim`, { token: admin, body: {} });
  expect(claimed.status, JSON.stringify(claimed.body)).toBeLessThan(300);
  const region = page.getByTestId('live-announcer');
  await expect(region).toContainText(`Calls: ${FACILITY} / ${DIVISION} claimed by`, { timeout: 10_000 });
  await expect(row.getByTestId('calls-card-claim')).toContainText('Claimed by');
  await api('PUT', `/api/placement-tasks/claim/${(claimed.body as { claimId: number }).claimId}/release`, { token: admin });
  await expect(region).toContainText(`Calls: ${FACILITY} / ${DIVISION} released`, { timeout: 10_000 });
  await ctx.close();
});

test('keyboard only: a provider starts an evaluation, answers with arrows and typing, and it is saved', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const { c, ctx, page } = await newCaseInBrowser(browser, baseURL, 'Eval', 'provider@itp.example.org');
  await page.goto(`/cases/${c.id}`);
  const start = page.getByTestId(`request-row-${c.requestId}`).getByTestId('request-evaluation');
  await expect(start).toHaveText('Start evaluation', { timeout: 20_000 });
  await tabTo(page, start);
  await expectVisibleFocus(page);
  await page.keyboard.press('Enter');
  await page.waitForURL(`**/cases/${c.id}/requests/${c.requestId}/evaluation`, { timeout: 20_000 });
  const form = page.getByTestId('evaluation-page');
  await expect(form).toBeVisible({ timeout: 20_000 });

  // A single-choice question: Tab reaches its group, Space picks the first answer, ArrowDown the next.
  const radios = form.locator('input[type="radio"]:not([disabled])');
  await expect(radios.first()).toBeAttached({ timeout: 20_000 });
  await tabTo(page, radios.first(), 150);
  await expectVisibleFocus(page);
  await page.keyboard.press('Space');
  await expect(radios.first()).toBeChecked();
  await page.keyboard.press('ArrowDown');
  await expect(radios.nth(1)).toBeChecked();
  await expect(radios.nth(1)).toBeFocused();

  // A text answer, typed.
  const text = form.locator('textarea:not([readonly]):not([aria-hidden="true"]), input[type="text"]:not([readonly])').first();
  await tabTo(page, text, 150);
  await expectVisibleFocus(page);
  await page.keyboard.type('Calm, oriented, answers questions.');
  await expect(page.getByTestId('evaluation-save-state')).toHaveAttribute('data-state', 'saved', { timeout: 20_000 });

  // Complete is reachable; the answers are kept on the server (the draft autosaved).
  await tabTo(page, page.getByTestId('evaluation-complete'), 200);
  await expectVisibleFocus(page);
  await page.reload();
  await expect(form.locator('input[type="radio"]:checked').first()).toBeAttached({ timeout: 20_000 });
  await ctx.close();
});

test('the case page says in the live region when another user takes the medical information to edit it', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const { c, ctx, page } = await newCaseInBrowser(browser, baseURL, 'Held', 'coordinator@itp.example.org');
  await page.goto(`/cases/${c.id}`);
  await expect(page.getByTestId('medical-information-card')).toBeVisible({ timeout: 20_000 });

  const admin = await tokenOf('admin@itp.example.org');
  const claimed = await api('POST', '/api/claims', { token: admin, body: { objectType: 'CaseMedicalInformation', objectId: c.id, extendBy: 60 } });
  expect(claimed.status, JSON.stringify(claimed.body)).toBeLessThan(300);
  const region = page.getByTestId('live-announcer');
  await expect(page.getByTestId('medical-information-holder')).toBeVisible({ timeout: 20_000 });
  await expect(region).toContainText('Medical information is being edited by', { timeout: 5000 });
  await api('PUT', `/api/claims/${(claimed.body as { id: number }).id}/release`, { token: admin, body: {} });
  await expect(region).toContainText('Medical information can be edited again', { timeout: 20_000 });
  await ctx.close();
});
