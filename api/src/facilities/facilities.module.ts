import { Module } from '@nestjs/common';
import { SequelizeModule } from '@nestjs/sequelize';
import { DivisionsController } from './divisions.controller';
import { DivisionsService } from './divisions.service';
import { Division } from './division.model';
import { FacilitiesController } from './facilities.controller';
import { FacilitiesService } from './facilities.service';
import { Facility } from './facility.model';
import { CredentialedProvidersController } from './credentialed-providers.controller';
import { CredentialedProvidersService } from './credentialed-providers.service';
import { FacilityEvaluationFormsController } from './evaluation-forms.controller';
import { FacilityEvaluationFormsService } from './evaluation-forms.service';
import { PreferredFacilitiesController } from './preferred-facilities.controller';
import { PreferredFacilitiesService } from './preferred-facilities.service';
import { StateRestrictionsController } from './state-restrictions.controller';
import { StateRestrictionsService } from './state-restrictions.service';

/** Facilities and their divisions (spec 03 §7 Facilities). */
@Module({
  imports: [SequelizeModule.forFeature([Facility, Division])],
  controllers: [
    FacilitiesController,
    DivisionsController,
    CredentialedProvidersController,
    PreferredFacilitiesController,
    FacilityEvaluationFormsController,
    StateRestrictionsController,
  ],
  providers: [FacilitiesService, DivisionsService, CredentialedProvidersService, PreferredFacilitiesService, FacilityEvaluationFormsService, StateRestrictionsService],
  exports: [FacilitiesService, DivisionsService],
})
export class FacilitiesModule {}
