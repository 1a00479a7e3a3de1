import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { QueryTypes } from 'sequelize';
import { Sequelize } from 'sequelize-typescript';
import type { OrganizationType, UserType } from '@crisis/forms';
import { tokenRevoked } from '../auth/auth.guard';
import { IpAllowListService } from '../security/ip-allow-list.service';

/** What a live socket was let in with: whose token, issued and expiring when, from which address. */
export interface LiveSession {
  userId: number;
  /** The token's iat and exp (seconds). */
  issuedAt: number;
  expiresAt: number;
  /** The client address (TRUSTED_PROXIES rule, as the API's request.ip). */
  address: string;
}

/** The user as the live channel checks her: read fresh from the database, never from a cache. */
export interface LiveUser {
  id: number;
  role: UserType;
  isActive: boolean;
  tokensValidAfter: Date;
  locked: boolean;
  organizationType: OrganizationType;
  organizationId: number | null;
}

export type LiveRefusal = 'unknown user' | 'token revoked' | 'locked' | 'token expired' | 'address not allowed';

/**
 * The API's guards for the live channel: the token not revoked (the AuthGuard's own rule), the
 * user active and not locked, the token not expired, and the client address on her
 * organization's IP allow-list. Asked at connection, on every room join, and for every socket of a
 * replica on a short interval (LiveGateway), so a change made on any replica reaches every socket.
 */
@Injectable()
export class LiveAccess {
  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    private readonly ipLists: IpAllowListService,
  ) {}

  /** The users of the given ids, in one query. */
  async users(ids: number[]): Promise<Map<number, LiveUser>> {
    if (!ids.length) return new Map();
    const rows = await this.sequelize.query<LiveUser>(
      `SELECT id, user_type AS role, is_active AS "isActive", tokens_valid_after AS "tokensValidAfter",
              (password_locked_out OR locked_due_inactivity) AS locked,
              organization_type AS "organizationType", organization_id AS "organizationId"
         FROM users WHERE id = ANY($1::int[])`,
      { bind: [ids], type: QueryTypes.SELECT },
    );
    return new Map(rows.map((r) => [r.id, { ...r, tokensValidAfter: new Date(r.tokensValidAfter) }]));
  }

  /** Why the session may not (or no longer) use the live channel; null when it may. */
  async refusal(session: LiveSession, user: LiveUser | undefined): Promise<LiveRefusal | null> {
    if (!user) return 'unknown user';
    if (tokenRevoked(user, session.issuedAt)) return 'token revoked';
    if (user.locked) return 'locked';
    if (session.expiresAt * 1000 <= Date.now()) return 'token expired';
    if (!(await this.ipLists.allows(user, session.address))) return 'address not allowed';
    return null;
  }

  /** One session checked against the database now. */
  async check(session: LiveSession): Promise<{ user: LiveUser | undefined; refusal: LiveRefusal | null }> {
    const user = (await this.users([session.userId])).get(session.userId);
    return { user, refusal: await this.refusal(session, user) };
  }
}
