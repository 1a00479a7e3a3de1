import { Body, Controller, Get, Param, Put, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { ExternalLoginSettingsRecord, IpWhiteListSettingsRecord, ItpOrganizationRecord } from '@crisis/forms';
import { CheckAbility } from '../auth/abilities.guard';
import { AuditAction } from '../audit/audit.interceptor';
import { ApiSchemaBody } from '../common/openapi';
import { schema } from '../common/validation.pipe';
import { parseId } from '../facilities/list-params';
import {
  OrganizationSettingsService,
  type ExternalLoginInput,
  type IpWhiteListInput,
  type ItpOrganizationInput,
} from './organization-settings.service';

/** /api/itp-organization (spec 03 §7 Organization): ITP admin only. */
@ApiTags('itp-organization')
@Controller('api/itp-organization')
export class ItpOrganizationController {
  constructor(private readonly settings: OrganizationSettingsService) {}

  @Get()
  @CheckAbility('manage', 'ItpOrganization')
  @ApiOkResponse({ description: 'The ITP organization: id, organizationName, erLine, mfaEnabled' })
  get(): Promise<ItpOrganizationRecord> {
    return this.settings.getItp();
  }

  @Put()
  @CheckAbility('manage', 'ItpOrganization')
  @AuditAction('ItpOrganization.Update')
  @ApiSchemaBody('itpOrganization')
  @ApiOkResponse({ description: 'The ITP organization after the change' })
  update(@Body(schema('itpOrganization')) body: ItpOrganizationInput): Promise<ItpOrganizationRecord> {
    return this.settings.updateItp(body);
  }

  @Get('external-login-provider-settings')
  @CheckAbility('manage', 'ItpOrganization')
  @ApiOkResponse({ description: "The ITP organization's SSO settings (id null when never configured)" })
  getSso(): Promise<ExternalLoginSettingsRecord> {
    return this.settings.getSso(null);
  }

  @Put('external-login-provider-settings')
  @CheckAbility('manage', 'ItpOrganization')
  @AuditAction('ItpOrganization.UpdateExternalLoginSettings')
  @ApiSchemaBody('externalLoginSettings')
  @ApiOkResponse({ description: "The ITP organization's SSO settings after the change; 400 INV 'Invalid X509 Certificate' on x509Certificate" })
  updateSso(@Body(schema('externalLoginSettings')) body: ExternalLoginInput): Promise<ExternalLoginSettingsRecord> {
    return this.settings.updateSso(null, body);
  }

  @Put(':id/update-ip-whitelist-settings')
  @CheckAbility('manage', 'ItpOrganization')
  @AuditAction('ItpOrganization.UpdateIpWhiteList')
  @ApiParam({ name: 'id', type: Number, description: "the ITP organization's id" })
  @ApiSchemaBody('ipWhiteListSettings')
  @ApiOkResponse({ description: 'The allow-list after the change (facilityId null: the ITP organization)' })
  @ApiNotFoundResponse({ description: 'NTFND: unknown organization or facility' })
  async updateIpWhiteList(@Param('id') rawId: string, @Body(schema('ipWhiteListSettings')) body: IpWhiteListInput): Promise<IpWhiteListSettingsRecord> {
    await this.settings.assertItpId(parseId(rawId));
    return this.settings.updateIpSettings(body);
  }

  @Get(':id/organization-ip-whitelist-settings')
  @CheckAbility('manage', 'ItpOrganization')
  @ApiParam({ name: 'id', type: Number, description: "the ITP organization's id" })
  @ApiQuery({ name: 'facilityId', required: false, type: Number, description: "a facility's allow-list instead of the ITP organization's" })
  @ApiOkResponse({ description: 'facilityId, ipWhiteListEnabled, ipAddresses' })
  @ApiNotFoundResponse({ description: 'NTFND: unknown organization or facility' })
  async getIpWhiteList(@Param('id') rawId: string, @Query('facilityId') rawFacilityId?: string): Promise<IpWhiteListSettingsRecord> {
    await this.settings.assertItpId(parseId(rawId));
    const facilityId = rawFacilityId === undefined || rawFacilityId === '' || rawFacilityId === 'null' ? null : parseId(rawFacilityId);
    return this.settings.getIpSettings(facilityId);
  }
}
