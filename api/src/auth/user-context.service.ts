import { LRUCache } from 'lru-cache';
import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { QueryTypes } from 'sequelize';
import { Sequelize } from 'sequelize-typescript';
import { packRules } from '@casl/ability/extra';
import { defineAbilityFor, OrganizationType, type UserContext } from '@crisis/forms';

interface Row {
  id: number; first_name: string; last_name: string; email: string; user_type: UserContext['role'];
  organization_type: UserContext['organizationType']; organization_id: number | null; is_active: boolean;
  password_hash: string | null; mfa_method: UserContext['mfaMethod']; sso_enabled: boolean; disabled_password_login: boolean;
  notifications_receiving_settings: { phone: string | null; alwaysReceive: boolean; receiveUntil: string | null } | null;
  tokens_valid_after: Date; facility_id: number | null; facility_name: string | null; ehr_department_id: string | null;
  group_name: string | null; division_id: number | null; division_name: string | null; division_type: UserContext['divisionType'];
  itp_name: string | null; er_line: string | null;
}

export interface LoadedUser {
  context: UserContext;
  isActive: boolean;
  tokensValidAfter: Date;
}

/** Builds the user context (GET /api/user/context) with one query, and caches it for a few seconds. */
@Injectable()
export class UserContextService {
  /** Short-lived, so a change made on another replica (deactivation, new role) shows within seconds; bounded. */
  private static readonly TTL_MS = 3000;
  private cache = new LRUCache<number, { value: LoadedUser | null }>({ max: 10_000, ttl: UserContextService.TTL_MS });

  constructor(@InjectConnection() private readonly sequelize: Sequelize) {}

  invalidate(userId: number) {
    this.cache.delete(userId);
  }

  /** Drops the expired entries (per-process housekeeping). */
  pruneCache(): void {
    this.cache.purgeStale();
  }

  async load(userId: number): Promise<LoadedUser | null> {
    const hit = this.cache.get(userId);
    if (hit) return hit.value;
    const value = await this.query(userId);
    this.cache.set(userId, { value });
    return value;
  }

  private async query(userId: number): Promise<LoadedUser | null> {
    const [row] = await this.sequelize.query<Row>(
      `SELECT u.id, u.first_name, u.last_name, u.email, u.user_type, u.organization_type, u.organization_id, u.is_active,
              u.password_hash, u.mfa_method, u.sso_enabled, u.disabled_password_login, u.notifications_receiving_settings,
              u.tokens_valid_after,
              f.id AS facility_id, f.name AS facility_name, f.ehr_department_id,
              g.name AS group_name,
              d.id AS division_id, d.name AS division_name, d.type AS division_type,
              itp.name AS itp_name, itp.er_line
         FROM users u
         LEFT JOIN facilities f ON u.organization_type = 'Facility' AND f.id = u.organization_id
         LEFT JOIN group_organizations g ON u.organization_type = 'Group' AND g.id = u.organization_id
         LEFT JOIN LATERAL (
           SELECT d.* FROM user_divisions ud JOIN divisions d ON d.id = ud.division_id
            WHERE ud.user_id = u.id ORDER BY d.is_active DESC, d.name LIMIT 1) d ON true
         LEFT JOIN LATERAL (SELECT name, er_line FROM itp_organization ORDER BY id LIMIT 1) itp ON true
        WHERE u.id = :userId`,
      { replacements: { userId }, type: QueryTypes.SELECT },
    );
    if (!row) return null;
    const sms = row.notifications_receiving_settings;
    const context: UserContext = {
      id: row.id,
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      role: row.user_type,
      organizationType: row.organization_type,
      organizationId: row.organization_id,
      organizationName:
        row.organization_type === OrganizationType.Facility ? row.facility_name ?? ''
        : row.organization_type === OrganizationType.Group ? row.group_name ?? ''
        : row.itp_name ?? '',
      facilityId: row.facility_id,
      facilityName: row.facility_name,
      divisionId: row.division_id,
      divisionName: row.division_name,
      divisionType: row.division_type,
      isIntegratedWithEMR: !!row.ehr_department_id,
      erLine: row.er_line,
      mfaMethod: row.mfa_method,
      isPasswordSet: !!row.password_hash,
      ssoEnabled: row.sso_enabled,
      disabledPasswordLogin: row.disabled_password_login,
      smsNotifications: {
        phone: sms?.phone ?? null,
        alwaysReceive: !!sms?.alwaysReceive,
        receiveUntil: sms?.receiveUntil ?? null,
        isReceiving: !!sms && (sms.alwaysReceive || (!!sms.receiveUntil && new Date(sms.receiveUntil) > new Date())),
      },
      rules: [],
    };
    context.rules = packRules(defineAbilityFor(context).rules as any);
    return { context, isActive: row.is_active, tokensValidAfter: new Date(row.tokens_valid_after) };
  }
}
