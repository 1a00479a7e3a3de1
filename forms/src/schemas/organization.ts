import type { FieldError } from '../errors';
import { id, mediumText, objectSchema } from './common';

/**
 * Organization security settings (spec 03 §3 External login settings, IP allow-list settings,
 * ITP organization settings; §5 SSO, IP allow-list, ITP settings; §9 limits).
 */

export const SSO_TEXT_MAX = 250;
export const SSO_CERTIFICATE_MAX = 4000;
export const IP_LIST_MAX = 4000;
export const INVALID_IP_LIST_MESSAGE = 'Invalid IP address list';
export const IP_REQUIRED_MESSAGE = 'IP Address is required';
export const INVALID_X509_MESSAGE = 'Invalid X509 Certificate';

const flag = { type: 'boolean' } as const;

/* ---------- ITP organization (general tab) ---------- */

export const itpOrganizationSchema = objectSchema('itpOrganization', ['organizationName', 'erLine', 'mfaEnabled'], {
  organizationName: mediumText,
  erLine: mediumText,
  mfaEnabled: flag,
  id: { readOnly: true },
});

export interface ItpOrganizationRecord {
  id: number;
  organizationName: string;
  erLine: string | null;
  mfaEnabled: boolean;
}

/* ---------- IP allow-list ---------- */

export const ipWhiteListSettingsSchema = objectSchema('ipWhiteListSettings', ['ipWhiteListEnabled'], {
  /** null: the ITP organization itself; otherwise a facility. */
  facilityId: { anyOf: [id, { type: 'null' }] },
  ipWhiteListEnabled: flag,
  ipAddresses: { type: ['string', 'null'], maxLength: IP_LIST_MAX },
  /**
   * The saving admin knows the list leaves out her own current address (she answered the dialog
   * INV.IP.ALLOW.LIST.EXCLUDES.CURRENT.ADDRESS opens); without it such a save is refused.
   */
  confirmed: { type: ['boolean', 'null'] },
});

export interface IpWhiteListSettingsRecord {
  facilityId: number | null;
  ipWhiteListEnabled: boolean;
  ipAddresses: string | null;
}

/* ---------- External login (SSO) ---------- */

/** A PEM certificate, or its bare base64 body as IdP metadata shows it. */
const PEM_CERTIFICATE = /^(-----BEGIN CERTIFICATE-----)?[A-Za-z0-9+/=\s]+(-----END CERTIFICATE-----)?$/;

export const externalLoginSettingsSchema = objectSchema('externalLoginSettings', ['enabled'], {
  enabled: flag,
  identityProviderEntityId: { type: ['string', 'null'], maxLength: SSO_TEXT_MAX },
  signInUrl: { type: ['string', 'null'], maxLength: SSO_TEXT_MAX },
  x509Certificate: { type: ['string', 'null'], maxLength: SSO_CERTIFICATE_MAX },
  userEmailClaim: { type: ['string', 'null'], maxLength: SSO_TEXT_MAX },
  disablePasswordLogin: flag,
  // Read-only fields of the record (sent back by the form; ignored).
  id: { readOnly: true },
  serviceProviderId: { readOnly: true },
  isOutdated: { readOnly: true },
  applyFailed: { readOnly: true },
  facilityId: { readOnly: true },
});

const isBlank = (v: unknown) => v === null || v === undefined || v === '';

/**
 * Entity id, sign-in URL and certificate are required when SSO is enabled; the sign-in URL is an
 * http(s) URL; the certificate looks like a PEM certificate (the API also parses it with
 * crypto.X509Certificate).
 */
export function externalLoginSettingsRules(d: any): FieldError[] {
  const errors: FieldError[] = [];
  if (d.enabled)
    for (const f of ['identityProviderEntityId', 'signInUrl', 'x509Certificate'])
      if (isBlank(d[f])) errors.push({ field: f, key: 'required', message: 'This field is required' });
  if (typeof d.signInUrl === 'string' && d.signInUrl && !/^https?:\/\/[^\s]+$/i.test(d.signInUrl))
    errors.push({ field: 'signInUrl', key: 'url', message: 'Invalid URL' });
  if (typeof d.x509Certificate === 'string' && d.x509Certificate && !PEM_CERTIFICATE.test(d.x509Certificate.trim()))
    errors.push({ field: 'x509Certificate', key: 'invalidCertificate', message: INVALID_X509_MESSAGE });
  return errors;
}

export interface ExternalLoginSettingsRecord {
  /** null when SSO was never configured for this organization. */
  id: number | null;
  facilityId: number | null;
  serviceProviderId: string;
  enabled: boolean;
  identityProviderEntityId: string | null;
  x509Certificate: string | null;
  signInUrl: string | null;
  userEmailClaim: string | null;
  disablePasswordLogin: boolean;
  isOutdated: boolean;
  applyFailed: boolean;
}
