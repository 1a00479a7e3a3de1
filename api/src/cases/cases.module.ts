import { Module } from '@nestjs/common';
import { LiveModule } from '../live/live.module';
import { CaseCommandsService } from './case-commands.service';
import { CaseWriterModule } from './case-writer.module';
import { CaseLookupsController } from './case-lookups.controller';
import { CasesController } from './cases.controller';
import { CasesService } from './cases.service';
import { CaseRequestsController, RequestsController } from './requests.controller';

/** The case domain (spec 01): cases, their lifecycle commands and requests. */
@Module({
  imports: [LiveModule, CaseWriterModule],
  controllers: [CaseLookupsController, CasesController, CaseRequestsController, RequestsController],
  providers: [CasesService, CaseCommandsService],
  exports: [CasesService, CaseCommandsService, CaseWriterModule],
})
export class CasesModule {}
