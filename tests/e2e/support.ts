import { expect, type Page } from '@playwright/test';

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
