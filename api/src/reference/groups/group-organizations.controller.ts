import { Body, Controller, Query, Res } from '@nestjs/common';
import { ApiConflictResponse, ApiQuery, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ErrorCode, groupOrganizationRecordSchema, type GroupOrganizationRecord } from '@crisis/forms';
import { ApiSchemaBody } from '../../common/openapi';
import { schema } from '../../common/validation.pipe';
import { parseCheckedList } from '../../facilities/list-params';
import { asOpenApi } from '../list-decorators';
import {
  GROUP_SORTABLE,
  GroupOrganizationsService,
  type GroupOrganizationInput,
  type GroupOrganizationListFilter,
} from './group-organizations.service';
import { Route } from '../../common/route';
import { IdParam } from '../../common/id-param';
import { ListRoute, sendPage } from '../../common/list-route';

const GROUP = asOpenApi(groupOrganizationRecordSchema);
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

  @Route('GET', ':id', 'manage', 'Group')
  @ApiOkResponse({ description: 'The group organization', schema: GROUP })
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  get(@IdParam() id: number): Promise<GroupOrganizationRecord> {
    return this.groups.get(id);
  }

  @Route('POST', '', 'manage', 'Group', 'Group.Create')
  @ApiSchemaBody('groupOrganization')
  @ApiCreatedResponse({ description: 'The created group organization', schema: GROUP })
  @ApiConflictResponse({ description: 'INV.NOT.UNIQ: a group with this name exists (field name)' })
  create(@Body(schema('groupOrganization')) body: GroupOrganizationInput): Promise<GroupOrganizationRecord> {
    return this.groups.create(body);
  }

  @Route('PUT', ':id', 'manage', 'Group', 'Group.Update')
  @ApiSchemaBody('groupOrganization')
  @ApiOkResponse({ description: 'The updated group organization', schema: GROUP })
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  @ApiConflictResponse({ description: 'INV.NOT.UNIQ: a group with this name exists (field name)' })
  update(@IdParam() id: number, @Body(schema('groupOrganization')) body: GroupOrganizationInput): Promise<GroupOrganizationRecord> {
    return this.groups.update(id, body);
  }
}
