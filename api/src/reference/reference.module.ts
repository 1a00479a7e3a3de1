import { Module } from '@nestjs/common';
import { BillingCodesController } from './billing-codes/billing-codes.controller';
import { BillingCodesService } from './billing-codes/billing-codes.service';
import { GroupOrganizationsController } from './groups/group-organizations.controller';
import { GroupOrganizationsService } from './groups/group-organizations.service';
import { PatientTagsController } from './patient-tags/patient-tags.controller';
import { PatientTagsService } from './patient-tags/patient-tags.service';
import { PayersController } from './payers/payers.controller';
import { PayersService } from './payers/payers.service';

/** Reference data of spec 03 managed by the ITP admin: groups, payers, billing codes, patient tags. */
@Module({
  controllers: [GroupOrganizationsController, PayersController, BillingCodesController, PatientTagsController],
  providers: [GroupOrganizationsService, PayersService, BillingCodesService, PatientTagsService],
  exports: [GroupOrganizationsService, PayersService, BillingCodesService, PatientTagsService],
})
export class ReferenceModule {}
