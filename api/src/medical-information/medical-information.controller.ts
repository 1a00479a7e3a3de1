import { Body, Controller, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ErrorCode, type MedicalInformationInput, type UserContext } from '@crisis/forms';
import { CurrentUser } from '../auth/current-user.decorator';
import { invalid } from '../common/coded-error';
import { contentRange, queryValue } from '../common/list-query';
import { ApiSchemaBody } from '../common/openapi';
import { schema } from '../common/validation.pipe';
import { IdParam } from '../common/id-param';
import { Route } from '../common/route';
import { MEDICAL_INFORMATION_LOG_PAGE_SIZE, MedicalInformationService } from './medical-information.service';

/** Medical information of a case (spec 01 §3, §4, §5, §7 GET/PUT /{id}/medical-information, /logs). */
@ApiTags('medical-information')
@Controller('api/cases')
export class MedicalInformationController {
  constructor(private readonly service: MedicalInformationService) {}

  // Every case reader: ITP roles get every field (read MedicalInformation), facility roles the
  // facility case page's subset (read FacilityMedicalInformation); checked in the service.
  @Route('GET', ':id/medical-information', 'read', 'Case')
  @ApiOkResponse({
    description:
      'Every field of spec 01 §3 Medical information with diagnoses as { code, description } and the case recommendation; facility roles get only the facility subset',
  })
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  get(@CurrentUser() user: UserContext, @IdParam() id: number) {
    return this.service.get(user, id);
  }

  @Route('PUT', ':id/medical-information', 'update', 'MedicalInformation', 'MedicalInformation.Update')
  @ApiSchemaBody('medicalInformation')
  @ApiOkResponse({ description: 'The saved medical information (as GET)' })
  @ApiBadRequestResponse({ description: 'INV with `fields` (mainRecommendation required while contacting or waiting for confirmation; unknown diagnosis)' })
  @ApiConflictResponse({
    description:
      "INV.CASE.IS.CLOSED; INV.CLAIM.IS.OVERDUE.OR.INACTIVE (the caller holds no active claim on ('CaseMedicalInformation', id)); INV.OBJECT.ALREADY.HAS.BEEN.CLAIMED (payload names the holder); INV.MEDICAL.INFORMATION.CONFIRMATION.REQUIRED (payload reason recommendationChanged | legalStatusChanged: resend with confirmed true)",
  })
  update(
    @CurrentUser() user: UserContext,
    @IdParam() id: number,
    @Body(schema('medicalInformation')) body: MedicalInformationInput & { confirmed?: boolean | null },
  ) {
    return this.service.update(user, id, body);
  }

  @Route('GET', ':id/medical-information/logs', 'read', 'MedicalInformation')
  @ApiQuery({ name: 'page', required: false, description: '1-based page of 10 rows' })
  @ApiOkResponse({ description: 'Change-log rows (changedBy, changedAt, name, oldValue, newValue, metaInfo), newest first; total in Content-Range' })
  async logs(@CurrentUser() user: UserContext, @IdParam() caseId: number, @Query('page') pageRaw: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    const p = queryValue(pageRaw);
    const page = p === undefined || p === '' ? 1 : Number(p);
    if (!Number.isInteger(page) || page < 1 || page > 1_000_000) throw invalid([{ field: 'page', key: 'type', message: 'Must be a positive integer' }]);
    const { rows, total, offset } = await this.service.logs(user, caseId, page);
    reply.header('Content-Range', contentRange('medical-information-logs', offset, rows.length, total));
    return { items: rows, total, page, pageSize: MEDICAL_INFORMATION_LOG_PAGE_SIZE };
  }
}

/** Diagnosis look-up (spec 01 §7 "diagnoses search (3 or more characters)"). */
@ApiTags('medical-information')
@Controller('api/diagnoses')
export class DiagnosesController {
  constructor(private readonly service: MedicalInformationService) {}

  @Route('GET', '', 'read', 'MedicalInformation')
  @ApiQuery({ name: 'q', required: true, description: '3 or more characters; matched against code and description' })
  @ApiOkResponse({ description: 'Up to 25 diagnoses { code, description } whose code or description contains q' })
  @ApiBadRequestResponse({ description: 'INV: q shorter than 3 characters' })
  search(@Query('q') qRaw: unknown) {
    const q = typeof queryValue(qRaw) === 'string' ? String(queryValue(qRaw)).trim() : '';
    if (q.length < 3 || q.length > 100) throw invalid([{ field: 'q', key: 'minLength', message: 'Enter at least 3 characters' }]);
    return this.service.searchDiagnoses(q);
  }
}
