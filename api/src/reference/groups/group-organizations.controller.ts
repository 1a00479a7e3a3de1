import { Body, Controller, Query, Res } from '@nestjs/common';
import { ApiQuery, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { groupOrganizationRecordSchema, type GroupOrganizationRecord } from '@crisis/forms';
import { schema } from '../../common/validation.pipe';
import { parseCheckedList } from '../../facilities/list-params';
import { asOpenApi } from '../list-decorators';
import { GROUP_SORTABLE, GroupOrganizationsService, type GroupOrganizationInput, type GroupOrganizationListFilter } from './group-organizations.service';
import { Route } from '../../common/route';
import { CreateRecord, ReadRecord, UpdateRecord, type RecordKind } from '../../common/record-routes';
import { IdParam } from '../../common/id-param';
import { ListRoute, sendPage } from '../../common/list-route';

const GROUP = asOpenApi(groupOrganizationRecordSchema);
const KIND: RecordKind = { subject: 'Group', noun: 'group organization', schema: GROUP, body: 'groupOrganization', conflict: 'INV.NOT.UNIQ: a group with this name exists (field name)' };
const LOOKUP = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, isActive: { type: 'boolean' } } };

/** Group organizations (spec 03 §7 Group organizations), ITP admin only. */
@ApiTags('group-organizations')
@Controller('api/group-organizations')
export class GroupOrganizationsController {
  constructor(private readonly groups: GroupOrganizationsService) {}

  @ListRoute('manage', 'Group', { sortable: GROUP_SORTABLE, filter: 'q (name contains), showActiveOnly, id[]', description: 'A page of groups, default sort name ascending; total in Content-Range', items: GROUP })
  async list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Promise<GroupOrganizationRecord[]> {
    const q = parseCheckedList<GroupOrganizationListFilter>(query, { sortable: GROUP_SORTABLE, defaultSort: ['name', 'ASC'], schema: 'groupOrganizationListFilter' });
    return sendPage(reply, 'group-organizations', q, await this.groups.list(q));
  }

  @Route('GET', 'lookups', 'read', 'Group')
  @ApiQuery({ name: 'showActiveOnly', required: false, description: 'true: active only' })
  @ApiOkResponse({ description: 'Groups sorted by name (id, name, isActive)', schema: { type: 'array', items: asOpenApi(LOOKUP) } })
  lookups(@Query('showActiveOnly') showActiveOnly: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    reply.header('Cache-Control', 'private, max-age=300');
    return this.groups.lookups(showActiveOnly === 'true');
  }

  @ReadRecord(KIND)
  get(@IdParam() id: number): Promise<GroupOrganizationRecord> {
    return this.groups.get(id);
  }

  @CreateRecord(KIND)
  create(@Body(schema('groupOrganization')) body: GroupOrganizationInput): Promise<GroupOrganizationRecord> {
    return this.groups.create(body);
  }

  @UpdateRecord(KIND)
  update(@IdParam() id: number, @Body(schema('groupOrganization')) body: GroupOrganizationInput): Promise<GroupOrganizationRecord> {
    return this.groups.update(id, body);
  }
}
