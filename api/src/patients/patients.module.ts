import { Module } from '@nestjs/common';
import { CasesModule } from '../cases/cases.module';
import { CaseSourceService } from './case-source.service';
import { CasePatientController, PatientsController } from './patients.controller';
import { PatientsService } from './patients.service';
import { PatientDirectoryService } from './patient-directory.service';
import { PatientMergeService } from './patient-merge.service';

/** The patient of a case (edit, change log), the source details of a case, and /api/patients (directory, history, merge). */
@Module({
  imports: [CasesModule],
  controllers: [CasePatientController, PatientsController],
  providers: [PatientsService, CaseSourceService, PatientDirectoryService, PatientMergeService],
  exports: [PatientsService],
})
export class PatientsModule {}
