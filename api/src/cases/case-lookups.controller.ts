import { Controller, Get, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiForbiddenResponse, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { InjectConnection } from '@nestjs/sequelize';
import { Sequelize } from 'sequelize-typescript';
import { isItpStaff, type RequestType, type UserContext } from '@crisis/forms';
import { CheckAbility } from '../auth/abilities.guard';
import { CurrentUser } from '../auth/current-user.decorator';
import { forbidden, invalid } from '../common/coded-error';
import { parseId } from '../facilities/list-params';
import { select } from '../reference/reference-sql';
import { CasesService } from './cases.service';
import { queryValue } from '../common/list-query';


/**
 * Lookups of the case-creation screens (spec 01 §2 /cases/create): the source facilities and
 * divisions a creator may pick, the request types a division offers before the case exists, and
 * the active payers of the insurance rows. Facility staff only ever see their own facility.
 */
@ApiTags('cases')
@Controller('api/cases')
export class CaseLookupsController {
  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    private readonly cases: CasesService,
  ) {}

  @Get('source-facilities')
  @CheckAbility('create', 'Case')
  @ApiOkResponse({ description: 'Active facilities with at least one active Source division (facility staff: their own), sorted by name: id, name, city, state, isIntegratedWithEMR' })
  sourceFacilities(@CurrentUser() user: UserContext) {
    const own = !isItpStaff(user.role);
    return select(
      this.sequelize,
      `SELECT f.id, f.name, f.city, f.state, (f.ehr_department_id IS NOT NULL AND f.ehr_department_id <> '') AS "isIntegratedWithEMR"
         FROM facilities f
        WHERE f.is_active AND EXISTS (SELECT 1 FROM divisions d WHERE d.facility_id = f.id AND d.is_active AND d.type = 'Source')
          AND ($1::int IS NULL OR f.id = $1)
        ORDER BY lower(f.name), f.id`,
      [own ? (user.facilityId ?? 0) : null],
    );
  }

  @Get('source-divisions')
  @CheckAbility('create', 'Case')
  @ApiQuery({ name: 'facilityId', required: true })
  @ApiOkResponse({ description: "The facility's active Source divisions: id, name, isIntegratedWithEMR, allowPlacementOnlyCases" })
  @ApiForbiddenResponse({ description: "FRBD: facility staff asking for another facility's divisions" })
  sourceDivisions(@CurrentUser() user: UserContext, @Query('facilityId') rawFacilityId: unknown) {
    const facilityId = parseId(queryValue(rawFacilityId));
    if (!isItpStaff(user.role) && facilityId !== user.facilityId) throw forbidden();
    return select(
      this.sequelize,
      `SELECT d.id, d.name, (f.ehr_department_id IS NOT NULL AND f.ehr_department_id <> '') AS "isIntegratedWithEMR",
              f.allow_placement_only_cases AS "allowPlacementOnlyCases"
         FROM divisions d JOIN facilities f ON f.id = d.facility_id
        WHERE d.facility_id = $1 AND d.is_active AND f.is_active AND d.type = 'Source'
        ORDER BY lower(d.name), d.id`,
      [facilityId],
    );
  }

  @Get('request-types')
  @CheckAbility('create', 'Case')
  @ApiQuery({ name: 'divisionId', required: true, description: 'the source division of the new case' })
  @ApiQuery({ name: 'patientId', required: false, description: 'the chosen existing patient (completed requests unlock Reassessment / follow-up)' })
  @ApiOkResponse({ description: 'Request types offered for a new case in this division (spec 01 §5 "Request type options")', schema: { type: 'array', items: { type: 'string' } } })
  @ApiBadRequestResponse({ description: 'INV: unknown division' })
  async requestTypes(@CurrentUser() user: UserContext, @Query('divisionId') rawDivisionId: unknown, @Query('patientId') rawPatientId: unknown): Promise<RequestType[]> {
    const divisionId = parseId(queryValue(rawDivisionId));
    const patientRaw = queryValue(rawPatientId);
    const patientId = patientRaw === undefined || patientRaw === '' ? null : parseId(patientRaw);
    const [d] = await select<{ facility_id: number; allow: boolean; types: string[] | null }>(
      this.sequelize,
      `SELECT d.facility_id, f.allow_placement_only_cases AS allow, d.request_types AS types
         FROM divisions d JOIN facilities f ON f.id = d.facility_id WHERE d.id = $1 AND d.type = 'Source'`,
      [divisionId],
    );
    if (!d) throw invalid([{ field: 'divisionId', key: 'invalid', message: 'Unknown source division' }]);
    if (!isItpStaff(user.role) && d.facility_id !== user.facilityId) throw forbidden();
    return this.cases.requestTypesFor(user, { allowPlacementOnly: d.allow, divisionRequestTypes: d.types, patientId });
  }

  @Get('payers')
  @CheckAbility('create', 'Case')
  @ApiOkResponse({ description: 'Active payers for the insurance rows of a new case: id, name, sorted by name' })
  payers() {
    return select(this.sequelize, 'SELECT id, name FROM payers WHERE is_active ORDER BY lower(name), id', []);
  }
}
