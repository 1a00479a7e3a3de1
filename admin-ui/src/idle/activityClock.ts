/** The last user activity, shared by every tab through localStorage (spec 03 §2 auto-logout). */
export const LAST_ACTIVITY_KEY = 'crisis.lastActivity';

export function markActivity(at = Date.now()) {
  window.localStorage.setItem(LAST_ACTIVITY_KEY, String(at));
}

export function lastActivity(): number {
  const v = Number(window.localStorage.getItem(LAST_ACTIVITY_KEY));
  return Number.isFinite(v) && v > 0 ? v : Date.now();
}

export const ACTIVITY_EVENTS = ['mousedown', 'mousemove', 'keydown', 'wheel', 'scroll', 'touchstart'] as const;
