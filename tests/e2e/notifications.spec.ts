import path from 'node:path';
import { type Page } from '@playwright/test';
import { UserType } from '@crisis/forms';
import { api } from '../support/api';
import { createCase } from '../support/cases';
import { NOTIFICATION_READERS, db } from '../support/db';
import { signIn as signInApi } from '../support/oidc-client';
import { TEST_USER_PASSWORD, createTestUser, type TestUser } from '../support/users';
import { DEMO_PASSWORD, expect, test } from './support';

/**
 * The notification bell (spec 02 §2, §4, §9): a coordinator with the app open sees the badge and a
 * toast at the top left within 2 s of another user's action; toasts close and resolve; the
 * dropdown resolves, switches to the resolved list (resolver's name) and back, dismisses; 120
 * unresolved show as 99+.
 */
const SHOTS = path.resolve(__dirname, '..', '..', '.data', 'test', 'notification-shots');

async function signInAs(page: Page, user: TestUser, path = '/dashboard') {
  await page.goto(path);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(TEST_USER_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === path, { timeout: 30_000 });
  await expect(page.getByTestId('nav-dashboard')).toBeVisible({ timeout: 20_000 });
}

test('a coordinator sees the badge and a toast within 2 s of another user\'s action, resolves, dismisses and reads the resolved list', async ({ page }) => {
  test.setTimeout(150_000);
  const coordinator = await createTestUser(UserType.ItpUser, { label: 'bell' });
  const facility = (await signInApi({ email: 'er@tampageneral.example.org', password: DEMO_PASSWORD })).accessToken;
  await signInAs(page, coordinator);
  const bell = page.getByTestId('notification-bell');
  await expect(bell).toBeVisible();
  await expect(page.getByTestId('notification-count')).toBeHidden();
  // The live socket is up before the action (the bell's first load is done).
  await expect(bell).toHaveAttribute('aria-label', 'Notifications (0 unresolved)');
  await page.waitForTimeout(1000);

  // The facility's nurse creates a case: a new request for the coordinators.
  const run = Date.now().toString(36).replace(/\d/g, '').slice(-5) || 'x';
  const patient = { firstName: `Bell${run}`, lastName: 'Toast' };
  await createCase({ token: facility, patient });
  const acted = Date.now();
  await expect(page.getByTestId('notification-count')).toHaveText('1', { timeout: 2000 });
  const toast = page.getByTestId('notification-toast');
  await expect(toast).toHaveCount(1, { timeout: 2000 });
  expect(Date.now() - acted).toBeLessThan(2000);
  await expect(toast).toContainText(`New request for Bell${run} Toast`);
  // Top left of the window.
  const box = (await toast.boundingBox())!;
  expect(box.x).toBeLessThan(40);
  expect(box.y).toBeLessThan(120);
  await page.screenshot({ path: `${SHOTS}/toast.png` });

  // Closed by hand: the notification stays unresolved in the bell.
  await toast.getByTestId('notification-toast-close').click();
  await expect(toast).toHaveCount(0);
  await expect(page.getByTestId('notification-count')).toHaveText('1');

  // A second action; resolved from its toast.
  const second = await createCase({ token: facility, patient: { firstName: `Second${run}`, lastName: 'Toast' } });
  await expect(page.getByTestId('notification-count')).toHaveText('2', { timeout: 2000 });
  await expect(toast).toContainText(`Second${run} Toast`, { timeout: 2000 });
  await toast.getByTestId('notification-toast-resolve').click();
  await expect(toast).toHaveCount(0);
  await expect(page.getByTestId('notification-count')).toHaveText('1');
  const resolvedRow = (await db.query(`SELECT resolved_by FROM ${NOTIFICATION_READERS} n WHERE reader_id = $1 AND case_id = $2 AND type = 'RequestCreated'`, [coordinator.id, second.id])).rows[0];
  expect(resolvedRow.resolved_by).toBe(coordinator.id);

  // A toast closes by itself after 10 s.
  await api('POST', `/api/cases/${second.id}/vitals`, { token: facility, body: { submittedOn: new Date().toISOString(), pulse: 80 } });
  await expect(toast).toContainText(`Vitals were added for Second${run} Toast`, { timeout: 2000 });
  await expect(toast).toHaveCount(0, { timeout: 12_000 });

  // The dropdown: the unresolved ones; resolve one; the resolved list with the resolver's name; back; dismiss.
  await bell.click();
  const items = page.getByTestId('notification-list').getByTestId('notification-item');
  await expect(items).toHaveCount(2);
  // What the dropdown shows is marked read.
  await expect
    .poll(async () => (await db.query(`SELECT count(*)::int AS n FROM ${NOTIFICATION_READERS} n WHERE reader_id = $1 AND resolved_at IS NULL AND reader_read_at IS NULL`, [coordinator.id])).rows[0].n)
    .toBe(0);
  await expect(items.first()).toContainText(`Vitals were added for Second${run} Toast`);
  await page.waitForTimeout(400); // the dropdown's fade-in, for the picture
  await page.screenshot({ path: `${SHOTS}/dropdown.png` });
  await items.filter({ hasText: `Bell${run}` }).getByTestId('notification-resolve').click();
  await expect(items).toHaveCount(1);
  await expect(page.getByTestId('notification-count')).toHaveText('1');
  await page.getByTestId('notification-resolved-switch').click();
  const resolved = page.getByTestId('notification-resolved-list').getByTestId('notification-item');
  await expect(resolved).toHaveCount(2);
  await expect(resolved.filter({ hasText: `Bell${run}` })).toContainText(`Resolved by ${coordinator.name}`);
  await page.screenshot({ path: `${SHOTS}/resolved.png` });
  await resolved.filter({ hasText: `Bell${run}` }).getByTestId('notification-dismiss').click();
  await expect(resolved).toHaveCount(1);
  await page.getByTestId('notification-back').click();
  await expect(items).toHaveCount(1);
  // Clicking one opens its case.
  await items.first().getByRole('button').first().click();
  await page.waitForURL((url) => url.pathname === `/cases/${second.id}`);
});

test('120 unresolved notifications show as 99+ at sign-in', async ({ page }) => {
  test.setTimeout(90_000);
  const coordinator = await createTestUser(UserType.ItpUser, { label: 'many' });
  const caseId = (await db.query('SELECT id FROM cases ORDER BY id DESC LIMIT 1')).rows[0].id;
  await db.query(
    `INSERT INTO notifications (user_id, type, case_id, payload, created_at)
     SELECT $1, 'CaseNoteAdded', $2, jsonb_build_object('CaseId', $2::int, 'PatientName', 'Many ' || g), now() - make_interval(secs => g)
       FROM generate_series(1, 120) g`,
    [coordinator.id, caseId],
  );
  await signInAs(page, coordinator);
  await expect(page.getByTestId('notification-count')).toHaveText('99+');
  await page.screenshot({ path: `${SHOTS}/badge-99.png`, clip: { x: 0, y: 0, width: 1280, height: 120 } });
  // The dropdown shows the newest page and offers the older ones.
  await page.getByTestId('notification-bell').click();
  await expect(page.getByTestId('notification-list').getByTestId('notification-item')).toHaveCount(20);
  await page.getByTestId('notification-older').click();
  await expect(page.getByTestId('notification-list').getByTestId('notification-item')).toHaveCount(40);
});
