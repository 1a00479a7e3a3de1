import { Injectable, Logger } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { createHmac, randomInt, timingSafeEqual } from 'crypto';
import { QueryTypes } from 'sequelize';
import { Sequelize } from 'sequelize-typescript';
import { ERRORS, UserType, type MfaMethod, type UserContext } from '@crisis/forms';
import { AuditService } from '../audit/audit.service';
import { UserContextService } from '../auth/user-context.service';
import { config } from '../config';
import { OutboxService } from '../outbox/outbox.service';
import { IpAllowListService } from '../security/ip-allow-list.service';
import { AttemptLimits, KNOWN_ADDRESS_DAYS, MAX_DELAYED_FAILURES, tooManyAttemptsMessage, type TooMany } from './attempt-limits';
import { dummyPasswordHash, hashPassword, needsRehash, relativeCost, verifyPassword } from './password-hash';
import { maskDestination } from './views';

export const MESSAGES = {
  invalidCredentials: 'Invalid email or password',
  locked: 'Your account is locked. Contact your administrator.',
  passwordLoginDisabled: 'Password sign-in is turned off for your account. Use your organization’s single sign-on.',
  invalidCode: 'Invalid code',
  codeVoid: 'That code can no longer be used. Sign in again to get a new code.',
  codeResent: 'We sent you a new code.',
  codeRecentlySent: 'We sent you a code a moment ago. Check your messages, or ask again in a minute.',
  ssoUnavailable: 'Single sign-on is not set up for this e-mail address. Sign in with your password.',
  ssoUnknownUser: 'Your identity provider signed you in, but no account of this organization has that e-mail address.',
  ssoInactive: 'Your account is not active. Contact your administrator.',
  ssoFailed: 'Single sign-on failed: the answer of your identity provider could not be verified.',
  /** The client address is not on the organization's IP allow-list: the API's own refusal (FRBD). */
  ipNotAllowed: ERRORS.FRBD.message,
} as const;

/**
 * A sign-in code lives 10 minutes. One sign-in (from the password to the code) allows 5 wrong
 * codes in all, across "Send a new code"; each wrong code also counts towards the lock-out.
 */
export const MFA_CODE_TTL_MINUTES = 10;
export const MFA_MAX_ATTEMPTS = 5;
/** A new code is sent at most this often on "Send a new code". */
const RESEND_MIN_SECONDS = 30;

interface UserRow {
  id: number;
  email: string;
  phone: string | null;
  password_hash: string | null;
  is_active: boolean;
  creating: boolean;
  password_locked_out: boolean;
  locked_due_inactivity: boolean;
  mfa_method: MfaMethod | null;
  sso_enabled: boolean;
  disabled_password_login: boolean;
  user_type: UserType;
  mfa_required: boolean;
}

export interface MfaChallenge {
  channel: 'email' | 'sms';
  destination: 'e-mail' | 'phone';
  hint: string;
  /**
   * The channel she may switch to on the code page: only while she has not chosen a method yet
   * (first MFA sign-in, or after "Reset MFA") and has a phone; the method of the code she enters
   * becomes hers (spec 03 §2 "MFA methods: Email, Sms").
   */
  other?: 'email' | 'sms';
}

export type MfaChannel = MfaChallenge['channel'];
const METHOD_OF_CHANNEL: Record<MfaChannel, MfaMethod> = { email: 'Email', sms: 'Sms' };

/** A refusal: `locked` offers the unlock request; `retryAfterSeconds` is a 429 with Retry-After. */
export interface Refusal {
  ok: false;
  message: string;
  locked?: boolean;
  retryAfterSeconds?: number;
}

export type PasswordOutcome = { ok: true; userId: number; mfa: null } | { ok: true; userId: number; mfa: MfaChallenge } | Refusal;

export type CodeOutcome =
  | { ok: true; userId: number }
  /** restart: the code is void (expired, used up); the user signs in again from the password. */
  | (Refusal & { restart: boolean });

export type ResendOutcome = { ok: true; challenge: MfaChallenge; sent: boolean } | { ok: false; retryAfterSeconds?: number };

const isTooMany = (x: object): x is TooMany => 'retryAfterSeconds' in x;

export interface AttemptInfo {
  ip?: string;
  path?: string;
  correlationId?: string;
}

