// End-to-end journeys in Debian's Chromium against the stack `npm test` starts
// (scripts/test.mjs passes API_URL and CHROMIUM_PATH). No browser download: playwright-core
// drives the system Chromium through executablePath.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/global-setup.ts',
  workers: 1,
  // One retry: a journey drives a live stack (timers, sockets, two browsers). A test that fails,
  // then passes, counts as passed and `npm test` names it as flaky at the end of the run.
  retries: 1,
  timeout: 60_000,
  outputDir: '../.data/test/e2e-results',
  use: {
    baseURL: process.env.API_URL,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    screenshot: 'only-on-failure',
  },
});
