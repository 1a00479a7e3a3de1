import { Module } from '@nestjs/common';
import { CasesModule } from '../cases/cases.module';
import { EvaluationFormsController } from './evaluation-forms.controller';
import { EvaluationFormsService } from './evaluation-forms.service';
import { EvaluationsController } from './evaluations.controller';
import { EvaluationsService } from './evaluations.service';

/** Evaluation forms (the questionnaires) and the evaluations answered on them (spec 02). */
@Module({
  imports: [CasesModule],
  controllers: [EvaluationFormsController, EvaluationsController],
  providers: [EvaluationFormsService, EvaluationsService],
  exports: [EvaluationFormsService],
})
export class EvaluationsModule {}
