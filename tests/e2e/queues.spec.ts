import { mkdirSync } from 'node:fs';
import { type Page } from '@playwright/test';
import { createCase, tampaDivisions, uniqueLetters } from '../support/cases';
import { db } from '../support/db';
import { signIn as signInApi } from '../support/oidc-client';
import { DEMO_PASSWORD, signIn, expect, test } from './support';

/**
 * The request queues as users work them (spec 02 §2 "Queues"): the coordinator edits and cancels
 * requests from the ITP queue and sees the unread-assignment alert go when the provider opens the
 * case (live, in her open page); the provider starts an evaluation from his queue.
 */
const SHOTS = '/tmp/shots-queues';
const tokenOf = async (email: string) => (await signInApi({ email, password: DEMO_PASSWORD })).accessToken;

async function newRequest(lastName: string) {
  const tampa = await tampaDivisions();
  const providerId = (await db.query("SELECT id FROM users WHERE email = 'provider@itp.example.org'")).rows[0].id as number;
  return createCase({
    token: await tokenOf('coordinator@itp.example.org'),
    facilityId: tampa.facilityId,
    divisionId: tampa.floorId,
    providerId,
    patient: { firstName: `Queue${uniqueLetters()}`, lastName, dateOfBirth: '1979-06-15', gender: 'Female' },
  });
}

const rowOf = (page: Page, lastName: string) => page.getByTestId('queue-table').locator('tbody tr', { hasText: lastName });

async function search(page: Page, text: string) {
  await page.getByTestId('queue-search').fill(text);
}

test('the coordinator works the ITP queue: the alert goes when the provider opens the case, edit and cancel', async ({ browser }) => {
  mkdirSync(SHOTS, { recursive: true });
  const lastName = `Itpqueue${uniqueLetters()}`;
  const first = await newRequest(lastName);
  const second = await newRequest(lastName);
  const coordinator = await (await browser.newContext({ viewport: { width: 1356, height: 900 } })).newPage();
  await signIn(coordinator, 'coordinator@itp.example.org', '/dashboard');
  await coordinator.getByTestId('nav-queue').click();
  await expect(coordinator.getByTestId('page-title')).toHaveText('Request queue');
  await search(coordinator, lastName);
  await expect(coordinator.getByTestId('queue-table').locator('tbody tr')).toHaveCount(2);
  // Both were just sent to the provider: both carry the alert.
  await expect(rowOf(coordinator, lastName).getByTestId('queue-unread-alert')).toHaveCount(2);
  await coordinator.screenshot({ path: `${SHOTS}/itp-queue.png`, fullPage: true });

  // The provider opens the first case: its alert disappears from the open page without a reload.
  const provider = await (await browser.newContext({ viewport: { width: 1356, height: 900 } })).newPage();
  await signIn(provider, 'provider@itp.example.org', `/cases/${first.id}`);
  await expect(provider.getByTestId('requests-card')).toBeVisible();
  await expect(coordinator.getByTestId('queue-unread-alert')).toHaveCount(1);

  // Edit the second request's note from the queue.
  const secondRow = coordinator.getByTestId('queue-table').locator('tbody tr').filter({ has: coordinator.getByTestId('queue-unread-alert') });
  await secondRow.getByTestId('queue-edit').click();
  await coordinator.getByTestId('request-note').fill('Please call the charge nurse first');
  await coordinator.getByTestId('request-dialog-submit').click();
  await expect(coordinator.getByText('Request updated')).toBeVisible();
  expect((await db.query('SELECT note FROM requests WHERE id = $1', [second.requestId])).rows[0].note).toBe('Please call the charge nurse first');

  // Cancel it with a reason: it leaves the queue.
  await secondRow.getByTestId('queue-cancel').click();
  await coordinator.getByTestId('request-cancel-dialog-reason').fill('The patient was discharged');
  await coordinator.getByTestId('request-cancel-dialog-submit').click();
  await expect(coordinator.getByTestId('queue-table').locator('tbody tr')).toHaveCount(1);
  expect((await db.query('SELECT status FROM requests WHERE id = $1', [second.requestId])).rows[0].status).toBe('Canceled');
  await coordinator.screenshot({ path: `${SHOTS}/itp-queue-after.png`, fullPage: true });
});

test('the provider starts from his queue', async ({ page }) => {
  const lastName = `Provqueue${uniqueLetters()}`;
  const c = await newRequest(lastName);
  await page.setViewportSize({ width: 1356, height: 900 });
  await signIn(page, 'provider@itp.example.org', '/dashboard');
  await page.getByTestId('nav-queue').click();
  await expect(page.getByTestId('page-title')).toHaveText('My queue');
  await search(page, lastName);
  const row = rowOf(page, lastName);
  await expect(row).toHaveCount(1);
  // Gender and age, date of birth, the contact nurse's phone.
  await expect(row).toContainText('Female');
  await expect(row).toContainText('(813) 555-0199');
  await page.screenshot({ path: `${SHOTS}/provider-queue.png`, fullPage: true });
  await row.getByTestId('queue-patient').click();
  await expect(page).toHaveURL(new RegExp(`/cases/${c.id}$`));
  await page.getByTestId(`request-row-${c.requestId}`).getByTestId('request-evaluation').click();
  await expect(page).toHaveURL(new RegExp(`/cases/${c.id}/requests/${c.requestId}/evaluation$`));
});
