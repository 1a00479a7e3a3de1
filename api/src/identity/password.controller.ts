import { Body, Controller, HttpCode, Req } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiNoContentResponse, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { InjectConnection } from '@nestjs/sequelize';
import { QueryTypes } from 'sequelize';
import { Sequelize } from 'sequelize-typescript';
import { CodedError, ErrorCode, type UserContext } from '@crisis/forms';
import { CurrentUser } from '../auth/current-user.decorator';
import { UserContextService } from '../auth/user-context.service';
import { ApiSchemaBody } from '../common/openapi';
import { schema } from '../common/validation.pipe';
import { config } from '../config';
import { CHANGE_PASSWORD_RATE_LIMIT } from './attempt-limits';
import { hashPassword, verifyPassword } from './password-hash';
import { Route } from '../common/route';

interface ChangePasswordBody {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/**
 * PUT /api/user/password (spec 03 §7, "on the identity server"): the signed-in user changes their
 * own password. Access tokens issued before the change are refused with the revoked header, and
 * every other session of the user is signed out; the session that made the change continues.
 * Limited per account and client address (guesses of the current password with a stolen session).
 */
@ApiTags('users')
@Controller('api/user')
export class PasswordController {
  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    private readonly users: UserContextService,
  ) {}

  @Route('PUT', 'password', 'update', 'Profile', 'User.ChangePassword')
  @HttpCode(204)
  @ApiSchemaBody('changePassword')
  @ApiNoContentResponse({ description: 'Changed; tokens issued before now are revoked' })
  @ApiTooManyRequestsResponse({ description: 'INV.TOO_MANY_ATTEMPTS: too many attempts for this account from this address; Retry-After says when to try again' })
  @RouteConfig(CHANGE_PASSWORD_RATE_LIMIT)
  async change(
    @CurrentUser() user: UserContext,
    @Body(schema('changePassword')) body: ChangePasswordBody,
    @Req() req: { headers: Record<string, string | string[] | undefined> },
  ): Promise<void> {
    // Runs inside the audit interceptor's transaction: the row lock serialises concurrent changes.
    const [row] = await this.sequelize.query<{ password_hash: string | null }>(
      'SELECT password_hash FROM users WHERE id = :id FOR UPDATE',
      { replacements: { id: user.id }, type: QueryTypes.SELECT },
    );
    if (!row || !(await verifyPassword(body.currentPassword, row.password_hash))) {
      throw new CodedError(ErrorCode.WrongCurrentPassword, undefined, [
        { field: 'currentPassword', key: 'currentPasswordInvalid', message: 'Current password invalid' },
      ]);
    }
    const hash = await hashPassword(body.newPassword);
    await this.sequelize.query(
      `UPDATE users SET password_hash = :hash, tokens_valid_after = now(), failed_login_count = 0, updated_at = now()
        WHERE id = :id`,
      { replacements: { hash, id: user.id } },
    );
    await this.signOutOtherSessions(user.id, grantOf(req.headers.authorization));
    this.users.invalidate(user.id);
  }

  /** Drops the user's other grants (their refresh tokens die with them) and other sessions. */
  private async signOutOtherSessions(userId: number, keepGrantId: string | null) {
    const replacements = { account: String(userId), keep: keepGrantId, clientId: config.identity.clientId };
    await this.sequelize.query(
      `WITH other AS (
         SELECT id FROM oidc_payloads
          WHERE type = 'Grant' AND payload->>'accountId' = :account AND id IS DISTINCT FROM :keep)
       DELETE FROM oidc_payloads
        WHERE grant_id IN (SELECT id FROM other) OR (type = 'Grant' AND id IN (SELECT id FROM other))`,
      { replacements },
    );
    await this.sequelize.query(
      `DELETE FROM oidc_payloads
        WHERE type = 'Session' AND payload->>'accountId' = :account
          AND jsonb_extract_path_text(payload, 'authorizations', :clientId, 'grantId') IS DISTINCT FROM :keep`,
      { replacements },
    );
  }
}

/** The grant id (gid claim) of the bearer token that made the request; it was verified by the AuthGuard. */
function grantOf(authorization: string | string[] | undefined): string | null {
  const token = typeof authorization === 'string' ? /^Bearer (.+)$/i.exec(authorization)?.[1] : undefined;
  const part = token?.split('.')[1];
  if (!part) return null;
  try {
    const payload = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof payload.gid === 'string' ? payload.gid : null;
  } catch {
    return null;
  }
}
