import { applyDecorators, Body, Controller, Get, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { FastifyReply } from 'fastify';
import { facilityLookupSchema, facilityRecordSchema, type AppAbility, type FacilityRecord } from '@crisis/forms';
import { assertCan, CheckAbility } from '../auth/abilities.guard';
import { CurrentAbility } from '../auth/current-user.decorator';
import { AuditAction } from '../audit/audit.interceptor';
import { contentRange } from '../common/list-query';
import { ApiSchemaBody } from '../common/openapi';
import { schema } from '../common/validation.pipe';
import { FacilitiesService, type FacilityInput } from './facilities.service';
import { FACILITY_SORTABLE, type FacilityListFilter } from './facility-list.query';
import { parseCheckedList, parseId, parseLookupFilter } from './list-params';

/** Documents the ra-data-simple-rest list parameters. */
export const ApiListQuery = (sortable: readonly string[], filterKeys: string) =>
  applyDecorators(
    ApiQuery({ name: 'sort', required: false, description: `JSON ["field","ASC"|"DESC"]; field one of ${sortable.join(', ')}` }),
    ApiQuery({ name: 'range', required: false, description: 'JSON [first, last] row numbers, e.g. [0,24]' }),
    ApiQuery({ name: 'filter', required: false, description: `JSON object with ${filterKeys}` }),
    ApiBadRequestResponse({ description: 'INV: bad sort, range or filter; `fields` names each problem' }),
  );

// forms/ schemas use JSON Schema's type arrays (['string','null']), which OpenAPI 3.0's typing lacks.
const FACILITY = facilityRecordSchema as unknown as SchemaObject;
const FACILITY_LOOKUP = facilityLookupSchema as unknown as SchemaObject;
const JSON_TYPE = 'application/json; charset=utf-8';

@ApiTags('facilities')
@Controller('api/facilities')
export class FacilitiesController {
  constructor(private readonly facilities: FacilitiesService) {}

  @Get()
  @CheckAbility('manage', 'Facility')
  @ApiListQuery(FACILITY_SORTABLE, 'q (name contains), showActiveOnly, states[], cities[], divisionType (Source | Referring | NoDivisionSpecified), includeNoDivisionSpecified, id[]')
  @ApiOkResponse({
    description: 'A page of facilities, default sort name ascending; the filtered total is in Content-Range ("facilities 0-24/319")',
    schema: { type: 'array', items: FACILITY },
  })
  async list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const q = parseCheckedList<FacilityListFilter>(query, { sortable: FACILITY_SORTABLE, defaultSort: ['name', 'ASC'], schema: 'facilityListFilter' });
    const { json, total, count } = await this.facilities.list(q);
    // The page is JSON text built by PostgreSQL: sent as is, never parsed and re-serialised here.
    reply.header('Content-Range', contentRange('facilities', q.offset, count, total)).type(JSON_TYPE);
    return json;
  }

  @Get('lookups')
  @CheckAbility('manage', 'Facility')
  @ApiQuery({ name: 'filter', required: false, description: 'JSON object: showActiveOnly, states[], divisionType, q, id[] (or the same keys as plain query parameters)' })
  @ApiBadRequestResponse({ description: 'INV: a bad filter; `fields` names each problem' })
  @ApiOkResponse({ description: 'Every matching facility, sorted by name', schema: { type: 'array', items: FACILITY_LOOKUP } })
  async lookups(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const filter = parseLookupFilter<FacilityListFilter>(query, 'facilityListFilter', ['states', 'cities', 'id']);
    reply.type(JSON_TYPE);
    return this.facilities.lookups(filter);
  }

  @Post()
  @CheckAbility('manage', 'Facility')
  @AuditAction('Facility.Create')
  @ApiSchemaBody('facility')
  @ApiCreatedResponse({ description: 'The created facility', schema: FACILITY })
  @ApiConflictResponse({ description: 'INV.NOT.UNIQ: a facility with this name and zip exists (fields name, address.zipCode)' })
  create(@Body(schema('facility')) body: FacilityInput): Promise<FacilityRecord> {
    return this.facilities.create(body);
  }

  @Get(':id')
  @CheckAbility('read', 'Facility')
  @ApiParam({ name: 'id', type: Number })
  @ApiOkResponse({ description: 'The facility (a facility admin: her own only)', schema: FACILITY })
  @ApiNotFoundResponse({ description: 'NTFND' })
  get(@Param('id') rawId: string, @CurrentAbility() ability: AppAbility): Promise<FacilityRecord> {
    const id = parseId(rawId);
    assertCan(ability, 'read', 'Facility', { id });
    return this.facilities.get(id);
  }

  @Put(':id')
  @CheckAbility('manage', 'Facility')
  @AuditAction('Facility.Update')
  @ApiParam({ name: 'id', type: Number })
  @ApiSchemaBody('facility')
  @ApiOkResponse({ description: 'The updated facility', schema: FACILITY })
  @ApiNotFoundResponse({ description: 'NTFND' })
  @ApiConflictResponse({
    description:
      'INV.NOT.UNIQ (name + zip taken); INV.DEACTIVATE.FACILITY.WITH.ACTIVE.DIVISIONS (payload: division names); INV.DEACTIVATE.FACILITY.WITH.GROUPS (payload: group names)',
  })
  update(@Param('id') rawId: string, @Body(schema('facility')) body: FacilityInput): Promise<FacilityRecord> {
    return this.facilities.update(parseId(rawId), body);
  }

  @Put(':id/settings/mfa')
  @CheckAbility('update', 'Facility')
  @AuditAction('Facility.UpdateMfa')
  @ApiParam({ name: 'id', type: Number })
  @ApiSchemaBody('facilityMfa')
  @ApiOkResponse({ description: 'The facility after the change (a facility admin: her own only)', schema: FACILITY })
  @ApiNotFoundResponse({ description: 'NTFND' })
  setMfa(
    @Param('id') rawId: string,
    @Body(schema('facilityMfa')) body: { isMfaEnabled: boolean },
    @CurrentAbility() ability: AppAbility,
  ): Promise<FacilityRecord> {
    const id = parseId(rawId);
    assertCan(ability, 'update', 'Facility', { id }, 'isMfaEnabled');
    return this.facilities.setMfa(id, body.isMfaEnabled);
  }
}
