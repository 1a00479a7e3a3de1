const KEY = 'crisis.idleLogoutLeader';
const SETTLE_MS = 150;

/**
 * When the idle time runs out every open tab reaches zero at once; only one of them must go
 * through the identity server's sign-out (two concurrent end-session requests spoil each other).
 * Last writer wins; the others follow through the storage event of the removed user.
 */
export async function claimLogoutLeadership(): Promise<boolean> {
  const me = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const current = window.localStorage.getItem(KEY);
  if (current && Date.now() - Number(current.split('-')[0]) < 10_000) return false;
  window.localStorage.setItem(KEY, me);
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  return window.localStorage.getItem(KEY) === me;
}
