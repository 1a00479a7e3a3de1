import { InMemoryWebStorage, UserManager, WebStorageStateStore, type User } from 'oidc-client-ts';
import type { AppSettings } from '@crisis/forms/core';
import { SIGNED_OUT_PATH } from './signedOut';

export const AUTH_CALLBACK_PATH = '/auth-callback';
/** The page the hidden iframe of a silent sign-in lands on (admin-ui/silent-renew.html). */
export const SILENT_RENEW_PATH = '/silent-renew.html';

/** Where to come back to after the identity server sends the browser home. */
export interface SignInState {
  returnTo: string;
}

let manager: UserManager | undefined;

/**
 * The OpenID Connect client (authorization code + PKCE, refresh-token renew).
 *
 * The tokens, the 12-hour-capped refresh token among them, live in this page's memory only: no
 * script of the origin can read them from localStorage or sessionStorage. A reload or a new tab
 * signs in again silently from the identity server's session cookie (httpOnly) in a hidden iframe
 * (prompt=none). Only the short-lived sign-in request state (PKCE verifier, until the callback)
 * sits in sessionStorage: it must survive the redirect to the identity server and back.
 */
export function createUserManager(settings: AppSettings): UserManager {
  const { authority, clientId, scope, resource } = settings.identity;
  const origin = window.location.origin;
  manager = new UserManager({
    authority,
    client_id: clientId,
    redirect_uri: `${origin}${AUTH_CALLBACK_PATH}`,
    silent_redirect_uri: `${origin}${SILENT_RENEW_PATH}`,
    post_logout_redirect_uri: `${origin}/`,
    response_type: 'code',
    scope,
    automaticSilentRenew: true,
    // The identity server ends a refresh token unused for the idle time; renewing two minutes
    // early leaves room for a background tab's throttled timers.
    accessTokenExpiringNotificationTimeInSeconds: 120,
    extraQueryParams: { resource },
    extraTokenParams: { resource },
    userStore: new WebStorageStateStore({ store: new InMemoryWebStorage() }),
    stateStore: new WebStorageStateStore({ store: window.sessionStorage }),
  });
  return manager;
}

export function userManager(): UserManager {
  if (!manager) throw new Error('The identity client is not configured yet');
  return manager;
}

export const currentPath = () => window.location.pathname + window.location.search + window.location.hash;

export function signIn(returnTo: string = currentPath()): Promise<void> {
  const state: SignInState = { returnTo: returnTo.startsWith(AUTH_CALLBACK_PATH) ? '/' : returnTo };
  return userManager().signinRedirect({ state });
}

let renewing: Promise<User | null> | undefined;

/**
 * One silent renew at a time: concurrent callers share it. With a refresh token it is a token
 * call; without one (after a reload) or when the refresh token is refused, the hidden iframe asks
 * the identity server for a new code from its session. Null when neither works (sign in again).
 */
export function renewSilently(): Promise<User | null> {
  if (!renewing) {
    const mgr = userManager();
    renewing = mgr
      .signinSilent()
      .catch(async (err) => {
        const user = await mgr.getUser();
        if (!user?.refresh_token) throw err;
        return mgr.signinSilent({ forceIframeAuth: true });
      })
      .catch(() => null)
      .finally(() => {
        renewing = undefined;
      });
  }
  return renewing;
}

/**
 * A usable (unexpired) user: the one in memory, renewed if it has expired, or after a reload the
 * one the identity server's session gives silently. On the signed-out page nobody is signed in
 * again behind the user's back (another tab may still be on its way through the sign-out).
 */
export async function getValidUser(): Promise<User | null> {
  const user = await userManager().getUser();
  if (user && !user.expired) return user;
  if (!user && window.location.pathname === SIGNED_OUT_PATH) return null;
  return renewSilently();
}

export async function getAccessToken(): Promise<string | null> {
  const user = await getValidUser();
  return user?.access_token ?? null;
}
