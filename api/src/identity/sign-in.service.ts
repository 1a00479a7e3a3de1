import { Injectable, Logger } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { createHmac, randomInt, timingSafeEqual } from 'crypto';
import { QueryTypes } from 'sequelize';
import { Sequelize } from 'sequelize-typescript';
import { UserType, type MfaMethod, type UserContext } from '@crisis/forms';
import { AuditService } from '../audit/audit.service';
import { UserContextService } from '../auth/user-context.service';
import { config } from '../config';
import { OutboxService } from '../outbox/outbox.service';
import { dummyPasswordHash, verifyPassword } from './password-hash';
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
} as const;

/** A sign-in code lives 10 minutes and allows 5 attempts (spec: MFA by e-mail or SMS). */
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
}

export type PasswordOutcome =
  | { ok: true; userId: number; mfa: null }
  | { ok: true; userId: number; mfa: MfaChallenge }
  | { ok: false; message: string };

export type CodeOutcome =
  | { ok: true; userId: number }
  /** restart: the code is void (expired, used up); the user signs in again from the password. */
  | { ok: false; message: string; restart: boolean };

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
 */
@Injectable()
export class SignInService {
  private readonly log = new Logger('identity');

  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    private readonly audit: AuditService,
    private readonly users: UserContextService,
    private readonly outbox: OutboxService,
  ) {}

  /** Step 1: e-mail and password. On success either done, or a code was sent (mfa). */
  async checkPassword(emailInput: unknown, passwordInput: unknown, interactionUid: string, info: AttemptInfo = {}): Promise<PasswordOutcome> {
    const email = typeof emailInput === 'string' ? emailInput.trim().slice(0, 255) : '';
    const password = typeof passwordInput === 'string' ? passwordInput.slice(0, 250) : '';
    const user = email ? await this.findByEmail(email) : null;

    const fail = async (message: string, reason: string, userId?: number) => {
      await this.record(false, email, userId, { step: 'password', reason }, info);
      return { ok: false as const, message };
    };

    if (!user || !password) {
      // Same work as for a real account, so response time does not reveal which e-mails exist.
      await verifyPassword(password || 'x', await dummyPasswordHash());
      return fail(MESSAGES.invalidCredentials, user ? 'emptyPassword' : 'unknownEmail', user?.id);
    }
    if (user.password_locked_out || user.locked_due_inactivity) {
      await verifyPassword(password, await dummyPasswordHash());
      return fail(MESSAGES.locked, user.password_locked_out ? 'lockedOut' : 'lockedDueInactivity', user.id);
    }
    if (!user.is_active || user.creating || !user.password_hash) {
      await verifyPassword(password, await dummyPasswordHash());
      return fail(MESSAGES.invalidCredentials, user.creating ? 'pending' : !user.is_active ? 'inactive' : 'noPassword', user.id);
    }

    if (!(await this.passwordMatches(password, user.password_hash))) {
      const [counted] = await this.query<{ failed_login_count: number; password_locked_out: boolean }>(
        `UPDATE users
            SET failed_login_count = failed_login_count + 1,
                password_locked_out = password_locked_out OR failed_login_count + 1 >= :max,
                updated_at = CASE WHEN NOT password_locked_out AND failed_login_count + 1 >= :max THEN now() ELSE updated_at END
          WHERE id = :id
        RETURNING failed_login_count, password_locked_out`,
        { id: user.id, max: config.identity.lockoutMaxFailures },
      );
      if (counted?.password_locked_out) {
        this.users.invalidate(user.id);
        return fail(MESSAGES.locked, 'wrongPasswordLockedOut', user.id);
      }
      return fail(MESSAGES.invalidCredentials, 'wrongPassword', user.id);
    }

    // Password login can be turned off for SSO users (admins keep it, spec 03 §4).
    const isAdmin = user.user_type === UserType.ItpAdmin || user.user_type === UserType.FacilityAdmin;
    if (user.sso_enabled && user.disabled_password_login && !isAdmin) {
      return fail(MESSAGES.passwordLoginDisabled, 'passwordLoginDisabled', user.id);
    }

    await this.query(`UPDATE users SET failed_login_count = 0 WHERE id = :id AND failed_login_count <> 0`, { id: user.id });

    if (!user.mfa_required) {
      await this.completed(user.id);
      await this.record(true, email, user.id, { step: 'password', amr: 'pwd' }, info);
      return { ok: true, userId: user.id, mfa: null };
    }

    const challenge = await this.sendCode(user, interactionUid);
    await this.record(true, email, user.id, { step: 'password', mfa: challenge.channel, codeSent: true }, info);
    return { ok: true, userId: user.id, mfa: challenge };
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
    await this.completed(user.id);
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
    const [pending] = await this.query<{ id: number; user_id: number; email: string }>(
      `SELECT c.id, c.user_id, u.email FROM mfa_codes c JOIN users u ON u.id = c.user_id
        WHERE c.interaction_uid = :uid AND c.consumed_at IS NULL
        ORDER BY c.id DESC LIMIT 1`,
      { uid: interactionUid },
    );
    if (!pending) return { ok: false, message: MESSAGES.codeVoid, restart: true };

    // Count the attempt first, atomically, so parallel guesses cannot exceed the limit.
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
      const exhausted = attempt.attempts >= MFA_MAX_ATTEMPTS;
      if (exhausted) await voidCode();
      await this.record(false, pending.email, pending.user_id, { step: 'code', reason: exhausted ? 'tooManyAttempts' : 'wrongCode' }, info);
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
      return { ok: false, message: user?.is_active ? MESSAGES.locked : MESSAGES.invalidCredentials, restart: true };
    }
    await this.completed(user.id);
    await this.record(true, pending.email, user.id, { step: 'code', amr: 'pwd otp' }, info);
    return { ok: true, userId: user.id };
  }

  /** The pending code of an interaction, for showing the code page again (null: none, start over). */
  async pendingChallenge(interactionUid: string): Promise<MfaChallenge | null> {
    const [row] = await this.query<{ method: string; email: string; phone: string | null }>(
      `SELECT c.method, u.email, u.phone FROM mfa_codes c JOIN users u ON u.id = c.user_id
        WHERE c.interaction_uid = :uid AND c.consumed_at IS NULL AND c.expires_at > now() AND c.attempts < :max
        ORDER BY c.id DESC LIMIT 1`,
      { uid: interactionUid, max: MFA_MAX_ATTEMPTS },
    );
    if (!row) return null;
    return row.method === 'sms'
      ? { channel: 'sms', destination: 'phone', hint: maskDestination(row.phone ?? '', 'sms') }
      : { channel: 'email', destination: 'e-mail', hint: maskDestination(row.email, 'email') };
  }

  /** "Send a new code": replaces the pending code of this interaction (at most every 30 s). */
  async resendCode(interactionUid: string): Promise<{ ok: boolean; challenge: MfaChallenge | null; sent: boolean }> {
    const [row] = await this.query<{ user_id: number; too_soon: boolean }>(
      `SELECT user_id, created_at > now() - make_interval(secs => :wait) AS too_soon FROM mfa_codes
        WHERE interaction_uid = :uid ORDER BY id DESC LIMIT 1`,
      { uid: interactionUid, wait: RESEND_MIN_SECONDS },
    );
    if (!row) return { ok: false, challenge: null, sent: false };
    const [user] = await this.query<UserRow>(`${USER_SQL} WHERE u.id = :id`, { id: row.user_id });
    if (!user || !user.is_active || user.password_locked_out || user.locked_due_inactivity) return { ok: false, challenge: null, sent: false };
    if (row.too_soon) {
      const pending = await this.pendingChallenge(interactionUid);
      if (pending) return { ok: true, challenge: pending, sent: false };
    }
    return { ok: true, challenge: await this.sendCode(user, interactionUid), sent: true };
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

  private async sendCode(user: UserRow, interactionUid: string): Promise<MfaChallenge> {
    const useSms = user.mfa_method === 'Sms' && !!user.phone;
    const channel = useSms ? 'sms' : 'email';
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await this.sequelize.transaction(async (transaction) => {
      // One live code per sign-in: a new one voids the previous.
      await this.sequelize.query(
        `UPDATE mfa_codes SET consumed_at = now() WHERE interaction_uid = :uid AND consumed_at IS NULL`,
        { replacements: { uid: interactionUid }, transaction },
      );
      await this.sequelize.query(
        `INSERT INTO mfa_codes (user_id, code_hash, method, expires_at, interaction_uid)
         VALUES (:userId, :hash, :method, now() + make_interval(mins => :ttl), :uid)`,
        {
          replacements: { userId: user.id, hash: this.codeHash(user.id, code), method: channel, ttl: MFA_CODE_TTL_MINUTES, uid: interactionUid },
          transaction,
        },
      );
    });
    await this.outbox.send({
      channel,
      to: useSms ? user.phone! : user.email,
      subject: 'Your sign-in code',
      body: `Your sign-in code is ${code}`,
      userId: user.id,
      purpose: 'mfa-code',
    });
    return useSms
      ? { channel: 'sms', destination: 'phone', hint: maskDestination(user.phone!, 'sms') }
      : { channel: 'email', destination: 'e-mail', hint: maskDestination(user.email, 'email') };
  }

  /** Codes are stored as a keyed hash, bound to the user. */
  private codeHash(userId: number, code: string): string {
    return createHmac('sha256', config.identity.cookieSecret).update(`mfa:${userId}:${code}`).digest('base64');
  }

  /** Passwords set through the API are trimmed (spec 03 §5), so a pasted trailing space is forgiven. */
  private async passwordMatches(password: string, hash: string): Promise<boolean> {
    if (await verifyPassword(password, hash)) return true;
    const trimmed = password.trim();
    return trimmed !== password && trimmed.length > 0 && verifyPassword(trimmed, hash);
  }

  private async completed(userId: number) {
    await this.query(`UPDATE users SET last_login = now(), failed_login_count = 0 WHERE id = :id`, { id: userId });
    this.users.invalidate(userId);
  }

  private async findByEmail(email: string): Promise<UserRow | null> {
    const [row] = await this.query<UserRow>(`${USER_SQL} WHERE lower(u.email) = lower(:email)`, { email });
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
