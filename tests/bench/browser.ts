/**
 * Browser benchmark (issue: performance at the limit, "the browser"): in Chromium, a coordinator
 * opens the dashboard, a case page and the call log, each loaded afresh several times, with
 * `web-vitals` in the page:
 * - Largest Contentful Paint of each load (target < 1.0 s locally): the first load of the session
 *   (cold cache) and the later ones (warm: the built files are cached as immutable);
 * - Interaction to Next Paint over a few ordinary interactions on each page (target < 100 ms);
 * - the initial JavaScript of the dashboard: every script the first load fetched before the page
 *   showed its content, as served (brotli) and as gzip (target < 400 KB gzip).
 * Run by `npm run bench` (scripts/bench.mjs), or alone with API_URL, DATABASE_URL and CHROMIUM_PATH.
 */
import { readFileSync, statSync } from 'fs';
import path from 'path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { api } from '../support/api';
import { contactingCase, tampaDivisions } from '../support/cases';
import { db } from '../support/db';
import { signIn as signInApi } from '../support/oidc-client';

const API_URL = process.env.API_URL ?? 'http://127.0.0.1:3200';
const LOADS = Number(process.env.BENCH_BROWSER_LOADS ?? 6);
const PASSWORD = 'Demo1234!';
const COORDINATOR = 'coordinator@itp.example.org';
const DIST = path.join(__dirname, '..', '..', 'admin-ui', 'dist');

// web-vitals' own build, put into every page before the app's scripts run.
const WEB_VITALS = readFileSync(path.join(path.dirname(require.resolve('web-vitals')), 'web-vitals.iife.js'), 'utf8');
const COLLECT = `
  window.__vitals = { lcp: null, inp: null };
  webVitals.onLCP((m) => { window.__vitals.lcp = m.value; }, { reportAllChanges: true });
  webVitals.onINP((m) => { window.__vitals.inp = m.value; }, { reportAllChanges: true, durationThreshold: 0 });
`;

interface Sample {
  lcp: number;
  inp: number | null;
  /** Milliseconds from the navigation's start to each step of the load (see STEPS). */
  steps: Record<string, number>;
}

/**
 * The steps of a page load, in order: the page's HTML, its scripts run, and the start-up marks of
 * admin-ui/src/bootstrap/Bootstrap.tsx (settings, the silent sign-in, the user's profile, the app
 * handed to React); then the content (LCP). The differences say where a load's time goes.
 */
const STEPS = ['html', 'boot:scripts-run', 'boot:settings', 'boot:signed-in', 'boot:profile', 'boot:app', 'lcp'] as const;

async function loadSteps(page: Page): Promise<Record<string, number>> {
  return page.evaluate(() => {
    const out: Record<string, number> = {};
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    if (nav) out.html = nav.responseEnd;
    for (const m of performance.getEntriesByType('mark')) if (m.name.startsWith('boot:')) out[m.name] = m.startTime;
    return out;
  });
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
};
const ms = (x: number | null | undefined) => (x == null || Number.isNaN(x) ? '—' : `${x.toFixed(0)} ms`);

async function vitals(page: Page): Promise<{ lcp: number | null; inp: number | null }> {
  // LCP is final once the user interacts; INP is read after the interactions below.
  return page.evaluate(() => (window as unknown as { __vitals: { lcp: number | null; inp: number | null } }).__vitals);
}

/** Signs in through the identity page, as a coordinator does, and lands on the dashboard. */
async function signInBrowser(page: Page) {
  await page.goto(`${API_URL}/dashboard`);
  await page.getByLabel('Email').fill(COORDINATOR);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('nav-dashboard').waitFor({ timeout: 60_000 });
}

/**
 * A case being placed, and the call log's URL: a claim of one of its divisions, taken when the call
 * log's loads start (a claim lasts 60 s unless the page renews it, less than the other pages' loads
 * may take on a busy machine).
 */
async function placedCase(): Promise<{ caseId: number; claimUrl: () => Promise<string> }> {
  const token = (await signInApi({ email: COORDINATOR, password: PASSWORD })).accessToken;
  const providerToken = (await signInApi({ email: 'provider@itp.example.org', password: PASSWORD })).accessToken;
  const providerId = (await api('GET', '/api/user/context', { token: providerToken })).body.id as number;
  const tampa = await tampaDivisions();
  const caseId = await contactingCase({ token, providerToken, facilityId: tampa.facilityId, divisionId: tampa.floorId, providerId });
  const { rows } = await db.query('SELECT division_id FROM placement_tasks WHERE case_id = $1 ORDER BY id LIMIT 1', [caseId]);
  if (!rows[0]) throw new Error('the case has no placement task');
  const claimUrl = async () => {
    const claim = await api('POST', `/api/placement-tasks/division/${rows[0].division_id}/claim`, { token, body: {} });
    if (claim.status !== 200 && claim.status !== 201) throw new Error(`claim: ${claim.status} ${JSON.stringify(claim.body)}`);
    return `/call-log/claim/${(claim.body as { claimId: number }).claimId}`;
  };
  return { caseId, claimUrl };
}

interface Screen {
  name: string;
  url: string | (() => Promise<string>);
  /** The element whose arrival means the page shows its content. */
  ready: (page: Page) => Promise<void>;
  /** Ordinary interactions, for INP. */
  interact: (page: Page) => Promise<void>;
}

