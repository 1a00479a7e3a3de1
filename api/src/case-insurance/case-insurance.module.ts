import { Module } from '@nestjs/common';
import { CasesModule } from '../cases/cases.module';
import { defaultStorage, FILE_STORAGE } from '../files/storage';
import { CaseInsuranceController } from './case-insurance.controller';
import { CaseInsuranceService } from './case-insurance.service';

/** Insurances of a case: list, add, edit, order, verify, uninsured, card images (spec 01 §3–§5 Insurance). */
@Module({
  imports: [CasesModule],
  controllers: [CaseInsuranceController],
  providers: [CaseInsuranceService, { provide: FILE_STORAGE, useFactory: defaultStorage }],
  exports: [CaseInsuranceService],
})
export class CaseInsuranceModule {}
