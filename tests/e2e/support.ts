import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';

export { expect };

export const DEMO_PASSWORD = 'Demo1234!';

const accessTokens = new WeakMap<Page, string>();

/**
 * Remembers the newest access token the identity server's token endpoint hands this page. The app
 * keeps its tokens in memory only (not in web storage), so this is how a test gets one.
 */
export function watchAccessToken(page: Page) {
  if (accessTokens.has(page)) return;
  accessTokens.set(page, '');
  page.on('response', async (res) => {
    if (!res.url().includes('/identity/token') || res.request().method() !== 'POST' || !res.ok()) return;
    const body = await res.json().catch(() => null);
    if (typeof body?.access_token === 'string') accessTokens.set(page, body.access_token);
  });
}

/** The signed-in app's current access token (watchAccessToken must run before the sign-in). */
export async function accessTokenOf(page: Page): Promise<string> {
  await expect.poll(() => accessTokens.get(page), { message: 'an access token was issued to the page' }).toBeTruthy();
  return accessTokens.get(page)!;
}

/** Signs in through the real identity page and waits until the app shows `path`. */
export async function signIn(page: Page, email: string, path = '/dashboard') {
  watchAccessToken(page);
  await page.goto(path);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === path, { timeout: 30_000 });
  await expect(page.getByTestId('nav-dashboard')).toBeVisible({ timeout: 20_000 });
}

/** The WCAG 2.0 and 2.1 level A and AA rules of axe-core: what every screen must pass. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Scans the page with axe-core's WCAG 2.1 A/AA rules and fails with a readable list of what
 * violates them (rule, impact, elements, summary). Each scan is appended to $AXE_REPORT (JSON
 * lines; scripts/test.mjs sums them up after the end-to-end suite). `soft` records the failure
 * and lets the test go on, so one run lists every page's violations. `exclude` takes selectors of
 * third-party content the product cannot change (each caller says why).
 */
export async function expectAccessible(page: Page, label: string, opts: { soft?: boolean; exclude?: string[] } = {}) {
  const started = Date.now();
  // Let the UI settle: no request in flight, no progress bar, transitions over.
  await page.waitForLoadState('load');
  await page.locator('[role="progressbar"]').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
  await page.waitForTimeout(300);
  let builder = new AxeBuilder({ page }).withTags(WCAG_TAGS);
  for (const selector of opts.exclude ?? []) builder = builder.exclude(selector);
  const result = await builder.analyze();
  const violations = result.violations.map((v) => ({
    id: v.id,
    impact: v.impact ?? null,
    help: v.help,
    targets: v.nodes.map((n) => n.target.join(' ')),
    // e.g. "Element has insufficient color contrast of 3.1 (foreground color: #fff, …)"
    summary: (v.nodes[0]?.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 300),
  }));
  const report = process.env.AXE_REPORT;
  if (report) {
    mkdirSync(dirname(report), { recursive: true });
    appendFileSync(report, JSON.stringify({ label, url: page.url(), ms: Date.now() - started, violations }) + '\n');
  }
  const text = violations
    .map((v) => `  ${v.id} (${v.impact}, ${v.targets.length}): ${v.help}\n      ${v.summary}\n${v.targets.slice(0, 8).map((t) => `      ${t}`).join('\n')}`)
    .join('\n');
  (opts.soft ? expect.soft : expect)(violations, `axe-core WCAG 2.1 A/AA violations on ${label} (${page.url()}):\n${text}`).toEqual([]);
}

/**
 * The end-to-end `test`: after each journey that passed, the pages it ended on (every page still
 * open on the app, in the test's own browser context and in those it opened itself) are scanned
 * with expectAccessible, so a screen a journey opens cannot regress silently. A journey may opt out with `test.use({ axeAfterTest: false })`
 * (say why).
 */
export const test = base.extend<{ axeAfterTest: boolean; axeScan: void }>({
  axeAfterTest: [true, { option: true }],
  axeScan: [
    async ({ browser, context, axeAfterTest, baseURL }, use, testInfo) => {
      await use();
      if (!axeAfterTest || testInfo.status !== testInfo.expectedStatus || testInfo.status !== 'passed') return;
      const pages = new Set([...context.pages(), ...browser.contexts().flatMap((c) => c.pages())]);
      for (const page of pages) {
        if (page.isClosed() || !baseURL || !page.url().startsWith(baseURL)) continue;
        await expectAccessible(page, `end of "${testInfo.title}"`);
      }
    },
    { auto: true },
  ],
});
