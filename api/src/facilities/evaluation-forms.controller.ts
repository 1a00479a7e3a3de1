import { Body, Controller } from '@nestjs/common';
import { ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import { REQUEST_TYPES, type FacilityEvaluationFormRecord } from '@crisis/forms';
import { ApiSchemaBody } from '../common/openapi';
import { schema } from '../common/validation.pipe';
import { FacilityEvaluationFormsService, type FacilityEvaluationFormInput } from './evaluation-forms.service';
import { FacilityRoute } from '../common/route';
import { IdParam } from '../common/id-param';

const SETTING = {
  type: 'object',
  properties: {
    id: { type: 'integer', nullable: true, description: 'null until first saved' },
    requestType: { type: 'string', enum: [...REQUEST_TYPES] },
    evaluationFormId: { type: 'integer', nullable: true },
    isAthenaBilled: { type: 'boolean', description: 'bill to the EHR' },
  },
};

/** The evaluation forms tab of a facility (spec 03 §2): ITP admin only. */
@ApiTags('facilities')
@Controller('api/facilities/:id/evaluation-forms')
@ApiParam({ name: 'id', type: Number, description: 'facility id' })
export class FacilityEvaluationFormsController {
  constructor(private readonly forms: FacilityEvaluationFormsService) {}

  @FacilityRoute('GET', '')
  @ApiOkResponse({ description: 'One row per request type: its evaluation form and bill-to-EHR flag', schema: { type: 'array', items: SETTING } })
  list(@IdParam() id: number): Promise<FacilityEvaluationFormRecord[]> {
    return this.forms.forFacility(id);
  }

  @FacilityRoute('PUT', '', 'Facility.UpdateEvaluationForm')
  @ApiSchemaBody('facilityEvaluationForm')
  @ApiOkResponse({ description: 'The saved row of that request type', schema: SETTING })
  save(@IdParam() id: number, @Body(schema('facilityEvaluationForm')) body: FacilityEvaluationFormInput): Promise<FacilityEvaluationFormRecord> {
    return this.forms.save(id, body);
  }
}
