import { Injectable } from '@nestjs/common';
import type { RequestHandler, Response } from 'express';
import type { FastifyRequest } from 'fastify';
import { CodedError, ErrorCode } from '@crisis/forms';
import { AttemptCounters, counterKey, postgresRateLimitStore, type DelayPolicy } from './attempt-counters';

/**
 * How often each sign-in step may be tried (OWASP ASVS 5.0 V6.1.1 / V6.3.1: documented controls
 * against brute force and credential stuffing that do not let an attacker lock accounts at will;
 * V2.4.1: anti-automation for costly functions — each password check costs one scrypt at
 * 128 MiB). Two kinds of control:
 *
 * Request limits (fixed windows, every request counts): keyed by account and client address where
 * an account is known, so that one hospital's many users behind one address, or the test suites
 * signing in many demo users from 127.0.0.1, do not share one budget.
 *
 * Failure delays (progressive, only failed attempts count): after a few free failures each further
 * one waits twice as long as the one before, per account and per client address. They replace a
 * permanent lock for bursts from addresses the account never signed in from; wrong passwords from
 * an address she signed in from (and wrong sign-in codes) still count towards the lock-out of
 * LOCKOUT_MAX_FAILURES (sign-in.service.ts).
 */
export const REQUEST_LIMITS = {
  /**
   * A person signs in a few times an hour; 20 a minute is never reached by hand, nor by the
   * end-to-end suite signing in one demo user for each test. (Guessing is held by the delays.)
   */
  signInPerAccountAndAddress: { max: 20, windowMs: 60_000 },
  /** Bounds the scrypt work one address can cause (about one check a second), with room for a shift change behind one NAT. */
  signInPerAddress: { max: 300, windowMs: 5 * 60_000 },
  /** The code itself has a budget of 5 wrong entries per sign-in; this bounds the requests. */
  codeEntryPerAccountAndAddress: { max: 10, windowMs: 5 * 60_000 },
  /** "Send a new code" (besides the 30 s between two codes). */
  resendPerAccountAndAddress: { max: 5, windowMs: 5 * 60_000 },
  /** Codes sent to one person, by sign-in or resend: e-mails and SMS cost and annoy. */
  codesSentPerAccount: { max: 10, windowMs: 60 * 60_000 },
  /** Each request may e-mail every ITP user who receives them. */
  unlockRequestPerAddress: { max: 10, windowMs: 15 * 60_000 },
  /** Set-password (invitation) and reset-password links, shown and posted. */
  accountLinkPerAddress: { max: 30, windowMs: 15 * 60_000 },
  /** PUT /api/user/password: guesses of the current password with a stolen session. */
  changePasswordPerAccountAndAddress: { max: 10, windowMs: 15 * 60_000 },
} as const;
export type RequestRule = keyof typeof REQUEST_LIMITS;

export const FAILURE_DELAYS = {
  /** Per e-mail (known or not), or per e-mail and address for an address she signed in from. */
  account: { free: 5, firstDelayMs: 5000, maxDelayMs: 15 * 60_000, forgetAfterMs: 24 * 60 * 60_000 },
  /** Per client address, whatever the accounts (password spraying). */
  address: { free: 20, firstDelayMs: 5000, maxDelayMs: 5 * 60_000, forgetAfterMs: 15 * 60_000 },
} satisfies Record<string, DelayPolicy>;

/**
 * NIST SP 800-63B §5.2.2: at most 100 consecutive failed attempts on one account. Failures from
 * unknown addresses are only delayed, so at the delay's cap this takes about a day; then the
 * account is locked like after LOCKOUT_MAX_FAILURES.
 */
export const MAX_DELAYED_FAILURES = 100;

/** An address she completed a sign-in from is hers for this long (her wrong passwords there count towards the lock-out). */
export const KNOWN_ADDRESS_DAYS = 90;

/** A refusal for now: try again after this many seconds (the Retry-After header). */
export interface TooMany {
  retryAfterSeconds: number;
}

/** A password attempt counted in its failure streaks (refunded by passwordWasRight). */
export interface CountedAttempt {
  accountKey: string;
  addressKey: string;
  /** Failures of the account's streak, this attempt included. */
  accountFailures: number;
}

