import type { AuthProvider } from 'react-admin';
import { ErrorCode } from '@crisis/forms/core';
import { clearPersistedLists } from '../common/listPersistence';
import { stopLiveConnection } from '../live/liveConnection';
import { abilityAllows } from './ability';
import { RESOURCE_ROUTES, navigationAllows } from './routeGates';
import { session } from './session';
import { SIGNED_OUT_PATH, announceSignOut } from './signedOut';
import { getValidUser, signIn, userManager, type SignInState } from './userManager';

const never = () => new Promise<never>(() => undefined);

/**
 * Signs out here, in the other tabs and at the identity server, which then sends the browser to
 * `landing` (a registered post-logout path of this origin: '/' by default, BLANK_PATH after a
 * facility's video-call join).
 */
export async function signOut(landing?: string): Promise<void> {
  clearPersistedLists();
  stopLiveConnection();
  // The other tabs hold tokens of their own (in memory): they stop now too.
  announceSignOut();
  const mgr = userManager();
  const user = await mgr.getUser();
  try {
    await mgr.signoutRedirect({ id_token_hint: user?.id_token, ...(landing ? { post_logout_redirect_uri: `${window.location.origin}${landing}` } : {}) });
  } catch {
    // The identity server is unreachable: forget the tokens locally; do not sign in again at once.
    await mgr.removeUser();
    window.location.replace(landing ?? SIGNED_OUT_PATH);
  }
}

/** react-admin's view of the OpenID Connect session (oidc-client-ts) and of the CASL ability. */
export const authProvider: AuthProvider = {
  async login() {
    await signIn();
    return never();
  },

  async handleCallback() {
    const user = await userManager().signinRedirectCallback();
    const state = user.state as SignInState | undefined;
    return { redirectTo: state?.returnTo ?? '/' };
  },

  async logout() {
    await signOut();
    // The browser is on its way to the identity server: no react-admin redirect.
    return false;
  },

  async checkAuth() {
    if (await getValidUser()) return;
    await signIn();
    return never();
  },

  async checkError(error: any) {
    const status = error?.status;
    if (status === 401 || error?.code === ErrorCode.Unauthorized) {
      // Sign in again (spec 03 §7): the identity server sends the user back here.
      await signIn();
      return never();
    }
    // 403 is a role check: the page stays, the toast says why.
  },

  async getIdentity() {
    const { context } = session();
    return {
      id: context.id,
      fullName: `${context.firstName} ${context.lastName}`.trim(),
      email: context.email,
      role: context.role,
    };
  },

  async getPermissions() {
    return session().context.role;
  },

  async canAccess({ action, resource, record }) {
    const s = session();
    const base = resource.split('.')[0];
    const route = RESOURCE_ROUTES[base];
    if (route && !navigationAllows(s, route)) return false;
    return abilityAllows(s.ability, action, resource, record);
  },
};
