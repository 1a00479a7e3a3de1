import { Body, Controller, HttpCode, Query, Res } from '@nestjs/common';
import { ApiConflictResponse, ApiOkResponse, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { invalid } from '../common/coded-error';
import type { FastifyReply } from 'fastify';
import { ErrorCode, LOG_PAGE_SIZE, type CallLogSubmitInput, type UserContext } from '@crisis/forms';
import { CurrentUser } from '../auth/current-user.decorator';
import { AuditAfterCommand, SkipAudit } from '../audit/audit.interceptor';
import { parseListQuery } from '../common/list-query';
import { ApiSchemaBody } from '../common/openapi';
import { schema } from '../common/validation.pipe';
import { ApiListQuery } from '../facilities/facilities.controller';
import { checkFilter, parseCheckedList } from '../facilities/list-params';
import { PlacementService } from './placement.service';
import { Route } from '../common/route';
import { IdParam } from '../common/id-param';
import { sendPage } from '../common/list-route';

const LOG_SORTABLE = ['dateContact', 'coordinator', 'referringFacility', 'result', 'callbackAt'];

/** The placements of a case (spec 02 §2 "Case page (ITP)"). */
@ApiTags('placement')
@Controller('api/cases')
export class CasePlacementsController {
  constructor(private readonly placement: PlacementService) {}

  @Route('GET', ':id/placements', 'manage', 'Placement')
  @ApiOkResponse({ description: '{ tasks, reworkedWarning, readOnly, canAddTasks, outOfState: { shown, enabled, value } }' })
  @ApiQuery({ name: 'includeWillNotAcceptWithEmptyCallback', required: false, description: 'true lists the tasks whose last call is WillNotAccept with no callback (left out by default); hiddenWillNotAccept counts them' })
  placements(@CurrentUser() user: UserContext, @IdParam() id: number, @Query('includeWillNotAcceptWithEmptyCallback') include?: string) {
    if (include !== undefined && include !== 'true' && include !== 'false')
      throw invalid([{ field: 'includeWillNotAcceptWithEmptyCallback', key: 'type', message: 'includeWillNotAcceptWithEmptyCallback must be true or false' }]);
    return this.placement.placements(user, id, include === 'true');
  }
}

/** Placement tasks, division claims, the call log and its logs (spec 02 §7 /api/placement-tasks). */
@ApiTags('placement')
@Controller('api/placement-tasks')
export class PlacementTasksController {
  constructor(private readonly placement: PlacementService) {}

  @Route('POST', 'generate/:caseId', 'manage', 'Placement', 'Placement.AddTasks')
  @HttpCode(200)
  @AuditAfterCommand()
  @ApiSchemaBody('placementGenerate')
  @ApiOkResponse({ description: "Up to 5 more tasks for the best-fitting divisions: { state, taskIds }" })
  @ApiConflictResponse({ description: 'INV.CASE.NOT.CONTACTING, INV.CASE.IS.CLOSED' })
  generate(@CurrentUser() user: UserContext, @IdParam('caseId') caseId: number, @Body(schema('placementGenerate')) body: { notes?: string | null }) {
    return this.placement.generate(user, caseId, body.notes ?? null);
  }

  @Route('POST', 'create', 'manage', 'Placement', 'Placement.AddTask')
  @HttpCode(200)
  @AuditAfterCommand()
  @ApiSchemaBody('placementTaskCreate')
  @ApiOkResponse({ description: 'A task for one referring division, added by hand: { state, taskIds }' })
  @ApiConflictResponse({ description: 'INV.NOT.UNIQ (the division is already in the placements), INV.CASE.NOT.CONTACTING' })
  create(@CurrentUser() user: UserContext, @Body(schema('placementTaskCreate')) body: { caseId: number; divisionId: number }) {
    return this.placement.createTask(user, body.caseId, body.divisionId);
  }

  @Route('POST', 'division/:id/claim', 'manage', 'Placement', 'Placement.ClaimDivision')
  @HttpCode(200)
  @ApiParam({ name: 'id', type: Number, description: 'referring division id' })
  @ApiSchemaBody('divisionClaim')
  @ApiOkResponse({
    description:
      '{ claimId, divisionId, expiresAt, resumedTaskIds }: renew it with PUT /api/claims/{claimId}/extend every 60 s. ' +
      'resumeTask: true resumes the on-hold tasks instead of waiting for their callback (the division\'s bulk hold ends, the tasks are due now)',
  })
  @ApiConflictResponse({ description: 'INV.DIVISION.ALREADY.CLAIMED (payload divisionId, claimedByName, claimedById)' })
  claim(@CurrentUser() user: UserContext, @IdParam() id: number, @Body(schema('divisionClaim')) body: { resumeTask?: boolean | null }) {
    return this.placement.claimDivision(user, id, body?.resumeTask === true);
  }

  @Route('GET', 'claim/:id', 'manage', 'Placement')
  @ApiParam({ name: 'id', type: Number, description: 'claim id' })
  @ApiOkResponse({ description: 'The call log: { claimId, expiresAt, division, tasks }' })
  @ApiConflictResponse({ description: ErrorCode.ClaimOverdueOrInactive })
  callLog(@CurrentUser() user: UserContext, @IdParam() id: number) {
    return this.placement.callLog(user, id);
  }

  @Route('PUT', 'claim/:id/calls', 'manage', 'Placement', 'Placement.SubmitCalls')
  @ApiParam({ name: 'id', type: Number, description: 'claim id' })
  @ApiSchemaBody('callLogSubmit')
  @ApiOkResponse({ description: '{ saved, bulkId }' })
  @ApiConflictResponse({ description: 'INV.CLAIM.IS.OVERDUE.OR.INACTIVE, INV.CASE.IS.CLOSED, INV.CASE.IS.REWORKED' })
  submit(@CurrentUser() user: UserContext, @IdParam() id: number, @Body(schema('callLogSubmit')) body: CallLogSubmitInput) {
    return this.placement.submit(user, id, body);
  }

  @Route('PUT', 'claim/:id/draft/calls', 'manage', 'Placement')
  @SkipAudit()
  @ApiParam({ name: 'id', type: Number, description: 'claim id' })
  @ApiSchemaBody('callLogDraft')
  @ApiOkResponse({ description: '{ saved }: the draft rows are kept per task' })
  draft(@CurrentUser() user: UserContext, @IdParam() id: number, @Body(schema('callLogDraft')) body: { calls: CallLogSubmitInput['calls'] }) {
    return this.placement.saveDraft(user, id, body.calls);
  }

  @Route('PUT', 'claim/:id/release', 'manage', 'Placement', 'Placement.ReleaseDivision')
  @ApiParam({ name: 'id', type: Number, description: 'claim id' })
  @ApiOkResponse({ description: 'The released claim' })
  release(@CurrentUser() user: UserContext, @IdParam() id: number) {
    return this.placement.releaseClaim(user, id);
  }

  @Route('GET', 'division/group', 'manage', 'Placement')
  @ApiListQuery(['recentCallbackAt'], 'facilityName, withinTwoHours')
  @ApiOkResponse({ description: 'The calls card: one row per division with tasks (taskCount, facility, division, preferredCount, recentCallbackAt, claim, circle)' })
  async callsCard(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    const q = parseCheckedList<{ facilityName?: string | null; withinTwoHours?: boolean | null }>(query, {
      sortable: ['recentCallbackAt'],
      defaultSort: ['recentCallbackAt', 'ASC'],
      schema: 'callsCardFilter',
    });
    return sendPage(reply, 'divisions', q, await this.placement.callsCard(q));
  }

  @Route('GET', 'log/:caseId', 'read', 'PlacementLog')
  @ApiListQuery(LOG_SORTABLE, 'from, to, facilityIds[], results[], coordinatorIds[]')
  @ApiOkResponse({ description: 'The calls of the case (placement call log rows), a page of 10 unless a range says otherwise, default dateContact descending, with canUndo; Content-Range: calls first-last/total' })
  async caseLog(@CurrentUser() user: UserContext, @IdParam('caseId') caseId: number, @Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    // The log pages by 10 (spec 01 §9 "Log page size: 10").
    const q = parseListQuery({ range: JSON.stringify([0, LOG_PAGE_SIZE - 1]), ...query }, { sortable: LOG_SORTABLE, defaultSort: ['dateContact', 'DESC'] });
    const filter = checkFilter<Record<string, any>>(q.filter, 'placementLogFilter');
    return sendPage(reply, 'calls', q, await this.placement.caseLog(user, caseId, filter, { field: q.sortField, order: q.sortOrder }, { offset: q.offset, limit: q.limit }));
  }

  @Route('PUT', ':taskId/undo/:callId', 'manage', 'Placement', 'Placement.UndoCall')
  @ApiOkResponse({ description: '{ undone, callbackAt }: the task shows its previous call again' })
  @ApiConflictResponse({ description: 'INV.CALL.CANNOT.BE.UNDONE (not the last call, claimed, already undone, or the case is past placement)' })
  undo(@CurrentUser() user: UserContext, @IdParam('taskId') taskId: number, @IdParam('callId') callId: number) {
    return this.placement.undo(user, taskId, callId);
  }
}