const USER_SQL = `
  SELECT u.id, u.email, u.phone, u.password_hash, u.is_active, u.creating, u.password_locked_out,
         u.locked_due_inactivity, u.mfa_method, u.sso_enabled, u.disabled_password_login, u.user_type,
         CASE u.organization_type
           WHEN 'IntegratedTelehealthPartners' THEN COALESCE((SELECT mfa_enabled FROM itp_organization ORDER BY id LIMIT 1), false)
           WHEN 'Facility' THEN COALESCE((SELECT is_mfa_enabled FROM facilities WHERE id = u.organization_id), false)
           WHEN 'Group' THEN COALESCE((SELECT mfa_enabled FROM group_organizations WHERE id = u.organization_id), false)
           ELSE false
         END AS mfa_required
    FROM users u`;

/**
 * The sign-in rules: password check with lock-out, the second factor (a 6-digit code by e-mail or
 * SMS when the user's organization requires it), and an audit entry for every attempt.
 * All state is in PostgreSQL (no per-process memory), so any replica can serve any step.
 *
 * Against guessing (limits in attempt-limits.ts): request limits and a progressive delay come
 * before any look-up; a wrong password gets the same answer, after the same hash work, whatever
 * the account (unknown, locked, disabled); the lock and other account states are told only to
 * whoever gave the right password. Wrong passwords lock the account (LOCKOUT_MAX_FAILURES) only
 * from an address she signed in from before; from elsewhere they are delayed, so that strangers
 * cannot lock her out. Wrong sign-in codes always count: whoever typed them knew the password.
 */
