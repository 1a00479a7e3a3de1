import { Module } from '@nestjs/common';
import { CasesModule } from '../cases/cases.module';
import { DiagnosesController, MedicalInformationController } from './medical-information.controller';
import { MedicalInformationService } from './medical-information.service';

/** Medical information of a case and the diagnosis look-up (spec 01 §3–§5). */
@Module({
  imports: [CasesModule],
  controllers: [MedicalInformationController, DiagnosesController],
  providers: [MedicalInformationService],
})
export class MedicalInformationModule {}
