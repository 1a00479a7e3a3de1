import { X509Certificate } from 'crypto';
import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { QueryTypes } from 'sequelize';
import { Sequelize } from 'sequelize-typescript';
import {
  INVALID_X509_MESSAGE,
  OrganizationType,
  type ExternalLoginSettingsRecord,
  type IpWhiteListSettingsRecord,
  type ItpOrganizationRecord,
} from '@crisis/forms';
import { config } from '../config';
import { afterCommit } from '../common/after-commit';
import { invalid, notFound } from '../common/coded-error';
import { auditValues } from '../common/request-context';
import { IpAllowListService } from '../security/ip-allow-list.service';

export interface ItpOrganizationInput {
  organizationName: string;
  erLine: string;
  mfaEnabled: boolean;
}
export interface IpWhiteListInput {
  facilityId?: number | null;
  ipWhiteListEnabled: boolean;
  ipAddresses?: string | null;
  /** The saving admin confirmed a list that leaves out her current address (checked by IpAllowListService). */
  confirmed?: boolean | null;
}
export interface ExternalLoginInput {
  enabled: boolean;
  identityProviderEntityId?: string | null;
  signInUrl?: string | null;
  x509Certificate?: string | null;
  userEmailClaim?: string | null;
  disablePasswordLogin?: boolean;
}

interface SsoRow {
  id: number; facility_id: number | null; enabled: boolean; identity_provider_entity_id: string | null;
  x509_certificate: string | null; sign_in_url: string | null; user_email_claim: string | null;
  disable_password_login: boolean; is_outdated: boolean; apply_failed: boolean;
}

/** Parses a PEM certificate (or its bare base64 body) with Node's X509Certificate; null when it is not one. */
export function parseCertificate(text: string): X509Certificate | null {
  const body = text.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  if (!body) return null;
  const pem = `-----BEGIN CERTIFICATE-----\n${body.replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END CERTIFICATE-----\n`;
  try {
    return new X509Certificate(pem);
  } catch {
    return null;
  }
}

/**
 * Organization-wide settings (spec 03 §3, §7 Organization): the ITP organization's general
 * settings, the IP allow-lists of the ITP organization and of facilities, and SAML SSO settings
 * of the ITP organization and of facilities.
 */