export function tooManyAttemptsMessage(seconds: number): string {
  if (seconds < 60) return `Too many attempts. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`;
  const minutes = Math.ceil(seconds / 60);
  return `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

const waitOf = (ms: number): TooMany => ({ retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)) });

@Injectable()
export class AttemptLimits {
  constructor(private readonly counters: AttemptCounters) {}

  /** Counts one request against `rule` for the key parts (e-mail, user id, address…); null when allowed. */
  async request(rule: RequestRule, ...parts: (string | number)[]): Promise<TooMany | null> {
    const { max, windowMs } = REQUEST_LIMITS[rule];
    const { hits, resetInMs } = await this.counters.hit(counterKey(rule, ...parts), windowMs);
    return hits > max ? waitOf(resetInMs) : null;
  }

  /**
   * Counts a password attempt in the failure streaks of the account and of the address, before the
   * password is checked; refused without counting while a streak's delay runs. `knownAddress`: she
   * signed in from this address before, so the streak is hers there alone and strangers elsewhere
   * cannot make her wait.
   */
  async countPasswordAttempt(email: string, address: string, knownAddress: boolean): Promise<CountedAttempt | TooMany> {
    const accountKey = knownAddress
      ? counterKey('sign-in failures of account at address', email.toLowerCase(), address)
      : counterKey('sign-in failures of account', email.toLowerCase());
    const addressKey = counterKey('sign-in failures of address', address);
    const account = await this.counters.countFailure(accountKey, FAILURE_DELAYS.account);
    if (!account.counted) return waitOf(account.waitMs);
    const byAddress = await this.counters.countFailure(addressKey, FAILURE_DELAYS.address);
    if (!byAddress.counted) {
      await this.counters.refund(accountKey);
      return waitOf(byAddress.waitMs);
    }
    return { accountKey, addressKey, accountFailures: account.failures };
  }

  /** The password was wrong: the delays run from the answer. */
  async passwordWasWrong(attempt: CountedAttempt): Promise<void> {
    await this.counters.touch([attempt.accountKey, attempt.addressKey]);
  }

  /** The password was right: the account's streak ends, the address's attempt is taken back. */
  async passwordWasRight(attempt: CountedAttempt): Promise<void> {
    await this.counters.clear(attempt.accountKey);
    await this.counters.refund(attempt.addressKey);
  }

  /**
   * Express middleware: `rule` per client address (req.ip: the connection's, or what a trusted
   * proxy says); over the limit, Retry-After and the page `render` makes, with status 429.
   */
  byAddress(rule: RequestRule, render: (res: Response, message: string) => void): RequestHandler {
    return (req, res, next) => {
      this.request(rule, req.ip ?? '').then((tooMany) => {
        if (!tooMany) return next();
        res.status(429).set('Retry-After', String(tooMany.retryAfterSeconds));
        render(res, tooManyAttemptsMessage(tooMany.retryAfterSeconds));
      }, next);
    };
  }
}

/**
 * @fastify/rate-limit's options (main.ts registers the plugin): no global limit, only routes with
 * a `rateLimit` config (e.g. CHANGE_PASSWORD_RATE_LIMIT); counters in PostgreSQL; a refusal is the
 * coded error INV.TOO_MANY_ATTEMPTS (the plugin has set Retry-After), rendered like any other.
 */
export function rateLimitPluginOptions(counters: AttemptCounters) {
  return {
    global: false,
    store: postgresRateLimitStore(counters),
    errorResponseBuilder: (_req: FastifyRequest, context: { ttl: number }) =>
      new CodedError(ErrorCode.TooManyAttempts, { retryAfterSeconds: waitOf(context.ttl).retryAfterSeconds }),
  };
}

/** The subject of a bearer token, unverified (the key of a limit only; the AuthGuard verifies). */
function tokenSubject(authorization: string | string[] | undefined): string {
  const token = typeof authorization === 'string' ? /^Bearer (.+)$/i.exec(authorization)?.[1] : undefined;
  try {
    const sub = JSON.parse(Buffer.from(token?.split('.')[1] ?? '', 'base64url').toString('utf8')).sub;
    return typeof sub === 'string' ? sub : '';
  } catch {
    return '';
  }
}

/** Route config (@RouteConfig) of PUT /api/user/password: per account and client address. */
export const CHANGE_PASSWORD_RATE_LIMIT = {
  rateLimit: {
    max: REQUEST_LIMITS.changePasswordPerAccountAndAddress.max,
    timeWindow: REQUEST_LIMITS.changePasswordPerAccountAndAddress.windowMs,
    keyGenerator: (req: FastifyRequest) => `${tokenSubject(req.headers.authorization)}|${req.ip}`,
  },
};
