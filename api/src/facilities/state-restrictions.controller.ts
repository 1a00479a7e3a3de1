import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import { STATE_RESTRICTION_TYPES, type StateRestrictionRecord } from '@crisis/forms';
import { CheckAbility } from '../auth/abilities.guard';
import { AuditAction } from '../audit/audit.interceptor';
import { notFound } from '../common/coded-error';
import { ApiSchemaBody } from '../common/openapi';
import { schema } from '../common/validation.pipe';
import { parseId } from './list-params';
import { StateRestrictionsService, type StateRestrictionInput } from './state-restrictions.service';

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

  @Get('state-restrictions')
  @CheckAbility('manage', 'Facility')
  @ApiOkResponse({ description: 'One row per state (no row saved: NoRestrictions)', schema: { type: 'array', items: RESTRICTION } })
  @ApiNotFoundResponse({ description: 'NTFND: no such facility' })
  list(@Param('id') rawId: string): Promise<StateRestrictionRecord[]> {
    return this.restrictions.list(parseId(rawId));
  }

  @Put('state-restrictions/:stateId')
  @CheckAbility('manage', 'Facility')
  @AuditAction('Facility.UpdateStateRestriction')
  @ApiParam({ name: 'stateId', type: String, description: 'state code, e.g. GA' })
  @ApiSchemaBody('stateRestriction')
  @ApiOkResponse({ description: 'The state\'s row after the change', schema: RESTRICTION })
  @ApiNotFoundResponse({ description: 'NTFND: no such facility or state' })
  save(@Param('id') rawId: string, @Param('stateId') stateId: string, @Body(schema('stateRestriction')) body: StateRestrictionInput): Promise<StateRestrictionRecord> {
    if (!/^[A-Za-z]{2}$/.test(stateId)) throw notFound();
    return this.restrictions.save(parseId(rawId), stateId.toUpperCase(), body);
  }

  @Get('populate-out-of-state-facilities')
  @CheckAbility('manage', 'Facility')
  @ApiOkResponse({ description: 'The facility\'s populate-out-of-state flag', schema: POPULATE })
  @ApiNotFoundResponse({ description: 'NTFND: no such facility' })
  getPopulate(@Param('id') rawId: string): Promise<{ populateOutOfStateFacilities: boolean }> {
    return this.restrictions.getPopulate(parseId(rawId));
  }

  @Put('populate-out-of-state-facilities')
  @CheckAbility('manage', 'Facility')
  @AuditAction('Facility.UpdatePopulateOutOfStateFacilities')
  @ApiSchemaBody('populateOutOfStateFacilities')
  @ApiOkResponse({ description: 'The flag after the change', schema: POPULATE })
  @ApiNotFoundResponse({ description: 'NTFND: no such facility' })
  setPopulate(@Param('id') rawId: string, @Body(schema('populateOutOfStateFacilities')) body: { populateOutOfStateFacilities: boolean }) {
    return this.restrictions.setPopulate(parseId(rawId), body.populateOutOfStateFacilities);
  }
}
