import { Body, Controller, Get, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiConflictResponse, ApiQuery, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { groupOrganizationRecordSchema, type GroupOrganizationRecord } from '@crisis/forms';
import { CheckAbility } from '../../auth/abilities.guard';
import { AuditAction } from '../../audit/audit.interceptor';
import { contentRange } from '../../common/list-query';
import { ApiSchemaBody } from '../../common/openapi';
import { schema } from '../../common/validation.pipe';
import { ApiListQuery } from '../../facilities/facilities.controller';
import { parseCheckedList, parseId } from '../../facilities/list-params';
import { asOpenApi } from '../list-decorators';
import {
  GROUP_SORTABLE,
  GroupOrganizationsService,
  type GroupOrganizationInput,
  type GroupOrganizationListFilter,
} from './group-organizations.service';

const GROUP = asOpenApi(groupOrganizationRecordSchema);
const LOOKUP = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, isActive: { type: 'boolean' } } };

/** Group organizations (spec 03 §7 Group organizations), ITP admin only. */
@ApiTags('group-organizations')
@Controller('api/group-organizations')
export class GroupOrganizationsController {
  constructor(private readonly groups: GroupOrganizationsService) {}

  @Get()
  @CheckAbility('manage', 'Group')
  @ApiListQuery(GROUP_SORTABLE, 'q (name contains), showActiveOnly, id[]')
  @ApiOkResponse({ description: 'A page of groups, default sort name ascending; total in Content-Range', schema: { type: 'array', items: GROUP } })
  async list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Promise<GroupOrganizationRecord[]> {
    const q = parseCheckedList<GroupOrganizationListFilter>(query, { sortable: GROUP_SORTABLE, defaultSort: ['name', 'ASC'], schema: 'groupOrganizationListFilter' });
    const { rows, total } = await this.groups.list(q);
    reply.header('Content-Range', contentRange('group-organizations', q.offset, rows.length, total));
    return rows;
  }

  @Get('lookups')
  @CheckAbility('read', 'Group')
  @ApiQuery({ name: 'showActiveOnly', required: false, description: 'true: active only' })
  @ApiOkResponse({ description: 'Groups sorted by name (id, name, isActive)', schema: { type: 'array', items: asOpenApi(LOOKUP) } })
  lookups(@Query('showActiveOnly') showActiveOnly: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    reply.header('Cache-Control', 'private, max-age=300');
    return this.groups.lookups(showActiveOnly === 'true');
  }

  @Get(':id')
  @CheckAbility('manage', 'Group')
  @ApiParam({ name: 'id', type: Number })
  @ApiOkResponse({ description: 'The group organization', schema: GROUP })
  @ApiNotFoundResponse({ description: 'NTFND' })
  get(@Param('id') rawId: string): Promise<GroupOrganizationRecord> {
    return this.groups.get(parseId(rawId));
  }

  @Post()
  @CheckAbility('manage', 'Group')
  @AuditAction('Group.Create')
  @ApiSchemaBody('groupOrganization')
  @ApiCreatedResponse({ description: 'The created group organization', schema: GROUP })
  @ApiConflictResponse({ description: 'INV.NOT.UNIQ: a group with this name exists (field name)' })
  create(@Body(schema('groupOrganization')) body: GroupOrganizationInput): Promise<GroupOrganizationRecord> {
    return this.groups.create(body);
  }

  @Put(':id')
  @CheckAbility('manage', 'Group')
  @AuditAction('Group.Update')
  @ApiParam({ name: 'id', type: Number })
  @ApiSchemaBody('groupOrganization')
  @ApiOkResponse({ description: 'The updated group organization', schema: GROUP })
  @ApiNotFoundResponse({ description: 'NTFND' })
  @ApiConflictResponse({ description: 'INV.NOT.UNIQ: a group with this name exists (field name)' })
  update(@Param('id') rawId: string, @Body(schema('groupOrganization')) body: GroupOrganizationInput): Promise<GroupOrganizationRecord> {
    return this.groups.update(parseId(rawId), body);
  }
}
