import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'crypto';
import type { JWK } from 'jose';
import { config } from '../config';

/**
 * Private signing keys at rest (identity-keys.service.ts): AES-256-GCM under a key derived from
 * APP_SECRET with HKDF-SHA256, a fresh 96-bit nonce per seal, the key id as associated data (a
 * sealed key moved to another row does not open). Stored as `v1.<nonce>.<tag>.<ciphertext>`.
 */

/** The AES-256-GCM key that seals private keys, derived from APP_SECRET. */
export function sealingKey(): Buffer {
  return Buffer.from(hkdfSync('sha256', config.identity.cookieSecret, 'crisis identity keys', 'identity-keys aes-256-gcm v1', 32));
}

export function sealPrivateJwk(kid: string, jwk: JWK, key = sealingKey()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(kid, 'utf8'));
  const sealed = Buffer.concat([cipher.update(JSON.stringify(jwk), 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join('.');
}

export function unsealPrivateJwk(kid: string, sealed: string, key = sealingKey()): JWK {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || !data) throw new Error(`identity key ${kid}: unknown sealing format`);
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(kid, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  try {
    return JSON.parse(Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8'));
  } catch {
    // Fail loudly rather than sign with a new key the other replicas cannot read.
    throw new Error(`identity key ${kid} cannot be unsealed: APP_SECRET is not the one it was sealed with`);
  }
}

