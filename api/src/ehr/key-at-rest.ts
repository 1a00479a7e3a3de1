import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { config } from '../config';

/**
 * A facility's EHR signing key at rest (facility_ehr_connections.private_key_pem): AES-256-GCM
 * under a key derived from APP_SECRET with HKDF-SHA256 (as the identity keys, identity/key-sealing.ts),
 * a fresh nonce per seal, the facility id as associated data (a sealed key copied to another
 * facility's row does not open). Stored as `v1.<nonce>.<tag>.<ciphertext>`.
 * A plain PEM is read as is: the seeded demo key of the local FHIR server (public knowledge anyway).
 */
const sealingKey = () => Buffer.from(hkdfSync('sha256', config.identity.cookieSecret, 'crisis ehr keys', 'ehr-keys aes-256-gcm v1', 32));
const aad = (facilityId: number) => Buffer.from(`facility:${facilityId}`, 'utf8');

export function sealEhrKey(facilityId: number, pem: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(), iv);
  cipher.setAAD(aad(facilityId));
  const sealed = Buffer.concat([cipher.update(pem, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join('.');
}

/** The PEM of a stored key, or null when it cannot be opened (APP_SECRET changed, row copied). */
export function openEhrKey(facilityId: number, stored: string): string | null {
  if (stored.startsWith('-----BEGIN')) return stored;
  const [version, iv, tag, data] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || !data) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealingKey(), Buffer.from(iv, 'base64url'));
    decipher.setAAD(aad(facilityId));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
