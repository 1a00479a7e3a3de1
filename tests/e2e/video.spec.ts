import { type BrowserContext } from '@playwright/test';
import { api } from '../support/api';
import { createCase, tampaDivisions } from '../support/cases';
import { db } from '../support/db';
import { pdfText } from '../support/files';
import { signIn as signInApi } from '../support/oidc-client';
import { DEMO_PASSWORD, signIn, expect, test } from './support';

/**
 * The video evaluation (spec 01 §4 "Video meeting", 02 §2 "Video evaluation", §9 facility
 * video-call logout delay 2 seconds): the provider creates the meeting link on the evaluation
 * screen and joins (the Jitsi room opens in a new tab, answered here without the internet), the
 * facility user joins for the patient from the case page and is signed out onto a blank page
 * 2 seconds later; an ended meeting disables join with its tooltip until the provider recreates
 * it; the evaluation PDF opens from the screen.
 */
const tokenOf = async (email: string) => (await signInApi({ email, password: DEMO_PASSWORD })).accessToken;
const MEETING_URL = /^https:\/\/meet\.jit\.si\/crisis-[0-9a-f]{32}/;

/** The meeting service is not called: its pages are answered locally. */
async function withoutJitsi(context: BrowserContext) {
  await context.route('https://meet.jit.si/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<html><body>meeting room</body></html>' }));
}

test('the provider creates and joins the meeting, the facility joins for the patient and is signed out, the evaluation PDF opens', async ({ browser }) => {
  test.setTimeout(240_000);
  const tampa = await tampaDivisions();
  const coordinatorToken = await tokenOf('coordinator@itp.example.org');
  const providerToken = await tokenOf('provider@itp.example.org');
  const providerId = (await db.query("SELECT id FROM users WHERE email = 'provider@itp.example.org'")).rows[0].id;
  const c = await createCase({ token: coordinatorToken, facilityId: tampa.facilityId, divisionId: tampa.edId, providerId });
  for (const step of ['in-progress', 'evaluation/start']) expect((await api('PUT', `/api/requests/${c.requestId}/${step}`, { token: providerToken })).status).toBe(200);
  // Something saved, so there is an evaluation to print.
  const view = (await api('GET', `/api/requests/${c.requestId}/evaluation`, { token: providerToken })).body;
  expect((await api('PUT', `/api/requests/${c.requestId}/evaluation`, { token: providerToken, body: { version: view.version, recommendationNote: 'Seen by video' } })).status).toBe(200);

  const providerContext = await browser.newContext({ viewport: { width: 1356, height: 1000 }, acceptDownloads: true });
  const facilityContext = await browser.newContext({ viewport: { width: 1356, height: 1000 } });
  await Promise.all([withoutJitsi(providerContext), withoutJitsi(facilityContext)]);
  try {
    // ── The provider on the evaluation screen: no link yet, then creates it and joins ─────────
    const provider = await providerContext.newPage();
    await signIn(provider, 'provider@itp.example.org', `/cases/${c.id}/requests/${c.requestId}/evaluation`);
    const video = provider.getByTestId('evaluation-video');
    await expect(video.getByTestId('video-meeting')).toHaveAttribute('data-state', 'missing');
    await expect(video.getByTestId('meeting-join')).toBeDisabled();
    await expect(video.getByTestId('meeting-join')).toHaveAttribute('aria-description', 'The meeting link is missing: create it first');
    await video.getByTestId('meeting-recreate').click();
    await expect(video.getByTestId('video-meeting')).toHaveAttribute('data-state', 'open');
    await expect(video.getByTestId('meeting-provider-joined')).toHaveAttribute('data-joined', 'false');
    const [providerTab] = await Promise.all([provider.waitForEvent('popup'), video.getByTestId('meeting-join').click()]);
    await providerTab.waitForURL(MEETING_URL);
    const room = new URL(providerTab.url()).pathname;
    await expect(video.getByTestId('meeting-provider-joined')).toHaveAttribute('data-joined', 'true');
    await providerTab.close();

    // ── The evaluation PDF from the screen ────────────────────────────────────────────────────
    const [pdf] = await Promise.all([provider.waitForEvent('download'), provider.getByTestId('evaluation-pdf').click()]);
    expect(pdf.suggestedFilename()).toMatch(new RegExp(`-evaluation-${c.requestId}\\.pdf$`));
    const text = (await pdfText(require('fs').readFileSync(await pdf.path()))).text.replace(/\s+/g, ' ');
    expect(text).toContain('Evaluation #');
    expect(text).toContain('Seen by video');
    expect(text).toContain('Clara Nguyen · NPI 1457382910');

    // ── The facility user joins for the patient from the case page, and is signed out ────────
    const facility = await facilityContext.newPage();
    await signIn(facility, 'er@tampageneral.example.org', `/cases/${c.id}`);
    const row = facility.getByTestId(`request-video-${c.requestId}`);
    await expect(row.getByTestId('meeting-patient-joined')).toHaveAttribute('data-joined', 'false');
    await expect(row.getByTestId('meeting-recreate')).toHaveCount(0); // the facility joins, it does not create
    const [patientTab] = await Promise.all([facility.waitForEvent('popup'), row.getByTestId('meeting-join-patient').click()]);
    const joinedAt = Date.now();
    await patientTab.waitForURL(MEETING_URL);
    expect(new URL(patientTab.url()).pathname).toBe(room);
    await facility.waitForURL((url) => url.pathname === '/blank', { timeout: 20_000 });
    expect(Date.now() - joinedAt).toBeGreaterThanOrEqual(1_900);
    await expect(facility.locator('#root')).toBeEmpty();
    // Signed out at the identity server too: the app asks for the password again.
    await facility.goto('/dashboard');
    await expect(facility.getByLabel('Password')).toBeVisible({ timeout: 20_000 });
    expect((await api('GET', `/api/requests/${c.requestId}/evaluation/online-meeting`, { token: providerToken })).body).toMatchObject({ isProviderJoined: true, isPatientJoined: true });

    // ── The meeting ends: join is disabled with its tooltip; the provider recreates it ────────
    await db.query(`UPDATE online_meetings SET ended_at = now(), ended_reason = 'idle' WHERE request_id = $1 AND ended_at IS NULL`, [c.requestId]);
    await provider.reload();
    await expect(video.getByTestId('video-meeting')).toHaveAttribute('data-state', 'ended');
    await expect(video.getByTestId('meeting-join')).toBeDisabled();
    await expect(video.getByTestId('meeting-join')).toHaveAttribute('aria-description', 'The video meeting has ended: recreate the link to start a new one');
    await video.getByTestId('meeting-join').locator('..').hover();
    await expect(provider.getByRole('tooltip')).toHaveText('The video meeting has ended: recreate the link to start a new one');
    await video.getByTestId('meeting-recreate').click();
    await expect(video.getByTestId('meeting-join')).toBeEnabled();
    await expect(video.getByTestId('meeting-patient-joined')).toHaveAttribute('data-joined', 'false');
  } finally {
    await providerContext.close();
    await facilityContext.close();
  }
});