@Injectable()
export class SignInService {
  private readonly log = new Logger('identity');

  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    private readonly audit: AuditService,
    private readonly users: UserContextService,
    private readonly outbox: OutboxService,
    private readonly limits: AttemptLimits,
    private readonly ipAllowList: IpAllowListService,
  ) {}

  /** Step 1: e-mail and password. On success either done, or a code was sent (mfa). */
  async checkPassword(emailInput: unknown, passwordInput: unknown, interactionUid: string, info: AttemptInfo = {}): Promise<PasswordOutcome> {
    const email = typeof emailInput === 'string' ? emailInput.trim().slice(0, 255) : '';
    const password = typeof passwordInput === 'string' ? passwordInput.slice(0, 250) : '';
    const address = info.ip ?? '';

    const fail = async (message: string, reason: string, userId?: number, extra: Omit<Refusal, 'ok' | 'message'> & Record<string, unknown> = {}) => {
      const { locked, retryAfterSeconds, ...detail } = extra;
      await this.record(false, email, userId, { step: 'password', reason, ...detail, ...(retryAfterSeconds ? { retryAfterSeconds } : {}) }, info);
      return { ok: false as const, message, locked, retryAfterSeconds };
    };
    const tooMany = (t: TooMany, reason: string, userId?: number) =>
      fail(tooManyAttemptsMessage(t.retryAfterSeconds), reason, userId, { retryAfterSeconds: t.retryAfterSeconds });

    // Limits before any look-up or hash: a flood costs little, and unknown e-mails are treated alike.
    const limited =
      (await this.limits.request('signInPerAddress', address)) ??
      (await this.limits.request('signInPerAccountAndAddress', email.toLowerCase(), address));
    if (limited) return tooMany(limited, 'rateLimited');
    const user = email ? await this.findByEmail(email, address) : null;
    const attempt = await this.limits.countPasswordAttempt(email, address, !!user?.known_address);
    if (isTooMany(attempt)) return tooMany(attempt, 'delayed', user?.id);

    const matched = password ? await this.passwordMatches(password, user?.password_hash ?? null) : null;
    if (matched === null) {
      const reason =
        !user ? 'unknownEmail'
        : !password ? 'emptyPassword'
        : user.creating ? 'pending'
        : !user.is_active ? 'inactive'
        : !user.password_hash ? 'noPassword'
        : user.password_locked_out || user.locked_due_inactivity ? 'wrongPasswordWhileLocked'
        : 'wrongPassword';
      await this.limits.passwordWasWrong(attempt);
      const lockedNow =
        user && password && user.is_active && !user.creating ? await this.countTowardsLockout(user.id, user.known_address, attempt.accountFailures) : false;
      return fail(MESSAGES.invalidCredentials, reason, user?.id, lockedNow ? { lockedNow } : {});
    }
    // The right password from here on (the dummy hash never matches: the user exists).
    const account = user!;
    if (!account.is_active || account.creating) return fail(MESSAGES.invalidCredentials, account.creating ? 'pending' : 'inactive', account.id);
    await this.limits.passwordWasRight(attempt);
    if (account.password_locked_out || account.locked_due_inactivity) {
      return fail(MESSAGES.locked, account.password_locked_out ? 'lockedOut' : 'lockedDueInactivity', account.id, { locked: true });
    }
    if (!(await this.addressAllowed(account.id, address))) return fail(MESSAGES.ipNotAllowed, 'ipNotAllowed', account.id);

    // Password login can be turned off for SSO users (admins keep it, spec 03 §4).
    const isAdmin = account.user_type === UserType.ItpAdmin || account.user_type === UserType.FacilityAdmin;
    if (account.sso_enabled && account.disabled_password_login && !isAdmin) {
      return fail(MESSAGES.passwordLoginDisabled, 'passwordLoginDisabled', account.id);
    }
    await this.rehashIfOlder(account, matched);

    if (!account.mfa_required) {
      await this.completed(account.id, address);
      await this.record(true, email, account.id, { step: 'password', amr: 'pwd' }, info);
      return { ok: true, userId: account.id, mfa: null };
    }

    // The failure count is not reset here: wrong codes still to come add to it.
    const challenge = await this.sendCode(account, interactionUid, { carryAttempts: false });
    if (isTooMany(challenge)) return tooMany(challenge, 'codesSentTooOften', account.id);
    await this.record(true, email, account.id, { step: 'password', mfa: challenge.channel, codeSent: true }, info);
    return { ok: true, userId: account.id, mfa: challenge };
  }

  /**
   * Sign-in through the organization's SAML identity provider (saml.ts): the IdP vouched for the
   * e-mail; the account must belong to that organization and be usable. No password and no second
   * factor here (README "Product decisions"). Audited like a password sign-in (step 'saml').
   */
  async checkExternal(
    emailInput: string,
    organization: { type: string; id: number | null },
    info: AttemptInfo = {},
  ): Promise<{ ok: true; userId: number } | { ok: false; message: string }> {
    const email = emailInput.trim().slice(0, 255);
    const [user] = email
      ? await this.query<UserRow & { organization_type: string; organization_id: number | null }>(
          `SELECT s.*, x.organization_type, x.organization_id FROM (${USER_SQL} WHERE lower(u.email) = lower(:email)) s
             JOIN users x ON x.id = s.id`,
          { email },
        )
      : [];
    const fail = async (message: string, reason: string, userId?: number) => {
      await this.record(false, email, userId, { step: 'saml', reason }, info);
      return { ok: false as const, message };
    };
    const member =
      !!user &&
      user.organization_type === organization.type &&
      (organization.type === 'IntegratedTelehealthPartners' || Number(user.organization_id) === organization.id);
    if (!user || !member) return fail(MESSAGES.ssoUnknownUser, user ? 'otherOrganization' : 'unknownEmail', user?.id);
    if (user.password_locked_out || user.locked_due_inactivity)
      return fail(MESSAGES.locked, user.password_locked_out ? 'lockedOut' : 'lockedDueInactivity', user.id);
    if (!user.is_active || user.creating) return fail(MESSAGES.ssoInactive, user.creating ? 'pending' : 'inactive', user.id);
    if (!(await this.addressAllowed(user.id, info.ip ?? ''))) return fail(MESSAGES.ipNotAllowed, 'ipNotAllowed', user.id);
    await this.completed(user.id, info.ip ?? '');
    await this.record(true, email, user.id, { step: 'saml', amr: 'ext' }, info);
    return { ok: true, userId: user.id };
  }

  /** A refused single sign-on before any account was identified (bad signature, issuer, audience…). */
  async recordExternalFailure(reason: string, info: AttemptInfo = {}, detail?: Record<string, unknown>) {
    await this.record(false, '', undefined, { step: 'saml', reason, ...detail }, info);
  }

  /** Step 2: the code sent after a good password, bound to this sign-in interaction. */
  async checkCode(interactionUid: string, codeInput: unknown, info: AttemptInfo = {}): Promise<CodeOutcome> {
    const code = typeof codeInput === 'string' ? codeInput.replace(/\s+/g, '') : '';
    const address = info.ip ?? '';
    const [latest] = await this.query<{ id: number; user_id: number; email: string; live: boolean; method: MfaChannel }>(
      `SELECT c.id, c.user_id, u.email, c.method, c.consumed_at IS NULL AS live FROM mfa_codes c JOIN users u ON u.id = c.user_id
        WHERE c.interaction_uid = :uid
        ORDER BY c.id DESC LIMIT 1`,
      { uid: interactionUid },
    );
    if (!latest) return { ok: false, message: MESSAGES.codeVoid, restart: true };
    const limited = await this.limits.request('codeEntryPerAccountAndAddress', latest.user_id, address);
    if (limited) {
      await this.record(false, latest.email, latest.user_id, { step: 'code', reason: 'rateLimited', retryAfterSeconds: limited.retryAfterSeconds }, info);
      return { ok: false, message: tooManyAttemptsMessage(limited.retryAfterSeconds), restart: false, retryAfterSeconds: limited.retryAfterSeconds };
    }
    if (!latest.live) return { ok: false, message: MESSAGES.codeVoid, restart: true };
    const pending = latest;

    // Count the attempt first, atomically, so parallel guesses cannot exceed the budget.
    const [attempt] = await this.query<{ attempts: number; code_hash: string; expired: boolean }>(
      `UPDATE mfa_codes SET attempts = attempts + 1
        WHERE id = :id AND consumed_at IS NULL AND attempts < :max
        RETURNING attempts, code_hash, expires_at <= now() AS expired`,
      { id: pending.id, max: MFA_MAX_ATTEMPTS },
    );
    const voidCode = () => this.query(`UPDATE mfa_codes SET consumed_at = now() WHERE id = :id AND consumed_at IS NULL`, { id: pending.id });

    if (!attempt || attempt.expired) {
      await voidCode();
      await this.record(false, pending.email, pending.user_id, { step: 'code', reason: attempt ? 'expired' : 'void' }, info);
      return { ok: false, message: MESSAGES.codeVoid, restart: true };
    }
    if (!/^\d{6}$/.test(code) || !safeEqual(this.codeHash(pending.user_id, code), attempt.code_hash)) {
      const lockedNow = await this.countTowardsLockout(pending.user_id, true, 0);
      const exhausted = attempt.attempts >= MFA_MAX_ATTEMPTS;
      if (exhausted || lockedNow) await voidCode();
      const reason = lockedNow ? 'wrongCodeLockedOut' : exhausted ? 'tooManyAttempts' : 'wrongCode';
      await this.record(false, pending.email, pending.user_id, { step: 'code', reason }, info);
      if (lockedNow) return { ok: false, message: MESSAGES.locked, restart: true, locked: true };
      return exhausted
        ? { ok: false, message: MESSAGES.codeVoid, restart: true }
        : { ok: false, message: MESSAGES.invalidCode, restart: false };
    }
    const [used] = await this.query<{ id: number }>(
      `UPDATE mfa_codes SET consumed_at = now() WHERE id = :id AND consumed_at IS NULL RETURNING id`,
      { id: pending.id },
    );
    if (!used) return { ok: false, message: MESSAGES.codeVoid, restart: true };

    // The account may have been disabled or locked while the code was on its way.
    const [user] = await this.query<UserRow>(`${USER_SQL} WHERE u.id = :id`, { id: pending.user_id });
    if (!user || !user.is_active || user.creating || user.password_locked_out || user.locked_due_inactivity) {
      await this.record(false, pending.email, pending.user_id, { step: 'code', reason: 'accountUnavailable' }, info);
      const locked = !!user?.is_active;
      return { ok: false, message: locked ? MESSAGES.locked : MESSAGES.invalidCredentials, restart: true, locked };
    }
    if (!(await this.addressAllowed(user.id, address))) {
      await this.record(false, pending.email, user.id, { step: 'code', reason: 'ipNotAllowed' }, info);
      return { ok: false, message: MESSAGES.ipNotAllowed, restart: true };
    }
    // Her first code (or the first after "Reset MFA"): the channel it came by becomes her method.
    if (!user.mfa_method) {
      await this.query(`UPDATE users SET mfa_method = :method, updated_at = now() WHERE id = :id AND mfa_method IS NULL`, {
        id: user.id,
        method: METHOD_OF_CHANNEL[pending.method] ?? 'Email',
      });
      this.users.invalidate(user.id);
    }
    await this.completed(user.id, address);
    await this.record(true, pending.email, user.id, { step: 'code', amr: 'pwd otp', mfaMethod: METHOD_OF_CHANNEL[pending.method] }, info);
    return { ok: true, userId: user.id };
  }

  /** The pending code of an interaction, for showing the code page again (null: none, start over). */
  async pendingChallenge(interactionUid: string): Promise<MfaChallenge | null> {
    const [row] = await this.query<{ method: MfaChannel; email: string; phone: string | null; mfa_method: MfaMethod | null }>(
      `SELECT c.method, u.email, u.phone, u.mfa_method FROM mfa_codes c JOIN users u ON u.id = c.user_id
        WHERE c.interaction_uid = :uid AND c.consumed_at IS NULL AND c.expires_at > now() AND c.attempts < :max
        ORDER BY c.id DESC LIMIT 1`,
      { uid: interactionUid, max: MFA_MAX_ATTEMPTS },
    );
    if (!row) return null;
    return challengeOf(row.method, row);
  }

  /**
   * "Send a new code": replaces the pending code of this interaction (at most every 30 s, and
   * within the limits); the new code inherits the wrong entries of the old one (one budget).
   */
  async resendCode(interactionUid: string, info: AttemptInfo = {}, switchTo?: unknown): Promise<ResendOutcome> {
    const [row] = await this.query<{ user_id: number; too_soon: boolean; attempts: number; method: MfaChannel }>(
      `SELECT user_id, attempts, method, created_at > now() - make_interval(secs => :wait) AS too_soon FROM mfa_codes
        WHERE interaction_uid = :uid ORDER BY id DESC LIMIT 1`,
      { uid: interactionUid, wait: RESEND_MIN_SECONDS },
    );
    if (!row) return { ok: false };
    const limited = await this.limits.request('resendPerAccountAndAddress', row.user_id, info.ip ?? '');
    if (limited) return { ok: false, retryAfterSeconds: limited.retryAfterSeconds };
    const [user] = await this.query<UserRow>(`${USER_SQL} WHERE u.id = :id`, { id: row.user_id });
    if (!user || !user.is_active || user.password_locked_out || user.locked_due_inactivity) return { ok: false };
    if (row.attempts >= MFA_MAX_ATTEMPTS) return { ok: false };
    // "Send it by SMS / e-mail instead": only while she has no method yet, and SMS only with a phone.
    const switching =
      (switchTo === 'sms' || switchTo === 'email') && switchTo !== row.method && challengeOf(row.method, user).other === switchTo;
    if (row.too_soon && !switching) {
      const pending = await this.pendingChallenge(interactionUid);
      if (pending) return { ok: true, challenge: pending, sent: false };
    }
    const channel: MfaChannel = switching ? (switchTo as MfaChannel) : row.method === 'sms' || row.method === 'email' ? row.method : 'email';
    const challenge = await this.sendCode(user, interactionUid, { carryAttempts: true, channel });
    if (isTooMany(challenge)) return { ok: false, retryAfterSeconds: challenge.retryAfterSeconds };
    return { ok: true, challenge, sent: true };
  }

  /** Claims for oidc-provider's findAccount; null when the account cannot hold tokens any more. */
  async account(userId: number) {
    const [row] = await this.query<{
      id: number; email: string; first_name: string; last_name: string; email_confirmed: boolean; is_active: boolean; creating: boolean;
    }>(`SELECT id, email, first_name, last_name, email_confirmed, is_active, creating FROM users WHERE id = :id`, { id: userId });
    if (!row || !row.is_active || row.creating) return null;
    return {
      sub: String(row.id),
      email: row.email,
      email_verified: row.email_confirmed,
      name: `${row.first_name} ${row.last_name}`.trim(),
      given_name: row.first_name,
      family_name: row.last_name,
    };
  }

  // ---------------------------------------------------------------------------------------------

  /**
   * Sends a code by the user's method (e-mail when she has none yet, or SMS without a phone);
   * `channel` (a resend) keeps the channel of the code it replaces, or the one she switched to.
   */
  private async sendCode(
    user: UserRow,
    interactionUid: string,
    { carryAttempts, channel: asked }: { carryAttempts: boolean; channel?: MfaChannel },
  ): Promise<MfaChallenge | TooMany> {
    const limited = await this.limits.request('codesSentPerAccount', user.id);
    if (limited) return limited;
    const preferred: MfaChannel = user.mfa_method ? (user.mfa_method === 'Sms' ? 'sms' : 'email') : (asked ?? 'email');
    const useSms = preferred === 'sms' && !!user.phone;
    const channel: MfaChannel = useSms ? 'sms' : 'email';
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    // One live code per sign-in: a new one voids the previous, and (on resend) takes over its wrong
    // entries; the UPDATE's row lock orders it after a concurrent guess at the old code.
    await this.query(
      `WITH voided AS (
         UPDATE mfa_codes SET consumed_at = now() WHERE interaction_uid = :uid AND consumed_at IS NULL RETURNING attempts)
       INSERT INTO mfa_codes (user_id, code_hash, method, expires_at, interaction_uid, attempts)
       VALUES (:userId, :hash, :method, now() + make_interval(mins => :ttl), :uid,
               CASE WHEN :carry THEN greatest(
                 coalesce((SELECT max(attempts) FROM voided), 0),
                 coalesce((SELECT attempts FROM mfa_codes WHERE interaction_uid = :uid ORDER BY id DESC LIMIT 1), 0))
               ELSE 0 END)`,
      { userId: user.id, hash: this.codeHash(user.id, code), method: channel, ttl: MFA_CODE_TTL_MINUTES, uid: interactionUid, carry: carryAttempts },
    );
    await this.outbox.send({
      channel,
      to: useSms ? user.phone! : user.email,
      subject: 'Your sign-in code',
      body: `Your sign-in code is ${code}`,
      userId: user.id,
      purpose: 'mfa-code',
    });
    return challengeOf(channel, user);
  }

  /** Codes are stored as a keyed hash, bound to the user. */
  private codeHash(userId: number, code: string): string {
    return createHmac('sha256', config.identity.cookieSecret).update(`mfa:${userId}:${code}`).digest('base64');
  }

  /**
   * The password that matched (as typed, or trimmed: passwords set through the API are trimmed,
   * spec 03 §5, so a pasted trailing space is forgiven), or null. Always the work of one hash at
   * the current cost: an account without a usable hash is checked against a dummy one, and a
   * failed check against an older, cheaper hash is padded, so the time tells nothing.
   */
  private async passwordMatches(password: string, hash: string | null): Promise<string | null> {
    const usable = relativeCost(hash) > 0;
    const target = usable ? hash! : await dummyPasswordHash();
    let matched: string | null = (await verifyPassword(password, target)) ? password : null;
    const trimmed = password.trim();
    if (!matched && trimmed !== password && trimmed && (await verifyPassword(trimmed, target))) matched = trimmed;
    if (!usable) return null;
    if (!matched && relativeCost(hash) < 0.5) await verifyPassword(password, await dummyPasswordHash());
    return matched;
  }

  /** A hash made at an older, lower cost is replaced after a successful check (if nobody changed it meanwhile). */
  private async rehashIfOlder(user: UserRow, password: string) {
    if (!user.password_hash || !needsRehash(user.password_hash)) return;
    try {
      await this.query(`UPDATE users SET password_hash = :hash WHERE id = :id AND password_hash = :old`, {
        id: user.id,
        old: user.password_hash,
        hash: await hashPassword(password),
      });
    } catch (err) {
      this.log.warn(`rehashing the password of user ${user.id} failed: ${(err as Error).message}`);
    }
  }

  /**
   * A failure counts towards the lock-out (`counts`) when it is a wrong password from an address
   * she signed in from, or a wrong code (the password was right); other wrong passwords are only
   * delayed, until MAX_DELAYED_FAILURES in a row. Returns whether this failure locked the account.
   */
  private async countTowardsLockout(userId: number, counts: boolean, delayedFailures: number): Promise<boolean> {
    let lockedNow = false;
    if (counts) {
      const [counted] = await this.query<{ locked_now: boolean }>(
        `UPDATE users u
            SET failed_login_count = u.failed_login_count + 1,
                password_locked_out = u.password_locked_out OR u.failed_login_count + 1 >= :max,
                updated_at = CASE WHEN NOT u.password_locked_out AND u.failed_login_count + 1 >= :max THEN now() ELSE u.updated_at END
           FROM users prev WHERE u.id = :id AND prev.id = u.id
        RETURNING u.password_locked_out AND NOT prev.password_locked_out AS locked_now`,
        { id: userId, max: config.identity.lockoutMaxFailures },
      );
      lockedNow = !!counted?.locked_now;
    } else if (delayedFailures >= MAX_DELAYED_FAILURES) {
      const locked = await this.query<{ id: number }>(
        `UPDATE users SET password_locked_out = true, updated_at = now() WHERE id = :id AND NOT password_locked_out RETURNING id`,
        { id: userId },
      );
      lockedNow = locked.length > 0;
    }
    if (lockedNow) this.users.invalidate(userId);
    return lockedNow;
  }

  /** The organization's IP allow-list, as the API applies it (IpAllowListGuard). */
  private async addressAllowed(userId: number, address: string): Promise<boolean> {
    const loaded = await this.users.load(userId);
    return !loaded || this.ipAllowList.allows(loaded.context, address);
  }

  /** A completed sign-in: the failure count starts over and the address becomes one of hers. */
  private async completed(userId: number, address: string) {
    await this.query(`UPDATE users SET last_login = now(), failed_login_count = 0 WHERE id = :id`, { id: userId });
    if (address) {
      await this.query(
        `WITH forgotten AS (
           DELETE FROM user_sign_in_addresses WHERE user_id = :id AND last_sign_in_at < now() - make_interval(days => :days))
         INSERT INTO user_sign_in_addresses (user_id, address) VALUES (:id, :address)
         ON CONFLICT (user_id, address) DO UPDATE SET last_sign_in_at = now()`,
        { id: userId, address, days: KNOWN_ADDRESS_DAYS },
      );
    }
    this.users.invalidate(userId);
  }

  /** The user of an e-mail, and whether she signed in from `address` lately (one query, whether she exists or not). */
  private async findByEmail(email: string, address: string): Promise<(UserRow & { known_address: boolean }) | null> {
    const [row] = await this.query<UserRow & { known_address: boolean }>(
      `SELECT s.*, EXISTS (
                SELECT 1 FROM user_sign_in_addresses a
                 WHERE a.user_id = s.id AND a.address = :address AND a.last_sign_in_at > now() - make_interval(days => :days)) AS known_address
         FROM (${USER_SQL} WHERE lower(u.email) = lower(:email)) s`,
      { email, address, days: KNOWN_ADDRESS_DAYS },
    );
    return row ?? null;
  }

  private async record(success: boolean, email: string, userId: number | undefined, values: Record<string, unknown>, info: AttemptInfo) {
    try {
      let user: UserContext | undefined;
      if (userId) user = (await this.users.load(userId))?.context;
      await this.audit.record({
        mainAction: 'Identity.SignIn',
        kind: 'SignIn',
        success,
        user,
        method: 'POST',
        path: info.path,
        correlationId: info.correlationId,
        values: { email, ...values, ...(info.ip ? { ip: info.ip } : undefined) },
      });
    } catch (err) {
      // A failed audit write must not decide the sign-in; it is logged loudly instead.
      this.log.error({ err }, 'could not write the sign-in audit entry');
    }
  }

  private query<T extends object = Record<string, unknown>>(sql: string, replacements: Record<string, unknown>): Promise<T[]> {
    const type = /^\s*(SELECT|WITH)|RETURNING/i.test(sql) ? QueryTypes.SELECT : QueryTypes.UPDATE;
    return this.sequelize.query<T>(sql, { replacements, type, transaction: null } as any) as Promise<T[]>;
  }
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** What the code page says about a code sent by `channel`, and the switch it offers. */
function challengeOf(channel: MfaChannel, user: { email: string; phone: string | null; mfa_method: MfaMethod | null }): MfaChallenge {
  const challenge: MfaChallenge =
    channel === 'sms'
      ? { channel: 'sms', destination: 'phone', hint: maskDestination(user.phone ?? '', 'sms') }
      : { channel: 'email', destination: 'e-mail', hint: maskDestination(user.email, 'email') };
  if (!user.mfa_method && user.phone) challenge.other = channel === 'sms' ? 'email' : 'sms';
  return challenge;
}
