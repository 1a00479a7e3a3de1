import { Module } from '@nestjs/common';
import { CasesModule } from '../cases/cases.module';
import { defaultStorage, FILE_STORAGE } from '../files/storage';
import { CaseExportsController } from './case-exports.controller';
import { CaseExportsService } from './case-exports.service';

/** Exports of a case: case PDF, summary PDF, notes PDF, activity report PDF and CSV (spec 01 §7). */
@Module({
  imports: [CasesModule],
  controllers: [CaseExportsController],
  providers: [CaseExportsService, { provide: FILE_STORAGE, useFactory: defaultStorage }],
})
export class CaseExportsModule {}