async function measure(browser: Browser, screens: Screen[]) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  await context.addInitScript({ content: `${WEB_VITALS};${COLLECT}` });
  const first = await context.newPage();
  // The first load of the session, cold cache: the scripts fetched until the dashboard shows.
  const scripts = new Map<string, number>();
  first.on('response', async (res) => {
    if (res.request().resourceType() !== 'script') return;
    const size = Number((await res.headerValue('content-length')) ?? 0) || (await res.body().catch(() => Buffer.alloc(0))).length;
    scripts.set(new URL(res.url()).pathname, size);
  });
  await signInBrowser(first);
  await screens[0].ready(first);
  const initial = new Map(scripts);
  const coldLcp = (await vitals(first)).lcp;
  await first.close();

  const results: Array<{ screen: Screen; samples: Sample[] }> = [];
  for (const screen of screens) {
    const samples: Sample[] = [];
    const url = typeof screen.url === 'string' ? screen.url : await screen.url();
    for (let i = 0; i < LOADS; i++) {
      const page = await context.newPage();
      await page.goto(`${API_URL}${url}`);
      await screen.ready(page).catch(async (err) => {
        await page.screenshot({ path: `/tmp/bench-browser-${screen.name.replace(' ', '-')}.png` });
        throw err;
      });
      await page.waitForTimeout(300);
      await screen.interact(page);
      await page.waitForTimeout(300);
      const v = await vitals(page);
      const steps = await loadSteps(page);
      if (v.lcp != null) steps.lcp = v.lcp;
      samples.push({ lcp: v.lcp ?? NaN, inp: v.inp, steps });
      await page.close();
    }
    results.push({ screen, samples });
  }
  await context.close();
  return { initial, coldLcp, results };
}

function gzipSize(file: string): number | null {
  try {
    return statSync(path.join(DIST, `${file}.gz`)).size;
  } catch {
    return null;
  }
}

async function main() {
  const { caseId, claimUrl } = await placedCase();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
  });
  const screens: Screen[] = [
    {
      name: 'dashboard',
      url: '/dashboard',
      ready: (p) => p.getByTestId('calls-card').waitFor({ timeout: 60_000 }),
      interact: async (p) => {
        await p.getByTestId('notification-bell').click();
        await p.keyboard.press('Escape');
        await p.getByTestId('calls-card-facility-filter').click();
        await p.keyboard.type('Sun', { delay: 50 });
      },
    },
    {
      name: 'case page',
      url: `/cases/${caseId}`,
      ready: (p) => p.getByTestId('case-patient-name').waitFor({ timeout: 60_000 }),
      interact: async (p) => {
        await p.getByTestId('notification-bell').click();
        await p.keyboard.press('Escape');
        await p.getByTestId('case-patient-name').click();
      },
    },
    {
      name: 'call log',
      url: claimUrl,
      ready: (p) => p.getByTestId('call-log-row').first().waitFor({ timeout: 60_000 }),
      interact: async (p) => {
        await p.getByTestId('call-log-row').first().locator('input[type="checkbox"]').first().click();
        await p.getByTestId('notification-bell').click();
        await p.keyboard.press('Escape');
      },
    },
  ];
  let out: Awaited<ReturnType<typeof measure>>;
  try {
    out = await measure(browser, screens);
  } finally {
    await browser.close();
  }

  const verdicts: Array<[string, boolean]> = [];
  console.log(`\nChromium, a coordinator, ${LOADS} loads of each page after the session's first (1366 × 900)`);
  let allLcp: number[] = [];
  let allInp: number[] = [];
  for (const { screen, samples } of out.results) {
    const lcp = samples.map((s) => s.lcp).filter((x) => !Number.isNaN(x));
    const inp = samples.map((s) => s.inp).filter((x): x is number => x != null);
    allLcp = allLcp.concat(lcp);
    allInp = allInp.concat(inp);
    console.log(`  ${screen.name.padEnd(10)} LCP p50 ${ms(pct(lcp, 50))}  p75 ${ms(pct(lcp, 75))}  max ${ms(Math.max(...lcp))}   INP p75 ${ms(pct(inp, 75))}  max ${ms(Math.max(...inp))}`);
    // Median time of each step since the navigation started, and what the step itself took.
    let before = 0;
    const timeline = STEPS.map((step) => {
      const at = pct(samples.map((x) => x.steps[step]).filter((x) => x != null), 50);
      const took = at - before;
      if (!Number.isNaN(at)) before = at;
      return Number.isNaN(at) ? `${step} —` : `${step.replace('boot:', '')} ${at.toFixed(0)} (+${took.toFixed(0)})`;
    });
    console.log(`             load steps, median ms since navigation (+ the step): ${timeline.join(' · ')}`);
  }
  console.log(`  first load of the session (cold cache, sign-in redirect included): dashboard LCP ${ms(out.coldLcp)}`);
  let served = 0;
  let gzip = 0;
  for (const [file, size] of out.initial) {
    served += size;
    gzip += gzipSize(file) ?? size;
  }
  console.log(`  initial JavaScript of the dashboard: ${out.initial.size} files, ${(gzip / 1024).toFixed(0)} KB gzip (${(served / 1024).toFixed(0)} KB as served)`);
  for (const [file, size] of [...out.initial].sort((a, b) => b[1] - a[1])) console.log(`    ${file.padEnd(48)} ${((gzipSize(file) ?? size) / 1024).toFixed(1)} KB gzip`);
  verdicts.push(['LCP p75 < 1.0 s (dashboard, case page, call log)', pct(allLcp, 75) < 1000]);
  verdicts.push(['INP p75 < 100 ms', pct(allInp, 75) < 100]);
  verdicts.push(['initial JavaScript < 400 KB gzip', gzip < 400 * 1024]);
  console.log('');
  for (const [name, ok] of verdicts) console.log(`  ${ok ? 'met   ' : 'MISSED'}  ${name}`);
  await db.end();
  process.exitCode = 0;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
