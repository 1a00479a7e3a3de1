import { Body, Controller } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ErrorCode, type AppAbility, type ExternalLoginSettingsRecord } from '@crisis/forms';
import { assertCan } from '../auth/abilities.guard';
import { CurrentAbility } from '../auth/current-user.decorator';
import { ApiSchemaBody } from '../common/openapi';
import { schema } from '../common/validation.pipe';
import { OrganizationSettingsService, type ExternalLoginInput } from './organization-settings.service';
import { Route } from '../common/route';
import { IdParam } from '../common/id-param';

/** SSO of a facility (spec 03 §7 Facilities: GET and PUT {id}/external-login-provider-settings). */
@ApiTags('facilities')
@Controller('api/facilities')
export class FacilitySsoController {
  constructor(private readonly settings: OrganizationSettingsService) {}

  @Route('GET', ':id/external-login-provider-settings', 'update', 'Facility')
  @ApiOkResponse({ description: "The facility's SSO settings (id null when never configured); a facility admin: her own facility only" })
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  get(@IdParam() id: number, @CurrentAbility() ability: AppAbility): Promise<ExternalLoginSettingsRecord> {
    assertCan(ability, 'update', 'Facility', { id }, 'externalLoginProviderSettings');
    return this.settings.getSso(id);
  }

  @Route('PUT', ':id/external-login-provider-settings', 'update', 'Facility', 'Facility.UpdateExternalLoginSettings')
  @ApiSchemaBody('externalLoginSettings')
  @ApiOkResponse({ description: "The facility's SSO settings after the change; 400 INV 'Invalid X509 Certificate' on x509Certificate" })
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  update(
    @IdParam() id: number,
    @Body(schema('externalLoginSettings')) body: ExternalLoginInput,
    @CurrentAbility() ability: AppAbility,
  ): Promise<ExternalLoginSettingsRecord> {
    assertCan(ability, 'update', 'Facility', { id }, 'externalLoginProviderSettings');
    return this.settings.updateSso(id, body);
  }
}
