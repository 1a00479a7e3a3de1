import { createHash, randomBytes } from 'crypto';
import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { QueryTypes, UniqueConstraintError } from 'sequelize';
import { Sequelize } from 'sequelize-typescript';
import {
  CodedError,
  bulkActionApplies,
  ErrorCode,
  OrganizationType,
  UserType,
  userRules,
  type FieldError,
  type ProfileInput,
  type UserBulkAction,
  type UserInput,
  type UserRecord,
} from '@crisis/forms';
import { UserContextService } from '../auth/user-context.service';
import { afterCommit } from '../common/after-commit';
import { windowedPage } from '../common/windowed-page';
import { SELECT, userListSql, userListWhere, type UserListFilter, type UserScope } from './users-list.query';
import { invalid, notFound, notUnique } from '../common/coded-error';
import type { ListQuery } from '../common/list-query';
import { auditValues } from '../common/request-context';
import { config } from '../config';
import { OutboxService } from '../outbox/outbox.service';

const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;
const RESET_TTL_MS = 24 * 3600 * 1000;
const USERS_EMAIL_UNIQUE_INDEX = 'users_email_uniq';

interface Row {
  id: number; first_name: string; last_name: string; email: string; phone: string | null; job_title: string | null;
  is_active: boolean; creating: boolean; email_confirmed: boolean; password_locked_out: boolean; locked_due_inactivity: boolean;
  last_login: Date | null; mfa_method: UserRecord['mfaMethod']; sso_enabled: boolean; disabled_password_login: boolean;
  is_password_set: boolean; organization_type: OrganizationType; organization_id: number | null; user_type: UserType;
  provider_info: UserRecord['providerInfo']; send_user_unlock_requests: boolean; failed_login_count: number;
  org_name: string | null; divisions: { id: number; name: string }[]; total?: number; avatar: string | null;
}

function toRecord(r: Row): UserRecord & { fullName: string } {
  return {
    id: r.id,
    firstName: r.first_name,
    lastName: r.last_name,
    fullName: `${r.first_name} ${r.last_name}`,
    email: r.email,
    phone: r.phone ?? '',
    jobTitle: r.job_title,
    isEnabled: r.is_active,
    isActive: r.is_active,
    creating: r.creating,
    emailConfirmed: r.email_confirmed,
    passwordLockedOut: r.password_locked_out,
    lockedDueInactivity: r.locked_due_inactivity,
    lastLogin: r.last_login ? new Date(r.last_login).toISOString() : null,
    mfaMethod: r.mfa_method,
    ssoEnabled: r.sso_enabled,
    disabledPasswordLogin: r.disabled_password_login,
    isPasswordSet: r.is_password_set,
    organizationType: r.organization_type,
    organizationId: r.organization_id,
    organizationName: r.org_name,
    userType: r.user_type,
    providerInfo: r.provider_info,
    sendUserUnlockRequeststoThisUser: r.send_user_unlock_requests,
    divisionsIds: r.divisions.map((d) => d.id),
    divisions: r.divisions,
    failedLoginCount: r.failed_login_count,
    avatar: r.avatar,
  };
}

const field = (f: string, key: string, message: string): FieldError => ({ field: f, key, message });

