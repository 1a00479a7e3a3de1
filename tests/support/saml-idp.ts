/**
 * A small local SAML 2.0 identity provider for the SSO tests (plain node http, no framework):
 *   GET  /sso?SAMLRequest=…&RelayState=…   (HTTP-Redirect binding) → a login page with an e-mail field
 *   POST /sso/login                        → an auto-posting form that POSTs a signed SAMLResponse
 *                                            (assertion and response signed, RSA-SHA256, xml-crypto)
 *                                            to the AuthnRequest's ACS URL with the RelayState it got.
 * Its key and self-signed certificate are made at start with `openssl` (no new dependency).
 * Test tool only: it signs in whoever types an e-mail.
 */
import { execFileSync } from 'child_process';
import { randomBytes } from 'crypto';
import { mkdtempSync, readFileSync, rmSync } from 'fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'http';
import { tmpdir } from 'os';
import { join } from 'path';
import { inflateRawSync } from 'zlib';
import { SignedXml } from 'xml-crypto';

export interface KeyPair {
  privateKey: string;
  certificate: string;
}

/** A 2048-bit RSA key and a self-signed certificate (2 days), made by openssl. */
export function generateKeyPair(commonName = 'Test SAML IdP'): KeyPair {
  const dir = mkdtempSync(join(tmpdir(), 'saml-idp-'));
  try {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', '2', '-subj', `/CN=${commonName}`,
        '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')],
      { stdio: 'ignore' },
    );
    return { privateKey: readFileSync(join(dir, 'key.pem'), 'utf8'), certificate: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } catch (err) {
    throw new Error(`saml-idp: could not make a key with openssl (is it installed?): ${(err as Error).message}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface SamlIdp extends KeyPair {
  url: string;
  entityId: string;
  /** The IdP's single sign-on URL (HTTP-Redirect binding): the SP's signInUrl. */
  signInUrl: string;
  stop(): Promise<void>;
}

export interface SamlIdpOptions {
  port?: number;
  host?: string;
  entityId?: string;
  /** The attribute that carries the e-mail besides the NameID. */
  emailAttribute?: string;
}

const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
const id = () => `_${randomBytes(16).toString('hex')}`;

interface AuthnRequestInfo {
  id: string;
  acsUrl: string;
  issuer: string;
}

/** Reads the ID, ACS URL and issuer of a deflated, base64 AuthnRequest (HTTP-Redirect binding). */
export function parseAuthnRequest(samlRequest: string): AuthnRequestInfo {
  const xml = inflateRawSync(Buffer.from(samlRequest, 'base64')).toString('utf8');
  const attr = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(xml)?.[1];
  const issuer = /<(?:\w+:)?Issuer[^>]*>([^<]*)<\/(?:\w+:)?Issuer>/.exec(xml)?.[1];
  const reqId = attr('ID');
  const acsUrl = attr('AssertionConsumerServiceURL');
  if (!reqId || !acsUrl || !issuer) throw new Error('not an AuthnRequest with ID, AssertionConsumerServiceURL and Issuer');
  return { id: reqId, acsUrl: acsUrl.replace(/&amp;/g, '&'), issuer: issuer.trim() };
}

function sign(xml: string, keys: KeyPair, element: 'Assertion' | 'Response'): string {
  const sig = new SignedXml({
    privateKey: keys.privateKey,
    publicCert: keys.certificate,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  const path = element === 'Assertion' ? "//*[local-name(.)='Assertion']" : "/*[local-name(.)='Response']";
  sig.addReference({
    xpath: path,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  sig.computeSignature(xml, { location: { reference: `${path}/*[local-name(.)='Issuer']`, action: 'after' } });
  return sig.getSignedXml();
}

/** A signed SAML Response for `email`, answering `request`. */
export function samlResponse(opts: { keys: KeyPair; entityId: string; request: AuthnRequestInfo; email: string; emailAttribute: string }): string {
  const { keys, entityId, request, email, emailAttribute } = opts;
  const now = new Date();
  const iso = (offsetMs: number) => new Date(now.getTime() + offsetMs).toISOString();
  const assertion =
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id()}" Version="2.0" IssueInstant="${iso(0)}">` +
    `<saml:Issuer>${esc(entityId)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${esc(email)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData InResponseTo="${esc(request.id)}" NotOnOrAfter="${iso(5 * 60_000)}" Recipient="${esc(request.acsUrl)}"/>` +
    `</saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${iso(-60_000)}" NotOnOrAfter="${iso(5 * 60_000)}">` +
    `<saml:AudienceRestriction><saml:Audience>${esc(request.issuer)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${iso(0)}" SessionIndex="${id()}"><saml:AuthnContext>` +
    `<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>` +
    `</saml:AuthnContext></saml:AuthnStatement>` +
    `<saml:AttributeStatement><saml:Attribute Name="${esc(emailAttribute)}"><saml:AttributeValue>${esc(email)}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>` +
    `</saml:Assertion>`;
  const response =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id()}" Version="2.0" ` +
    `IssueInstant="${iso(0)}" Destination="${esc(request.acsUrl)}" InResponseTo="${esc(request.id)}">` +
    `<saml:Issuer>${esc(entityId)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    assertion +
    `</samlp:Response>`;
  const withSignedAssertion = sign(response, keys, 'Assertion');
  return sign(withSignedAssertion, keys, 'Response');
}

function page(title: string, body: string, script = ''): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>body{font-family:system-ui,sans-serif;background:#f4f1ea;display:flex;justify-content:center;padding-top:80px}
main{background:#fff;padding:28px;border-radius:8px;min-width:320px;box-shadow:0 2px 12px rgba(0,0,0,.1)}
label{display:block;margin:12px 0 4px}input[type=email]{width:100%;padding:8px}button{margin-top:16px;padding:8px 16px}</style>
</head><body><main>${body}</main>${script}</body></html>`;
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 256 * 1024) throw new Error('too large');
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** Starts the IdP (default http://127.0.0.1:3311). */
export async function startSamlIdp(options: SamlIdpOptions = {}): Promise<SamlIdp> {
  const port = options.port ?? 3311;
  const host = options.host ?? '127.0.0.1';
  const url = `http://${host}:${port}`;
  const entityId = options.entityId ?? `${url}/metadata`;
  const emailAttribute = options.emailAttribute ?? 'email';
  const keys = generateKeyPair();

  const send = (res: ServerResponse, status: number, html: string) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(html);
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const u = new URL(req.url ?? '/', url);
      if (req.method === 'GET' && u.pathname === '/sso') {
        const samlRequest = u.searchParams.get('SAMLRequest') ?? '';
        const relayState = u.searchParams.get('RelayState') ?? '';
        const request = parseAuthnRequest(samlRequest);
        send(
          res,
          200,
          page(
            'Test IdP sign-in',
            `<h1>Test identity provider</h1><p>Signing in to <span data-testid="sp">${esc(request.issuer)}</span></p>
<form method="post" action="/sso/login">
<input type="hidden" name="SAMLRequest" value="${esc(samlRequest)}"><input type="hidden" name="RelayState" value="${esc(relayState)}">
<label for="email">Email</label><input id="email" name="email" type="email" required>
<button type="submit">Sign in</button></form>`,
          ),
        );
        return;
      }
      if (req.method === 'POST' && u.pathname === '/sso/login') {
        const form = await readForm(req);
        const request = parseAuthnRequest(form.get('SAMLRequest') ?? '');
        const email = (form.get('email') ?? '').trim();
        const xml = samlResponse({ keys, entityId, request, email, emailAttribute });
        send(
          res,
          200,
          page(
            'Signing in…',
            `<p>Signing you in…</p><form id="saml" method="post" action="${esc(request.acsUrl)}">
<input type="hidden" name="SAMLResponse" value="${esc(Buffer.from(xml, 'utf8').toString('base64'))}">
<input type="hidden" name="RelayState" value="${esc(form.get('RelayState') ?? '')}">
<noscript><button type="submit">Continue</button></noscript></form>`,
            `<script>document.getElementById('saml').submit();</script>`,
          ),
        );
        return;
      }
      if (req.method === 'GET' && u.pathname === '/metadata') {
        const body = keys.certificate.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, '');
        res.writeHead(200, { 'content-type': 'application/samlmetadata+xml' });
        res.end(
          `<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${esc(entityId)}"><IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">` +
            `<KeyDescriptor use="signing"><KeyInfo xmlns="http://www.w3.org/2000/09/xmldsig#"><X509Data><X509Certificate>${body}</X509Certificate></X509Data></KeyInfo></KeyDescriptor>` +
            `<SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${esc(`${url}/sso`)}"/></IDPSSODescriptor></EntityDescriptor>`,
        );
        return;
      }
      send(res, 404, page('Not found', '<p>Not found</p>'));
    })().catch((err) => send(res, 400, page('Bad request', `<p>${esc(String((err as Error).message))}</p>`)));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    ...keys,
    url,
    entityId,
    signInUrl: `${url}/sso`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
