import { api } from '../support/api';
import { signIn as signInApi } from '../support/oidc-client';
import { DEMO_PASSWORD, signIn, expect, test } from './support';

/**
 * The ITP admin connects a facility to its EHR (issue 16, README "EHR (FHIR R4)"): she fills in the
 * FHIR endpoint and client id, generates a key, sees the test refused until the hospital registers
 * the public JWKS (here: the local FHIR server's control API), then sees the test succeed.
 */
test('the ITP admin connects a facility to its EHR and tests the connection', async ({ page }) => {
  const ehr = process.env.EHR_LOCAL_BASE_URL!;
  const run = Date.now().toString(36).toUpperCase();
  const { accessToken: token } = await signInApi({ email: 'admin@itp.example.org', password: DEMO_PASSWORD });
  const facility = await api('POST', '/api/facilities', {
    token,
    body: {
      name: `E2E EHR Hospital ${run}`,
      isActive: true,
      isGeoPositionManually: true,
      address: { streetLine: '7 Fhir Way', city: 'Tampa', state: 'FL', zipCode: String(33000 + Math.floor(Math.random() * 900)) },
      geoPosition: { latitude: 27.95, longitude: -82.46 },
    },
  });
  expect(facility.status).toBe(201);
  const id = facility.body.id as number;
  const clientId = `e2e-client-${run}`;

  await signIn(page, 'admin@itp.example.org', `/facilities/${id}/evaluation-forms`);
  const card = page.getByTestId('ehr-connection-card');
  await expect(card).toBeVisible({ timeout: 20_000 });

  // The shared schema's messages on a bad URL.
  await card.getByTestId('ehr-baseUrl').fill('not a url');
  await card.getByTestId('ehr-save').click();
  await expect(card.getByText('Invalid format').first()).toBeVisible();

  await card.getByTestId('ehr-baseUrl').fill(ehr);
  await card.getByTestId('ehr-tokenUrl').fill(`${ehr}/oauth2/token`);
  await card.getByTestId('ehr-clientId').fill(clientId);
  await card.getByTestId('ehr-save').click();
  await expect(page.getByText('EHR connection saved')).toBeVisible();

  await card.getByTestId('ehr-generate-key').click();
  const jwksBox = card.getByTestId('ehr-jwks');
  await expect(jwksBox).toBeVisible();
  const jwks = JSON.parse(await jwksBox.inputValue());
  expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS384' });
  expect(jwks.keys[0].d).toBeUndefined();
  await expect(card.getByText('stored (never shown)')).toBeVisible();

  // Not yet registered with the EHR: refused, with what to check.
  await card.getByTestId('ehr-test').click();
  await expect(card.getByTestId('ehr-test-result')).toContainText(`The EHR refused the client assertion: the key does not match the public key registered for client ${clientId}`);

  // The hospital registers the public JWKS.
  const reg = await fetch(`${ehr}/local/clients`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientId, jwks }) });
  expect(reg.status).toBe(201);
  await card.getByTestId('ehr-test').click();
  await expect(card.getByTestId('ehr-test-result')).toContainText('Connected: FHIR 4.0.1, crisis fhir-local 1.0');
  await card.screenshot({ path: `${test.info().outputDir}/ehr-connection-card.png` });
  await page.screenshot({ path: `${test.info().outputDir}/ehr-connection-page.png`, fullPage: true });
});
