import { UserManager, WebStorageStateStore, type User } from 'oidc-client-ts';
import type { AppSettings } from '@crisis/forms';

export const AUTH_CALLBACK_PATH = '/auth-callback';

/** Where to come back to after the identity server sends the browser home. */
export interface SignInState {
  returnTo: string;
}

let manager: UserManager | undefined;

/** The OpenID Connect client (authorization code + PKCE, refresh-token silent renew). */
export function createUserManager(settings: AppSettings): UserManager {
  const { authority, clientId, scope, resource } = settings.identity;
  const origin = window.location.origin;
  manager = new UserManager({
    authority,
    client_id: clientId,
    redirect_uri: `${origin}${AUTH_CALLBACK_PATH}`,
    post_logout_redirect_uri: `${origin}/`,
    response_type: 'code',
    scope,
    automaticSilentRenew: true,
    // With a refresh token the renew is a token call; there is no iframe page to host.
    extraQueryParams: { resource },
    extraTokenParams: { resource },
    userStore: new WebStorageStateStore({ store: window.localStorage }),
    stateStore: new WebStorageStateStore({ store: window.localStorage }),
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

/** One silent renew at a time: concurrent callers share the same token call. */
export function renewSilently(): Promise<User | null> {
  if (!renewing) {
    renewing = userManager()
      .signinSilent()
      .catch(() => null)
      .finally(() => {
        renewing = undefined;
      });
  }
  return renewing;
}

/** A usable (unexpired) user, renewing silently if the stored one has expired. */
export async function getValidUser(): Promise<User | null> {
  const user = await userManager().getUser();
  if (user && !user.expired) return user;
  if (user?.refresh_token) return renewSilently();
  return null;
}

export async function getAccessToken(): Promise<string | null> {
  const user = await getValidUser();
  return user?.access_token ?? null;
}
