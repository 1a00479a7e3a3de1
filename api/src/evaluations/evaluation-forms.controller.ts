import { Body, Controller, Query, Res } from '@nestjs/common';
import { ApiConflictResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ErrorCode, evaluationFormRecordSchema, type EvaluationFormInput, type EvaluationFormLookup, type EvaluationFormRecord } from '@crisis/forms';
import { schema } from '../common/validation.pipe';
import { parseCheckedList } from '../facilities/list-params';
import { asOpenApi } from '../reference/list-decorators';
import { Route } from '../common/route';
import { CreateRecord, DeleteRecord, ReadRecord, UpdateRecord, type RecordKind } from '../common/record-routes';
import { IdParam } from '../common/id-param';
import { ListRoute, sendPage } from '../common/list-route';
import { EVALUATION_FORM_SORTABLE, EvaluationFormsService, type EvaluationFormListFilter } from './evaluation-forms.service';

const FORM = asOpenApi(evaluationFormRecordSchema);
const KIND: RecordKind = {
  subject: 'EvaluationForm',
  noun: 'evaluation form',
  schema: FORM,
  body: 'evaluationForm',
  conflict: `INV.NOT.UNIQ: a form with this name exists (field name); ${ErrorCode.DefaultEvaluationForm}: a default form's name cannot change`,
};

/** Evaluation forms (spec 02 §7): the ITP admin's questionnaires. */
@ApiTags('evaluation-forms')
@Controller('api/evaluation-forms')
export class EvaluationFormsController {
  constructor(private readonly forms: EvaluationFormsService) {}

  @ListRoute('manage', 'EvaluationForm', { sortable: EVALUATION_FORM_SORTABLE, filter: 'q (name contains), id[]', description: 'A page of forms, default sort name ascending; total in Content-Range', items: FORM })
  async list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Promise<EvaluationFormRecord[]> {
    const q = parseCheckedList<EvaluationFormListFilter>(query, { sortable: EVALUATION_FORM_SORTABLE, defaultSort: ['name', 'ASC'], schema: 'evaluationFormListFilter' });
    return sendPage(reply, 'evaluation-forms', q, await this.forms.list(q));
  }

  @Route('GET', 'lookups', 'manage', 'Facility')
  @ApiOkResponse({
    description: 'Every form (id, name, isDefault), defaults first, then by name: the choices of a facility\'s evaluation-forms tab',
    schema: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, isDefault: { type: 'boolean' } } } },
  })
  lookups(): Promise<EvaluationFormLookup[]> {
    return this.forms.lookups();
  }

  @ReadRecord(KIND)
  get(@IdParam() id: number): Promise<EvaluationFormRecord> {
    return this.forms.get(id);
  }

  @Route('GET', ':id/facilities', 'manage', 'EvaluationForm')
  @ApiOkResponse({ description: 'The facilities whose request types use the form', schema: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } } })
  facilities(@IdParam() id: number) {
    return this.forms.facilities(id);
  }

  @CreateRecord(KIND)
  create(@Body(schema('evaluationForm')) body: EvaluationFormInput): Promise<EvaluationFormRecord> {
    return this.forms.create(body);
  }

  @UpdateRecord(KIND)
  update(@IdParam() id: number, @Body(schema('evaluationForm')) body: EvaluationFormInput): Promise<EvaluationFormRecord> {
    return this.forms.update(id, body);
  }

  @Route('POST', ':id/clone', 'manage', 'EvaluationForm', 'EvaluationForm.Clone')
  @ApiOkResponse({ description: 'The copy, named "<name> (copy)", custom', schema: FORM })
  clone(@IdParam() id: number): Promise<EvaluationFormRecord> {
    return this.forms.clone(id);
  }

  @DeleteRecord(KIND)
  @ApiConflictResponse({ description: `${ErrorCode.DeleteEvaluationFormAssignedToFacilities} (payload: the facilities' names); ${ErrorCode.DefaultEvaluationForm}` })
  remove(@IdParam() id: number): Promise<EvaluationFormRecord> {
    return this.forms.remove(id);
  }
}
