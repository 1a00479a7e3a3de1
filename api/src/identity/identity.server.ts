import { Injectable, Logger } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { randomBytes, randomUUID } from 'crypto';
import type { IncomingMessage, ServerResponse } from 'http';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type ProviderType from 'oidc-provider';
import type { Configuration, errors as ErrorsType, Interaction, KoaContextWithOIDC } from 'oidc-provider';
import { Sequelize } from 'sequelize-typescript';
import { CORRELATION_ID_HEADER } from '@crisis/forms';
import { config } from '../config';
import { AttemptLimits, tooManyAttemptsMessage } from './attempt-limits';
import { IdentityKeys } from './identity-keys.service';
import { postgresAdapter } from './oidc-adapter';
import { SignInService, MESSAGES, type AttemptInfo } from './sign-in.service';
import { codePage, messagePage, signInPage, signOutPage } from './views';
import { registerAccountLinks } from './account-links';
import { registerUnlockRequests } from './unlock-request';
import { registerSaml } from './saml';

/** oidc-provider is ESM-only; a real dynamic import() (not rewritten to require by tsc). */
const load = new Function('m', 'return import(m)') as (m: string) => Promise<any>;

const HOUR = 60 * 60;
/** An access token never outlives the idle time: the UI renews it before it ends, which keeps the sign-in active. */
const ACCESS_TOKEN_TTL = Math.min(config.identity.accessTokenTtlSeconds, config.identity.sessionIdleSeconds);

/**
 * Seconds a sign-in may still live after activity now: the idle time, cut short by the absolute
 * cap counted from the moment the user signed in (epoch seconds). At least 1: the adapter stores
 * 0 as "never expires".
 */
function remainingLife(signedInAt: number | undefined): number {
  const { sessionIdleSeconds, sessionMaxSeconds } = config.identity;
  if (!signedInAt) return sessionIdleSeconds;
  const capLeft = sessionMaxSeconds - (Math.floor(Date.now() / 1000) - signedInAt);
  return Math.max(1, Math.min(sessionIdleSeconds, capLeft));
}
const API_CORS_HEADERS = [
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-expose-headers',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-max-age',
  'vary',
];
/** Path prefix under which main.ts hands requests to this server. */
const MOUNT = '/identity';

/** The admin UI: the one, first-party, public client (authorization code + PKCE, refresh tokens). */
export function adminUiClient() {
  return {
    client_id: config.identity.clientId,
    client_name: 'Crisis Placement Platform',
    application_type: 'web' as const,
    token_endpoint_auth_method: 'none' as const,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code' as const],
    // silent-renew.html: a reload signs in again in a hidden iframe (prompt=none), tokens live in memory only.
    redirect_uris: [
      `${config.publicUrl}/auth-callback`,
      `${config.publicUrl}/silent-renew.html`,
      'http://localhost:5173/auth-callback',
      'http://localhost:5173/silent-renew.html',
    ],
    // /blank: where a facility user lands after the video call's sign-out (spec 01 §4 "Video meeting").
    post_logout_redirect_uris: [`${config.publicUrl}/`, 'http://localhost:5173/', `${config.publicUrl}/blank`, 'http://localhost:5173/blank'],
  };
}

/**
 * The OpenID Connect provider at /identity: oidc-provider 8 (ESM, Koa) inside a small Express app
 * with our own sign-in pages under /identity/interaction/:uid. State lives in PostgreSQL
 * (oidc_payloads, mfa_codes), so any API replica can serve any step of a sign-in.
 */
