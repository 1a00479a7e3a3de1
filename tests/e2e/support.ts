import { expect, type Page } from '@playwright/test';

export const DEMO_PASSWORD = 'Demo1234!';

/** Signs in through the real identity page and waits until the app shows `path`. */
export async function signIn(page: Page, email: string, path = '/dashboard') {
  await page.goto(path);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === path, { timeout: 30_000 });
  await expect(page.getByTestId('nav-dashboard')).toBeVisible({ timeout: 20_000 });
}
