import { Module } from '@nestjs/common';
import { SequelizeModule } from '@nestjs/sequelize';
import { DivisionsController } from './divisions.controller';
import { DivisionsService } from './divisions.service';
import { Division } from './division.model';
import { FacilitiesController } from './facilities.controller';
import { FacilitiesService } from './facilities.service';
import { Facility } from './facility.model';

/** Facilities and their divisions (spec 03 §7 Facilities). */
@Module({
  imports: [SequelizeModule.forFeature([Facility, Division])],
  controllers: [FacilitiesController, DivisionsController],
  providers: [FacilitiesService, DivisionsService],
  exports: [FacilitiesService, DivisionsService],
})
export class FacilitiesModule {}
