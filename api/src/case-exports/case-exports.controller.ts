import { Controller, Query, Req, StreamableFile } from '@nestjs/common';
import { ApiBadRequestResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { Readable } from 'stream';
import { CodedError, AT_LEAST_ONE_CHECKBOX_MESSAGE, ErrorCode, caseReference, normalizeInput, validate, type AppAbility, type UserContext } from '@crisis/forms';
import { CurrentAbility, CurrentUser } from '../auth/current-user.decorator';
import { AuditService } from '../audit/audit.service';
import { invalid } from '../common/coded-error';
import { CSV_TYPE, ExportRoute, PDF_TYPE, parseTimeZone } from '../common/export-route';
import { auditedExport } from '../audit/audited-read';
import { CasesService } from '../cases/cases.service';
import { CaseExportsService, type PdfExportOptions } from './case-exports.service';
import { queryValue } from '../common/list-query';
import { ScopedCase, type CaseRef } from '../auth/scoped-case';
import { IdParam } from '../common/id-param';

/** 'true'/'1' → true, 'false'/'0'/'' → false; anything else is left for the schema to refuse. */
function queryBoolean(raw: unknown): unknown {
  const v = queryValue(raw);
  if (v === undefined || v === '' || v === 'false' || v === '0') return v === undefined ? undefined : false;
  if (v === 'true' || v === '1') return true;
  return v;
}

/** fileIds=1&fileIds=2 or fileIds=1,2 → [1, 2]; non-numbers stay strings for the schema to refuse. */
function queryIds(raw: unknown): unknown {
  if (raw === undefined) return undefined;
  const parts = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => String(v).split(',')).map((s) => s.trim()).filter((s) => s !== '');
  return parts.map((s) => (/^\d{1,10}$/.test(s) ? Number(s) : s));
}

/** Parses the export options of GET /{id}/pdf with the casePdfExport schema (forms/). */
export function parsePdfExportQuery(query: Record<string, unknown>): PdfExportOptions {
  const data = normalizeInput({
    includeEvaluations: queryBoolean(query.includeEvaluations),
    includeCaseNotes: queryBoolean(query.includeCaseNotes),
    includePatientFiles: queryBoolean(query.includePatientFiles),
    fileIds: queryIds(query.fileIds),
  }) as Record<string, any>;
  const errors = validate('casePdfExport', data);
  if (errors.length) {
    const onlyCheckbox = errors.every((e) => e.key === 'atLeastOneCheckbox');
    throw new CodedError(ErrorCode.Invalid, undefined, errors, onlyCheckbox ? AT_LEAST_ONE_CHECKBOX_MESSAGE : undefined);
  }
  return {
    includeEvaluations: data.includeEvaluations === true,
    includeCaseNotes: data.includeCaseNotes === true,
    includePatientFiles: data.includePatientFiles === true,
    fileIds: Array.isArray(data.fileIds) && data.fileIds.length ? data.fileIds : null,
  };
}

/**
 * Exports of a case (spec 01 §2 export to PDF, §3 activity report, §6 summary PDF, §7): the case
 * PDF, the summary PDF, the notes PDF and the activity report as PDF and CSV. Every route is scoped
 * to the cases the user may open and audited as a read of patient data (Case.Export.<kind>).
 */
@ApiTags('cases')
@Controller('api/cases')
export class CaseExportsController {
  constructor(
    private readonly exports: CaseExportsService,
    private readonly cases: CasesService,
    private readonly audit: AuditService,
  ) {}

  /** An export of the case, audited as Case.Export.<kind> with the case, its patient and facility. */
  private audited(
    kind: string,
    req: FastifyRequest,
    user: UserContext,
    caseId: number,
    extra: Record<string, unknown>,
    produce: () => Promise<{ stream: Readable; patientId: number; facilityId: number }>,
    suffix: string,
  ): Promise<StreamableFile> {
    const read = { action: `Case.Export.${kind}`, req, user, values: { caseId, ...extra } };
    const file = { name: `case-${caseReference(caseId).slice(1)}${suffix}`, type: suffix.endsWith('.csv') ? CSV_TYPE : PDF_TYPE };
    return auditedExport(this.audit, read, async () => {
      const { stream, patientId, facilityId } = await produce();
      return { stream, facilityId, values: { patientId, facilityId } };
    }, file);
  }

