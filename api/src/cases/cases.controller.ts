import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import {
  ErrorCode,
  UserType,
  type CaseChangeOutcomeInput,
  type CaseCloseInput,
  type CaseCreateInput,
  type CasePatientSearchInput,
  type CaseStatusChangeInput,
  type UserContext,
} from '@crisis/forms';
import { CheckAbility } from '../auth/abilities.guard';
import { CurrentUser } from '../auth/current-user.decorator';
import { AuditAction, AuditAfterCommand } from '../audit/audit.interceptor';
import { afterCommit } from '../common/after-commit';
import { invalid } from '../common/coded-error';
import { contentRange, queryValue } from '../common/list-query';
import { ApiSchemaBody } from '../common/openapi';
import { schema } from '../common/validation.pipe';
import { ApiListQuery } from '../facilities/facilities.controller';
import { checkFilter, parseCheckedList, parseId } from '../facilities/list-params';
import { CaseCommandsService } from './case-commands.service';
import { CASE_SORTABLE, defaultCaseSort, listCases, type CaseListFilter } from './case-list.query';
import { CasesService } from './cases.service';
import { InjectConnection } from '@nestjs/sequelize';
import { Sequelize } from 'sequelize-typescript';

const CASE_STATE = {
  type: 'object',
  properties: {
    state: {
      type: 'object',
      properties: { caseId: { type: 'integer' }, status: { type: 'string' }, statusToResume: { type: 'string', nullable: true }, version: { type: 'integer' } },
    },
  },
};
const COMMAND_ERRORS =
  'INV.CASE.STATUS.CHANGED (someone changed the case first), INV.CASE.IS.CLOSED, INV.CASE.HAS.ACTIVE.REQUEST, INV (transition not allowed, or `fields`)';


/** Cases (spec 01 §7 /api/cases): creation, lists, the case page and its lifecycle commands. */
@ApiTags('cases')
@Controller('api/cases')
export class CasesController {
  constructor(
    private readonly cases: CasesService,
    private readonly commands: CaseCommandsService,
    @InjectConnection() private readonly sequelize: Sequelize,
  ) {}

  @Get()
  @CheckAbility('read', 'Case')
  @ApiListQuery(CASE_SORTABLE, 'status[], mainRecommendation[], search, except[], onlyWaitingForConfirmation, providerCases, showAll, activeForHours')
  @ApiOkResponse({ description: "Open cases in the user's scope with the columns of the role's table; total in Content-Range" })
  async list(@CurrentUser() user: UserContext, @Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    const rawFilter = typeof query.filter === 'string' ? safeJson(query.filter) : {};
    const q = parseCheckedList<CaseListFilter>(query, {
      sortable: CASE_SORTABLE,
      defaultSort: defaultCaseSort(user, (rawFilter ?? {}) as CaseListFilter),
      schema: 'caseListFilter',
    });
    const { rows, total } = await listCases(this.sequelize, user, q);
    reply.header('Content-Range', contentRange('cases', q.offset, rows.length, total));
    return rows;
  }

  @Get('search-patient')
  @CheckAbility('create', 'Case')
  @ApiQuery({ name: 'firstName', required: true })
  @ApiQuery({ name: 'lastName', required: true })
  @ApiQuery({ name: 'dateOfBirth', required: true, description: 'YYYY-MM-DD' })
  @ApiOkResponse({ description: 'Patients with this name and date of birth, each with its last case (activeCase when not closed)' })
  searchPatient(@Query() query: Record<string, unknown>) {
    const input = checkFilter<CasePatientSearchInput>(
      { firstName: queryValue(query.firstName), lastName: queryValue(query.lastName), dateOfBirth: queryValue(query.dateOfBirth) },
      'casePatientSearch',
    );
    return this.cases.searchPatients(input);
  }

  @Get('providers')
  @CheckAbility('create', 'Case')
  @ApiQuery({ name: 'divisionId', required: true })
  @ApiQuery({ name: 'dateOfBirth', required: false, description: "the patient's, YYYY-MM-DD: only providers accepting that age" })
  @ApiOkResponse({ description: 'Active credentialed providers of the division accepting the patient' })
  providers(@Query('divisionId') divisionId: unknown, @Query('dateOfBirth') dob: unknown) {
    const date = typeof dob === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(dob) ? dob : null;
    if (dob !== undefined && dob !== '' && !date) throw invalid([{ field: 'dateOfBirth', key: 'format', message: 'Must be a date' }]);
    return this.cases.providersFor(parseId(queryValue(divisionId)), date);
  }

