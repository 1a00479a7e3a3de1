import { Body, Controller } from '@nestjs/common';
import { ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import { REQUEST_TYPES, type EvaluationFormLookup, type FacilityEvaluationFormRecord } from '@crisis/forms';
import { ApiSchemaBody } from '../common/openapi';
import { schema } from '../common/validation.pipe';
import { EvaluationFormsService, type FacilityEvaluationFormInput } from './evaluation-forms.service';
import { FacilityRoute, Route } from '../common/route';
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

/** GET /api/evaluation-forms: every evaluation form as a lookup (spec 03 §7). */
@ApiTags('evaluation-forms')
@Controller('api/evaluation-forms')
export class EvaluationFormsController {
  constructor(private readonly forms: EvaluationFormsService) {}

  @Route('GET', '', 'manage', 'Facility')
  @ApiOkResponse({
    description: 'All evaluation forms (id, name, isDefault), defaults first, then by name',
    schema: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, isDefault: { type: 'boolean' } } } },
  })
  lookups(): Promise<EvaluationFormLookup[]> {
    return this.forms.lookups();
  }
}

/** The evaluation forms tab of a facility (spec 03 §2): ITP admin only. */
@ApiTags('facilities')
@Controller('api/facilities/:id/evaluation-forms')
@ApiParam({ name: 'id', type: Number, description: 'facility id' })
export class FacilityEvaluationFormsController {
  constructor(private readonly forms: EvaluationFormsService) {}

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