@Injectable()
export class IdentityServer {
  private readonly log = new Logger('identity');
  private app?: Promise<express.Express>;
  /** The signing keys the app's provider was built with (IdentityKeys.version). */
  private appKeys?: string;
  private provider?: ProviderType;

  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    private readonly keys: IdentityKeys,
    private readonly signIn: SignInService,
    private readonly limits: AttemptLimits,
  ) {}

  /** The request handler main.ts gives every /identity request (the full original URL in req.url). */
  async handler(): Promise<(req: IncomingMessage, res: ServerResponse) => void> {
    await this.currentApp();
    return (req, res) => {
      // The API's CORS (any origin, with credentials) must not apply here: oidc-provider decides
      // CORS itself, per client (only the admin UI's origins may call the token endpoint).
      for (const name of API_CORS_HEADERS) res.removeHeader(name);
      this.currentApp().then(
        (app) => app(req as Request, res as Response),
        (err) => {
          this.log.error({ err }, 'identity server unavailable');
          res.statusCode = 503;
          res.end();
        },
      );
    };
  }

  /** The app, built again (a provider with the new key set) when the signing keys changed: rotation. */
  private async currentApp(): Promise<express.Express> {
    const keys = await this.keys.version();
    if (!this.app || keys !== this.appKeys) {
      this.appKeys = keys;
      this.app = this.build();
    }
    return this.app;
  }

  /** The provider instance (after handler() was called once); for diagnostics and tests. */
  get oidcProvider(): ProviderType | undefined {
    return this.provider;
  }

  private async build(): Promise<express.Express> {
    const mod = await load('oidc-provider');
    const Provider: typeof ProviderType = mod.default;
    const errors: typeof ErrorsType = mod.errors;
    const provider = new Provider(config.identity.issuer, await this.configuration());
    // Behind a load balancer (TRUSTED_PROXIES): its X-Forwarded-* headers name the client and the scheme.
    provider.proxy = config.trustedProxies.length > 0;
    provider.on('server_error', (_ctx: unknown, err: Error) => this.log.error({ err }, 'identity server error'));
    // A token refresh is activity: the identity session (refresh tokens end with it; a reload signs
    // in again with it) gets a new idle period too.
    provider.use(async (ctx, next) => {
      await next();
      if (ctx.oidc?.route !== 'token' || ctx.status !== 200 || ctx.oidc.params?.grant_type !== 'refresh_token') return;
      const sessionUid = (ctx.oidc.entities.RefreshToken as { sessionUid?: string } | undefined)?.sessionUid;
      const session = sessionUid ? await provider.Session.findByUid(sessionUid) : undefined;
      if (session) await session.save(remainingLife(session.loginTs));
    });
    this.provider = provider;

    const app = express();
    app.disable('x-powered-by');
    app.set('trust proxy', config.trustedProxies.length ? config.trustedProxies : false);
    const form = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 20 });
    const wrap =
      (fn: (req: Request, res: Response) => Promise<void>): RequestHandler =>
      (req, res, next) => {
        fn(req, res).catch(next);
      };
    const route = `${MOUNT}/interaction/:uid`;

    app.use(`${MOUNT}/interaction`, pageHeaders);
    registerUnlockRequests(app, pageHeaders); // locked users ask to be unlocked (unlock-request.ts)

    // The page an authorization request lands on: sign-in (login prompt) or the automatic consent.
    app.get(
      route,
      wrap(async (req, res) => {
        const interaction = await this.details(req, res);
        switch (interaction.prompt.name) {
          case 'login': {
            const hint = typeof interaction.params.login_hint === 'string' ? interaction.params.login_hint : null;
            sendHtml(res, 200, signInPage({ uid: interaction.uid, email: hint }));
            return;
          }
          case 'consent':
            await this.autoConsent(provider, req, res, interaction);
            return;
          default:
            sendHtml(res, 400, messagePage('Sign-in not possible', 'This sign-in request cannot be completed.', backToApp()));
        }
      }),
    );

    app.post(
      `${route}/login`,
      form,
      wrap(async (req, res) => {
        const interaction = await this.details(req, res);
        if (interaction.prompt.name !== 'login') return redirect(res, interactionUrl(interaction.uid));
        const { email, password } = req.body ?? {};
        const outcome = await this.signIn.checkPassword(email, password, interaction.uid, attemptInfo(req));
        if (!outcome.ok) {
          const status = retryAfter(res, outcome.retryAfterSeconds);
          sendHtml(res, status, signInPage({ uid: interaction.uid, email: typeof email === 'string' ? email : null, error: outcome.message, locked: outcome.locked }));
          return;
        }
        if (outcome.mfa) return redirect(res, `${interactionUrl(interaction.uid)}/code`);
        await provider.interactionFinished(req, res, { login: { accountId: String(outcome.userId), amr: ['pwd'], remember: false } }, {
          mergeWithLastSubmission: false,
        });
      }),
    );

    app.get(
      `${route}/code`,
      wrap(async (req, res) => {
        const interaction = await this.details(req, res);
        const challenge = interaction.prompt.name === 'login' ? await this.signIn.pendingChallenge(interaction.uid) : null;
        if (!challenge) return redirect(res, interactionUrl(interaction.uid));
        sendHtml(res, 200, codePage({ uid: interaction.uid, destination: challenge.destination, hint: challenge.hint, other: challenge.other }));
      }),
    );

    app.post(
      `${route}/code`,
      form,
      wrap(async (req, res) => {
        const interaction = await this.details(req, res);
        if (interaction.prompt.name !== 'login') return redirect(res, interactionUrl(interaction.uid));
        const outcome = await this.signIn.checkCode(interaction.uid, req.body?.code, attemptInfo(req));
        if (outcome.ok) {
          await provider.interactionFinished(
            req,
            res,
            { login: { accountId: String(outcome.userId), amr: ['pwd', 'otp'], remember: false } },
            { mergeWithLastSubmission: false },
          );
          return;
        }
        const status = retryAfter(res, outcome.retryAfterSeconds);
        if (outcome.restart) {
          sendHtml(res, status, signInPage({ uid: interaction.uid, error: outcome.message, locked: outcome.locked }));
          return;
        }
        const challenge = await this.signIn.pendingChallenge(interaction.uid);
        if (!challenge) {
          sendHtml(res, status, signInPage({ uid: interaction.uid, error: outcome.retryAfterSeconds ? outcome.message : MESSAGES.codeVoid }));
          return;
        }
        sendHtml(res, status, codePage({ uid: interaction.uid, destination: challenge.destination, hint: challenge.hint, other: challenge.other, error: outcome.message }));
      }),
    );

    app.post(
      `${route}/resend`,
      form,
      wrap(async (req, res) => {
        const interaction = await this.details(req, res);
        const result = interaction.prompt.name === 'login' ? await this.signIn.resendCode(interaction.uid, attemptInfo(req), req.body?.method) : null;
        if (result && !result.ok && result.retryAfterSeconds) {
          const status = retryAfter(res, result.retryAfterSeconds);
          const message = tooManyAttemptsMessage(result.retryAfterSeconds);
          const pending = await this.signIn.pendingChallenge(interaction.uid);
          sendHtml(res, status, pending ? codePage({ uid: interaction.uid, destination: pending.destination, hint: pending.hint, other: pending.other, error: message }) : signInPage({ uid: interaction.uid, error: message }));
          return;
        }
        if (!result?.ok) {
          sendHtml(res, 200, signInPage({ uid: interaction.uid, error: MESSAGES.codeVoid }));
          return;
        }
        const { destination, hint, other } = result.challenge;
        sendHtml(res, 200, codePage({ uid: interaction.uid, destination, hint, other, info: result.sent ? MESSAGES.codeResent : MESSAGES.codeRecentlySent }));
      }),
    );

    registerAccountLinks(app, this.sequelize, pageHeaders, this.limits); // set-password / reset-password links (account-links.ts)
    // SAML single sign-on: "Sign in with single sign-on", the ACS and SP metadata (saml.ts).
    registerSaml(app, {
      sequelize: this.sequelize,
      signIn: this.signIn,
      provider: () => provider,
      pageHeaders,
      details: (req, res) => this.details(req, res),
      attemptInfo,
    });
    // Everything else under /identity is the provider itself (discovery, auth, token, jwks, end session…).
    app.use(MOUNT, provider.callback());

    // Errors of our interaction routes; an expired or foreign interaction is a normal event.
    app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
      if (res.headersSent) {
        res.end();
        return;
      }
      if (err instanceof errors.SessionNotFound || (err as { name?: string })?.name === 'SessionNotFound') {
        sendHtml(
          res,
          400,
          messagePage('Sign-in expired', 'This sign-in page has expired or was opened in another browser. Start again from the application.', backToApp()),
        );
        return;
      }
      const status = (err as { status?: number; statusCode?: number })?.status ?? (err as { statusCode?: number })?.statusCode;
      if (status && status >= 400 && status < 500) {
        sendHtml(res, status, messagePage('Sign-in not possible', 'The request could not be understood.', backToApp()));
        return;
      }
      this.log.error({ err, path: req.originalUrl?.split('?')[0] }, 'identity interaction failed');
      sendHtml(res, 500, messagePage('Something went wrong', 'Sign-in failed unexpectedly. Please try again.', backToApp()));
    });

    return app;
  }

  /** The interaction of the browser's cookie, refused when it is not the one in the URL. */
  private async details(req: Request, res: Response): Promise<Interaction> {
    const interaction = await this.provider!.interactionDetails(req, res);
    if (interaction.uid !== req.params.uid) {
      const err = new Error('interaction mismatch');
      err.name = 'SessionNotFound';
      throw err;
    }
    return interaction;
  }

  /** Our own first-party client needs no consent screen: grant what it asked for and continue. */
  private async autoConsent(provider: ProviderType, req: Request, res: Response, interaction: Interaction) {
    const { prompt, params, session } = interaction;
    const details = prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (params.client_id !== config.identity.clientId || !session?.accountId) {
      sendHtml(res, 400, messagePage('Sign-in not possible', 'This application is not allowed to sign you in.', backToApp()));
      return;
    }
    const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
    const grant = existing ?? new provider.Grant({ accountId: session.accountId, clientId: config.identity.clientId });
    if (details.missingOIDCScope?.length) grant.addOIDCScope(details.missingOIDCScope.join(' '));
    if (details.missingOIDCClaims?.length) grant.addOIDCClaims(details.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(details.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '));
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: existing ? {} : { grantId } }, { mergeWithLastSubmission: true });
  }

  private async configuration(): Promise<Configuration> {
    const signIn = this.signIn;
    const resource = config.identity.resource;
    return {
      adapter: postgresAdapter(this.sequelize, { sessionMaxSeconds: config.identity.sessionMaxSeconds }),
      clients: [adminUiClient()],
      async findAccount(_ctx, sub) {
        const id = Number(sub);
        if (!Number.isSafeInteger(id) || id <= 0) return undefined;
        const claims = await signIn.account(id);
        if (!claims) return undefined;
        return { accountId: claims.sub, claims: () => claims };
      },
      jwks: { keys: (await this.keys.signingJwks()) as any },
      cookies: {
        keys: [config.identity.cookieSecret],
        // Lax: the UI and this server are one site; plain http works in development.
        long: { signed: true, httpOnly: true, overwrite: true, sameSite: 'lax' },
        short: { signed: true, httpOnly: true, overwrite: true, sameSite: 'lax' },
      },
      claims: {
        // amr tells the UI (and audits) whether the second factor was used: ['pwd'] or ['pwd', 'otp'].
        openid: ['sub', 'amr'],
        email: ['email', 'email_verified'],
        profile: ['name', 'given_name', 'family_name'],
      },
      scopes: ['openid', 'offline_access', 'profile', 'email'],
      responseTypes: ['code'],
      // The UI reads names and e-mail from the ID token; no userinfo round trip.
      conformIdTokenClaims: false,
      pkce: { required: () => true, methods: ['S256'] },
      // Browsers may call the token, revocation and userinfo endpoints only from the client's own
      // origins (those of its redirect URIs); oidc-provider's default refuses every origin.
      clientBasedCORS(_ctx, origin, client) {
        const origins = new Set((client.redirectUris ?? []).map((u: string) => new URL(u).origin));
        origins.add(new URL(config.publicUrl).origin);
        return origins.has(origin);
      },
      features: {
        devInteractions: { enabled: false },
        revocation: { enabled: true },
        userinfo: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => resource,
          getResourceServerInfo: () => ({
            scope: 'openid profile email offline_access',
            audience: resource,
            accessTokenFormat: 'jwt',
            accessTokenTTL: ACCESS_TOKEN_TTL,
            jwt: { sign: { alg: 'RS256' } },
          }),
          useGrantedResource: () => true,
        },
        rpInitiatedLogout: {
          enabled: true,
          // No "are you sure?" page: the form is submitted at once, then the UI's post-logout URI.
          logoutSource(ctx: KoaContextWithOIDC, form: string) {
            const nonce = randomBytes(16).toString('base64');
            ctx.set('Content-Security-Policy', `default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}'; frame-ancestors 'none'; base-uri 'none'`);
            ctx.set('Cache-Control', 'no-store');
            ctx.type = 'html';
            ctx.body = signOutPage(form, nonce);
          },
          postLogoutSuccessSource(ctx: KoaContextWithOIDC) {
            ctx.type = 'html';
            ctx.body = messagePage('Signed out', 'You have signed out.', { href: `${config.publicUrl}/`, text: 'Sign in again' });
          },
        },
      },
      // Refresh tokens for the public web client without asking for offline_access (oidc-provider docs).
      async issueRefreshToken(_ctx, client, code) {
        if (!client.grantTypeAllowed('refresh_token')) return false;
        return code.scopes.has('offline_access') || (client.applicationType === 'web' && client.clientAuthMethod === 'none');
      },
      // Access tokens name their grant, so a password change can keep the session that made it.
      async extraTokenClaims(_ctx, token) {
        return token.kind === 'AccessToken' && token.grantId ? { gid: token.grantId } : undefined;
      },
      interactions: {
        url: (_ctx, interaction) => `${MOUNT}/interaction/${interaction.uid}`,
      },
      // Every refresh token is used once: each refresh hands out a new one (and a reused one revokes the grant).
      rotateRefreshToken: true,
      ttl: {
        AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? ACCESS_TOKEN_TTL,
        AuthorizationCode: 60,
        IdToken: HOUR,
        Interaction: HOUR,
        // Idle-based, renewed by every visit to the identity server and every refresh; capped from the sign-in.
        Session: (_ctx, session) => remainingLife(session.loginTs),
        Grant: config.identity.sessionMaxSeconds,
        // The idle time of spec 03 §9 on the server: a refresh token unused that long is refused;
        // its successor (rotation) gets a new idle period, never past the cap from the sign-in.
        RefreshToken: (_ctx, token) => remainingLife(token.authTime ?? token.iiat),
      },
      async renderError(ctx, out) {
        ctx.type = 'html';
        ctx.set('Cache-Control', 'no-store');
        const description = typeof out.error_description === 'string' ? out.error_description : 'The request could not be completed.';
        ctx.body = messagePage('Sign-in not possible', description, backToApp());
      },
    } as Configuration;
  }
}

