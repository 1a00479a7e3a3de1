import { Module } from '@nestjs/common';
import { FacilitySsoController } from './facility-sso.controller';
import { ItpOrganizationController } from './itp-organization.controller';
import { OrganizationSettingsService } from './organization-settings.service';

/** ITP organization settings, IP allow-lists and SSO settings (spec 03 §3, §7 Organization). */
@Module({
  controllers: [ItpOrganizationController, FacilitySsoController],
  providers: [OrganizationSettingsService],
})
export class OrganizationsModule {}