@Injectable()
export class OrganizationSettingsService {
  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    private readonly ipLists: IpAllowListService,
  ) {}

  private async itpRow(): Promise<{ id: number; name: string; er_line: string | null; mfa_enabled: boolean; ip_white_list_enabled: boolean; ip_addresses: string | null }> {
    const [row] = await this.sequelize.query<any>(
      `SELECT id, name, er_line, mfa_enabled, ip_white_list_enabled, ip_addresses FROM itp_organization ORDER BY id LIMIT 1`,
      { type: QueryTypes.SELECT },
    );
    if (!row) throw notFound();
    return row;
  }

  /** The {id} of /api/itp-organization/{id}/...: must be the ITP organization's. */
  async assertItpId(id: number): Promise<void> {
    const row = await this.itpRow();
    if (row.id !== id) throw notFound();
  }

  async getItp(): Promise<ItpOrganizationRecord> {
    const r = await this.itpRow();
    return { id: r.id, organizationName: r.name, erLine: r.er_line, mfaEnabled: r.mfa_enabled };
  }

  async updateItp(body: ItpOrganizationInput): Promise<ItpOrganizationRecord> {
    const { id } = await this.itpRow();
    await this.sequelize.query(
      `UPDATE itp_organization SET name = :name, er_line = :erLine, mfa_enabled = :mfa, updated_at = now() WHERE id = :id`,
      { replacements: { id, name: body.organizationName, erLine: body.erLine, mfa: body.mfaEnabled } },
    );
    auditValues({ organizationId: id, organizationName: body.organizationName, erLine: body.erLine, mfaEnabled: body.mfaEnabled });
    return this.getItp();
  }

  async getIpSettings(facilityId: number | null): Promise<IpWhiteListSettingsRecord> {
    if (facilityId === null) {
      const r = await this.itpRow();
      return { facilityId: null, ipWhiteListEnabled: r.ip_white_list_enabled, ipAddresses: r.ip_addresses };
    }
    const [r] = await this.sequelize.query<{ ip_white_list_enabled: boolean; ip_addresses: string | null }>(
      `SELECT ip_white_list_enabled, ip_addresses FROM facilities WHERE id = :facilityId`,
      { replacements: { facilityId }, type: QueryTypes.SELECT },
    );
    if (!r) throw notFound();
    return { facilityId, ipWhiteListEnabled: r.ip_white_list_enabled, ipAddresses: r.ip_addresses };
  }

  async updateIpSettings(body: IpWhiteListInput): Promise<IpWhiteListSettingsRecord> {
    const facilityId = body.facilityId ?? null;
    // Stored normalised: one entry per address, separated by ", ".
    const list = body.ipAddresses ? body.ipAddresses.split(',').map((e) => e.trim()).join(', ') : null;
    const replacements = { enabled: body.ipWhiteListEnabled, list, facilityId };
    if (facilityId === null) {
      const { id } = await this.itpRow();
      await this.sequelize.query(
        `UPDATE itp_organization SET ip_white_list_enabled = :enabled, ip_addresses = :list, updated_at = now() WHERE id = :id`,
        { replacements: { ...replacements, id } },
      );
    } else {
      const [, count] = await this.sequelize.query(
        `UPDATE facilities SET ip_white_list_enabled = :enabled, ip_addresses = :list, updated_at = now() WHERE id = :facilityId`,
        { replacements, type: QueryTypes.UPDATE },
      );
      if (!count) throw notFound();
    }
    auditValues({ facilityId, ipWhiteListEnabled: body.ipWhiteListEnabled, ipAddresses: list });
    await afterCommit('IP allow-list cache invalidation', async () => this.ipLists.invalidate());
    return this.getIpSettings(facilityId);
  }

  private serviceProviderId(facilityId: number | null): string {
    return `${config.publicUrl}/identity/saml/${facilityId === null ? 'itp' : `facility-${facilityId}`}`;
  }

  private async assertFacility(facilityId: number): Promise<void> {
    const [r] = await this.sequelize.query(`SELECT 1 FROM facilities WHERE id = :facilityId`, {
      replacements: { facilityId },
      type: QueryTypes.SELECT,
    });
    if (!r) throw notFound();
  }

  async getSso(facilityId: number | null): Promise<ExternalLoginSettingsRecord> {
    if (facilityId !== null) await this.assertFacility(facilityId);
    const [r] = await this.sequelize.query<SsoRow>(
      `SELECT * FROM external_login_settings WHERE facility_id IS NOT DISTINCT FROM :facilityId`,
      { replacements: { facilityId }, type: QueryTypes.SELECT },
    );
    return {
      id: r?.id ?? null,
      facilityId,
      serviceProviderId: this.serviceProviderId(facilityId),
      enabled: r?.enabled ?? false,
      identityProviderEntityId: r?.identity_provider_entity_id ?? null,
      x509Certificate: r?.x509_certificate ?? null,
      signInUrl: r?.sign_in_url ?? null,
      userEmailClaim: r?.user_email_claim ?? null,
      disablePasswordLogin: r?.disable_password_login ?? false,
      isOutdated: r?.is_outdated ?? false,
      applyFailed: r?.apply_failed ?? false,
    };
  }

  async updateSso(facilityId: number | null, body: ExternalLoginInput): Promise<ExternalLoginSettingsRecord> {
    if (facilityId !== null) await this.assertFacility(facilityId);
    if (body.x509Certificate && !parseCertificate(body.x509Certificate))
      throw invalid([{ field: 'x509Certificate', key: 'invalidCertificate', message: INVALID_X509_MESSAGE }]);
    const values = {
      facilityId,
      enabled: body.enabled,
      entityId: body.identityProviderEntityId ?? null,
      cert: body.x509Certificate ?? null,
      url: body.signInUrl ?? null,
      claim: body.userEmailClaim ?? null,
      disable: !!body.disablePasswordLogin,
    };
    const set = `enabled = :enabled, identity_provider_entity_id = :entityId, x509_certificate = :cert, sign_in_url = :url,
                 user_email_claim = :claim, disable_password_login = :disable, is_outdated = false, apply_failed = false, updated_at = now()`;
    const [, updated] = await this.sequelize.query(
      `UPDATE external_login_settings SET ${set} WHERE facility_id IS NOT DISTINCT FROM :facilityId`,
      { replacements: values, type: QueryTypes.UPDATE },
    );
    if (!updated)
      await this.sequelize.query(
        `INSERT INTO external_login_settings (facility_id, enabled, identity_provider_entity_id, x509_certificate, sign_in_url, user_email_claim, disable_password_login)
         VALUES (:facilityId, :enabled, :entityId, :cert, :url, :claim, :disable)`,
        { replacements: values },
      );
    // The organization's users follow its SSO settings (the sign-in page refuses password login
    // to non-admins when SSO is on and password login is disabled).
    await this.sequelize.query(
      `UPDATE users SET sso_enabled = :enabled, disabled_password_login = :disabled
        WHERE organization_type = :orgType AND (CAST(:facilityId AS int) IS NULL OR organization_id = :facilityId)`,
      {
        replacements: {
          enabled: body.enabled,
          disabled: body.enabled && !!body.disablePasswordLogin,
          orgType: facilityId === null ? OrganizationType.ITP : OrganizationType.Facility,
          facilityId,
        },
      },
    );
    auditValues({ facilityId, enabled: body.enabled, disablePasswordLogin: values.disable, identityProviderEntityId: values.entityId });
    return this.getSso(facilityId);
  }
}
