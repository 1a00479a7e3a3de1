import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import type { AppAbility, ExternalLoginSettingsRecord } from '@crisis/forms';
import { assertCan, CheckAbility } from '../auth/abilities.guard';
import { CurrentAbility } from '../auth/current-user.decorator';
import { AuditAction } from '../audit/audit.interceptor';
import { ApiSchemaBody } from '../common/openapi';
import { schema } from '../common/validation.pipe';
import { parseId } from '../facilities/list-params';
import { OrganizationSettingsService, type ExternalLoginInput } from './organization-settings.service';

/** SSO of a facility (spec 03 §7 Facilities: GET and PUT {id}/external-login-provider-settings). */
@ApiTags('facilities')
@Controller('api/facilities')
export class FacilitySsoController {
  constructor(private readonly settings: OrganizationSettingsService) {}

  @Get(':id/external-login-provider-settings')
  @CheckAbility('update', 'Facility')
  @ApiParam({ name: 'id', type: Number })
  @ApiOkResponse({ description: "The facility's SSO settings (id null when never configured); a facility admin: her own facility only" })
  @ApiNotFoundResponse({ description: 'NTFND' })
  get(@Param('id') rawId: string, @CurrentAbility() ability: AppAbility): Promise<ExternalLoginSettingsRecord> {
    const id = parseId(rawId);
    assertCan(ability, 'update', 'Facility', { id }, 'externalLoginProviderSettings');
    return this.settings.getSso(id);
  }

  @Put(':id/external-login-provider-settings')
  @CheckAbility('update', 'Facility')
  @AuditAction('Facility.UpdateExternalLoginSettings')
  @ApiParam({ name: 'id', type: Number })
  @ApiSchemaBody('externalLoginSettings')
  @ApiOkResponse({ description: "The facility's SSO settings after the change; 400 INV 'Invalid X509 Certificate' on x509Certificate" })
  @ApiNotFoundResponse({ description: 'NTFND' })
  update(
    @Param('id') rawId: string,
    @Body(schema('externalLoginSettings')) body: ExternalLoginInput,
    @CurrentAbility() ability: AppAbility,
  ): Promise<ExternalLoginSettingsRecord> {
    const id = parseId(rawId);
    assertCan(ability, 'update', 'Facility', { id }, 'externalLoginProviderSettings');
    return this.settings.updateSso(id, body);
  }
}
