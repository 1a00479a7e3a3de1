import { counterKey, delayAfter } from './attempt-counters';
import { FAILURE_DELAYS, tooManyAttemptsMessage } from './attempt-limits';
import { sealPrivateJwk, unsealPrivateJwk } from './key-sealing';

describe('attempt limits', () => {
  it('delay nothing for the free failures, then double the wait up to its cap', () => {
    const policy = FAILURE_DELAYS.account;
    expect([0, 1, 4].map((n) => delayAfter(n, policy))).toEqual([0, 0, 0]);
    expect([5, 6, 7, 8].map((n) => delayAfter(n, policy))).toEqual([5000, 10_000, 20_000, 40_000]);
    expect(delayAfter(30, policy)).toBe(15 * 60_000);
    expect(delayAfter(10_000, policy)).toBe(15 * 60_000);
  });

  it('key counters by a digest: no e-mail or address in clear, bounded length', () => {
    const key = counterKey('sign-in', 'someone@example.org', '10.1.2.3');
    expect(key).toMatch(/^sign-in:[\w-]{27}$/);
    expect(key).not.toContain('someone');
    expect(counterKey('sign-in', 'someone@example.org', '10.1.2.3')).toBe(key);
    expect(counterKey('sign-in', 'someone@example.org', '10.1.2.4')).not.toBe(key);
  });

  it('say how long to wait in words', () => {
    expect(tooManyAttemptsMessage(1)).toBe('Too many attempts. Try again in 1 second.');
    expect(tooManyAttemptsMessage(42)).toBe('Too many attempts. Try again in 42 seconds.');
    expect(tooManyAttemptsMessage(61)).toBe('Too many attempts. Try again in 2 minutes.');
  });
});

describe('signing keys at rest', () => {
  const key = Buffer.alloc(32, 7);
  const jwk = { kty: 'RSA', n: 'modulus', e: 'AQAB', d: 'private-exponent', kid: 'k1' };

  it('seal a private key (no private member in clear) and unseal it with the same key and id', () => {
    const sealed = sealPrivateJwk('k1', jwk, key);
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('private-exponent');
    expect(unsealPrivateJwk('k1', sealed, key)).toEqual(jwk);
  });

  it('refuse to unseal with another secret or under another key id', () => {
    const sealed = sealPrivateJwk('k1', jwk, key);
    expect(() => unsealPrivateJwk('k1', sealed, Buffer.alloc(32, 8))).toThrow(/APP_SECRET/);
    expect(() => unsealPrivateJwk('k2', sealed, key)).toThrow(/cannot be unsealed/);
  });
});
