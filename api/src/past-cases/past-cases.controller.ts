import { Controller, Query, Req, Res } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Sequelize } from 'sequelize-typescript';
import { PAST_CASE_DEFAULT_SORT, PAST_CASE_SORTABLE, type PastCaseExport, type PastCaseFilter, type UserContext } from '@crisis/forms';
import { AuditService } from '../audit/audit.service';
import { auditedExport } from '../audit/audited-read';
import { CurrentUser } from '../auth/current-user.decorator';
import { CSV_TYPE, ExportRoute, parseTimeZone } from '../common/export-route';
import { ListRoute, sendPage } from '../common/list-route';
import { Route } from '../common/route';
import { checkFilter, parseCheckedList } from '../facilities/list-params';
import { parseListQuery } from '../common/list-query';
import { streamPastCaseCsv } from './past-case-csv';
import { listPastCases, pastCaseFilterOptions } from './past-cases.query';

const FILTER_DOC =
  'patientOrCase, from and to (yyyy-mm-dd, read in `tz`), referringFacilityIds[], outcomes[], counties[] (of the source facility), activeOnly, activeCaseHours (1-99, with activeOnly)';

const FILE_NAMES: Record<PastCaseExport, string> = { csv: 'past-cases.csv', billing: 'past-cases-billing.csv', diagnostics: 'past-cases-claim-diagnostics.csv' };

/**
 * Past cases (spec 02 §2 "Past cases", §7 GET past, past/csv, past/billing/csv, past/athena/csv):
 * the page and its CSVs, each over the same search and the role's scope (past-cases.query.ts).
 */
@ApiTags('past cases')
@Controller('api/cases/past')
export class PastCasesController {
  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    private readonly audit: AuditService,
  ) {}

  @ListRoute('access', 'PastCases', {
    sortable: PAST_CASE_SORTABLE,
    filter: FILTER_DOC,
    description: "Closed cases in the user's scope (open ones with activeOnly), newest first; total in Content-Range",
  })
  @ApiQuery({ name: 'tz', required: false, description: 'IANA time zone the from/to days and the recency classes (today, yesterday…) are read in (default UTC)' })
  async list(@CurrentUser() user: UserContext, @Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    const tz = parseTimeZone(query.tz);
    const q = parseCheckedList<PastCaseFilter>(query, { sortable: PAST_CASE_SORTABLE, defaultSort: PAST_CASE_DEFAULT_SORT, schema: 'pastCaseFilter', maxPage: 100 });
    return sendPage(reply, 'cases/past', q, await listPastCases(this.sequelize, user, q, tz));
  }

  @Route('GET', 'filter-options', 'access', 'PastCases')
  @ApiOkResponse({ description: "The filter's choices: referringFacilities (of the user's past cases' outcomes) and counties (a group user's)" })
  filterOptions(@CurrentUser() user: UserContext) {
    return pastCaseFilterOptions(this.sequelize, user);
  }

  @ExportRoute('csv', 'access', 'PastCases', CSV_TYPE, 'CSV attachment past-cases.csv: one row per past case of the search, the columns of the table')
  @ApiQuery({ name: 'filter', required: false, description: FILTER_DOC })
  csv(@CurrentUser() user: UserContext, @Query() query: Record<string, unknown>, @Req() req: FastifyRequest) {
    return this.export('csv', user, query, req);
  }

  @ExportRoute('billing/csv', 'access', 'PastCaseBilling', CSV_TYPE, 'CSV attachment past-cases-billing.csv: one row per completed evaluation of the search, with patient, provider, billing codes and payers')
  @ApiQuery({ name: 'filter', required: false, description: FILTER_DOC })
  billingCsv(@CurrentUser() user: UserContext, @Query() query: Record<string, unknown>, @Req() req: FastifyRequest) {
    return this.export('billing', user, query, req);
  }

  @ExportRoute('athena/csv', 'access', 'PastCaseBilling', CSV_TYPE, 'CSV attachment past-cases-claim-diagnostics.csv: one row per diagnosis of each completed evaluation of the search (the EHR claim lines)')
  @ApiQuery({ name: 'filter', required: false, description: FILTER_DOC })
  diagnosticsCsv(@CurrentUser() user: UserContext, @Query() query: Record<string, unknown>, @Req() req: FastifyRequest) {
    return this.export('diagnostics', user, query, req);
  }

  /** An export is a read of patient data: audited as PastCases.Export.<kind> with its search. */
  private export(kind: PastCaseExport, user: UserContext, query: Record<string, unknown>, req: FastifyRequest) {
    const tz = parseTimeZone(query.tz);
    const filter = checkFilter<PastCaseFilter>(parseListQuery({ filter: query.filter }, { sortable: ['id'], defaultSort: ['id', 'ASC'] }).filter, 'pastCaseFilter');
    const read = { action: `PastCases.Export.${kind[0].toUpperCase()}${kind.slice(1)}`, req, user, values: { filter } };
    return auditedExport(this.audit, read, async () => ({ stream: await streamPastCaseCsv(this.sequelize, user, kind, filter, tz) }), { name: FILE_NAMES[kind], type: CSV_TYPE });
  }
}
