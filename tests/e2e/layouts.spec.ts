import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { type Page } from '@playwright/test';
import { api } from '../support/api';
import { contactingCase, tampaDivisions, uniqueLetters } from '../support/cases';
import { signIn as signInApi } from '../support/oidc-client';
import { DEMO_PASSWORD, expect, signIn, test } from './support';

/**
 * Layouts (issue 18): the coordinator's dashboard, a case page and the call log at 1024 × 768, on
 * 10-inch tablets in landscape (1280 × 800, 1194 × 834) and at 200 % zoom of a 1280 × 800 window
 * (640 × 400 CSS pixels): the page itself never scrolls sideways (wide tables scroll in their own
 * box). Screenshots in .data/test/screenshots/.
 */
const SHOTS = path.resolve(__dirname, '..', '..', '.data', 'test', 'screenshots');
const SIZES = [
  { name: '1024x768', width: 1024, height: 768, scale: 1 },
  { name: 'tablet-1280x800', width: 1280, height: 800, scale: 1 },
  { name: 'tablet-1194x834', width: 1194, height: 834, scale: 1 },
  { name: 'zoom200-1280x800', width: 640, height: 400, scale: 2 },
];
const DIVISION = 'Adult Inpatient Unit';
const FACILITY = 'Sunrise Behavioral Health Hospital';
const tokenOf = async (email: string) => (await signInApi({ email, password: DEMO_PASSWORD })).accessToken;

/** How far the page scrolls sideways (0: not at all), and the widest element sticking out. */
async function sideways(page: Page) {
  return page.evaluate(() => {
    const over = document.documentElement.scrollWidth - window.innerWidth;
    let culprit = '';
    if (over > 0) {
      let widest = 0;
      for (const el of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
        const r = el.getBoundingClientRect();
        if (r.right > window.innerWidth + 1 && r.width > 0 && r.right > widest) {
          // Only the outermost element of a chain that sticks out, and none a box of its own clips.
          if (el.parentElement && el.parentElement.getBoundingClientRect().right > window.innerWidth + 1) continue;
          let clipped = false;
          for (let p = el.parentElement; p && p !== document.body && !clipped; p = p.parentElement) clipped = getComputedStyle(p).overflowX !== 'visible';
          if (clipped) continue;
          widest = r.right;
          const name = (e: Element) => `${e.tagName.toLowerCase()}.${String(e.className).split(' ').slice(0, 2).join('.')}${e.getAttribute('data-testid') ? `[${e.getAttribute('data-testid')}]` : ''}`;
          const chain: string[] = [];
          for (let p: Element | null = el; p && chain.length < 5; p = p.parentElement) chain.push(name(p));
          culprit = `${chain.join(' < ')}: right ${Math.round(r.right)}`;
        }
      }
    }
    return { over, culprit };
  });
}

test('the dashboard, the case page and the call log fit 1024 × 768, tablets and 200 % zoom without sideways scrolling', async ({ browser, baseURL }) => {
  test.setTimeout(300_000);
  mkdirSync(SHOTS, { recursive: true });
  const itp = await tokenOf('coordinator@itp.example.org');
  const provider = await tokenOf('provider@itp.example.org');
  const providerId = (await api('GET', '/api/user/context', { token: provider })).body.id as number;
  const tampa = await tampaDivisions();
  const caseId = await contactingCase({
    token: itp,
    providerToken: provider,
    facilityId: tampa.facilityId,
    divisionId: tampa.floorId,
    providerId,
    patient: { firstName: `Layout${uniqueLetters()}`, lastName: 'Tablet', dateOfBirth: '1979-04-04', gender: 'Male' },
  });

  const problems: string[] = [];
  for (const size of SIZES) {
    const ctx = await browser.newContext({ baseURL, viewport: { width: size.width, height: size.height }, deviceScaleFactor: size.scale });
    const page = await ctx.newPage();
    page.on('dialog', (d) => void d.accept());
    await signIn(page, 'coordinator@itp.example.org');

    // The dashboard.
    await expect(page.getByTestId('calls-card')).toBeVisible({ timeout: 20_000 });
    await page.waitForLoadState('networkidle').catch(() => undefined);
    await page.screenshot({ path: `${SHOTS}/dashboard-${size.name}.png`, fullPage: true });
    await page.screenshot({ path: `${SHOTS}/dashboard-${size.name}-window.png` });
    let s = await sideways(page);
    if (s.over > 0) problems.push(`dashboard ${size.name}: ${s.over}px (${s.culprit})`);
    // At a normal zoom the navigation bar keeps one row (64 px), however narrow the screen.
    const bar = await page.getByRole('navigation', { name: 'Main navigation' }).boundingBox();
    if (size.scale === 1 && bar && bar.height > 80) problems.push(`navigation bar ${size.name}: ${bar.height.toFixed(0)}px tall`);

    // The case page.
    await page.goto(`/cases/${caseId}`);
    await expect(page.getByTestId('case-status-chip')).toBeVisible({ timeout: 20_000 });
    await page.waitForLoadState('networkidle').catch(() => undefined);
    await page.screenshot({ path: `${SHOTS}/case-page-${size.name}.png`, fullPage: true });
    await page.screenshot({ path: `${SHOTS}/case-page-${size.name}-window.png` });
    s = await sideways(page);
    if (s.over > 0) problems.push(`case page ${size.name}: ${s.over}px (${s.culprit})`);

    // The call log of Sunrise's Adult Inpatient Unit, claimed from the calls card with the row's Claim button.
    await page.goto('/dashboard');
    const card = page.getByTestId('calls-card');
    await page.getByTestId('calls-card-facility-filter').fill('Sunrise');
    const within = page.getByTestId('calls-card-within-two-hours');
    if (await within.isChecked()) await within.uncheck();
    await expect(card.getByTestId('calls-card-row').filter({ hasNotText: FACILITY })).toHaveCount(0, { timeout: 15_000 });
    const row = card.getByTestId('calls-card-row').filter({ hasText: FACILITY }).filter({ hasText: DIVISION });
    await row.getByTestId('calls-card-claim-button').click();
    await page.waitForURL(/\/call-log\/claim\/\d+$/, { timeout: 20_000 });
    const taskRow = page.locator(`[data-testid="call-log-row"][data-case-id="${caseId}"]`);
    await expect(taskRow).toBeVisible({ timeout: 20_000 });
    await taskRow.getByTestId('call-log-row-select').check();
    await expect(page.getByTestId('call-log-entry')).toHaveCount(1);
    await page.screenshot({ path: `${SHOTS}/call-log-${size.name}.png`, fullPage: true });
    await page.screenshot({ path: `${SHOTS}/call-log-${size.name}-window.png` });
    s = await sideways(page);
    if (s.over > 0) problems.push(`call log ${size.name}: ${s.over}px (${s.culprit})`);
    await page.getByTestId('call-log-cancel').click();
    await page.waitForURL((u) => u.pathname === '/dashboard', { timeout: 20_000 });
    await ctx.close();
  }
  expect(problems).toEqual([]);
});