  @Post()
  @CheckAbility('create', 'Case')
  @AuditAction('Case.Create')
  @ApiSchemaBody('caseCreate')
  @ApiOkResponse({ description: 'The new case: { id, requestId, status }' })
  @ApiConflictResponse({ description: 'INV.PATIENT.HAS.ACTIVE.CASE (payload caseId): the patient already has a case that is not closed' })
  async create(@CurrentUser() user: UserContext, @Body(schema('caseCreate')) body: CaseCreateInput) {
    const created = await this.cases.create(user, body);
    // Starts the case workflow and raises the first request's notifications once the case exists.
    await afterCommit('announce new case', () => this.commands.run(user, created.id, { kind: 'announceCreated' }));
    return created;
  }

  @Get(':id')
  @CheckAbility('read', 'Case')
  @ApiParam({ name: 'id', type: Number })
  @ApiOkResponse({ description: 'The case page payload (spec 01 §3 Case) with its requests and the statuses the selector offers' })
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  async get(@CurrentUser() user: UserContext, @Param('id') id: string) {
    const caseId = parseId(id);
    const page = await this.cases.details(user, caseId);
    // The provider opening a case sent to him starts reviewing it (spec 01 §4): a move the server owes him.
    const sent = user.role === UserType.ItpProvider && page.requests.find((r: { status: string; evaluationProviderId?: number | null }) =>
      r.status === 'Pending' && r.evaluationProviderId === user.id);
    if (!sent) return page;
    await this.commands.run(user, caseId, { kind: 'requestInProgress', requestId: sent.id });
    return this.cases.details(user, caseId);
  }

  @Get(':id/state-transitions')
  @CheckAbility('read', 'Case')
  @ApiParam({ name: 'id', type: Number })
  @ApiOkResponse({ description: 'Statuses the status selector offers from the current one' })
  async stateTransitions(@CurrentUser() user: UserContext, @Param('id') id: string) {
    const d = await this.cases.details(user, parseId(id));
    return d.allowedStatuses;
  }

  @Put(':id/status')
  @CheckAbility('update', 'CaseStatus')
  @AuditAction('Case.ChangeStatus')
  @AuditAfterCommand()
  @ApiParam({ name: 'id', type: Number })
  @ApiSchemaBody('caseStatusChange')
  @ApiOkResponse({ description: "The case's new state", schema: CASE_STATE })
  @ApiConflictResponse({ description: COMMAND_ERRORS })
  async changeStatus(@CurrentUser() user: UserContext, @Param('id') id: string, @Body(schema('caseStatusChange')) body: CaseStatusChangeInput & Record<string, any>) {
    const caseId = parseId(id);
    await this.cases.findInScope(user, caseId);
    return this.commands.run(user, caseId, {
      kind: 'changeStatus',
      status: body.status,
      note: body.note ?? null,
      mainRecommendation: body.mainRecommendation ?? null,
      criteria: body.criteria ?? null,
      includeOutOfStateFacilities: body.includeOutOfStateFacilities ?? null,
      expectedStatus: body.expectedStatus ?? null,
    });
  }

  @Put(':id/close')
  @CheckAbility('update', 'CaseStatus')
  @AuditAction('Case.Close')
  @AuditAfterCommand()
  @ApiParam({ name: 'id', type: Number })
  @ApiSchemaBody('caseClose')
  @ApiOkResponse({ description: "The case's new state", schema: CASE_STATE })
  @ApiConflictResponse({ description: `${COMMAND_ERRORS}; INV.CASE.HAS.ACTIVE.REQUEST while the latest request is active` })
  async close(@CurrentUser() user: UserContext, @Param('id') id: string, @Body(schema('caseClose')) body: CaseCloseInput & Record<string, any>) {
    const caseId = parseId(id);
    await this.cases.findInScope(user, caseId);
    return this.commands.run(user, caseId, {
      kind: 'close',
      outcomeRequired: body.outcomeRequired,
      caseOutcomeType: body.caseOutcomeType ?? null,
      note: body.note ?? null,
      referringDivisionId: body.referringDivisionId ?? null,
      expectedStatus: body.expectedStatus ?? null,
    });
  }

  @Put(':id/change-outcome')
  @CheckAbility('update', 'CaseStatus')
  @AuditAction('Case.ChangeOutcome')
  @AuditAfterCommand()
  @ApiParam({ name: 'id', type: Number })
  @ApiSchemaBody('caseChangeOutcome')
  @ApiOkResponse({ description: "The case's state", schema: CASE_STATE })
  async changeOutcome(@CurrentUser() user: UserContext, @Param('id') id: string, @Body(schema('caseChangeOutcome')) body: CaseChangeOutcomeInput & Record<string, any>) {
    const caseId = parseId(id);
    await this.cases.findInScope(user, caseId);
    return this.commands.run(user, caseId, {
      kind: 'changeOutcome',
      caseOutcomeType: body.caseOutcomeType ?? null,
      note: body.note ?? null,
      referringDivisionId: body.referringDivisionId ?? null,
    });
  }

