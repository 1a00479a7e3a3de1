import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'crypto';

/**
 * Password hashes with Node's scrypt, stored as `scrypt$N$r$p$saltB64$hashB64` so the cost can be
 * raised later without breaking existing hashes (verifyPassword reads the parameters back).
 */
const N = 16384;
const R = 8;
const P = 1;
const KEY_LENGTH = 64;
const SALT_LENGTH = 16;
/** Upper bounds accepted when reading a stored hash, so a tampered row cannot exhaust memory. */
const MAX_N = 1 << 20;
const MAX_RP = 64;

function derive(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** Hashes a password for storage in users.password_hash. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, KEY_LENGTH, { N, r: R, p: P, maxmem: 256 * N * R });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** True when the password matches a hash made by hashPassword; false for a malformed or missing hash. */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  if (typeof password !== 'string' || !stored) return false;
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(Number);
  if (![n, r, p].every(Number.isInteger) || n < 2 || n > MAX_N || (n & (n - 1)) !== 0 || r < 1 || r > MAX_RP || p < 1 || p > MAX_RP)
    return false;
  const salt = Buffer.from(parts[4], 'base64');
  const expected = Buffer.from(parts[5], 'base64');
  if (!salt.length || expected.length < 16) return false;
  const actual = await derive(password, salt, expected.length, { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 });
  return timingSafeEqual(actual, expected);
}

/** A valid hash of a random password: verified against when the e-mail is unknown, so timing does not tell. */
let dummy: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(18).toString('base64'));
  return dummy;
}
