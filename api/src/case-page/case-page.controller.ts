import { Controller } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { InjectConnection } from '@nestjs/sequelize';
import { Sequelize } from 'sequelize-typescript';
import { CasesService } from '../cases/cases.service';
import { ScopedCase, type CaseRef } from '../auth/scoped-case';
import { select } from '../reference/reference-sql';
import { Route } from '../common/route';

interface ReferringDivision {
  divisionId: number;
  divisionName: string;
  facilityId: number;
  facilityName: string;
}

const DIVISION = {
  type: 'object',
  properties: { divisionId: { type: 'integer' }, divisionName: { type: 'string' }, facilityId: { type: 'integer' }, facilityName: { type: 'string' } },
};

/**
 * What the close / change-outcome dialogs of the case page offer (spec 01 §4, §5 "Status change
 * and close"): the divisions that accepted the patient (the picker is preselected when exactly one
 * exists) and every active Referring division of an active facility to choose from.
 */
@ApiTags('cases')
@Controller('api/cases')
export class CasePageController {
  constructor(
    private readonly cases: CasesService,
    @InjectConnection() private readonly sequelize: Sequelize,
  ) {}

  @Route('GET', ':id/close-options', 'update', 'CaseStatus')
  @ApiOkResponse({
    description: '{ accepted, referring }: accepted divisions of the case, and every active Referring division, by facility and division name',
    schema: { type: 'object', properties: { accepted: { type: 'array', items: DIVISION }, referring: { type: 'array', items: DIVISION } } },
  })
  async closeOptions(@ScopedCase() { id: caseId }: CaseRef) {
    const [accepted, referring] = await Promise.all([
      this.cases.acceptedFacilities(caseId),
      select<ReferringDivision>(
        this.sequelize,
        `SELECT d.id AS "divisionId", d.name AS "divisionName", f.id AS "facilityId", f.name AS "facilityName"
           FROM divisions d JOIN facilities f ON f.id = d.facility_id
          WHERE d.type = 'Referring' AND d.is_active AND f.is_active ORDER BY f.name, d.name`,
        [],
      ),
    ]);
    return { accepted, referring };
  }
}
