import { Logger } from '@nestjs/common';
import express, { type Express, type Request, type RequestHandler, type Response } from 'express';
import type ProviderType from 'oidc-provider';
import type { Interaction } from 'oidc-provider';
import { QueryTypes } from 'sequelize';
import type { Sequelize } from 'sequelize-typescript';
import { SAML, ValidateInResponseTo, type CacheProvider, type Profile } from '@node-saml/node-saml';
import { OrganizationType } from '@crisis/forms';
import { config } from '../config';
import { parseCertificate } from '../organizations/organization-settings.service';
import { MESSAGES, type AttemptInfo, type SignInService } from './sign-in.service';
import { messagePage, signInPage, ssoPage } from './views';

/**
 * SAML 2.0 single sign-on, service-provider side (spec 03 §3 External login settings), with
 * @node-saml/node-saml. Each organization with SSO (the ITP organization, each facility) is its
 * own service provider:
 *   entity id  ${PUBLIC_URL}/identity/saml/itp | /identity/saml/facility-<id>   (GET: SP metadata XML)
 *   ACS        <entity id>/acs                                                 (POST binding)
 * Flow: sign-in page → "Sign in with single sign-on" → e-mail → the user's organization → HTTP-Redirect
 * AuthnRequest to its signInUrl (RelayState = the oidc interaction uid) → the IdP POSTs a signed
 * SAMLResponse to the ACS → signature (stored certificate), issuer (identityProviderEntityId),
 * audience (our entity id), InResponseTo (one of our requests for this interaction, used once) →
 * the e-mail (userEmailClaim attribute, or the NameID) → an active user of that organization →
 * the oidc login interaction is finished like a password sign-in.
 *
 * The ACS does not need the interaction cookie (the IdP's POST is cross-site, and the cookies are
 * SameSite=Lax): the interaction is found by the uid in RelayState, bound to the AuthnRequest id
 * stored in PostgreSQL; oidc-provider's resume step (a top-level GET) then checks the browser's
 * resume cookie, so a response cannot complete somebody else's sign-in.
 */

const MOUNT = '/identity';
const SAML_BASE = `${MOUNT}/saml`;
/** AuthnRequest ids live as long as an interaction (1 h). */
const REQUEST_TTL_SECONDS = 60 * 60;
const UID_PATTERN = /^[\w-]{8,64}$/;
const REQUEST_TYPE = 'SamlRequest';

export interface SamlOrganization {
  key: string;
  type: typeof OrganizationType.ITP | typeof OrganizationType.Facility;
  id: number | null;
}

interface SettingsRow {
  enabled: boolean;
  identity_provider_entity_id: string | null;
  x509_certificate: string | null;
  sign_in_url: string | null;
  user_email_claim: string | null;
}

/** 'itp' or 'facility-<id>' (the last segment of the SP entity id). */
export function parseOrganizationKey(key: string): SamlOrganization | null {
  if (key === 'itp') return { key, type: OrganizationType.ITP, id: null };
  const m = /^facility-([1-9]\d{0,9})$/.exec(key);
  if (!m || Number(m[1]) > 2147483647) return null;
  return { key, type: OrganizationType.Facility, id: Number(m[1]) };
}

export function organizationOf(type: string, id: number | null): SamlOrganization | null {
  if (type === OrganizationType.ITP) return { key: 'itp', type: OrganizationType.ITP, id: null };
  if (type === OrganizationType.Facility && id) return { key: `facility-${id}`, type: OrganizationType.Facility, id: Number(id) };
  return null; // group users have no SSO
}

/** Our service-provider entity id (also shown read-only in the SSO settings as "service provider id"). */
export function spEntityId(org: SamlOrganization): string {
  return `${config.publicUrl}${SAML_BASE}/${org.key}`;
}

export function acsUrl(org: SamlOrganization): string {
  return `${spEntityId(org)}/acs`;
}

function certificatePem(text: string): string | null {
  const cert = parseCertificate(text);
  return cert ? cert.toString() : null;
}

/** The stored AuthnRequest ids, bound to the interaction and the organization, in PostgreSQL (any replica). */
function requestCache(sequelize: Sequelize, uid: string, org: SamlOrganization): CacheProvider & { consumed: Set<string> } {
  /** Request ids this instance removed itself (node-saml removes the id once a response used it). */
  const consumed = new Set<string>();
  const run = <T extends object>(sql: string, replacements: Record<string, unknown>) =>
    sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction: null } as any) as Promise<T[]>;
  return {
    consumed,
    async saveAsync(key, value) {
      await sequelize.query(
        `INSERT INTO oidc_payloads (type, id, payload, uid, expires_at)
         VALUES (:type, :key, CAST(:payload AS jsonb), :uid, now() + make_interval(secs => :ttl))
         ON CONFLICT (type, id) DO NOTHING`,
        { replacements: { type: REQUEST_TYPE, key, payload: JSON.stringify({ value, uid, org: org.key }), uid, ttl: REQUEST_TTL_SECONDS }, transaction: null } as any,
      );
      return { value, createdAt: Date.now() };
    },
    async getAsync(key) {
      const [row] = await run<{ value: string }>(
        `SELECT payload->>'value' AS value FROM oidc_payloads
          WHERE type = :type AND id = :key AND payload->>'uid' = :uid AND payload->>'org' = :org AND expires_at > now()`,
        { type: REQUEST_TYPE, key, uid, org: org.key },
      );
      return row?.value ?? null;
    },
    async removeAsync(key) {
      if (!key) return null;
      const [row] = await run<{ value: string }>(
        `DELETE FROM oidc_payloads WHERE type = :type AND id = :key AND payload->>'uid' = :uid RETURNING payload->>'value' AS value`,
        { type: REQUEST_TYPE, key, uid },
      );
      if (row) consumed.add(key);
      return row?.value ?? null;
    },
  };
}

