import type { AppSettings } from '@crisis/forms';

/** The page a tab shows once the user signed out (here, in another tab, or by inactivity). */
export const SIGNED_OUT_PATH = '/signed-out';

const userKey = (settings: AppSettings) => `oidc.user:${settings.identity.authority}:${settings.identity.clientId}`;

let installed = false;

/**
 * When another tab signs out (oidc-client-ts removes the stored user before leaving for the
 * identity server), this tab stops too: it shows the signed-out page instead of carrying on.
 */
export function followSignOutOfOtherTabs(settings: AppSettings) {
  if (installed) return;
  installed = true;
  window.addEventListener('storage', (e) => {
    if (e.key === userKey(settings) && e.newValue === null) window.location.replace(SIGNED_OUT_PATH);
  });
}
