import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiConflictResponse, ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { CallLogSubmitInput, UserContext } from '@crisis/forms';
import { CheckAbility } from '../auth/abilities.guard';
import { CurrentUser } from '../auth/current-user.decorator';
import { AuditAction, AuditAfterCommand, SkipAudit } from '../audit/audit.interceptor';
import { contentRange, parseListQuery } from '../common/list-query';
import { ApiSchemaBody } from '../common/openapi';
import { schema } from '../common/validation.pipe';
import { ApiListQuery } from '../facilities/facilities.controller';
import { checkFilter, parseCheckedList, parseId } from '../facilities/list-params';
import { PlacementService } from './placement.service';

const LOG_SORTABLE = ['dateContact', 'coordinator', 'referringFacility', 'result', 'callbackAt'];

/** The placements of a case (spec 02 §2 "Case page (ITP)"). */
@ApiTags('placement')
@Controller('api/cases')
export class CasePlacementsController {
  constructor(private readonly placement: PlacementService) {}

  @Get(':id/placements')
  @CheckAbility('manage', 'Placement')
  @ApiParam({ name: 'id', type: Number })
  @ApiOkResponse({ description: '{ tasks, reworkedWarning, readOnly, canAddTasks, outOfState: { shown, enabled, value } }' })
  placements(@CurrentUser() user: UserContext, @Param('id') id: string) {
    return this.placement.placements(user, parseId(id));
  }
}

/** Placement tasks, division claims, the call log and its logs (spec 02 §7 /api/placement-tasks). */
@ApiTags('placement')
@Controller('api/placement-tasks')
export class PlacementTasksController {
  constructor(private readonly placement: PlacementService) {}

  @Post('generate/:caseId')
  @HttpCode(200)
  @CheckAbility('manage', 'Placement')
  @AuditAction('Placement.AddTasks')
  @AuditAfterCommand()
  @ApiParam({ name: 'caseId', type: Number })
  @ApiSchemaBody('placementGenerate')
  @ApiOkResponse({ description: "Up to 5 more tasks for the best-fitting divisions: { state, taskIds }" })
  @ApiConflictResponse({ description: 'INV.CASE.NOT.CONTACTING, INV.CASE.IS.CLOSED' })
  generate(@CurrentUser() user: UserContext, @Param('caseId') caseId: string, @Body(schema('placementGenerate')) body: { notes?: string | null }) {
    return this.placement.generate(user, parseId(caseId), body.notes ?? null);
  }

  @Post('create')
  @HttpCode(200)
  @CheckAbility('manage', 'Placement')
  @AuditAction('Placement.AddTask')
  @AuditAfterCommand()
  @ApiSchemaBody('placementTaskCreate')
  @ApiOkResponse({ description: 'A task for one referring division, added by hand: { state, taskIds }' })
  @ApiConflictResponse({ description: 'INV.NOT.UNIQ (the division is already in the placements), INV.CASE.NOT.CONTACTING' })
  create(@CurrentUser() user: UserContext, @Body(schema('placementTaskCreate')) body: { caseId: number; divisionId: number }) {
    return this.placement.createTask(user, body.caseId, body.divisionId);
  }

  @Post('division/:id/claim')
  @HttpCode(200)
  @CheckAbility('manage', 'Placement')
  @AuditAction('Placement.ClaimDivision')
  @ApiParam({ name: 'id', type: Number, description: 'referring division id' })
  @ApiSchemaBody('divisionClaim')
  @ApiOkResponse({ description: '{ claimId, divisionId, expiresAt }: renew it with PUT /api/claims/{claimId}/extend every 60 s' })
  @ApiConflictResponse({ description: 'INV.DIVISION.ALREADY.CLAIMED (payload divisionId, claimedByName, claimedById)' })
  claim(@CurrentUser() user: UserContext, @Param('id') id: string, @Body(schema('divisionClaim')) _body: { resumeTask?: boolean | null }) {
    return this.placement.claimDivision(user, parseId(id));
  }

  @Get('claim/:id')
  @CheckAbility('manage', 'Placement')
  @ApiParam({ name: 'id', type: Number, description: 'claim id' })
  @ApiOkResponse({ description: 'The call log: { claimId, expiresAt, division, tasks }' })
  @ApiConflictResponse({ description: 'INV.CLAIM.IS.OVERDUE.OR.INACTIVE' })
  callLog(@CurrentUser() user: UserContext, @Param('id') id: string) {
    return this.placement.callLog(user, parseId(id));
  }

