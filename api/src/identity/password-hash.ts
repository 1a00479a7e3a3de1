import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'crypto';

/**
 * Password hashes with Node's scrypt, stored as `scrypt$N$r$p$saltB64$hashB64`: the parameters
 * travel with each hash, so the cost can be raised without breaking existing hashes
 * (verifyPassword reads them back) and an older hash is replaced on the next successful sign-in
 * (needsRehash).
 *
 * Cost: OWASP's Password Storage Cheat Sheet, scrypt with N=2^17, r=8, p=1 (128 MiB, about
 * 0.3 s on one core here). argon2id would be OWASP's first choice, but no argon2 package is
 * installed and Node 20 has none built in.
 */
export interface ScryptParameters {
  N: number;
  r: number;
  p: number;
}

export const CURRENT_PARAMETERS: ScryptParameters = { N: 2 ** 17, r: 8, p: 1 };
const KEY_LENGTH = 64;
const SALT_LENGTH = 16;
/** Upper bounds accepted when reading a stored hash, so a tampered row cannot exhaust memory or CPU. */
const MAX_N = 1 << 20;
const MAX_RP = 64;
const MAX_MEMORY = 256 * 1024 * 1024;
const MAX_WORK = 8 * CURRENT_PARAMETERS.N * CURRENT_PARAMETERS.r * CURRENT_PARAMETERS.p;

/** Memory scrypt needs (OpenSSL: 128·r·(N + p) bytes and change); Node refuses more than maxmem (32 MiB by default). */
const memoryOf = ({ N, r, p }: ScryptParameters) => 128 * r * (N + p + 2);
const maxmemFor = (params: ScryptParameters) => memoryOf(params) + 16 * 1024 * 1024;

function derive(password: string, salt: Buffer, keyLength: number, params: ScryptParameters): Promise<Buffer> {
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: maxmemFor(params) };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** Hashes a password for storage in users.password_hash (at the current cost unless told otherwise). */
export async function hashPassword(password: string, params: ScryptParameters = CURRENT_PARAMETERS): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, KEY_LENGTH, params);
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

interface ParsedHash extends ScryptParameters {
  salt: Buffer;
  expected: Buffer;
}

function parse(stored: string | null | undefined): ParsedHash | null {
  if (!stored) return null;
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  if (![N, r, p].every(Number.isInteger) || N < 2 || N > MAX_N || (N & (N - 1)) !== 0 || r < 1 || r > MAX_RP || p < 1 || p > MAX_RP)
    return null;
  if (memoryOf({ N, r, p }) > MAX_MEMORY || N * r * p > MAX_WORK) return null;
  const salt = Buffer.from(parts[4], 'base64');
  const expected = Buffer.from(parts[5], 'base64');
  if (!salt.length || expected.length < 16) return null;
  return { N, r, p, salt, expected };
}

/** True when the password matches a hash made by hashPassword; false for a malformed or missing hash. */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  if (typeof password !== 'string') return false;
  const hash = parse(stored);
  if (!hash) return false;
  const actual = await derive(password, hash.salt, hash.expected.length, hash);
  return timingSafeEqual(actual, hash.expected);
}

/** The work of verifying against `stored`, relative to a current hash (1 = the same; 0 for no usable hash). */
export function relativeCost(stored: string | null | undefined): number {
  const hash = parse(stored);
  if (!hash) return 0;
  const { N, r, p } = CURRENT_PARAMETERS;
  return (hash.N * hash.r * hash.p) / (N * r * p);
}

/** True when a hash was made with weaker parameters than the current ones (replace it after a successful check). */
export function needsRehash(stored: string | null | undefined): boolean {
  const hash = parse(stored);
  if (!hash) return false;
  return hash.N < CURRENT_PARAMETERS.N || hash.r < CURRENT_PARAMETERS.r || hash.p < CURRENT_PARAMETERS.p;
}

/** A valid hash of a random password: verified against when the e-mail is unknown, so timing does not tell. */
let dummy: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(18).toString('base64'));
  return dummy;
}
