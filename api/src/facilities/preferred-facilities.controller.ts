import { Body, Controller, Query, Res } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { PREFERRED_FACILITIES_PAGE_SIZE, type FacilityLookup, type PreferredFacilityRecord } from '@crisis/forms';
import { ApiSchemaBody } from '../common/openapi';
import { schema } from '../common/validation.pipe';
import { ApiListQuery } from './facilities.controller';
import { parseCheckedList } from './list-params';
import { PREFERRED_FACILITY_SORTABLE, PreferredFacilitiesService, type PreferredFacilityListFilter } from './preferred-facilities.service';
import { FacilityRoute, Route } from '../common/route';
import { IdParam } from '../common/id-param';
import { sendPage } from '../common/list-route';

const RECORD = {
  type: 'object',
  properties: {
    id: { type: 'integer', description: 'the preferred facility id' },
    name: { type: 'string' },
    address: { type: 'object', properties: { city: { type: 'string' }, state: { type: 'string' } } },
    divisions: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, type: { type: 'string' } } } },
  },
};

/** Preferred facilities of a facility (spec 03 §2, §7): ITP admin only. */
@ApiTags('facilities')
@Controller('api/facilities/:id/preferred-facilities')
@ApiParam({ name: 'id', type: Number, description: 'facility id' })
export class PreferredFacilitiesController {
  constructor(private readonly preferred: PreferredFacilitiesService) {}

  @FacilityRoute('GET', '')
  @ApiListQuery(PREFERRED_FACILITY_SORTABLE, 'q (name contains), id[]')
  @ApiOkResponse({ description: `A page (default ${PREFERRED_FACILITIES_PAGE_SIZE}) of preferred facilities sorted by name; total in Content-Range`, schema: { type: 'array', items: RECORD } })
  async list(
    @IdParam() facilityId: number,
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PreferredFacilityRecord[]> {
    const withRange = query.range === undefined ? { ...query, range: JSON.stringify([0, PREFERRED_FACILITIES_PAGE_SIZE - 1]) } : query;
    const q = parseCheckedList<PreferredFacilityListFilter>(withRange, {
      sortable: PREFERRED_FACILITY_SORTABLE,
      defaultSort: ['name', 'ASC'],
      schema: 'preferredFacilityListFilter',
    });
    return sendPage(reply, 'preferred-facilities', q, await this.preferred.list(facilityId, q));
  }

  @FacilityRoute('GET', 'available')
  @ApiOkResponse({ description: 'Facilities the add modal offers: active, with an active Referring division, not this one, not already preferred' })
  available(@IdParam() id: number): Promise<FacilityLookup[]> {
    return this.preferred.available(id);
  }

  @FacilityRoute('POST', '', 'PreferredFacility.Create')
  @ApiSchemaBody('preferredFacility')
  @ApiCreatedResponse({ description: 'The preferred facility', schema: RECORD })
  @ApiConflictResponse({ description: 'INV.NOT.UNIQ: already preferred (field facilityId)' })
  add(@IdParam() id: number, @Body(schema('preferredFacility')) body: { facilityId: number }): Promise<PreferredFacilityRecord> {
    return this.preferred.add(id, body.facilityId);
  }

  @Route('DELETE', ':preferredId', 'manage', 'Facility', 'PreferredFacility.Delete')
  @ApiParam({ name: 'preferredId', type: Number, description: 'the preferred facility id' })
  @ApiOkResponse({ description: '{ id } of the removed preferred facility' })
  @ApiNotFoundResponse({ description: 'NTFND: not a preferred facility of this facility' })
  remove(@IdParam() id: number, @IdParam('preferredId') preferredId: number): Promise<{ id: number }> {
    return this.preferred.remove(id, preferredId);
  }
}
