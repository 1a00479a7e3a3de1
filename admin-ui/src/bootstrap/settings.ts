import type { AppSettings } from '@crisis/forms/core';
import { setInternationalPhonesSetting } from '../common/phone';

/** Test hooks: timings may be shortened with localStorage.setItem('idleLogoutMs', ...). */
function overrideNumber(key: string, fallback: number): number {
  const raw = window.localStorage.getItem(key);
  const n = raw === null ? NaN : Number(raw);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

/** GET /api/settings (public): the first call the app makes. */
export async function loadSettings(): Promise<AppSettings> {
  const res = await fetch('/api/settings', { headers: { Accept: 'application/json' } });
  if (!res.ok) throw new Error(`Could not load the application settings (HTTP ${res.status})`);
  const settings = (await res.json()) as AppSettings;
  // Kept for the phone checks (not set on @crisis/forms here: that would put libphonenumber-js in the first load).
  setInternationalPhonesSetting(settings.internationalPhones);
  return {
    ...settings,
    idleLogoutMs: overrideNumber('idleLogoutMs', settings.idleLogoutMs),
    idleWarningMs: overrideNumber('idleWarningMs', settings.idleWarningMs),
  };
}
