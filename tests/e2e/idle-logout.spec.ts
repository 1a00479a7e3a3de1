import { signIn, expect, test } from './support';

/**
 * Auto-logout (spec 03 §2): the warning dialog counts down before the idle limit, "Stay signed
 * in" keeps the session, and at zero the user is signed out. Timings are shortened for the test
 * through the UI's localStorage hooks (15 min / 2 min in production).
 */
test('idle users get a countdown, can stay, and are signed out at zero', async ({ page, context }) => {
  await signIn(page, 'coordinator@itp.example.org');
  await page.evaluate(() => {
    localStorage.setItem('idleLogoutMs', '6000');
    localStorage.setItem('idleWarningMs', '4000');
  });
  await page.reload();
  await expect(page.getByTestId('nav-dashboard')).toBeVisible({ timeout: 20_000 });

  // Idle time is shared: activity in a second tab of the same browser would count too.
  const other = await context.newPage();
  await other.goto('/dashboard');
  await expect(other.getByTestId('nav-dashboard')).toBeVisible({ timeout: 20_000 });
  await other.close();

  await expect(page.getByTestId('idle-warning')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('idle-countdown')).toHaveText(/\d+:\d\d/);
  await page.getByTestId('idle-stay').click();
  await expect(page.getByTestId('idle-warning')).toHaveCount(0);

  // Left alone again: the dialog comes back and at zero the sign-in page appears.
  await expect(page.getByTestId('idle-warning')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible({ timeout: 30_000 });
});
