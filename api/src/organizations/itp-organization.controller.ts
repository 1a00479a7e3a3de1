import { Body, Controller, Query, Req } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { ExternalLoginSettingsRecord, IpWhiteListSettingsRecord, ItpOrganizationRecord, UserContext } from '@crisis/forms';
import { CurrentUser } from '../auth/current-user.decorator';
import { IpAllowListService } from '../security/ip-allow-list.service';
import { ApiSchemaBody } from '../common/openapi';
import { schema } from '../common/validation.pipe';
import { parseId } from '../facilities/list-params';
import {
  OrganizationSettingsService,
  type ExternalLoginInput,
  type IpWhiteListInput,
  type ItpOrganizationInput,
} from './organization-settings.service';
import { Route } from '../common/route';
import { IdParam } from '../common/id-param';

/** /api/itp-organization (spec 03 §7 Organization): ITP admin only. */
@ApiTags('itp-organization')
@Controller('api/itp-organization')
export class ItpOrganizationController {
  constructor(
    private readonly settings: OrganizationSettingsService,
    private readonly ipLists: IpAllowListService,
  ) {}

  @Route('GET', '', 'manage', 'ItpOrganization')
  @ApiOkResponse({ description: 'The ITP organization: id, organizationName, erLine, mfaEnabled' })
  get(): Promise<ItpOrganizationRecord> {
    return this.settings.getItp();
  }

  @Route('PUT', '', 'manage', 'ItpOrganization', 'ItpOrganization.Update')
  @ApiSchemaBody('itpOrganization')
  @ApiOkResponse({ description: 'The ITP organization after the change' })
  update(@Body(schema('itpOrganization')) body: ItpOrganizationInput): Promise<ItpOrganizationRecord> {
    return this.settings.updateItp(body);
  }

  @Route('GET', 'external-login-provider-settings', 'manage', 'ItpOrganization')
  @ApiOkResponse({ description: "The ITP organization's SSO settings (id null when never configured)" })
  getSso(): Promise<ExternalLoginSettingsRecord> {
    return this.settings.getSso(null);
  }

  @Route('PUT', 'external-login-provider-settings', 'manage', 'ItpOrganization', 'ItpOrganization.UpdateExternalLoginSettings')
  @ApiSchemaBody('externalLoginSettings')
  @ApiOkResponse({ description: "The ITP organization's SSO settings after the change; 400 INV 'Invalid X509 Certificate' on x509Certificate" })
  updateSso(@Body(schema('externalLoginSettings')) body: ExternalLoginInput): Promise<ExternalLoginSettingsRecord> {
    return this.settings.updateSso(null, body);
  }

  @Route('PUT', ':id/update-ip-whitelist-settings', 'manage', 'ItpOrganization', 'ItpOrganization.UpdateIpWhiteList')
  @ApiParam({ name: 'id', type: Number, description: "the ITP organization's id" })
  @ApiSchemaBody('ipWhiteListSettings')
  @ApiOkResponse({ description: 'The allow-list after the change (facilityId null: the ITP organization)' })
  @ApiNotFoundResponse({ description: 'NTFND: unknown organization or facility' })
  @ApiConflictResponse({
    description: 'INV.IP.ALLOW.LIST.EXCLUDES.CURRENT.ADDRESS (payload ipAddress): the list would shut the caller out; send it again with confirmed true',
  })
  async updateIpWhiteList(
    @CurrentUser() user: UserContext,
    @Req() req: FastifyRequest,
    @IdParam() id: number,
    @Body(schema('ipWhiteListSettings')) body: IpWhiteListInput,
  ): Promise<IpWhiteListSettingsRecord> {
    await this.settings.assertItpId(id);
    this.ipLists.assertKeepsCaller(user, req.ip, body);
    return this.settings.updateIpSettings(body);
  }

  @Route('GET', ':id/organization-ip-whitelist-settings', 'manage', 'ItpOrganization')
  @ApiParam({ name: 'id', type: Number, description: "the ITP organization's id" })
  @ApiQuery({ name: 'facilityId', required: false, type: Number, description: "a facility's allow-list instead of the ITP organization's" })
  @ApiOkResponse({ description: 'facilityId, ipWhiteListEnabled, ipAddresses' })
  @ApiNotFoundResponse({ description: 'NTFND: unknown organization or facility' })
  async getIpWhiteList(@IdParam() id: number, @Query('facilityId') rawFacilityId?: string): Promise<IpWhiteListSettingsRecord> {
    await this.settings.assertItpId(id);
    const facilityId = rawFacilityId === undefined || rawFacilityId === '' || rawFacilityId === 'null' ? null : parseId(rawFacilityId);
    return this.settings.getIpSettings(facilityId);
  }
}
