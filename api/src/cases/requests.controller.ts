import { Body, Controller, Injectable, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiConflictResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { InjectConnection } from '@nestjs/sequelize';
import { Sequelize } from 'sequelize-typescript';
import {
  ErrorCode,
  REQUIRED_MESSAGE,
  isItpStaff,
  providerRequired,
  canCancelRequest,
  REQUEST_QUEUE_DEFAULT_SORT,
  REQUEST_QUEUE_PAGE_SIZE,
  REQUEST_QUEUE_SORTABLE,
  type RequestQueueFilter,
  type RequestQueueKind,
  canEditRequest,
  type RequestCreateInput,
  type RequestType,
  type UserContext,
} from '@crisis/forms';
import { CurrentUser } from '../auth/current-user.decorator';
import { ScopedCase, type CaseRef } from '../auth/scoped-case';
import { CodedError, forbidden, invalid, notFound } from '../common/coded-error';
import { ApiSchemaBody } from '../common/openapi';
import { schema } from '../common/validation.pipe';
import { IdParam } from '../common/id-param';
import { Route } from '../common/route';
import { ListRoute, sendPage } from '../common/list-route';
import { parseCheckedList } from '../facilities/list-params';
import { listRequestQueue } from './request-queue.query';
import { select } from '../reference/reference-sql';
import { CaseCommandsService } from './case-commands.service';
import { CommandRoute } from './command-route';
import { CasesService } from './cases.service';

interface RequestRow {
  id: number;
  caseId: number;
  type: RequestType;
  status: string;
  evaluationProviderId: number | null;
  evaluationStarted: boolean;
}

const REQUEST_ERRORS = 'INV.CASE.HAS.ACTIVE.REQUEST (payload status), INV.CASE.IS.CLOSED, INV.REQUEST.NOT.EDITABLE, INV.REQUEST.NOT.ACTIVE';

/** Shared look-ups of the two request controllers (which inherit its constructor and its injections). */
@Injectable()
abstract class RequestRoutes {
  constructor(
    protected readonly cases: CasesService,
    protected readonly commands: CaseCommandsService,
    @InjectConnection() protected readonly sequelize: Sequelize,
  ) {}

  /** A request whose case the user may open. */
  protected async requestInScope(user: UserContext, requestId: number): Promise<RequestRow> {
    const [r] = await select<RequestRow>(
      this.sequelize,
      `SELECT id, case_id AS "caseId", type, status, evaluation_provider_id AS "evaluationProviderId",
              evaluation_started_at IS NOT NULL AS "evaluationStarted"
         FROM requests WHERE id = $1`,
      [requestId],
    );
    if (!r) throw notFound();
    await this.cases.findInScope(user, r.caseId);
    return r;
  }

  /** Request type and provider of a new or edited request (spec 01 §5 "Request type options"). */
  protected async checkRequestInput(user: UserContext, caseId: number, body: RequestCreateInput, currentType?: string) {
    const types = await this.cases.availableTypesFor(user, caseId);
    if (body.type !== currentType && !types.includes(body.type))
      throw invalid([{ field: 'type', key: 'notAvailable', message: 'This request type is not available for this case' }]);
    if (providerRequired(isItpStaff(user.role), body.type) && !body.evaluationProviderId)
      throw invalid([{ field: 'evaluationProviderId', key: 'required', message: REQUIRED_MESSAGE }]);
    if (body.evaluationProviderId && body.type !== 'PlacementOnly') {
      const [c] = await select<{ division: number; dob: string }>(
        this.sequelize,
        'SELECT c.source_division_id AS division, p.date_of_birth::text AS dob FROM cases c JOIN patients p ON p.id = c.patient_id WHERE c.id = $1',
        [caseId],
      );
      const providers = await this.cases.providersFor(c.division, c.dob);
      if (!providers.some((p) => p.id === body.evaluationProviderId))
        throw invalid([{ field: 'evaluationProviderId', key: 'invalid', message: 'The provider is not credentialed for this division and patient' }]);
    }
  }
}

/** Requests of a case (spec 01 §7 /api/cases/{id}/requests). */
@ApiTags('requests')
@Controller('api/cases/:id/requests')
export class CaseRequestsController extends RequestRoutes {
  @Route('GET', '', 'read', 'Request')
  @ApiOkResponse({ description: 'Requests of the case, newest first' })
  async list(@ScopedCase() { id: caseId }: CaseRef) {
    return this.cases.requests(caseId);
  }

  @Route('GET', 'types', 'create', 'Request')
  @ApiOkResponse({ description: 'Request types this user may create on this case' })
  async types(@CurrentUser() user: UserContext, @ScopedCase() { id: caseId }: CaseRef) {
    return this.cases.availableTypesFor(user, caseId);
  }

  @CommandRoute('POST', '', 'create', 'Request', 'Request.Create', "{ state, requestId }: the case's new state and the request's id")
  @ApiSchemaBody('requestCreate')
  @ApiConflictResponse({ description: REQUEST_ERRORS })
  async create(@CurrentUser() user: UserContext, @ScopedCase() { id: caseId }: CaseRef, @Body(schema('requestCreate')) body: RequestCreateInput) {
    await this.checkRequestInput(user, caseId, body);
    return this.commands.run(user, caseId, {
      kind: 'createRequest',
      type: body.type,
      evaluationProviderId: body.type === 'PlacementOnly' ? null : (body.evaluationProviderId ?? null),
      note: body.note ?? null,
      facilityNote: user.organizationType === 'Facility' ? (body.facilityNote ?? body.note ?? null) : (body.facilityNote ?? null),
      itpNote: user.organizationType !== 'Facility' ? (body.itpNote ?? body.note ?? null) : null,
    });
  }

  @CommandRoute('PUT', ':requestId', 'update', 'Request', 'Request.Update', "The case's state")
  @ApiSchemaBody('requestUpdate')
  @ApiConflictResponse({ description: REQUEST_ERRORS })
  async update(
    @CurrentUser() user: UserContext,
    @IdParam() caseId: number,
    @IdParam('requestId') requestId: number,
    @Body(schema('requestUpdate')) body: RequestCreateInput,
  ) {
    const r = await this.requestInScope(user, requestId);
    if (r.caseId !== caseId) throw notFound();
    if (!canEditRequest(user.role, r)) throw new CodedError(ErrorCode.RequestNotEditable, { status: r.status }, undefined, 'The request can no longer be edited');
    await this.checkRequestInput(user, caseId, body, r.type);
    return this.commands.run(user, caseId, {
      kind: 'updateRequest',
      requestId: r.id,
      type: body.type,
      evaluationProviderId: body.type === 'PlacementOnly' ? null : (body.evaluationProviderId ?? null),
      note: body.note ?? null,
      facilityNote: body.facilityNote ?? null,
      itpNote: user.organizationType !== 'Facility' ? (body.itpNote ?? null) : undefined,
    });
  }
}

/** Request actions (spec 01 §7 /api/requests). */
@ApiTags('requests')
@Controller('api/requests')
export class RequestsController extends RequestRoutes {
  @ListRoute('access', 'ItpQueue', {
    path: 'itp-queue',
    sortable: REQUEST_QUEUE_SORTABLE,
    filter: 'q (patient name or case reference number)',
    description: `The ITP queue (spec 02 §2): every active request of an open case, the unread-assignment alert on each; ${REQUEST_QUEUE_PAGE_SIZE.itp} rows a page in the UI; total in Content-Range`,
  })
  itpQueue(@CurrentUser() user: UserContext, @Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.queue('itp', user, query, reply);
  }

  @ListRoute('access', 'ProviderQueue', {
    path: 'provider-queue',
    sortable: REQUEST_QUEUE_SORTABLE,
    filter: 'q (patient name or case reference number)',
    description: `The provider queue (spec 02 §2): the active requests assigned to the signed-in provider; ${REQUEST_QUEUE_PAGE_SIZE.provider} rows a page in the UI; total in Content-Range`,
  })
  providerQueue(@CurrentUser() user: UserContext, @Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.queue('provider', user, query, reply);
  }

  private async queue(kind: RequestQueueKind, user: UserContext, query: Record<string, unknown>, reply: FastifyReply) {
    const q = parseCheckedList<RequestQueueFilter>(query, { sortable: REQUEST_QUEUE_SORTABLE, defaultSort: REQUEST_QUEUE_DEFAULT_SORT, schema: 'requestQueueFilter' });
    return sendPage(reply, `requests/${kind}-queue`, q, await listRequestQueue(this.sequelize, user, kind, q));
  }

  @Route('GET', ':id/info', 'read', 'Request')
  @ApiOkResponse({ description: 'The request with its provider' })
  async info(@CurrentUser() user: UserContext, @IdParam() id: number) {
    const r = await this.requestInScope(user, id);
    return (await this.cases.requests(r.caseId)).find((x) => x.id === r.id);
  }

  @CommandRoute('PUT', ':id/cancel', 'update', 'Request', 'Request.Cancel', "The case's state")
  @ApiSchemaBody('requestReason')
  @ApiConflictResponse({ description: ErrorCode.RequestNotActive })
  async cancel(@CurrentUser() user: UserContext, @IdParam() id: number, @Body(schema('requestReason')) body: { reason: string }) {
    const r = await this.requestInScope(user, id);
    if (!canCancelRequest(user.role, r)) throw forbidden();
    return this.commands.run(user, r.caseId, { kind: 'cancelRequest', requestId: r.id, reason: body.reason });
  }

  @CommandRoute('PUT', ':id/not-ready-for-evaluation', 'access', 'ProviderCases', 'Request.NotReadyForEvaluation', "The case's state (OnHold_DocumentationReview)")
  @ApiSchemaBody('requestReason')
  async notReady(@CurrentUser() user: UserContext, @IdParam() id: number, @Body(schema('requestReason')) body: { reason: string }) {
    const r = await this.requestInScope(user, id);
    return this.commands.run(user, r.caseId, { kind: 'requestNotReady', requestId: r.id, reason: body.reason });
  }

  @CommandRoute('PUT', ':id/in-progress', 'access', 'ProviderCases', 'Request.InProgress', "The case's state")
  async inProgress(@CurrentUser() user: UserContext, @IdParam() id: number) {
    const r = await this.requestInScope(user, id);
    return this.commands.run(user, r.caseId, { kind: 'requestInProgress', requestId: r.id });
  }

  @CommandRoute('PUT', ':id/evaluation/start', 'access', 'ProviderCases', 'Request.StartEvaluation', "The case's state")
  async startEvaluation(@CurrentUser() user: UserContext, @IdParam() id: number) {
    const r = await this.requestInScope(user, id);
    return this.commands.run(user, r.caseId, { kind: 'startEvaluation', requestId: r.id });
  }
}