  @ExportRoute(':id/pdf', 'read', 'CaseReport', PDF_TYPE, 'PDF attachment case-<000123>.pdf: case header, the ticked sections, the patient files appended')
  @ApiQuery({ name: 'includeEvaluations', required: false, type: Boolean })
  @ApiQuery({ name: 'includeCaseNotes', required: false, type: Boolean })
  @ApiQuery({ name: 'includePatientFiles', required: false, type: Boolean })
  @ApiQuery({ name: 'fileIds', required: false, description: 'Patient file ids to append (repeated or comma separated); all visible files when absent' })
  @ApiBadRequestResponse({ description: "INV 'Please check at least one checkbox' when nothing is ticked; INV fileIds for files not of this case" })
  @ApiForbiddenResponse({ description: 'FRBD: case out of scope, or patient files without read PatientFile' })
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  async casePdf(@CurrentUser() user: UserContext, @CurrentAbility() ability: AppAbility, @ScopedCase() { id: caseId }: CaseRef, @Query() query: Record<string, unknown>, @Req() req: FastifyRequest) {
    const options = parsePdfExportQuery(query);
    const timeZone = parseTimeZone(query.tz);
    if (options.includePatientFiles && !ability.can('read', 'PatientFile')) throw new CodedError(ErrorCode.Forbidden);
    if (options.includeCaseNotes && !ability.can('read', 'CaseNote')) throw new CodedError(ErrorCode.Forbidden);
    const extra = { ...options };
    return this.audited('Pdf', req, user, caseId, extra, async () => {
      const r = await this.exports.casePdf(user, caseId, options, {
        hiddenNotes: ability.can('read', 'HiddenCaseNote'),
        hiddenFiles: ability.can('read', 'HiddenPatientFile'),
        files: true,
      }, timeZone);
      if ('unknownFiles' in r) throw invalid([{ field: 'fileIds', key: 'unknown', message: 'Unknown patient file' }]);
      return r;
    }, '.pdf');
  }

  @ExportRoute(':id/requests/:requestId/evaluation/pdf', 'read', 'Case', PDF_TYPE, "PDF attachment case-<000123>-evaluation-<requestId>.pdf: the request's evaluation as the provider saw it, with the provider's signature line")
  @ApiNotFoundResponse({ description: `${ErrorCode.NotFound}: no such request on this case, or it has no evaluation` })
  async evaluationPdf(@CurrentUser() user: UserContext, @ScopedCase() { id: caseId }: CaseRef, @IdParam('requestId') requestId: number, @Query('tz') tz: unknown, @Req() req: FastifyRequest) {
    const timeZone = parseTimeZone(tz);
    return this.audited('EvaluationPdf', req, user, caseId, { requestId }, () => this.exports.evaluationPdf(user, caseId, requestId, timeZone), `-evaluation-${requestId}.pdf`);
  }

  @ExportRoute(':id/summary/pdf', 'access', 'SummaryPdf', PDF_TYPE, 'PDF attachment case-<000123>-summary.pdf: one page with patient, dates, source, status history, recommendation, outcome')
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  async summaryPdf(@CurrentUser() user: UserContext, @ScopedCase() { id: caseId }: CaseRef, @Query('tz') tz: unknown, @Req() req: FastifyRequest) {
    const timeZone = parseTimeZone(tz);
    return this.audited('SummaryPdf', req, user, caseId, {}, () => this.exports.summaryPdf(user, caseId, timeZone), '-summary.pdf');
  }

  @ExportRoute(':id/notes/pdf', 'read', 'CaseNote', PDF_TYPE, 'PDF attachment case-<000123>-notes.pdf: the case notes the user may read, with author and time')
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  async notesPdf(@CurrentUser() user: UserContext, @CurrentAbility() ability: AppAbility, @ScopedCase() { id: caseId }: CaseRef, @Query('tz') tz: unknown, @Req() req: FastifyRequest) {
    const timeZone = parseTimeZone(tz);
    return this.audited('NotesPdf', req, user, caseId, {}, () => this.exports.notesPdf(user, caseId, ability.can('read', 'HiddenCaseNote'), timeZone), '-notes.pdf');
  }

  @ExportRoute(':id/activity/report/pdf', 'read', 'CaseReport', PDF_TYPE, 'PDF attachment case-<000123>-activity.pdf: total time, per status group its total and activities')
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  async activityPdf(@CurrentUser() user: UserContext, @ScopedCase() { id: caseId }: CaseRef, @Query('tz') tz: unknown, @Req() req: FastifyRequest) {
    const timeZone = parseTimeZone(tz);
    return this.audited('ActivityReportPdf', req, user, caseId, {}, () => this.exports.activityReportPdf(user, caseId, timeZone), '-activity.pdf');
  }

  @ExportRoute(':id/activity/report/csv', 'read', 'CaseReport', CSV_TYPE, 'CSV attachment case-<000123>-activity.csv: header row, then one row per activity (status group, status, initiator, started at, ended at, duration)')
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  async activityCsv(@CurrentUser() user: UserContext, @ScopedCase() { id: caseId }: CaseRef, @Query('tz') tz: unknown, @Req() req: FastifyRequest) {
    const timeZone = parseTimeZone(tz);
    return this.audited('ActivityReportCsv', req, user, caseId, {}, () => this.exports.activityReportCsv(user, caseId, timeZone), '-activity.csv');
  }
}
