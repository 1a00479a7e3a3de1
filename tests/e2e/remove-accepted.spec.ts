import { api, eventually } from '../support/api';
import { contactingCase } from '../support/cases';
import { db } from '../support/db';
import { signIn as signInApi } from '../support/oidc-client';
import { DEMO_PASSWORD, signIn, expect, test } from './support';

/**
 * Remove from accepted on the case page (spec 01 §4): a case accepted by Sunrise's Adult
 * Inpatient Unit; the coordinator takes the acceptance back from the status controls, and the
 * case, accepted by no other division, is back to contacting service organizations.
 */
const tokenOf = async (email: string) => (await signInApi({ email, password: DEMO_PASSWORD })).accessToken;

test('a coordinator removes a case from a facility\'s accepted list on the case page', async ({ page }) => {
  const coordinator = await tokenOf('coordinator@itp.example.org');
  const provider = await tokenOf('provider@itp.example.org');
  const ids = (
    await db.query(
      `SELECT f.id AS "facilityId", d.id AS "divisionId", (SELECT id FROM users WHERE email = 'provider@itp.example.org') AS "providerId",
              (SELECT sd.id FROM divisions sd JOIN facilities sf ON sf.id = sd.facility_id
                WHERE sf.name = 'Sunrise Behavioral Health Hospital' AND sd.name = 'Adult Inpatient Unit') AS "sunrise"
         FROM facilities f JOIN divisions d ON d.facility_id = f.id WHERE f.name = 'Tampa Bay General Hospital' AND d.name = 'Medical Floor 5 West'`,
    )
  ).rows[0];
  const caseId = await contactingCase({ token: coordinator, providerToken: provider, facilityId: ids.facilityId, divisionId: ids.divisionId, providerId: ids.providerId, patient: { lastName: 'Unaccepted' } });
  const claim = await api('POST', `/api/placement-tasks/division/${ids.sunrise}/claim`, { token: coordinator, body: {} });
  expect(claim.status).toBe(200);
  const task = (await db.query('SELECT id FROM placement_tasks WHERE case_id = $1 AND division_id = $2', [caseId, ids.sunrise])).rows[0].id;
  const saved = await api('PUT', `/api/placement-tasks/claim/${claim.body.claimId}/calls`, {
    token: coordinator,
    body: { calls: [{ placementTaskId: task, result: 'PatientAccepted', spokeWith: 'Intake nurse', accept: { male: { adult: true } } }] },
  });
  expect(saved.status).toBe(200);
  await api('PUT', `/api/placement-tasks/claim/${claim.body.claimId}/release`, { token: coordinator });
  await eventually(async () => (await api('GET', `/api/cases/${caseId}`, { token: coordinator })).body?.status === 'ServicesLocated_WaitingForConfirmation', 'case waiting for confirmation', 20_000);

  await page.setViewportSize({ width: 1356, height: 900 });
  await signIn(page, 'coordinator@itp.example.org', `/cases/${caseId}`);
  await page.getByTestId('case-remove-accepted').click();
  const dialog = page.getByTestId('remove-accepted-dialog');
  await expect(dialog).toContainText('Sunrise Behavioral Health Hospital — Adult Inpatient Unit');
  // The only accepting division is preselected.
  await expect(page.getByTestId(`remove-accepted-division-${ids.sunrise}`).locator('input')).toBeChecked();
  await page.getByTestId('remove-accepted-confirm').click();
  await expect(page.getByText('Removed from accepted')).toBeVisible({ timeout: 15_000 });
  await eventually(async () => (await api('GET', `/api/cases/${caseId}`, { token: coordinator })).body?.status === 'LocatingServices_ContactingServiceOrganization', 'case back to contacting', 20_000);
  await expect(page.getByTestId('case-remove-accepted')).toBeHidden({ timeout: 15_000 });
  expect((await db.query('SELECT accepted_at FROM case_referring_access WHERE case_id = $1', [caseId])).rows.every((r) => r.accepted_at === null)).toBe(true);
});