@Injectable()
export class UsersService {
  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    private readonly outbox: OutboxService,
    private readonly contexts: UserContextService,
  ) {}

  async list(q: ListQuery<UserListFilter>, scope: UserScope): Promise<{ rows: UserRecord[]; total: number }> {
    const { sql, countSql, params } = userListSql(q, scope);
    const { rows, total } = await windowedPage<Row>(this.sequelize, sql, params, countSql, q.offset);
    return { rows: rows.map(toRecord), total };
  }

  async lookups(filter: UserListFilter, scope: UserScope) {
    const params: unknown[] = [];
    const where = userListWhere(filter, scope, params);
    return this.sequelize.query<{ id: number; fullName: string; email: string; userType: string }>(
      `SELECT u.id, u.first_name || ' ' || u.last_name AS "fullName", u.email, u.user_type AS "userType"
         FROM users u ${where} ORDER BY lower(u.first_name), lower(u.last_name), u.id LIMIT 1000`,
      { bind: params, type: QueryTypes.SELECT },
    );
  }

  async get(id: number, lock = false): Promise<UserRecord> {
    const [row] = await this.sequelize.query<Row>(`${SELECT} WHERE u.id = :id${lock ? ' FOR UPDATE OF u' : ''}`, {
      replacements: { id },
      type: QueryTypes.SELECT,
    });
    if (!row) throw notFound();
    return toRecord(row);
  }

  async invite(body: UserInput): Promise<UserRecord> {
    await this.assertAffiliation(body);
    await this.assertEmailUnique(body.email);
    const [[row]] = (await this.saving(() =>
      this.sequelize.query(
        `INSERT INTO users (first_name, last_name, email, phone, job_title, is_active, creating, email_confirmed,
                            organization_type, organization_id, user_type, provider_info, send_user_unlock_requests)
         VALUES (:firstName, :lastName, :email, :phone, :jobTitle, :isActive, true, false,
                 :organizationType, :organizationId, :userType, :providerInfo, :unlock)
         RETURNING id`,
        { replacements: this.columns(body) },
      ),
    )) as [{ id: number }[], unknown];
    await this.setDivisions(row.id, body.divisionsIds ?? []);
    auditValues({ userId: row.id, email: body.email, userType: body.userType, organizationId: body.organizationId ?? null });
    await this.sendLink(row.id, body.email, 'invitation');
    return this.get(row.id);
  }

  async update(id: number, body: UserInput): Promise<UserRecord> {
    const current = await this.get(id, true);
    // Organization type and organization are fixed after creation (spec 03 §4).
    const merged: UserInput = { ...body, organizationType: current.organizationType, organizationId: current.organizationId };
    const errors = userRules(merged);
    if (current.userType === UserType.ItpProvider && body.userType !== UserType.ItpProvider)
      errors.push(field('userType', 'cannotChange', "A provider's user type cannot be changed"));
    if (errors.length) throw invalid(errors);
    await this.assertAffiliation(merged);
    await this.assertEmailUnique(merged.email, id);
    const revoke = current.isActive !== merged.isEnabled || current.userType !== merged.userType;
    await this.saving(() =>
      this.sequelize.query(
        `UPDATE users SET first_name = :firstName, last_name = :lastName, email = :email, phone = :phone, job_title = :jobTitle,
                is_active = :isActive, user_type = :userType, provider_info = :providerInfo,
                send_user_unlock_requests = :unlock, updated_at = now()
                ${revoke ? ', tokens_valid_after = now()' : ''}
          WHERE id = :id`,
        { replacements: { ...this.columns(merged), id } },
      ),
    );
    await this.setDivisions(id, merged.divisionsIds ?? []);
    auditValues({ userId: id, isActive: merged.isEnabled, userType: merged.userType, organizationId: merged.organizationId ?? null });
    this.contexts.invalidate(id);
    await afterCommit('invalidate user context', async () => this.contexts.invalidate(id));
    return this.get(id);
  }

  async updateProfile(id: number, body: ProfileInput) {
    // The MFA method is hers to choose (null keeps it: clearing it is "Reset MFA").
    const [, count] = (await this.sequelize.query(
      `UPDATE users SET first_name = :firstName, last_name = :lastName, phone = :phone, job_title = :jobTitle,
              mfa_method = COALESCE(:mfaMethod, mfa_method), updated_at = now() WHERE id = :id`,
      {
        replacements: {
          firstName: body.firstName, lastName: body.lastName, phone: body.phone, jobTitle: body.jobTitle ?? null,
          mfaMethod: body.mfaMethod ?? null, id,
        },
      },
    )) as [unknown, number];
    if (!count) throw notFound();
    auditValues({ userId: id });
    await afterCommit('invalidate user context', async () => this.contexts.invalidate(id));
    return this.get(id);
  }

  /**
   * A bulk action: rows the caller may not manage or that do not qualify (spec 03 §4) are skipped;
   * none qualifying → 400 users.table.actions.no-suitable-rows.
   */
  async bulk(action: UserBulkAction, ids: number[], mayManage: (u: UserRecord) => boolean) {
    const rows = (
      await this.sequelize.query<Row>(`${SELECT} WHERE u.id IN (:ids) ORDER BY u.id FOR UPDATE OF u`, {
        replacements: { ids },
        type: QueryTypes.SELECT,
      })
    ).map(toRecord);
    const suitable = rows.filter((u) => mayManage(u) && bulkActionApplies(action, u));
    if (!suitable.length) throw new CodedError(ErrorCode.NoSuitableRows);
    const applied = suitable.map((u) => u.id);
    switch (action) {
      case 'activate':
        await this.sequelize.query('UPDATE users SET is_active = true, updated_at = now() WHERE id IN (:applied)', { replacements: { applied } });
        break;
      case 'deactivate':
        await this.sequelize.query('UPDATE users SET is_active = false, tokens_valid_after = now(), updated_at = now() WHERE id IN (:applied)', {
          replacements: { applied },
        });
        break;
      case 'reset-mfa':
        await this.sequelize.query('UPDATE users SET mfa_method = NULL, updated_at = now() WHERE id IN (:applied)', { replacements: { applied } });
        break;
      case 'unlock':
        await this.sequelize.query(
          `UPDATE users SET password_locked_out = false, locked_due_inactivity = false, failed_login_count = 0, updated_at = now()
            WHERE id IN (:applied)`,
          { replacements: { applied } },
        );
        break;
      case 'resend-invitation':
        for (const u of suitable) await this.sendLink(u.id, u.email, 'invitation');
        break;
      case 'reset-password':
        for (const u of suitable) await this.sendLink(u.id, u.email, 'reset-password');
        break;
    }
    auditValues({ action, userIds: applied, skipped: ids.length - applied.length });
    for (const id of applied) this.contexts.invalidate(id);
    await afterCommit('invalidate user contexts', async () => applied.forEach((id) => this.contexts.invalidate(id)));
    return { applied: applied.length, skipped: ids.length - applied.length, ids: applied };
  }

  private columns(b: UserInput) {
    return {
      firstName: b.firstName,
      lastName: b.lastName,
      email: b.email,
      phone: b.phone,
      jobTitle: b.jobTitle ?? null,
      isActive: b.isEnabled ?? true,
      organizationType: b.organizationType,
      organizationId: b.organizationId ?? null,
      userType: b.userType,
      providerInfo: b.providerInfo ? JSON.stringify(b.providerInfo) : null,
      unlock: !!b.sendUserUnlockRequeststoThisUser,
    };
  }

  /** The organization exists and the divisions are its own. */
  private async assertAffiliation(b: UserInput) {
    if (b.organizationType === OrganizationType.Facility || b.organizationType === OrganizationType.Group) {
      const table = b.organizationType === OrganizationType.Facility ? 'facilities' : 'group_organizations';
      const found = await this.sequelize.query(`SELECT 1 FROM ${table} WHERE id = :id`, {
        replacements: { id: b.organizationId },
        type: QueryTypes.SELECT,
      });
      if (!found.length) throw invalid([field('organizationId', 'notFound', 'The organization does not exist')]);
    }
    const ids = b.divisionsIds ?? [];
    if (ids.length) {
      const own =
        b.organizationType === OrganizationType.Facility
          ? await this.sequelize.query<{ id: number }>('SELECT id FROM divisions WHERE facility_id = :org AND id IN (:ids)', {
              replacements: { org: b.organizationId, ids },
              type: QueryTypes.SELECT,
            })
          : [];
      if (own.length !== ids.length) throw invalid([field('divisionsIds', 'invalid', 'The divisions must belong to the organization')]);
    }
  }

  private async assertEmailUnique(email: string, exceptId = 0) {
    const rows = await this.sequelize.query('SELECT 1 FROM users WHERE lower(email) = lower(:email) AND id <> :exceptId LIMIT 1', {
      replacements: { email, exceptId },
      type: QueryTypes.SELECT,
    });
    if (rows.length) throw notUnique(['email'], `User with email ${email} already exists`);
  }

  private async saving<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (err instanceof UniqueConstraintError && (err.original as { constraint?: string })?.constraint === USERS_EMAIL_UNIQUE_INDEX)
        throw notUnique(['email'], 'User with this email already exists');
      throw err;
    }
  }

  private async setDivisions(userId: number, ids: number[]) {
    await this.sequelize.query('DELETE FROM user_divisions WHERE user_id = :userId', { replacements: { userId } });
    if (ids.length)
      await this.sequelize.query(
        `INSERT INTO user_divisions (user_id, division_id) SELECT :userId, unnest(ARRAY[:ids]::int[])`,
        { replacements: { userId, ids } },
      );
  }

  /** Stores a one-time token's hash (older unused links of the same purpose die) and e-mails the link after commit. */
  private async sendLink(userId: number, email: string, purpose: 'invitation' | 'reset-password') {
    const token = randomBytes(32).toString('base64url');
    const hash = createHash('sha256').update(token).digest('hex');
    const ttl = purpose === 'invitation' ? INVITATION_TTL_MS : RESET_TTL_MS;
    await this.sequelize.query(
      `UPDATE user_account_tokens SET consumed_at = now() WHERE user_id = :userId AND purpose = :purpose AND consumed_at IS NULL`,
      { replacements: { userId, purpose } },
    );
    await this.sequelize.query(
      `INSERT INTO user_account_tokens (user_id, purpose, token_hash, expires_at) VALUES (:userId, :purpose, :hash, :expires)`,
      { replacements: { userId, purpose, hash, expires: new Date(Date.now() + ttl) } },
    );
    const page = purpose === 'invitation' ? 'set-password' : 'reset-password';
    const link = `${config.publicUrl}/identity/account/${page}?token=${token}`;
    const subject = purpose === 'invitation' ? 'You are invited to the Crisis Placement Platform' : 'Reset your password';
    const body =
      purpose === 'invitation'
        ? `You have been invited to the Crisis Placement Platform.\n\nSet your password with this link (valid for 7 days, usable once):\n${link}\n`
        : `A password reset was requested for your account.\n\nChoose a new password with this link (valid for 24 hours, usable once):\n${link}\n`;
    await afterCommit(`e-mail ${purpose}`, () => this.outbox.send({ channel: 'email', to: email, subject, body, userId, purpose }));
  }
}
