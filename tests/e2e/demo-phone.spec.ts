import path from 'node:path';
import { api } from '../support/api';
import { createCase, tampaDivisions } from '../support/cases';
import { db } from '../support/db';
import { signIn as signInApi } from '../support/oidc-client';
import { DEMO_PASSWORD, expect, test } from './support';

/**
 * The demo's phone (spec 03 §2 demo tools "phone calls, SMS"): a coordinator puts a case on hold,
 * the facility's phone rings in the local Twilio, and a person on the demo-tools page answers and
 * presses 1; the alert is confirmed in the case activity. Then an SMS alert is answered by reply.
 */
const SHOTS = path.resolve(__dirname, '..', '..', '.data', 'test', 'demo-phone-shots');

test('a person plays the facility phone on the demo-tools page: answers the alert call with 1, replies 1 to the SMS', async ({ page }) => {
  test.setTimeout(120_000);
  const itp = (await signInApi({ email: 'coordinator@itp.example.org', password: DEMO_PASSWORD })).accessToken;
  const tampa = await tampaDivisions();
  const phone = `+1813556${String(Date.now() % 10000).padStart(4, '0')}`;
  const onHold = async (method: 'PhoneCall' | 'SMS') => {
    const c = await createCase({ token: itp, facilityId: tampa.facilityId, divisionId: tampa.floorId, providerId: null, body: { contactPhoneNumber: phone, notificationSendingMethod: method, requestType: 'PlacementOnly' } });
    expect((await api('PUT', `/api/cases/${c.id}/status`, { token: itp, body: { status: 'OnHold_WaitingForPatient', note: 'Sleeping' } })).status).toBe(200);
    return c.id;
  };
  const alertStatus = async (caseId: number) => (await db.query('SELECT status FROM facility_alerts WHERE case_id = $1', [caseId])).rows[0]?.status;

  // Signed out, as the demo's phone would be.
  await page.goto('/demo-tools');
  const phonePanel = page.getByTestId('phone-simulator');
  await expect(phonePanel).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('phone-filter').fill(phone);

  const callCase = await onHold('PhoneCall');
  const ringing = page.getByTestId('phone-call-row').filter({ has: page.getByTestId('phone-answer-1') });
  await expect(ringing.first()).toBeVisible({ timeout: 15_000 });
  await phonePanel.screenshot({ path: `${SHOTS}/ringing.png` });
  await ringing.first().getByTestId('phone-answer-1').click();
  // The answered call shows the key pressed and what the nurse heard.
  const answered = page.getByTestId('phone-call-row').filter({ has: page.getByTestId('phone-call-digits').getByText('1', { exact: true }) });
  await expect(answered).toHaveCount(1, { timeout: 20_000 });
  await expect(answered.getByTestId('phone-call-spoken')).toContainText('is on hold: Sleeping');
  await expect.poll(() => alertStatus(callCase), { timeout: 15_000 }).toBe('confirmed');
  await phonePanel.screenshot({ path: `${SHOTS}/answered.png` });

  const smsCase = await onHold('SMS');
  await page.getByTestId('phone-tab-sms').click();
  const sms = page.getByTestId('phone-sms-row').filter({ hasText: 'Reply 1 to confirm' }).first();
  await expect(sms).toBeVisible({ timeout: 15_000 });
  await sms.getByTestId('phone-sms-reply').click();
  await expect(page.getByTestId('phone-reply-text')).toHaveValue('1');
  await page.getByTestId('phone-reply-send').click();
  await expect(page.getByTestId('phone-feedback')).toContainText('confirmation was recorded', { timeout: 15_000 });
  await expect.poll(() => alertStatus(smsCase), { timeout: 15_000 }).toBe('confirmed');
  await phonePanel.screenshot({ path: `${SHOTS}/sms-replied.png` });
});
