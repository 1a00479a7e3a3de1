import { Body, Controller, HttpCode, Query, Res } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import {
  ErrorCode,
  UserType,
  type CaseChangeOutcomeInput,
  type CaseRemoveFromAcceptedInput,
  type CaseCloseInput,
  type CaseCreateInput,
  type CasePatientSearchInput,
  type CaseStatusChangeInput,
  type UserContext,
} from '@crisis/forms';
import { CurrentUser } from '../auth/current-user.decorator';
import { ScopedCase, type CaseRef } from '../auth/scoped-case';
import { afterCommit } from '../common/after-commit';
import { invalid } from '../common/coded-error';
import { IdParam } from '../common/id-param';
import { queryValue } from '../common/list-query';
import { ListRoute, sendPage } from '../common/list-route';
import { ApiSchemaBody } from '../common/openapi';
import { schema } from '../common/validation.pipe';
import { Route } from '../common/route';
import { checkFilter, parseCheckedList, parseId } from '../facilities/list-params';
import { CaseCommandsService } from './case-commands.service';
import { CommandRoute } from './command-route';
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

  @ListRoute('read', 'Case', {
    sortable: CASE_SORTABLE,
    filter: 'status[], mainRecommendation[], search, except[], onlyWaitingForConfirmation, providerCases, showAll, activeForHours',
    description: "Open cases in the user's scope with the columns of the role's table; total in Content-Range",
  })
  async list(@CurrentUser() user: UserContext, @Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    const rawFilter = typeof query.filter === 'string' ? safeJson(query.filter) : {};
    const q = parseCheckedList<CaseListFilter>(query, {
      sortable: CASE_SORTABLE,
      defaultSort: defaultCaseSort(user, (rawFilter ?? {}) as CaseListFilter),
      schema: 'caseListFilter',
    });
    return sendPage(reply, 'cases', q, await listCases(this.sequelize, user, q));
  }

  @Route('GET', 'search-patient', 'create', 'Case')
  @ApiQuery({ name: 'firstName', required: true })
  @ApiQuery({ name: 'lastName', required: true })
  @ApiQuery({ name: 'dateOfBirth', required: true, description: 'YYYY-MM-DD' })
  @ApiOkResponse({ description: 'Patients with this name and date of birth, each with its last case (activeCase when not closed, lastCaseFromOldSystem), acceptedIn (the division that accepted the open case) and recentVisits (facilities of the last 3 months)' })
  searchPatient(@CurrentUser() user: UserContext, @Query() query: Record<string, unknown>) {
    const input = checkFilter<CasePatientSearchInput>(
      { firstName: queryValue(query.firstName), lastName: queryValue(query.lastName), dateOfBirth: queryValue(query.dateOfBirth) },
      'casePatientSearch',
    );
    return this.cases.searchPatients(user, input);
  }

  @Route('GET', 'providers', 'create', 'Case')
  @ApiQuery({ name: 'divisionId', required: true })
  @ApiQuery({ name: 'dateOfBirth', required: false, description: "the patient's, YYYY-MM-DD: only providers accepting that age" })
  @ApiOkResponse({ description: 'Active credentialed providers of the division accepting the patient' })
  providers(@Query('divisionId') divisionId: unknown, @Query('dateOfBirth') dob: unknown) {
    const date = typeof dob === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(dob) ? dob : null;
    if (dob !== undefined && dob !== '' && !date) throw invalid([{ field: 'dateOfBirth', key: 'format', message: 'Must be a date' }]);
    return this.cases.providersFor(parseId(queryValue(divisionId)), date);
  }

  @Route('POST', '', 'create', 'Case', 'Case.Create')
  @ApiSchemaBody('caseCreate')
  @ApiOkResponse({ description: 'The new case: { id, requestId, status }' })
  @ApiConflictResponse({ description: 'INV.PATIENT.HAS.ACTIVE.CASE (payload caseId): the patient already has a case that is not closed' })
  async create(@CurrentUser() user: UserContext, @Body(schema('caseCreate')) body: CaseCreateInput) {
    const created = await this.cases.create(user, body);
    // Starts the case workflow and raises the first request's notifications once the case exists.
    await afterCommit('announce new case', () => this.commands.run(user, created.id, { kind: 'announceCreated' }));
    return created;
  }

  @Route('GET', ':id', 'read', 'Case')
  @ApiOkResponse({ description: 'The case page payload (spec 01 §3 Case) with its requests and the statuses the selector offers' })
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  async get(@CurrentUser() user: UserContext, @IdParam() caseId: number) {
    const page = await this.cases.details(user, caseId);
    // The provider opening a case sent to him starts reviewing it (spec 01 §4): a move the server owes him.
    const sent = user.role === UserType.ItpProvider && page.requests.find((r: { status: string; evaluationProviderId?: number | null }) =>
      r.status === 'Pending' && r.evaluationProviderId === user.id);
    if (!sent) return page;
    await this.commands.run(user, caseId, { kind: 'requestInProgress', requestId: sent.id });
    return this.cases.details(user, caseId);
  }

  @Route('GET', ':id/state-transitions', 'read', 'Case')
  @ApiOkResponse({ description: 'Statuses the status selector offers from the current one' })
  async stateTransitions(@CurrentUser() user: UserContext, @IdParam() caseId: number) {
    const d = await this.cases.details(user, caseId);
    return d.allowedStatuses;
  }

  @CommandRoute('PUT', ':id/status', 'update', 'CaseStatus', 'Case.ChangeStatus', "The case's new state", CASE_STATE)
  @ApiSchemaBody('caseStatusChange')
  @ApiConflictResponse({ description: COMMAND_ERRORS })
  async changeStatus(@CurrentUser() user: UserContext, @ScopedCase() { id: caseId }: CaseRef, @Body(schema('caseStatusChange')) body: CaseStatusChangeInput & Record<string, any>) {
    const optional = orNull(body, 'note', 'mainRecommendation', 'criteria', 'includeOutOfStateFacilities', 'expectedStatus');
    return this.commands.run(user, caseId, { kind: 'changeStatus', status: body.status, ...optional });
  }

  @CommandRoute('PUT', ':id/close', 'update', 'CaseStatus', 'Case.Close', "The case's new state", CASE_STATE)
  @ApiSchemaBody('caseClose')
  @ApiConflictResponse({ description: `${COMMAND_ERRORS}; INV.CASE.HAS.ACTIVE.REQUEST while the latest request is active` })
  async close(@CurrentUser() user: UserContext, @ScopedCase() { id: caseId }: CaseRef, @Body(schema('caseClose')) body: CaseCloseInput & Record<string, any>) {
    const optional = orNull(body, 'caseOutcomeType', 'note', 'referringDivisionId', 'expectedStatus');
    return this.commands.run(user, caseId, { kind: 'close', outcomeRequired: body.outcomeRequired, ...optional });
  }

  @CommandRoute('PUT', ':id/change-outcome', 'update', 'CaseStatus', 'Case.ChangeOutcome', "The case's state", CASE_STATE)
  @ApiSchemaBody('caseChangeOutcome')
  async changeOutcome(@CurrentUser() user: UserContext, @ScopedCase() { id: caseId }: CaseRef, @Body(schema('caseChangeOutcome')) body: CaseChangeOutcomeInput & Record<string, any>) {
    return this.commands.run(user, caseId, { kind: 'changeOutcome', ...orNull(body, 'caseOutcomeType', 'note', 'referringDivisionId') });
  }

  @CommandRoute('PUT', ':id/resume', 'update', 'CaseStatus', 'Case.Resume', 'Back to statusToResume', CASE_STATE)
  @ApiConflictResponse({ description: ErrorCode.CaseNothingToResume })
  async resume(@CurrentUser() user: UserContext, @ScopedCase() { id: caseId }: CaseRef) {
    return this.commands.run(user, caseId, { kind: 'resume' });
  }

  @CommandRoute('PUT', ':id/undo', 'update', 'CaseStatus', 'Case.UndoStatusChange', 'The last manual status change undone', CASE_STATE)
  @ApiConflictResponse({ description: ErrorCode.CaseNothingToUndo })
  async undo(@CurrentUser() user: UserContext, @ScopedCase() { id: caseId }: CaseRef) {
    return this.commands.run(user, caseId, { kind: 'undo' });
  }

  @Route('GET', ':id/reopen-status', 'update', 'CaseStatus')
  @ApiOkResponse({ description: '{ statusToReopen, activeCaseId }: activeCaseId set when the patient has another active case' })
  async reopenStatus(@ScopedCase() { id: caseId }: CaseRef) {
    return this.cases.reopenStatus(caseId);
  }

  @CommandRoute('POST', ':id/reopen', 'update', 'CaseStatus', 'Case.Reopen', "The case's new state", CASE_STATE)
  @HttpCode(200)
  @ApiConflictResponse({ description: 'INV.PATIENT.HAS.ACTIVE.CASE (payload caseId)' })
  async reopen(@CurrentUser() user: UserContext, @ScopedCase() { id: caseId }: CaseRef) {
    return this.commands.run(user, caseId, { kind: 'reopen' });
  }

  @CommandRoute('PUT', ':id/remove-from-accepted', 'update', 'CaseStatus', 'Case.RemoveFromAccepted', "The case's state", CASE_STATE)
  @ApiSchemaBody('caseRemoveFromAccepted')
  @ApiConflictResponse({ description: 'INV.CASE.NOT.ACCEPTED (no division accepts the patient); INV with divisionId required when several do' })
  async removeFromAccepted(
    @CurrentUser() user: UserContext,
    @ScopedCase() { id: caseId }: CaseRef,
    @Body(schema('caseRemoveFromAccepted')) body: CaseRemoveFromAcceptedInput,
  ) {
    return this.commands.run(user, caseId, { kind: 'removeFromAccepted', divisionId: body.divisionId ?? null });
  }

  @Route('GET', ':id/accepted-facilities', 'read', 'Case')
  @ApiOkResponse({ description: 'Referring divisions that accepted the patient: divisionId, divisionName, facilityId, facilityName, acceptedAt' })
  async acceptedFacilities(@ScopedCase() { id: caseId }: CaseRef) {
    return this.cases.acceptedFacilities(caseId);
  }

  @Route('GET', 'inpatient-divisions/:id', 'read', 'Request')
  @ApiParam({ name: 'id', type: Number, description: 'the case id' })
  @ApiOkResponse({ description: 'Active mental-health inpatient divisions nearest the source facility, with proximityMiles' })
  async inpatientDivisions(@ScopedCase() { id: caseId }: CaseRef) {
    return this.cases.inpatientDivisionsNear(caseId);
  }

  @Route('GET', ':id/activity', 'read', 'Case')
  @ApiOkResponse({ description: 'Case activity rows, oldest first' })
  async activity(@ScopedCase() { id: caseId }: CaseRef) {
    return this.cases.activity(caseId);
  }

  @Route('GET', ':id/activity/report', 'read', 'CaseReport')
  @ApiOkResponse({ description: 'Total case time and, per status group, its activities and total' })
  async activityReport(@ScopedCase() { id: caseId }: CaseRef) {
    return this.cases.activityReport(caseId);
  }
}

/** The optional fields of a command body: each one's value, or null when absent. */
function orNull<B extends object, K extends keyof B & string>(body: B, ...keys: K[]): { [P in K]: NonNullable<B[P]> | null } {
  return Object.fromEntries(keys.map((k) => [k, body[k] ?? null])) as { [P in K]: NonNullable<B[P]> | null };
}

function safeJson(raw: string): unknown {
  try {
    const v = JSON.parse(raw);
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}

