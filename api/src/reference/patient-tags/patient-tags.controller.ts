import { Body, Controller, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { patientTagRecordSchema, type PatientTagRecord } from '@crisis/forms';
import { schema } from '../../common/validation.pipe';
import { parseCheckedList } from '../../facilities/list-params';
import { asOpenApi } from '../list-decorators';
import { PATIENT_TAG_SORTABLE, PatientTagsService, type PatientTagListFilter } from './patient-tags.service';
import { Route } from '../../common/route';
import { CreateRecord, DeleteRecord, ReadRecord, type RecordKind } from '../../common/record-routes';
import { IdParam } from '../../common/id-param';
import { ListRoute, sendPage } from '../../common/list-route';

const TAG = asOpenApi(patientTagRecordSchema);
const KIND: RecordKind = { subject: 'PatientTag', noun: 'tag', schema: TAG, body: 'patientTag', conflict: 'INV.NOT.UNIQ: a tag with this name exists (field name)' };

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

  @ReadRecord(KIND)
  get(@IdParam() id: number): Promise<PatientTagRecord> {
    return this.tags.get(id);
  }

  @CreateRecord(KIND)
  create(@Body(schema('patientTag')) body: { name: string }): Promise<PatientTagRecord> {
    return this.tags.create(body);
  }

  @DeleteRecord(KIND)
  remove(@IdParam() id: number): Promise<PatientTagRecord> {
    return this.tags.remove(id);
  }
}
