import { Body, Controller, Get, Param, Put, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ErrorCode, type MedicalInformationInput, type UserContext } from '@crisis/forms';
import { CheckAbility } from '../auth/abilities.guard';
import { CurrentUser } from '../auth/current-user.decorator';
import { AuditAction } from '../audit/audit.interceptor';
import { invalid } from '../common/coded-error';
import { contentRange, queryValue } from '../common/list-query';
import { ApiSchemaBody } from '../common/openapi';
import { schema } from '../common/validation.pipe';
import { parseId } from '../facilities/list-params';
import { MEDICAL_INFORMATION_LOG_PAGE_SIZE, MedicalInformationService } from './medical-information.service';


/** Medical information of a case (spec 01 §3, §4, §5, §7 GET/PUT /{id}/medical-information, /logs). */
@ApiTags('medical-information')
@Controller('api/cases')
export class MedicalInformationController {
  constructor(private readonly service: MedicalInformationService) {}

  @Get(':id/medical-information')
  // Every case reader: ITP roles get every field (read MedicalInformation), facility roles the
  // facility case page's subset (read FacilityMedicalInformation); checked in the service.
  @CheckAbility('read', 'Case')
  @ApiParam({ name: 'id', type: Number })
  @ApiOkResponse({
    description:
      'Every field of spec 01 §3 Medical information with diagnoses as { code, description } and the case recommendation; facility roles get only the facility subset',
  })
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  get(@CurrentUser() user: UserContext, @Param('id') id: string) {
    return this.service.get(user, parseId(id));
  }

  @Put(':id/medical-information')
  @CheckAbility('update', 'MedicalInformation')
  @AuditAction('MedicalInformation.Update')
  @ApiParam({ name: 'id', type: Number })
  @ApiSchemaBody('medicalInformation')
  @ApiOkResponse({ description: 'The saved medical information (as GET)' })
  @ApiBadRequestResponse({ description: 'INV with `fields` (mainRecommendation required while contacting or waiting for confirmation; unknown diagnosis)' })
  @ApiConflictResponse({
    description:
      "INV.CASE.IS.CLOSED; INV.CLAIM.IS.OVERDUE.OR.INACTIVE (the caller holds no active claim on ('CaseMedicalInformation', id)); INV.OBJECT.ALREADY.HAS.BEEN.CLAIMED (payload names the holder); INV.MEDICAL.INFORMATION.CONFIRMATION.REQUIRED (payload reason recommendationChanged | legalStatusChanged: resend with confirmed true)",
  })
  update(
    @CurrentUser() user: UserContext,
    @Param('id') id: string,
    @Body(schema('medicalInformation')) body: MedicalInformationInput & { confirmed?: boolean | null },
  ) {
    return this.service.update(user, parseId(id), body);
  }

  @Get(':id/medical-information/logs')
  @CheckAbility('read', 'MedicalInformation')
  @ApiParam({ name: 'id', type: Number })
  @ApiQuery({ name: 'page', required: false, description: '1-based page of 10 rows' })
  @ApiOkResponse({ description: 'Change-log rows (changedBy, changedAt, name, oldValue, newValue, metaInfo), newest first; total in Content-Range' })
  async logs(@CurrentUser() user: UserContext, @Param('id') id: string, @Query('page') pageRaw: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    const caseId = parseId(id);
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

  @Get()
  @CheckAbility('read', 'MedicalInformation')
  @ApiQuery({ name: 'q', required: true, description: '3 or more characters; matched against code and description' })
  @ApiOkResponse({ description: 'Up to 25 diagnoses { code, description } whose code or description contains q' })
  @ApiBadRequestResponse({ description: 'INV: q shorter than 3 characters' })
  search(@Query('q') qRaw: unknown) {
    const q = typeof queryValue(qRaw) === 'string' ? String(queryValue(qRaw)).trim() : '';
    if (q.length < 3 || q.length > 100) throw invalid([{ field: 'q', key: 'minLength', message: 'Enter at least 3 characters' }]);
    return this.service.searchDiagnoses(q);
  }
}