/** No caching, no framing, no scripts on our pages. */
const pageHeaders: RequestHandler = (req, res, next) => {
  res.set('Cache-Control', 'no-store');
  res.set('Pragma', 'no-cache');
  res.set('X-Frame-Options', 'DENY');
  res.set('X-Content-Type-Options', 'nosniff');
  res.set('Referrer-Policy', 'no-referrer');
  // No form-action: after the form, the browser follows redirects to the UI's origin.
  res.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'");
  const given = req.headers[CORRELATION_ID_HEADER];
  const correlationId = typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
  res.locals.correlationId = correlationId;
  res.set(CORRELATION_ID_HEADER, correlationId);
  next();
};

function attemptInfo(req: Request): AttemptInfo {
  return {
    ip: req.ip,
    path: req.originalUrl.split('?')[0],
    correlationId: (req.res?.locals.correlationId as string | undefined) ?? undefined,
  };
}

function interactionUrl(uid: string) {
  return `${MOUNT}/interaction/${encodeURIComponent(uid)}`;
}

function backToApp() {
  return { href: `${config.publicUrl}/`, text: 'Back to the application' };
}

/** A refusal for now (429) names its wait in Retry-After; returns the status to answer with. */
function retryAfter(res: Response, seconds: number | undefined): number {
  if (!seconds) return 200;
  res.set('Retry-After', String(seconds));
  return 429;
}

function sendHtml(res: Response, status: number, html: string) {
  res.status(status).type('html').send(html);
}

function redirect(res: Response, location: string) {
  res.redirect(303, location);
}

