import { Module } from '@nestjs/common';
import { EvaluationFormsController } from './evaluation-forms.controller';
import { EvaluationFormsService } from './evaluation-forms.service';

/** Evaluation forms (the questionnaires) and the evaluations answered on them (spec 02). */
@Module({
  controllers: [EvaluationFormsController],
  providers: [EvaluationFormsService],
  exports: [EvaluationFormsService],
})
export class EvaluationsModule {}
