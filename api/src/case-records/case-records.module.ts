import { Module } from '@nestjs/common';
import { CasesModule } from '../cases/cases.module';
import { defaultStorage, FILE_STORAGE } from '../files/storage';
import { CaseRecordsController } from './case-records.controller';
import { CaseRecordsService } from './case-records.service';

/** The records of a case (spec 01 §3, §6, §7): vitals, progress notes, case notes, patient files, tags, feedback. */
@Module({
  imports: [CasesModule],
  controllers: [CaseRecordsController],
  providers: [CaseRecordsService, { provide: FILE_STORAGE, useFactory: defaultStorage }],
  exports: [CaseRecordsService],
})
export class CaseRecordsModule {}
