import { Body, Controller, Param } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import { STATE_RESTRICTION_TYPES, type StateRestrictionRecord } from '@crisis/forms';
import { notFound } from '../common/coded-error';
import { ApiSchemaBody } from '../common/openapi';
import { schema } from '../common/validation.pipe';
import { StateRestrictionsService, type StateRestrictionInput } from './state-restrictions.service';
import { FacilityRoute, Route } from '../common/route';
import { IdParam } from '../common/id-param';

const RESTRICTION = {
  type: 'object',
  properties: {
    id: { type: 'string', description: 'the state code' },
    restrictionId: { type: 'integer', nullable: true },
    state: { type: 'string' },
    stateName: { type: 'string' },
    type: { type: 'string', enum: [...STATE_RESTRICTION_TYPES] },
    withinTravelTime: { type: 'integer', nullable: true, description: 'seconds' },
    closestTravelTime: { type: 'integer', nullable: true, description: 'seconds; null when unknown' },
  },
};
const POPULATE = { type: 'object', properties: { populateOutOfStateFacilities: { type: 'boolean' } } };

/** The restrictions tab of a facility (spec 03 §2, §7): ITP admin only. */
@ApiTags('facilities')
@Controller('api/facilities/:id')
@ApiParam({ name: 'id', type: Number, description: 'facility id' })
export class StateRestrictionsController {
  constructor(private readonly restrictions: StateRestrictionsService) {}

  @FacilityRoute('GET', 'state-restrictions')
  @ApiOkResponse({ description: 'One row per state (no row saved: NoRestrictions)', schema: { type: 'array', items: RESTRICTION } })
  list(@IdParam() id: number): Promise<StateRestrictionRecord[]> {
    return this.restrictions.list(id);
  }

  @Route('PUT', 'state-restrictions/:stateId', 'manage', 'Facility', 'Facility.UpdateStateRestriction')
  @ApiParam({ name: 'stateId', type: String, description: 'state code, e.g. GA' })
  @ApiSchemaBody('stateRestriction')
  @ApiOkResponse({ description: 'The state\'s row after the change', schema: RESTRICTION })
  @ApiNotFoundResponse({ description: 'NTFND: no such facility or state' })
  save(@IdParam() id: number, @Param('stateId') stateId: string, @Body(schema('stateRestriction')) body: StateRestrictionInput): Promise<StateRestrictionRecord> {
    if (!/^[A-Za-z]{2}$/.test(stateId)) throw notFound();
    return this.restrictions.save(id, stateId.toUpperCase(), body);
  }

  @FacilityRoute('GET', 'populate-out-of-state-facilities')
  @ApiOkResponse({ description: 'The facility\'s populate-out-of-state flag', schema: POPULATE })
  getPopulate(@IdParam() id: number): Promise<{ populateOutOfStateFacilities: boolean }> {
    return this.restrictions.getPopulate(id);
  }

  @FacilityRoute('PUT', 'populate-out-of-state-facilities', 'Facility.UpdatePopulateOutOfStateFacilities')
  @ApiSchemaBody('populateOutOfStateFacilities')
  @ApiOkResponse({ description: 'The flag after the change', schema: POPULATE })
  setPopulate(@IdParam() id: number, @Body(schema('populateOutOfStateFacilities')) body: { populateOutOfStateFacilities: boolean }) {
    return this.restrictions.setPopulate(id, body.populateOutOfStateFacilities);
  }
}
