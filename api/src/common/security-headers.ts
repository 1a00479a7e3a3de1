import type { ServerResponse } from 'http';
import type { FastifyHelmetOptions } from '@fastify/helmet';

/**
 * The security headers of every answer (UI pages and files, API, identity server), in one place.
 *
 * The UI's Content-Security-Policy:
 * - script-src 'self': the built index.html loads its modules from /assets and has no inline
 *   script. With allowEval, 'unsafe-eval' too: the UI validates its forms with the shared JSON
 *   Schemas through ajv, which compiles each schema with new Function() in the browser. (Compiling
 *   them at build time with ajv's standalone code would remove it.)
 * - style-src 'self' 'unsafe-inline': MUI's styling engine (emotion, under react-admin) creates
 *   <style> elements at run time. A nonce would need a per-request rewrite of index.html plus an
 *   emotion cache built with it; CSS cannot run code, and script stays locked, so styles stay inline.
 * - connect-src: the API and the identity server (same origin), the live channel (socket.io over a
 *   websocket on the same origin; 'self' covers ws: only in CSP3 browsers, so the ws origin is named).
 * - img-src: same-origin images, data: (MUI icons), blob: (avatars and insurance cards are fetched
 *   with the bearer token and shown as object URLs).
 * - frame-src 'self': the hidden iframe of the silent sign-in (/identity/auth?prompt=none).
 * - frame-ancestors 'none', except the page that iframe lands on (/silent-renew.html): 'self'.
 * The API answers data only: nothing in it may run, load or be framed. The identity server's pages
 * set their own policy (identity.server.ts); its other answers get IDENTITY_CSP.
 */

export type PolicyName = 'ui' | 'ui-frameable' | 'api' | 'identity';

/** The page oidc-client-ts's hidden iframe returns to (admin-ui/silent-renew.html). */
export const SILENT_RENEW_PATH = '/silent-renew.html';

const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
/**
 * oidc-provider's answers that bring no policy of their own (discovery, JWKS, errors, its
 * auto-submitting forms): its forms' inline script is allowed by the hash oidc-provider adds to
 * script-src when there is one; no form-action, as the form's answer redirects to the UI's origin.
 */
const IDENTITY_CSP = "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'";

/** Features the product never uses; a page injected into it cannot ask for them either. */
const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=()';

const HSTS_MAX_AGE = 365 * 24 * 60 * 60;

export const servedOverTls = (publicUrl: string) => publicUrl.startsWith('https://');

/** The UI's CSP directives (helmet's format). */
export function uiDirectives(publicUrl: string, options: { frameable?: boolean; allowEval?: boolean } = {}): Record<string, string[]> {
  const { host, protocol } = new URL(publicUrl);
  const liveChannel = `${protocol === 'https:' ? 'wss' : 'ws'}://${host}`;
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...(options.allowEval ? ["'unsafe-eval'"] : [])],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", liveChannel],
    'frame-src': ["'self'"],
    'worker-src': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': [options.frameable ? "'self'" : "'none'"],
  };
  // Only over TLS: on plain http it would rewrite the UI's own requests to https.
  if (servedOverTls(publicUrl)) directives['upgrade-insecure-requests'] = [];
  return directives;
}

export function serializeCsp(directives: Record<string, string[]>): string {
  return Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join('; ');
}

/** Which policy a request path gets. */
export function policyFor(url: string): PolicyName {
  const path = url.split('?')[0];
  if (/^\/(api|socket\.io)(\/|$)/.test(path)) return 'api';
  if (/^\/identity(\/|$)/.test(path)) return 'identity';
  if (path === SILENT_RENEW_PATH) return 'ui-frameable';
  return 'ui';
}

export interface SecurityHeaders {
  /** @fastify/helmet's options: the UI's policy and the headers every answer shares. */
  helmet: FastifyHelmetOptions;
  /** Sets the path's own CSP and framing headers (after helmet's, which are the UI's). */
  applyPathPolicy(url: string, res: ServerResponse): void;
  /** The full set, for answers written outside Fastify's hooks (client errors, router refusals). */
  standalone: Record<string, string>;
}

export function securityHeaders(publicUrl: string, options: { allowEval?: boolean } = {}): SecurityHeaders {
  const tls = servedOverTls(publicUrl);
  const csp: Record<PolicyName, string> = {
    ui: serializeCsp(uiDirectives(publicUrl, options)),
    'ui-frameable': serializeCsp(uiDirectives(publicUrl, { ...options, frameable: true })),
    api: API_CSP,
    // Its sign-in pages set their own (identity.server.ts), over this one.
    identity: IDENTITY_CSP,
  };
  const helmet: FastifyHelmetOptions = {
    contentSecurityPolicy: { useDefaults: false, directives: uiDirectives(publicUrl, options) },
    // Over plain http, HSTS is ignored by browsers at best and locks a mis-set-up host out at worst.
    strictTransportSecurity: tls ? { maxAge: HSTS_MAX_AGE, includeSubDomains: true } : false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    // Cross-origin isolation is not needed and would block the identity provider's SAML pages.
    crossOriginEmbedderPolicy: false,
  };
  const standalone: Record<string, string> = {
    'content-security-policy': API_CSP,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
    'permissions-policy': PERMISSIONS_POLICY,
    ...(tls ? { 'strict-transport-security': `max-age=${HSTS_MAX_AGE}; includeSubDomains` } : {}),
  };
  return {
    helmet,
    standalone,
    applyPathPolicy(url, res) {
      const policy = policyFor(url);
      res.setHeader('Permissions-Policy', PERMISSIONS_POLICY);
      if (policy === 'ui') return; // helmet's own
      res.setHeader('Content-Security-Policy', csp[policy]);
      res.setHeader('X-Frame-Options', policy === 'ui-frameable' ? 'SAMEORIGIN' : 'DENY');
    },
  };
}
