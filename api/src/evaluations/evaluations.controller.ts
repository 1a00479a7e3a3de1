import { Body, Controller, Query, Res } from '@nestjs/common';
import { ApiConflictResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ErrorCode, type EvaluationBillingCode, type EvaluationSaveInput, type EvaluationSaved, type EvaluationView, type UserContext } from '@crisis/forms';
import { CurrentUser } from '../auth/current-user.decorator';
import { CommandRoute } from '../cases/command-route';
import { ApiSchemaBody } from '../common/openapi';
import { schema } from '../common/validation.pipe';
import { IdParam } from '../common/id-param';
import { Route } from '../common/route';
import { ListRoute, sendPage } from '../common/list-route';
import { parseListQuery } from '../common/list-query';
import { EvaluationsService } from './evaluations.service';

/** The evaluation of a request (spec 02 §7 Requests: GET/PUT {id}/evaluation, PUT {id}/evaluation/complete). */
@ApiTags('requests')
@Controller('api/requests')
export class EvaluationsController {
  constructor(private readonly evaluations: EvaluationsService) {}

  @Route('GET', ':id/evaluation', 'read', 'Case')
  @ApiOkResponse({ description: 'The questionnaire of the form version it is answered on, the answers, diagnoses, billing codes, recommendation, mode and version' })
  view(@CurrentUser() user: UserContext, @IdParam() id: number): Promise<EvaluationView> {
    return this.evaluations.view(user, id);
  }

  @Route('PUT', ':id/evaluation', 'access', 'ProviderCases', 'Request.SaveEvaluation')
  @ApiSchemaBody('evaluationSave')
  @ApiOkResponse({ description: 'The new version of the evaluation, which the next save must carry', schema: { type: 'object', properties: { requestId: { type: 'integer' }, version: { type: 'integer' } } } })
  @ApiConflictResponse({ description: `${ErrorCode.EvaluationStale}: saved from another window; ${ErrorCode.MedicalInformationConfirmationRequired}: the recommendation changes while contacting` })
  save(@CurrentUser() user: UserContext, @IdParam() id: number, @Body(schema('evaluationSave')) body: EvaluationSaveInput): Promise<EvaluationSaved> {
    return this.evaluations.save(user, id, body);
  }

  @CommandRoute('PUT', ':id/evaluation/complete', 'access', 'ProviderCases', 'Request.CompleteEvaluation', "The case's state (RecommendationReview_WaitingOnDecision)")
  @ApiSchemaBody('evaluationComplete')
  @ApiConflictResponse({ description: `${ErrorCode.EvaluationStale}; ${ErrorCode.RequestNotInProgress}` })
  complete(@CurrentUser() user: UserContext, @IdParam() id: number, @Body(schema('evaluationComplete')) body: { sourceDivisionId: number; version: number }) {
    return this.evaluations.complete(user, id, body);
  }

  @Route('GET', ':id/evaluation/billing-codes', 'read', 'Case')
  @ApiOkResponse({
    description: "The billing codes the provider may choose: active ones of the request's type and the source division's type, by code",
    schema: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, code: { type: 'string' }, description: { type: 'string' } } } },
  })
  billingCodes(@CurrentUser() user: UserContext, @IdParam() id: number): Promise<EvaluationBillingCode[]> {
    return this.evaluations.billingCodeChoices(user, id);
  }

  @ListRoute('read', 'Case', { path: ':id/evaluation/logs', sortable: ['changedAt'], filter: 'none', description: 'The edits after completion, newest first, 10 a page; total in Content-Range' })
  async changeLog(@CurrentUser() user: UserContext, @IdParam() id: number, @Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    const q = parseListQuery(query, { sortable: ['changedAt'], defaultSort: ['changedAt', 'DESC'], maxPage: 100 });
    return sendPage(reply, 'evaluation-change-log', q, await this.evaluations.changeLog(user, id, q));
  }
}