  @Put('claim/:id/calls')
  @CheckAbility('manage', 'Placement')
  @AuditAction('Placement.SubmitCalls')
  @ApiParam({ name: 'id', type: Number, description: 'claim id' })
  @ApiSchemaBody('callLogSubmit')
  @ApiOkResponse({ description: '{ saved, bulkId }' })
  @ApiConflictResponse({ description: 'INV.CLAIM.IS.OVERDUE.OR.INACTIVE, INV.CASE.IS.CLOSED, INV.CASE.IS.REWORKED' })
  submit(@CurrentUser() user: UserContext, @Param('id') id: string, @Body(schema('callLogSubmit')) body: CallLogSubmitInput) {
    return this.placement.submit(user, parseId(id), body);
  }

  @Put('claim/:id/draft/calls')
  @CheckAbility('manage', 'Placement')
  @SkipAudit()
  @ApiParam({ name: 'id', type: Number, description: 'claim id' })
  @ApiSchemaBody('callLogDraft')
  @ApiOkResponse({ description: '{ saved }: the draft rows are kept per task' })
  draft(@CurrentUser() user: UserContext, @Param('id') id: string, @Body(schema('callLogDraft')) body: { calls: CallLogSubmitInput['calls'] }) {
    return this.placement.saveDraft(user, parseId(id), body.calls);
  }

  @Put('claim/:id/release')
  @CheckAbility('manage', 'Placement')
  @AuditAction('Placement.ReleaseDivision')
  @ApiParam({ name: 'id', type: Number, description: 'claim id' })
  @ApiOkResponse({ description: 'The released claim' })
  release(@CurrentUser() user: UserContext, @Param('id') id: string) {
    return this.placement.releaseClaim(user, parseId(id));
  }

  @Get('division/group')
  @CheckAbility('manage', 'Placement')
  @ApiListQuery(['recentCallbackAt'], 'facilityName, withinTwoHours')
  @ApiOkResponse({ description: 'The calls card: one row per division with tasks (taskCount, facility, division, preferredCount, recentCallbackAt, claim, circle)' })
  async callsCard(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    const q = parseCheckedList<{ facilityName?: string | null; withinTwoHours?: boolean | null }>(query, {
      sortable: ['recentCallbackAt'],
      defaultSort: ['recentCallbackAt', 'ASC'],
      schema: 'callsCardFilter',
    });
    const { rows, total } = await this.placement.callsCard(q);
    reply.header('Content-Range', contentRange('divisions', q.offset, rows.length, total));
    return rows;
  }

  @Get('log/:caseId')
  @CheckAbility('read', 'PlacementLog')
  @ApiParam({ name: 'caseId', type: Number })
  @ApiListQuery(LOG_SORTABLE, 'from, to, facilityIds[], results[], coordinatorIds[]')
  @ApiOkResponse({ description: 'Every call of the case (placement call log rows), default dateContact descending, with canUndo' })
  caseLog(@CurrentUser() user: UserContext, @Param('caseId') caseId: string, @Query() query: Record<string, unknown>) {
    const q = parseListQuery(query, { sortable: LOG_SORTABLE, defaultSort: ['dateContact', 'DESC'] });
    const filter = checkFilter<Record<string, any>>(q.filter, 'placementLogFilter');
    return this.placement.caseLog(user, parseId(caseId), filter, { field: q.sortField, order: q.sortOrder });
  }

  @Put(':taskId/undo/:callId')
  @CheckAbility('manage', 'Placement')
  @AuditAction('Placement.UndoCall')
  @ApiParam({ name: 'taskId', type: Number })
  @ApiParam({ name: 'callId', type: Number })
  @ApiOkResponse({ description: '{ undone, callbackAt }: the task shows its previous call again' })
  @ApiConflictResponse({ description: 'INV.CALL.CANNOT.BE.UNDONE (not the last call, claimed, already undone, or the case is past placement)' })
  undo(@CurrentUser() user: UserContext, @Param('taskId') taskId: string, @Param('callId') callId: string) {
    return this.placement.undo(user, parseId(taskId), parseId(callId));
  }
}
