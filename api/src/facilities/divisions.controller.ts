import { Body, Controller, Get, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { FastifyReply } from 'fastify';
import { divisionLookupSchema, divisionRecordSchema, type AppAbility, type DivisionLookup, type DivisionRecord } from '@crisis/forms';
import { assertCan, CheckAbility } from '../auth/abilities.guard';
import { CurrentAbility } from '../auth/current-user.decorator';
import { AuditAction } from '../audit/audit.interceptor';
import { contentRange } from '../common/list-query';
import { ApiSchemaBody } from '../common/openapi';
import { schema } from '../common/validation.pipe';
import { DIVISION_SORTABLE, DivisionsService, type DivisionInput, type DivisionListFilter } from './divisions.service';
import { ApiListQuery } from './facilities.controller';
import { parseCheckedList, parseId, parseLookupFilter } from './list-params';

const DIVISION = divisionRecordSchema as unknown as SchemaObject;
const DIVISION_LOOKUP = divisionLookupSchema as unknown as SchemaObject;

/**
 * Divisions of a facility (spec 03 §7). Reading is open to the ITP admin and to a facility admin
 * for her own facility; adding and editing to the ITP admin only.
 */
@ApiTags('facilities')
@Controller('api/facilities/:id/divisions')
@ApiParam({ name: 'id', type: Number, description: 'facility id' })
export class DivisionsController {
  constructor(private readonly divisions: DivisionsService) {}

  @Get()
  @CheckAbility('read', 'Facility')
  @ApiListQuery(DIVISION_SORTABLE, 'q (name contains), type (Source | Referring), showActiveOnly, id[]')
  @ApiOkResponse({
    description: 'A page of the facility\'s divisions, default sort name ascending; total in Content-Range ("divisions 0-9/12")',
    schema: { type: 'array', items: DIVISION },
  })
  @ApiNotFoundResponse({ description: 'NTFND: no such facility' })
  async list(
    @Param('id') rawId: string,
    @Query() query: Record<string, unknown>,
    @CurrentAbility() ability: AppAbility,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<DivisionRecord[]> {
    const facilityId = this.readable(rawId, ability);
    const q = parseCheckedList<DivisionListFilter>(query, { sortable: DIVISION_SORTABLE, defaultSort: ['name', 'ASC'], schema: 'divisionListFilter' });
    const { rows, total } = await this.divisions.list(facilityId, q);
    reply.header('Content-Range', contentRange('divisions', q.offset, rows.length, total));
    return rows;
  }

  @Get('lookups')
  @CheckAbility('read', 'Facility')
  @ApiQuery({ name: 'filter', required: false, description: 'JSON object: q, type, showActiveOnly, id[] (or the same keys as plain query parameters)' })
  @ApiBadRequestResponse({ description: 'INV: a bad filter; `fields` names each problem' })
  @ApiOkResponse({ description: 'The facility\'s divisions (id, name, isActive, type), sorted by name', schema: { type: 'array', items: DIVISION_LOOKUP } })
  @ApiNotFoundResponse({ description: 'NTFND: no such facility' })
  lookups(@Param('id') rawId: string, @Query() query: Record<string, unknown>, @CurrentAbility() ability: AppAbility): Promise<DivisionLookup[]> {
    const facilityId = this.readable(rawId, ability);
    return this.divisions.lookups(facilityId, parseLookupFilter<DivisionListFilter>(query, 'divisionListFilter', ['id']));
  }

  @Post()
  @CheckAbility('manage', 'Facility')
  @AuditAction('Division.Create')
  @ApiSchemaBody('division')
  @ApiCreatedResponse({ description: 'The created division', schema: DIVISION })
  @ApiNotFoundResponse({ description: 'NTFND: no such facility' })
  @ApiConflictResponse({ description: 'INV.NOT.UNIQ: the facility has a division of this name (field name)' })
  create(@Param('id') rawId: string, @Body(schema('division')) body: DivisionInput): Promise<DivisionRecord> {
    return this.divisions.create(parseId(rawId), body);
  }

  @Get(':divisionId')
  @CheckAbility('read', 'Facility')
  @ApiParam({ name: 'divisionId', type: Number })
  @ApiOkResponse({ description: 'The division', schema: DIVISION })
  @ApiNotFoundResponse({ description: 'NTFND: no such division in this facility' })
  get(@Param('id') rawId: string, @Param('divisionId') rawDivisionId: string, @CurrentAbility() ability: AppAbility): Promise<DivisionRecord> {
    const facilityId = this.readable(rawId, ability);
    return this.divisions.get(facilityId, parseId(rawDivisionId));
  }

  @Put(':divisionId')
  @CheckAbility('manage', 'Facility')
  @AuditAction('Division.Update')
  @ApiParam({ name: 'divisionId', type: Number })
  @ApiSchemaBody('division')
  @ApiOkResponse({ description: 'The updated division (type and subtype cannot change: 400 INV naming the field)', schema: DIVISION })
  @ApiNotFoundResponse({ description: 'NTFND: no such division in this facility' })
  @ApiConflictResponse({ description: 'INV.NOT.UNIQ: the facility has another division of this name (field name)' })
  update(@Param('id') rawId: string, @Param('divisionId') rawDivisionId: string, @Body(schema('division')) body: DivisionInput): Promise<DivisionRecord> {
    return this.divisions.update(parseId(rawId), parseId(rawDivisionId), body);
  }

  /** The facility id of the route, if the user may read that facility (a facility admin: her own). */
  private readable(rawId: string, ability: AppAbility): number {
    const facilityId = parseId(rawId);
    assertCan(ability, 'read', 'Facility', { id: facilityId });
    return facilityId;
  }
}
