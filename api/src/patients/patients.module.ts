import { Module } from '@nestjs/common';
import { CasesModule } from '../cases/cases.module';
import { CaseSourceService } from './case-source.service';
import { CasePatientController, PatientsController } from './patients.controller';
import { PatientsService } from './patients.service';

/** The patient of a case (edit, change log), the source details of a case, and /api/patients. */
@Module({
  imports: [CasesModule],
  controllers: [CasePatientController, PatientsController],
  providers: [PatientsService, CaseSourceService],
  exports: [PatientsService],
})
export class PatientsModule {}