export async function loadSettings(sequelize: Sequelize, org: SamlOrganization): Promise<SettingsRow | null> {
  const [row] = (await sequelize.query(
    `SELECT enabled, identity_provider_entity_id, x509_certificate, sign_in_url, user_email_claim
       FROM external_login_settings WHERE facility_id IS NOT DISTINCT FROM :id`,
    { replacements: { id: org.id }, type: QueryTypes.SELECT, transaction: null } as any,
  )) as unknown as SettingsRow[];
  return row ?? null;
}

/** Enabled and complete (entity id, sign-in URL and a parseable certificate). */
function usable(row: SettingsRow | null): row is SettingsRow & { identity_provider_entity_id: string; x509_certificate: string; sign_in_url: string } {
  return !!row?.enabled && !!row.identity_provider_entity_id && !!row.sign_in_url && !!row.x509_certificate && !!certificatePem(row.x509_certificate);
}

function samlFor(org: SamlOrganization, settings: SettingsRow | null, cache?: CacheProvider): SAML {
  const cert = settings?.x509_certificate ? certificatePem(settings.x509_certificate) : null;
  return new SAML({
    issuer: spEntityId(org),
    callbackUrl: acsUrl(org),
    entryPoint: settings?.sign_in_url ?? undefined,
    // The metadata is served before any IdP is configured; that instance never validates anything.
    idpCert: cert ?? 'not-configured',
    idpIssuer: settings?.identity_provider_entity_id ?? undefined,
    audience: spEntityId(org),
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    wantAssertionsSigned: true,
    // Many IdPs sign only the assertion; a signed response is verified when present.
    wantAuthnResponseSigned: false,
    // The IdP decides how the user authenticates (password, its own MFA…).
    disableRequestedAuthnContext: true,
    acceptedClockSkewMs: 30_000,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: REQUEST_TTL_SECONDS * 1000,
    ...(cache ? { cacheProvider: cache } : {}),
  });
}

