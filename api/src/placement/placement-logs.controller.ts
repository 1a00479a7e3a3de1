import { Controller, Query, Req, Res } from '@nestjs/common';
import { ApiConflictResponse, ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'stream';
import { caseReference, type UserContext } from '@crisis/forms';
import { CurrentUser } from '../auth/current-user.decorator';
import { AuditAfterCommand } from '../audit/audit.interceptor';
import { AuditService } from '../audit/audit.service';
import { parseListQuery } from '../common/list-query';
import { CSV_TYPE, ExportRoute, PDF_TYPE, parseTimeZone } from '../common/export-route';
import { auditedExport } from '../audit/audited-read';
import { ApiListQuery } from '../facilities/facilities.controller';
import { checkFilter } from '../facilities/list-params';
import { PlacementLogsService, type LogFilter, type LogSort } from './placement-logs.service';
import { Route } from '../common/route';
import { IdParam } from '../common/id-param';
import { sendPage } from '../common/list-route';

const CASE_LOG_SORTABLE = ['dateContact', 'coordinator', 'referringFacility', 'result', 'callbackAt'];
const DIVISION_LOG_SORTABLE = ['dateContact', 'createdAt', 'user', 'result', 'callbackAt'];
const ACCEPTED_SORTABLE = ['patientAcceptedCreatedAt', 'acceptedAt', 'patient', 'sourceFacility', 'status'];

/** sort / filter of a log query (no paging: exports hold every row of the search). */
function logQuery(query: Record<string, unknown>, sortable: string[]): { filter: LogFilter; sort: LogSort } {
  const q = parseListQuery(query, { sortable, defaultSort: ['dateContact', 'DESC'] });
  const filter = checkFilter<LogFilter>(q.filter, 'placementLogFilter');
  return { filter, sort: { field: q.sortField, order: q.sortOrder } };
}

/**
 * Exports of the placement logs and the division log (spec 02 §2 full log, call log's division log,
 * §7 "CSV and PDF at log/{id}" and "division/{id}/log"). The division log and its exports live at
 * /api/placement-tasks/division/{divisionId}/log[/csv|/pdf] (the spec's "{facility}/" prefix is not
 * needed: a division id names its facility).
 */
@ApiTags('placement')
@Controller('api/placement-tasks')
export class PlacementLogsController {
  constructor(
    private readonly logs: PlacementLogsService,
    private readonly audit: AuditService,
  ) {}

  /** Streams an attachment and writes the read audit entry (exports carry patient data). */
  private audited(action: string, req: FastifyRequest, user: UserContext, values: Record<string, unknown>, produce: () => Promise<{ stream: Readable; facilityId?: number | null }>, file: { name: string; type: string }) {
    return auditedExport(this.audit, { action, req, user, values }, produce, file);
  }

  @ExportRoute('log/:caseId/csv', 'read', 'PlacementLog', CSV_TYPE, 'CSV attachment placement-log-<000123>.csv: header row, one row per call (date contact, coordinator, referring facility, division, spoke with, result, note, follow-up, undone)')
  @ApiListQuery(CASE_LOG_SORTABLE, 'from, to, facilityIds[], results[], coordinatorIds[]')
  async caseLogCsv(@CurrentUser() user: UserContext, @IdParam('caseId') caseId: number, @Query() query: Record<string, unknown>, @Req() req: FastifyRequest) {
    const { filter, sort } = logQuery(query, CASE_LOG_SORTABLE);
    const tz = parseTimeZone(query.tz);
    return this.audited('Placement.Log.Csv', req, user, { caseId }, () => this.logs.caseLogCsv(user, caseId, filter, sort, tz), {
      name: `placement-log-${caseReference(caseId).slice(1)}.csv`,
      type: CSV_TYPE,
    });
  }

  @ExportRoute('log/:caseId/pdf', 'read', 'PlacementLog', PDF_TYPE, 'PDF attachment placement-log-<000123>.pdf: the calls of the search as a table')
  @ApiListQuery(CASE_LOG_SORTABLE, 'from, to, facilityIds[], results[], coordinatorIds[]')
  async caseLogPdf(@CurrentUser() user: UserContext, @IdParam('caseId') caseId: number, @Query() query: Record<string, unknown>, @Req() req: FastifyRequest) {
    const { filter, sort } = logQuery(query, CASE_LOG_SORTABLE);
    const tz = parseTimeZone(query.tz);
    return this.audited('Placement.Log.Pdf', req, user, { caseId }, () => this.logs.caseLogPdf(user, caseId, filter, sort, tz), {
      name: `placement-log-${caseReference(caseId).slice(1)}.pdf`,
      type: PDF_TYPE,
    });
  }

  @Route('GET', 'division/:divisionId/log', 'manage', 'Placement')
  @ApiParam({ name: 'divisionId', type: Number, description: 'referring division id' })
  @ApiListQuery(DIVISION_LOG_SORTABLE, 'patientName, from, to')
  @ApiOkResponse({ description: 'Division log entries { id, createdAt, spokeWith, user {id,name}, patients [{caseId,name}], result, note, callbackAt, undone, bulkId }: one entry per call, a bulk submission is one entry; default dateContact descending' })
  async divisionLog(@IdParam('divisionId') divisionId: number, @Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    const q = parseListQuery(query, { sortable: DIVISION_LOG_SORTABLE, defaultSort: ['dateContact', 'DESC'] });
    const filter = checkFilter<LogFilter>(q.filter, 'placementLogFilter');
    return sendPage(reply, 'entries', q, await this.logs.divisionLog(divisionId, filter, { field: q.sortField, order: q.sortOrder }, { offset: q.offset, limit: q.limit }));
  }

  @ExportRoute('division/:divisionId/log/csv', 'manage', 'Placement', CSV_TYPE, 'CSV attachment division-log-<id>.csv: header row, one row per entry')
  @ApiListQuery(DIVISION_LOG_SORTABLE, 'patientName, from, to')
  async divisionLogCsv(@IdParam('divisionId') divisionId: number, @CurrentUser() user: UserContext, @Query() query: Record<string, unknown>, @Req() req: FastifyRequest) {
    const { filter, sort } = logQuery(query, DIVISION_LOG_SORTABLE);
    const tz = parseTimeZone(query.tz);
    return this.audited('Placement.DivisionLog.Csv', req, user, { divisionId }, async () => ({ stream: await this.logs.divisionLogCsv(divisionId, filter, sort, tz) }), {
      name: `division-log-${divisionId}.csv`,
      type: CSV_TYPE,
    });
  }

  @ExportRoute('division/:divisionId/log/pdf', 'manage', 'Placement', PDF_TYPE, 'PDF attachment division-log-<id>.pdf')
  @ApiListQuery(DIVISION_LOG_SORTABLE, 'patientName, from, to')
  async divisionLogPdf(@IdParam('divisionId') divisionId: number, @CurrentUser() user: UserContext, @Query() query: Record<string, unknown>, @Req() req: FastifyRequest) {
    const { filter, sort } = logQuery(query, DIVISION_LOG_SORTABLE);
    const tz = parseTimeZone(query.tz);
    return this.audited('Placement.DivisionLog.Pdf', req, user, { divisionId }, async () => {
      const r = await this.logs.divisionLogPdf(divisionId, filter, sort, tz);
      return { stream: r.stream, facilityId: r.division.facilityId };
    }, { name: `division-log-${divisionId}.pdf`, type: PDF_TYPE });
  }
}

/** Referring facilities' accepted cases (spec 02 §2 /dashboard: "accepted-cases table with a close action"). */
@ApiTags('placement')
@Controller('api/cases')
export class AcceptedCasesController {
  constructor(private readonly logs: PlacementLogsService) {}

  @Route('GET', 'accepted', 'read', 'AcceptedCase')
  @ApiListQuery(ACCEPTED_SORTABLE, '(none)')
  @ApiOkResponse({ description: 'Open cases accepted by the user\'s referring division(s): { id, caseId, status, patient, sourceFacility, acceptedAt, divisionId, divisionName }; default patientAcceptedCreatedAt ascending' })
  async accepted(@CurrentUser() user: UserContext, @Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    const q = parseListQuery(query, { sortable: ACCEPTED_SORTABLE, defaultSort: ['patientAcceptedCreatedAt', 'ASC'] });
    return sendPage(reply, 'cases', q, await this.logs.acceptedCases(user, q));
  }

  @Route('PUT', ':id/referring/confirm', 'update', 'AcceptedCase', 'Case.ReferringConfirmArrival')
  @AuditAfterCommand()
  @ApiOkResponse({ description: 'The referring facility confirms the patient arrived: the case is closed with the transfer outcome of its division. { caseId, status, caseOutcomeType, divisionId }' })
  @ApiConflictResponse({ description: 'INV.CASE.NOT.ACCEPTED, INV.CASE.IS.CLOSED, INV.CASE.HAS.ACTIVE.REQUEST' })
  confirm(@CurrentUser() user: UserContext, @IdParam() id: number) {
    return this.logs.confirmArrival(user, id);
  }
}
