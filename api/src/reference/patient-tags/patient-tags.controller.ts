import { Body, Controller, Query, Res } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ErrorCode, patientTagRecordSchema, type PatientTagRecord } from '@crisis/forms';
import { ApiSchemaBody } from '../../common/openapi';
import { schema } from '../../common/validation.pipe';
import { parseCheckedList } from '../../facilities/list-params';
import { asOpenApi } from '../list-decorators';
import { PATIENT_TAG_SORTABLE, PatientTagsService, type PatientTagListFilter } from './patient-tags.service';
import { Route } from '../../common/route';
import { IdParam } from '../../common/id-param';
import { ListRoute, sendPage } from '../../common/list-route';

const TAG = asOpenApi(patientTagRecordSchema);

/** Patient tags (spec 03 §7 Patient tags): ITP admin creates and removes them. */
@ApiTags('patient-tags')
@Controller('api/patient-tags')
export class PatientTagsController {
  constructor(private readonly tags: PatientTagsService) {}

  @ListRoute('manage', 'PatientTag', { sortable: PATIENT_TAG_SORTABLE, filter: 'q (name contains), id[]', description: 'A page of tags, default sort name ascending; total in Content-Range', items: TAG })
  async list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Promise<PatientTagRecord[]> {
    const q = parseCheckedList<PatientTagListFilter>(query, { sortable: PATIENT_TAG_SORTABLE, defaultSort: ['name', 'ASC'], schema: 'patientTagListFilter' });
    return sendPage(reply, 'patient-tags', q, await this.tags.list(q));
  }

  @Route('GET', 'lookups', 'read', 'PatientTag')
  @ApiOkResponse({ description: 'Every tag sorted by name; cached 3600 s', schema: { type: 'array', items: TAG } })
  lookups(@Res({ passthrough: true }) reply: FastifyReply): Promise<PatientTagRecord[]> {
    reply.header('Cache-Control', 'private, max-age=3600');
    return this.tags.lookups();
  }

  @Route('GET', ':id', 'manage', 'PatientTag')
  @ApiOkResponse({ description: 'The tag', schema: TAG })
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  get(@IdParam() id: number): Promise<PatientTagRecord> {
    return this.tags.get(id);
  }

  @Route('POST', '', 'manage', 'PatientTag', 'PatientTag.Create')
  @ApiSchemaBody('patientTag')
  @ApiCreatedResponse({ description: 'The created tag', schema: TAG })
  @ApiConflictResponse({ description: 'INV.NOT.UNIQ: a tag with this name exists (field name)' })
  create(@Body(schema('patientTag')) body: { name: string }): Promise<PatientTagRecord> {
    return this.tags.create(body);
  }

  @Route('DELETE', ':id', 'manage', 'PatientTag', 'PatientTag.Delete')
  @ApiOkResponse({ description: 'The removed tag', schema: TAG })
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  remove(@IdParam() id: number): Promise<PatientTagRecord> {
    return this.tags.remove(id);
  }
}