/** The e-mail the IdP asserted: the configured attribute, or the NameID when none is configured. */
export function assertedEmail(profile: Profile, claim: string | null): string | null {
  let value: unknown = claim ? (profile[claim] ?? (profile.attributes as Record<string, unknown> | undefined)?.[claim]) : profile.nameID;
  if (Array.isArray(value)) value = value[0];
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

export interface SamlDeps {
  sequelize: Sequelize;
  signIn: SignInService;
  provider: () => ProviderType;
  pageHeaders: RequestHandler;
  /** The interaction of the browser's cookie (identity.server.ts), refused when not the one in the URL. */
  details: (req: Request, res: Response) => Promise<Interaction>;
  attemptInfo: (req: Request) => AttemptInfo;
}

export function registerSaml(app: Express, deps: SamlDeps): void {
  const log = new Logger('identity.saml');
  const { sequelize, signIn, pageHeaders, details, attemptInfo } = deps;
  const form = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 20 });
  // A signed SAML response with its certificate is a few kB; leave room for large attribute sets.
  const acsForm = express.urlencoded({ extended: false, limit: '512kb', parameterLimit: 10 });
  const wrap =
    (fn: (req: Request, res: Response) => Promise<void>): RequestHandler =>
    (req, res, next) => {
      fn(req, res).catch(next);
    };
  const html = (res: Response, status: number, body: string) => res.status(status).type('html').send(body);
  const route = `${MOUNT}/interaction/:uid/sso`;

  app.use(SAML_BASE, pageHeaders);

  // Step 1: the e-mail page (from the sign-in page's "Sign in with single sign-on").
  app.get(
    route,
    wrap(async (req, res) => {
      const interaction = await details(req, res);
      if (interaction.prompt.name !== 'login') return void res.redirect(303, `${MOUNT}/interaction/${encodeURIComponent(interaction.uid)}`);
      html(res, 200, ssoPage({ uid: interaction.uid }));
    }),
  );

  // Step 2: find the organization of that e-mail and send the browser to its IdP with an AuthnRequest.
  app.post(
    route,
    form,
    wrap(async (req, res) => {
      const interaction = await details(req, res);
      if (interaction.prompt.name !== 'login') return void res.redirect(303, `${MOUNT}/interaction/${encodeURIComponent(interaction.uid)}`);
      const email = typeof req.body?.email === 'string' ? req.body.email.trim().slice(0, 255) : '';
      const [user] = email
        ? ((await sequelize.query(`SELECT organization_type, organization_id FROM users WHERE lower(email) = lower(:email)`, {
            replacements: { email },
            type: QueryTypes.SELECT,
            transaction: null,
          } as any)) as unknown as { organization_type: string; organization_id: number | null }[])
        : [];
      const org = user ? organizationOf(user.organization_type, user.organization_id) : null;
      const settings = org ? await loadSettings(sequelize, org) : null;
      // The same answer for unknown addresses and organizations without SSO (no account discovery).
      if (!org || !usable(settings)) return void html(res, 200, ssoPage({ uid: interaction.uid, email, error: MESSAGES.ssoUnavailable }));
      const saml = samlFor(org, settings, requestCache(sequelize, interaction.uid, org));
      const url = await saml.getAuthorizeUrlAsync(interaction.uid, undefined, {});
      res.redirect(303, url);
    }),
  );

  // Our service-provider metadata (entity id, ACS, NameID format) for the IdP's administrator.
  app.get(
    `${SAML_BASE}/:org`,
    wrap(async (req, res) => {
      const org = parseOrganizationKey(String(req.params.org));
      if (!org) return void html(res, 404, messagePage('Not found', 'There is no such service provider.'));
      const xml = samlFor(org, null).generateServiceProviderMetadata(null);
      res.status(200).type('application/samlmetadata+xml').send(xml);
    }),
  );

  // The assertion consumer service: the IdP's browser POST (SAMLResponse, RelayState).
  app.post(
    `${SAML_BASE}/:org/acs`,
    acsForm,
    wrap(async (req, res) => {
      const info = attemptInfo(req);
      const org = parseOrganizationKey(String(req.params.org));
      const uid = typeof req.body?.RelayState === 'string' && UID_PATTERN.test(req.body.RelayState) ? req.body.RelayState : null;
      const samlResponse = typeof req.body?.SAMLResponse === 'string' ? req.body.SAMLResponse : null;
      const provider = deps.provider();
      const interaction = uid ? await provider.Interaction.find(uid) : undefined;

      const refuse = async (message: string, reason: string, detail?: Record<string, unknown>) => {
        if (reason) await signIn.recordExternalFailure(reason, info, { organization: org?.key, ...detail });
        if (interaction && interaction.prompt?.name === 'login') {
          html(res, 403, signInPage({ uid: interaction.uid, error: message }));
        } else {
          html(res, 403, messagePage('Sign-in not possible', message, { href: `${config.publicUrl}/`, text: 'Back to the application' }));
        }
      };

      if (!org || !samlResponse) return refuse(MESSAGES.ssoFailed, 'malformedRequest');
      if (!interaction || interaction.prompt?.name !== 'login')
        return refuse('This sign-in has expired. Start again from the application.', 'interactionNotFound');
      const settings = await loadSettings(sequelize, org);
      if (!usable(settings)) return refuse(MESSAGES.ssoUnavailable, 'ssoNotConfigured');

      const cache = requestCache(sequelize, interaction.uid, org);
      let profile: Profile | null;
      try {
        ({ profile } = await samlFor(org, settings, cache).validatePostResponseAsync({ SAMLResponse: samlResponse }));
      } catch (err) {
        log.warn(`SAML response refused for ${org.key}: ${(err as Error).message}`);
        return refuse(MESSAGES.ssoFailed, 'invalidResponse', { error: String((err as Error).message).slice(0, 200) });
      }
      // One response per AuthnRequest: node-saml removed the request id; only the call whose DELETE
      // found it goes on (a replay, even a concurrent one, finds it gone).
      const requestId = typeof profile?.inResponseTo === 'string' ? profile.inResponseTo : null;
      if (!profile || !requestId || !(cache.consumed.has(requestId) || (await cache.removeAsync(requestId))))
        return refuse(MESSAGES.ssoFailed, 'replayedResponse');

      const email = assertedEmail(profile, settings.user_email_claim);
      if (!email) return refuse(MESSAGES.ssoUnknownUser, 'noEmailInResponse', { claim: settings.user_email_claim });
      const outcome = await signIn.checkExternal(email, { type: org.type, id: org.id }, info);
      if (!outcome.ok) return refuse(outcome.message, ''); // checkExternal audited it

      // Finish the login prompt as the password route does (interactionFinished), by uid instead of cookie.
      interaction.result = { login: { accountId: String(outcome.userId), amr: ['ext'], remember: false } };
      await interaction.save(Math.max(interaction.exp - Math.floor(Date.now() / 1000), 1));
      res.redirect(303, interaction.returnTo);
    }),
  );
}
