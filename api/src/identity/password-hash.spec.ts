import { scryptSync } from 'crypto';
import { CURRENT_PARAMETERS, hashPassword, needsRehash, relativeCost, verifyPassword } from './password-hash';

/** A hash as the earlier cost (N=2^14) stored it. */
const legacy = (password: string) => {
  const salt = Buffer.from('0123456789abcdef');
  return `scrypt$16384$8$1$${salt.toString('base64')}$${scryptSync(password, salt, 64, { N: 16384, r: 8, p: 1 }).toString('base64')}`;
};

jest.setTimeout(60_000);

describe('password hashes', () => {
  it('hash at N=2^17, r=8, p=1 (OWASP), the parameters in the stored string, and verify', async () => {
    expect(CURRENT_PARAMETERS).toEqual({ N: 131072, r: 8, p: 1 });
    const hash = await hashPassword('Correct-Horse7');
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$[\w+/=]+\$[\w+/=]+$/);
    expect(await verifyPassword('Correct-Horse7', hash)).toBe(true);
    expect(await verifyPassword('Correct-Horse8', hash)).toBe(false);
    expect(needsRehash(hash)).toBe(false);
    expect(relativeCost(hash)).toBe(1);
  });

  it('still verify an older, cheaper hash, and ask for it to be replaced', async () => {
    const old = legacy('Correct-Horse7');
    expect(await verifyPassword('Correct-Horse7', old)).toBe(true);
    expect(await verifyPassword('Wrong', old)).toBe(false);
    expect(needsRehash(old)).toBe(true);
    expect(relativeCost(old)).toBe(1 / 8);
  });

  it('refuse malformed hashes, and parameters that would exhaust memory or CPU', async () => {
    for (const bad of [null, '', 'bcrypt$x', 'scrypt$100$8$1$c2FsdA==$aGFzaA==', `scrypt$${2 ** 20}$64$1$c2FsdHNhbHQ=$${'A'.repeat(88)}`, `scrypt$131072$8$64$c2FsdHNhbHQ=$${'A'.repeat(88)}`]) {
      expect(await verifyPassword('x', bad)).toBe(false);
      expect(needsRehash(bad)).toBe(false);
      expect(relativeCost(bad)).toBe(0);
    }
  });
});
