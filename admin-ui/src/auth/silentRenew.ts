import { UserManager } from 'oidc-client-ts';

/**
 * The page of silent-renew.html, in the hidden iframe of a silent sign-in (prompt=none): it hands
 * the identity server's answer in its URL (a code, or login_required) to the app that opened the
 * iframe, which exchanges the code with the PKCE verifier it kept. Nothing is stored here.
 */
void new UserManager({
  authority: window.location.origin,
  client_id: 'admin-ui',
  redirect_uri: window.location.href,
  automaticSilentRenew: false,
}).signinSilentCallback();
