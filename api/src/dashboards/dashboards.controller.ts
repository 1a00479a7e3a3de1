import { Controller, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { InjectConnection } from '@nestjs/sequelize';
import { Sequelize } from 'sequelize-typescript';
import {
  CASE_SEARCH_DEFAULT_SORT,
  CASE_SEARCH_SORTABLE,
  FACILITY_REQUESTS_CHUNK,
  FINALIZED_DEFAULT_SORT,
  FINALIZED_SORTABLE,
  FINALIZED_WINDOW_DAYS,
  type CaseSearchFilter,
  type FacilityRequestsQuery,
  type UserContext,
} from '@crisis/forms';
import { CurrentUser } from '../auth/current-user.decorator';
import { notFound } from '../common/coded-error';
import { ListRoute, sendPage } from '../common/list-route';
import { Route } from '../common/route';
import { checkFilter, parseCheckedList } from '../facilities/list-params';
import { groupPanel, listFacilityRequests, listFinalized, providerPanel, searchCases } from './dashboards.query';

/** The dashboards per role (spec 02 §2 /dashboard): thin routes over dashboards.query.ts. */
@ApiTags('dashboards')
@Controller('api')
export class DashboardsController {
  constructor(@InjectConnection() private readonly sequelize: Sequelize) {}

  @ListRoute('access', 'FinalizedCases', {
    path: 'cases/finalized',
    sortable: FINALIZED_SORTABLE,
    filter: 'nothing',
    description: `Finalized cases (spec 02 §2, §7): the cases of the user's scope closed in the last ${FINALIZED_WINDOW_DAYS} days; total in Content-Range`,
  })
  async finalized(@CurrentUser() user: UserContext, @Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    const q = parseCheckedList<Record<string, never>>(query, { sortable: FINALIZED_SORTABLE, defaultSort: FINALIZED_DEFAULT_SORT, schema: 'finalizedFilter' });
    return sendPage(reply, 'cases/finalized', q, await listFinalized(this.sequelize, user, q));
  }

  @Route('GET', 'cases/facility/requests', 'access', 'FacilityRequests')
  @ApiQuery({ name: 'caseId', isArray: true, type: Number, description: `Case ids, at most ${FACILITY_REQUESTS_CHUNK} a call` })
  @ApiQuery({ name: 'lastOnly', required: false, type: Boolean })
  @ApiOkResponse({ description: "The requests of the given cases in the user's scope, newest first per case (spec 01 §7)" })
  facilityRequests(@CurrentUser() user: UserContext, @Query() query: Record<string, unknown>) {
    const ids = query.caseId === undefined ? [] : [query.caseId].flat();
    const asNumber = (v: unknown) => (typeof v === 'string' && /^\d{1,9}$/.test(v) ? Number(v) : v);
    const lastOnly = query.lastOnly === 'true' ? true : query.lastOnly === 'false' ? false : query.lastOnly;
    const q = checkFilter<FacilityRequestsQuery>({ caseId: ids.map(asNumber), ...(lastOnly === undefined ? {} : { lastOnly }) }, 'facilityRequestsQuery');
    return listFacilityRequests(this.sequelize, user, q.caseId, !!q.lastOnly);
  }

  @ListRoute('access', 'DashboardSearch', {
    path: 'dashboard/search',
    sortable: CASE_SEARCH_SORTABLE,
    filter: 'q (patient name or case reference number)',
    description: 'The ITP dashboard search (spec 02 §2): open and closed cases by patient name or reference; total in Content-Range',
  })
  async search(@CurrentUser() user: UserContext, @Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    const q = parseCheckedList<CaseSearchFilter>(query, { sortable: CASE_SEARCH_SORTABLE, defaultSort: CASE_SEARCH_DEFAULT_SORT, schema: 'caseSearchFilter' });
    return sendPage(reply, 'dashboard/search', q, await searchCases(this.sequelize, user, q));
  }

  @Route('GET', 'dashboard/group', 'access', 'GroupPanel')
  @ApiOkResponse({ description: "The group users' panel: the group and its past cases today, in 7 and in 30 days" })
  async group(@CurrentUser() user: UserContext) {
    return (await groupPanel(this.sequelize, user)) ?? Promise.reject(notFound());
  }

  @Route('GET', 'dashboard/provider', 'access', 'ProviderPanel')
  @ApiOkResponse({ description: "The provider's panel: his queue and his evaluations completed today" })
  provider(@CurrentUser() user: UserContext) {
    return providerPanel(this.sequelize, user);
  }
}
