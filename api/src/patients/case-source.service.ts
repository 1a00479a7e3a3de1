import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { Sequelize } from 'sequelize-typescript';
import { ACTIVE_REQUEST_STATUSES, CaseStatus, DivisionType, ErrorCode, type CaseSourceDetailsInput, type UserContext } from '@crisis/forms';
import { CaseCommandsHandler } from '../cases/case-commands.handler';
import { sourceDetails } from '../cases/cases.service';
import { CodedError, invalid } from '../common/coded-error';
import { auditValues } from '../common/request-context';
import { select } from '../reference/reference-sql';
import { caseClosed } from './patients.service';

/**
 * PUT /api/cases/{id}: the source-facility details of a case (spec 01 §5 "Source facility details
 * on a case", §8). The facility is fixed; a new division needs no active request, and a division
 * where the case's provider is not credentialed asks for confirmation (forceUpdate).
 */
@Injectable()
export class CaseSourceService {
  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    private readonly writer: CaseCommandsHandler,
  ) {}

  /** Active Source divisions of the case's facility, plus its current division. */
  divisionChoices(caseId: number) {
    return select<{ id: number; name: string; isActive: boolean }>(
      this.sequelize,
      `SELECT d.id, d.name, d.is_active AS "isActive" FROM cases c JOIN divisions d ON d.facility_id = c.source_facility_id
        WHERE c.id = $1 AND d.type = 'Source' AND (d.is_active OR d.id = c.source_division_id)
        ORDER BY lower(d.name), d.id`,
      [caseId],
    );
  }

  async update(user: UserContext, caseId: number, input: CaseSourceDetailsInput): Promise<{ divisionChanged: boolean; previousDivisionId: number }> {
    const [c] = await select<{ status: string; facilityId: number; divisionId: number }>(
      this.sequelize,
      'SELECT status, source_facility_id AS "facilityId", source_division_id AS "divisionId" FROM cases WHERE id = $1 FOR UPDATE',
      [caseId],
    );
    if (c.status === CaseStatus.Closed) throw caseClosed();
    if (input.sourceFacilityId !== c.facilityId)
      throw invalid([{ field: 'sourceFacilityId', key: 'facilityFixed', message: 'The source facility of a case cannot be changed' }]);
    const divisionChanged = input.sourceDivisionId !== c.divisionId;
    if (divisionChanged) {
      const [d] = await select<{ facilityId: number; type: string; isActive: boolean }>(
        this.sequelize,
        'SELECT facility_id AS "facilityId", type, is_active AS "isActive" FROM divisions WHERE id = $1',
        [input.sourceDivisionId],
      );
      if (!d || d.facilityId !== c.facilityId || d.type !== DivisionType.Source || !d.isActive)
        throw invalid([{ field: 'sourceDivisionId', key: 'invalid', message: 'Must be an active source division of the facility' }]);
      const [active] = await select(
        this.sequelize,
        'SELECT 1 FROM requests WHERE case_id = $1 AND status = ANY($2::text[]) LIMIT 1',
        [caseId, ACTIVE_REQUEST_STATUSES],
      );
      if (active) throw new CodedError(ErrorCode.UpdateSourceWithActiveRequests);
      if (!input.forceUpdate) {
        // The case's provider (of its latest request) must also be credentialed at the new division.
        const [missing] = await select<{ name: string }>(
          this.sequelize,
          `SELECT u.first_name || ' ' || u.last_name AS name
             FROM requests r JOIN users u ON u.id = r.evaluation_provider_id
            WHERE r.case_id = $1
              AND NOT EXISTS (SELECT 1 FROM credentialed_providers cp JOIN credentialed_provider_divisions cpd ON cpd.credentialed_provider_id = cp.id
                               WHERE cp.provider_id = r.evaluation_provider_id AND cpd.division_id = $2)
            ORDER BY r.created_at DESC, r.id DESC LIMIT 1`,
          [caseId, input.sourceDivisionId],
        );
        if (missing)
          throw new CodedError(ErrorCode.UpdateCaseWithCredentialedProviders, { providerName: missing.name }, undefined,
            `${missing.name} is not credentialed at the new division`);
      }
    }
    await this.writer.updateDetails(caseId, { sourceDivisionId: input.sourceDivisionId, ...sourceDetails(input) });
    auditValues({ caseId, divisionId: input.sourceDivisionId, previousDivisionId: c.divisionId });
    return { divisionChanged, previousDivisionId: c.divisionId };
  }
}