  @Put(':id/resume')
  @CheckAbility('update', 'CaseStatus')
  @AuditAction('Case.Resume')
  @AuditAfterCommand()
  @ApiParam({ name: 'id', type: Number })
  @ApiOkResponse({ description: 'Back to statusToResume', schema: CASE_STATE })
  @ApiConflictResponse({ description: ErrorCode.CaseNothingToResume })
  async resume(@CurrentUser() user: UserContext, @Param('id') id: string) {
    const caseId = parseId(id);
    await this.cases.findInScope(user, caseId);
    return this.commands.run(user, caseId, { kind: 'resume' });
  }

  @Put(':id/undo')
  @CheckAbility('update', 'CaseStatus')
  @AuditAction('Case.UndoStatusChange')
  @AuditAfterCommand()
  @ApiParam({ name: 'id', type: Number })
  @ApiOkResponse({ description: 'The last manual status change undone', schema: CASE_STATE })
  @ApiConflictResponse({ description: ErrorCode.CaseNothingToUndo })
  async undo(@CurrentUser() user: UserContext, @Param('id') id: string) {
    const caseId = parseId(id);
    await this.cases.findInScope(user, caseId);
    return this.commands.run(user, caseId, { kind: 'undo' });
  }

  @Get(':id/reopen-status')
  @CheckAbility('update', 'CaseStatus')
  @ApiParam({ name: 'id', type: Number })
  @ApiOkResponse({ description: '{ statusToReopen, activeCaseId }: activeCaseId set when the patient has another active case' })
  async reopenStatus(@CurrentUser() user: UserContext, @Param('id') id: string) {
    const caseId = parseId(id);
    await this.cases.findInScope(user, caseId);
    return this.cases.reopenStatus(caseId);
  }

  @Post(':id/reopen')
  @HttpCode(200)
  @CheckAbility('update', 'CaseStatus')
  @AuditAction('Case.Reopen')
  @AuditAfterCommand()
  @ApiParam({ name: 'id', type: Number })
  @ApiOkResponse({ description: "The case's new state", schema: CASE_STATE })
  @ApiConflictResponse({ description: 'INV.PATIENT.HAS.ACTIVE.CASE (payload caseId)' })
  async reopen(@CurrentUser() user: UserContext, @Param('id') id: string) {
    const caseId = parseId(id);
    await this.cases.findInScope(user, caseId);
    return this.commands.run(user, caseId, { kind: 'reopen' });
  }

  @Put(':id/remove-from-accepted')
  @CheckAbility('update', 'CaseStatus')
  @AuditAction('Case.RemoveFromAccepted')
  @AuditAfterCommand()
  @ApiParam({ name: 'id', type: Number })
  @ApiOkResponse({ description: "The case's state", schema: CASE_STATE })
  async removeFromAccepted(@CurrentUser() user: UserContext, @Param('id') id: string) {
    const caseId = parseId(id);
    await this.cases.findInScope(user, caseId);
    return this.commands.run(user, caseId, { kind: 'removeFromAccepted' });
  }

  @Get(':id/accepted-facilities')
  @CheckAbility('read', 'Case')
  @ApiParam({ name: 'id', type: Number })
  @ApiOkResponse({ description: 'Referring divisions that accepted the patient: divisionId, divisionName, facilityId, facilityName, acceptedAt' })
  async acceptedFacilities(@CurrentUser() user: UserContext, @Param('id') id: string) {
    const caseId = parseId(id);
    await this.cases.findInScope(user, caseId);
    return this.cases.acceptedFacilities(caseId);
  }

  @Get('inpatient-divisions/:id')
  @CheckAbility('read', 'Request')
  @ApiParam({ name: 'id', type: Number, description: 'the case id' })
  @ApiOkResponse({ description: 'Active mental-health inpatient divisions nearest the source facility, with proximityMiles' })
  async inpatientDivisions(@CurrentUser() user: UserContext, @Param('id') id: string) {
    const caseId = parseId(id);
    await this.cases.findInScope(user, caseId);
    return this.cases.inpatientDivisionsNear(caseId);
  }

  @Get(':id/activity')
  @CheckAbility('read', 'Case')
  @ApiParam({ name: 'id', type: Number })
  @ApiOkResponse({ description: 'Case activity rows, oldest first' })
  async activity(@CurrentUser() user: UserContext, @Param('id') id: string) {
    const caseId = parseId(id);
    await this.cases.findInScope(user, caseId);
    return this.cases.activity(caseId);
  }

  @Get(':id/activity/report')
  @CheckAbility('read', 'Case')
  @ApiParam({ name: 'id', type: Number })
  @ApiOkResponse({ description: 'Total case time and, per status group, its activities and total' })
  async activityReport(@CurrentUser() user: UserContext, @Param('id') id: string) {
    const caseId = parseId(id);
    await this.cases.findInScope(user, caseId);
    return this.cases.activityReport(caseId);
  }
}

function safeJson(raw: string): unknown {
  try {
    const v = JSON.parse(raw);
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}

