import type { AppSettings } from '@crisis/forms/core';

/** The page a tab shows once the user signed out (here, in another tab, or by inactivity). */
export const SIGNED_OUT_PATH = '/signed-out';

/**
 * An empty page (spec 01 §4 "Video meeting": a facility user who joined for the patient is signed
 * out and left on a blank page). The identity server sends the browser here after that sign-out.
 */
export const BLANK_PATH = '/blank';

/** Tabs of this origin tell each other about a sign-out: their tokens are their own, in memory. */
const CHANNEL = 'crisis.signed-out';
const SIGNED_OUT = 'signed-out';

let channel: BroadcastChannel | undefined;
const open = () => (channel ??= new BroadcastChannel(CHANNEL));

/** Tells the other tabs that this one is signing out (before it leaves for the identity server). */
export function announceSignOut() {
  open().postMessage(SIGNED_OUT);
}

let installed = false;

/** When another tab signs out, this tab stops too: it shows the signed-out page instead of carrying on. */
export function followSignOutOfOtherTabs(_settings?: AppSettings) {
  if (installed) return;
  installed = true;
  open().addEventListener('message', (e) => {
    if (e.data === SIGNED_OUT && window.location.pathname !== SIGNED_OUT_PATH) window.location.replace(SIGNED_OUT_PATH);
  });
}
