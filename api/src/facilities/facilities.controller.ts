import { Body, Controller, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { FastifyReply } from 'fastify';
import { ErrorCode, facilityLookupSchema, facilityRecordSchema, type AppAbility, type FacilityRecord } from '@crisis/forms';
import { assertCan } from '../auth/abilities.guard';
import { CurrentAbility } from '../auth/current-user.decorator';
import { contentRange } from '../common/list-query';
import { ApiSchemaBody } from '../common/openapi';
import { schema } from '../common/validation.pipe';
import { FacilitiesService, type FacilityInput } from './facilities.service';
import { FACILITY_SORTABLE, type FacilityListFilter } from './facility-list.query';
import { parseCheckedList, parseLookupFilter } from './list-params';
import { Route } from '../common/route';
import { IdParam } from '../common/id-param';
import { ApiListQuery } from '../common/list-route';

export { ApiListQuery };

// forms/ schemas use JSON Schema's type arrays (['string','null']), which OpenAPI 3.0's typing lacks.
const FACILITY = facilityRecordSchema as unknown as SchemaObject;
const FACILITY_LOOKUP = facilityLookupSchema as unknown as SchemaObject;
const JSON_TYPE = 'application/json; charset=utf-8';

@ApiTags('facilities')
@Controller('api/facilities')
export class FacilitiesController {
  constructor(private readonly facilities: FacilitiesService) {}

  @Route('GET', '', 'manage', 'Facility')
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

  @Route('GET', 'lookups', 'manage', 'Facility')
  @ApiQuery({ name: 'filter', required: false, description: 'JSON object: showActiveOnly, states[], divisionType, q, id[] (or the same keys as plain query parameters)' })
  @ApiBadRequestResponse({ description: 'INV: a bad filter; `fields` names each problem' })
  @ApiOkResponse({ description: 'Every matching facility, sorted by name', schema: { type: 'array', items: FACILITY_LOOKUP } })
  async lookups(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const filter = parseLookupFilter<FacilityListFilter>(query, 'facilityListFilter', ['states', 'cities', 'id']);
    reply.type(JSON_TYPE);
    return this.facilities.lookups(filter);
  }

  @Route('POST', '', 'manage', 'Facility', 'Facility.Create')
  @ApiSchemaBody('facility')
  @ApiCreatedResponse({ description: 'The created facility', schema: FACILITY })
  @ApiConflictResponse({ description: 'INV.NOT.UNIQ: a facility with this name and zip exists (fields name, address.zipCode)' })
  create(@Body(schema('facility')) body: FacilityInput): Promise<FacilityRecord> {
    return this.facilities.create(body);
  }

  @Route('GET', ':id', 'read', 'Facility')
  @ApiOkResponse({ description: 'The facility (a facility admin: her own only)', schema: FACILITY })
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  get(@IdParam() id: number, @CurrentAbility() ability: AppAbility): Promise<FacilityRecord> {
    assertCan(ability, 'read', 'Facility', { id });
    return this.facilities.get(id);
  }

  @Route('PUT', ':id', 'manage', 'Facility', 'Facility.Update')
  @ApiSchemaBody('facility')
  @ApiOkResponse({ description: 'The updated facility', schema: FACILITY })
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  @ApiConflictResponse({
    description:
      'INV.NOT.UNIQ (name + zip taken); INV.DEACTIVATE.FACILITY.WITH.ACTIVE.DIVISIONS (payload: division names); INV.DEACTIVATE.FACILITY.WITH.GROUPS (payload: group names)',
  })
  update(@IdParam() id: number, @Body(schema('facility')) body: FacilityInput): Promise<FacilityRecord> {
    return this.facilities.update(id, body);
  }

  @Route('PUT', ':id/settings/mfa', 'update', 'Facility', 'Facility.UpdateMfa')
  @ApiSchemaBody('facilityMfa')
  @ApiOkResponse({ description: 'The facility after the change (a facility admin: her own only)', schema: FACILITY })
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  setMfa(
    @IdParam() id: number,
    @Body(schema('facilityMfa')) body: { isMfaEnabled: boolean },
    @CurrentAbility() ability: AppAbility,
  ): Promise<FacilityRecord> {
    assertCan(ability, 'update', 'Facility', { id }, 'isMfaEnabled');
    return this.facilities.setMfa(id, body.isMfaEnabled);
  }
}
