/**
 * The one writer of a case (spec 01 §4; ARCHITECTURE "Case lifecycle"): every change to the
 * `cases`, `requests` and `case_activities` rows is written by this module and nowhere else.
 *
 * - Commands of the case workflow (status, close, outcome, reopen, undo, requests, the
 *   recommendation from any screen, placement tasks, accepted divisions) arrive through the
 *   workflow's local activity (case.activities.ts) and are applied by `apply`: one transaction
 *   that locks the case row, re-checks the rules of forms/ against it (the row is the truth),
 *   writes the change, its audit entry and its live event (NOTIFY, delivered on commit), and
 *   records the command id so a retried activity returns the first result.
 * - Creation is applied by `createCase` inside the API's own transaction (with the patient and
 *   insurance rows it belongs with), so an emergency room can create a case while Temporal is
 *   unreachable; the workflow adopts the case when its first command starts it.
 * - Plain details written together with other rows of the caller's transaction (source details,
 *   the uninsured flag, the out-of-state choice) go through `updateDetails`.
 * - A patient merge moves the cases of the merged-away records to the survivor through
 *   `reassignPatient`, inside the merge's transaction, with a live event per moved case.
 */
import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';

import { Sequelize } from 'sequelize-typescript';
import {
  COMMANDS_ON_CLOSED_CASE,
  CaseStatus,
  ERRORS,
  ErrorCode,
  LiveRoom,
  allowedTargets,
  canEditRequest,
  caseStatusGroupOf,
  closeBlockedByRequest,
  closeProblems,
  evaluationInProgressStatus,
  initialRequestStatus,
  isActiveRequestStatus,
  isOnHold,
  mayCloseWithoutOutcome,
  outcomeNeedsFacility,
  recommendationProblems,
  statusAfterRemovedFromAccepted,
  statusAfterRequestCancelled,
  statusAfterRequestCreated,
  statusChangeProblems,
  ADD_TASKS_MAX,
  INITIAL_PLACEMENT_TASKS,
  PLACEMENT_CASE_STATUSES,
  recipientsOf,
  type ErrorCodeName,
  type NotificationType,
  type RequestType,
} from '@crisis/forms';
import type {
  ApplyCaseCommandOutcome,
  CaseCommand,
  CaseCommandError,
  CaseCommandResult,
  CaseNotification,
  CaseState,
} from '@crisis/workflows';
import { AuditService } from '../audit/audit.service';
import { currentTransaction } from '../common/after-commit';
import { connectionOf, inTransaction, namedStatements, pooledSql, type Sql } from '../db/sql';
import { onlineMeetingsRepository as meetings } from '../online-meetings/online-meetings.repository';
import { generatePlacementTasks, routingIsRemote, travelForCandidates, type TravelTimes } from '../placement/placement-generation';
import { messagingRepository } from '../messaging/messaging.repository';
import { ehrDeliveries } from '../ehr/ehr-deliveries.repository';
import { caseRepository as repo, type CaseDetails, type CaseRow, type MoveExtra, type NewCaseRow, type NewRequest } from './case.repository';

class Refusal extends Error {
  constructor(readonly error: CaseCommandError) {
    super(error.message);
  }
}
const refuse = (code: ErrorCodeName, message: string, payload?: unknown): never => {
  throw new Refusal({ code, message, payload });
};
const fieldRefusal = (problems: Record<string, string>): never => {
  const fields = Object.entries(problems).map(([field, key]) => ({ field, key, message: FIELD_MESSAGES[key] ?? key }));
  throw new Refusal({ code: ErrorCode.Invalid, message: 'Invalid request data', fields });
};
const FIELD_MESSAGES: Record<string, string> = {
  required: 'Required',
  deferNotAllowed: 'Defer is not allowed while contacting service organizations',
  notAllowed: 'Not allowed for this recommendation',
  notReferring: 'Must be an active referring division',
};

/**
 * PostgreSQL refused the data itself (class 22 data exception, e.g. a NUL character in a text;
 * class 23 integrity violation): retrying cannot help, so the command is refused, not retried.
 */
function dataRefusal(err: unknown): CaseCommandError | null {
  const e = err as { code?: string; parent?: { code?: string }; original?: { code?: string } };
  const sqlState = e?.code ?? e?.parent?.code ?? e?.original?.code;
  if (typeof sqlState !== 'string' || !/^(22|23)/.test(sqlState)) return null;
  return { code: ErrorCode.CaseCommandRefused, message: ERRORS[ErrorCode.CaseCommandRefused].message };
}

/** What a new case is made of (validated by CasesService.create). */
export type NewCase = NewCaseRow & { request: NewRequest };


@Injectable()
export class CaseCommandsHandler {
  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    private readonly audit: AuditService,
  ) {}

  /** The command's transaction: its statements are the writer's fixed set, named (db/sql.ts). */
  private transaction<T>(fn: (db: Sql) => Promise<T>): Promise<T> {
    return inTransaction(this.sequelize, (db) => fn(namedStatements(db)));
  }

  async loadState(caseId: number): Promise<CaseState | null> {
    return repo.state(this.pooled(), caseId);
  }

  private pooled(): Sql {
    return pooledSql(this.sequelize);
  }

  async apply(caseId: number, command: CaseCommand): Promise<ApplyCaseCommandOutcome> {
    // Slow outside calls happen before the transaction that locks the case (routing: up to 3 s).
    const travel = await this.travelBefore(caseId, command);
    try {
      return await this.transaction(async (db) => {
        const { row, applied: done } = await repo.lockForCommand<{ result: CaseCommandResult; notifications: CaseNotification[] }>(db, caseId, command.commandId);
        // Applied by an earlier attempt whose reply was lost: same answer, nothing written twice.
        if (done) return { ok: true as const, ...done };
        if (!row) refuse(ErrorCode.NotFound, 'Requested data not found');
        const statusBefore = row!.status; // the move updates the row object
        const applied = await apply(db, row!, command, travel);
        // The notifications of the change, in its transaction (their live events go out on commit).
        const notified = new Set<number>();
        for (const n of applied.notifications) {
          for (const userId of await repo.insertNotifications(db, caseId, command.commandId, n)) notified.add(userId);
          // The events that need the source facility at once also text or call its contact phone.
          await messagingRepository.raiseFacilityAlert(db, {
            caseId,
            type: n.type,
            payload: n.payload ?? {},
            sourceKey: command.commandId,
            actorActsForFacility: command.actor.userType.startsWith('Facility'),
            raisedBy: command.actor.id || null,
          });
        }
        const state = (await repo.state(db, caseId))!;
        const timers = await callbackTimersAfter(db, statusBefore, state.status, caseId, applied.taskIds ?? []);
        const result: CaseCommandResult = {
          state,
          ...(applied.requestId ? { requestId: applied.requestId } : {}),
          ...(applied.taskIds ? { taskIds: applied.taskIds } : {}),
          ...(applied.meetingId ? { meetingId: applied.meetingId } : {}),
          ...timers,
          notifiedUserIds: [...notified],
        };
        if (command.audit)
          await this.audit.record({
            ...command.audit,
            success: true,
            statusCode: 200,
            values: { ...command.audit.values, caseId, status: state.status, ...(applied.requestId ? { requestId: applied.requestId } : {}) },
          });
        // Raised above: nothing left for the workflow's raiseCaseNotifications (kept for runs recorded before).
        await repo.recordCommand(db, command.commandId, caseId, command.kind, { result, notifications: [] }, [
          { room: LiveRoom.case(caseId), event: 'case.updated', data: { caseId, status: state.status, version: state.version } },
          { room: LiveRoom.queue, event: 'queue.changed', data: { caseId } },
          ...(applied.taskIds?.length ? [{ room: LiveRoom.case(caseId), event: 'placements.updated' as const, data: { caseId } }] : []),
        ]);
        return { ok: true as const, result, notifications: [] };
      });
    } catch (err) {
      const error = err instanceof Refusal ? err.error : dataRefusal(err);
      if (!error) throw err; // transient database trouble: the activity retries (a bounded number of times)
      return { ok: false, error, state: (await this.loadState(caseId).catch(() => null)) ?? undefined };
    }
  }

  /**
   * Travel times of the divisions a command may add as placement tasks, asked of a routing
   * service before the transaction (read-only, on pooled connections), so no row lock is held
   * while it answers (up to 3 s). Entering contacting generates tasks only for a
   * case that has none yet (a case that comes back keeps its own), so only then are they asked.
   */
  private async travelBefore(caseId: number, command: CaseCommand): Promise<TravelTimes | undefined> {
    // The straight-line estimate is arithmetic: generation computes it in place.
    if (!routingIsRemote()) return undefined;
    const db = this.pooled();
    if (command.kind === 'generateTasks') return travelForCandidates(db, caseId);
    if (command.kind !== 'changeStatus' || command.status !== CaseStatus.Contacting) return undefined;
    if (await repo.hasPlacementTasks(db, caseId)) return undefined;
    return travelForCandidates(db, caseId, command.mainRecommendation);
  }

  /**
   * Inserts notifications a command returned to the workflow (runs recorded before notifications
   * moved into the command's own transaction); idempotent by the command id.
   */
  async raiseNotifications(caseId: number, commandId: string, notifications: CaseNotification[]): Promise<number[]> {
    const notified = new Set<number>();
    // Each notification is one statement (its rows and their live events): no transaction needed.
    const db = this.pooled();
    for (const n of notifications) for (const userId of await repo.insertNotifications(db, caseId, commandId, n)) notified.add(userId);
    return [...notified];
  }

  /**
   * Writes a new case, its first activity rows and its first request, inside the caller's
   * transaction (CasesService.create, with the patient and insurances). Returns the ids.
   */
  async createCase(input: NewCase): Promise<{ id: number; requestId: number }> {
    if (!currentTransaction()) throw new Error('createCase runs inside the request transaction');
    const { request, ...fields } = input;
    const id = await repo.createCase(fields);
    const requestId = await repo.insertRequest(id, input.sourceDivisionId, input.actor, request);
    return { id, requestId };
  }

  /**
   * Moves the cases of the patients `from` to patient `to` inside the caller's transaction (the
   * patient merge): each moved case's page hears 'case.updated' once the merge commits.
   */
  async reassignPatient(from: number[], to: number): Promise<number[]> {
    const t = currentTransaction();
    if (!t) throw new Error('reassignPatient runs inside the request transaction');
    const db = connectionOf(t);
    const moved = await repo.reassignPatient(db, from, to);
    for (const c of moved) await repo.publish(db, LiveRoom.case(c.id), 'case.updated', { caseId: c.id, status: c.status, version: c.version });
    return moved.map((c) => c.id);
  }

  /** Writes plain details of a case inside the caller's transaction (CLS) and bumps updated_at. */
  async updateDetails(caseId: number, details: CaseDetails): Promise<void> {
    await repo.updateDetails(caseId, details);
  }

}


interface Applied {
  notifications: CaseNotification[];
  requestId?: number;
  taskIds?: number[];
  meetingId?: number;
}

async function apply(db: Sql, c: CaseRow, command: CaseCommand, travel?: TravelTimes): Promise<Applied> {
  const actor = command.actor;
  if (command.expectedStatus && command.expectedStatus !== c.status)
    refuse(ErrorCode.CaseStatusChanged, 'The case status was changed by someone else', { status: c.status });
  const closed = c.status === CaseStatus.Closed;
  if (closed && !COMMANDS_ON_CLOSED_CASE.includes(command.kind)) refuse(ErrorCode.CaseIsClosed, 'The case is closed');

  /** A notification of the change, to the recipient table's audiences for its type and the actor's side. */
  const notice = (type: NotificationType, payload: Record<string, unknown> = {}): CaseNotification => ({
    type,
    to: recipientsOf(type, actor.userType),
    payload,
    actorId: actor.id || null,
  });
  const requests = () => repo.requests(db, c.id);
  const request = async (id: number) => {
    const r = (await requests()).find((x) => x.id === id);
    if (!r) refuse(ErrorCode.NotFound, 'Requested data not found');
    return r!;
  };
  const move = (to: string, kind: string, extra: MoveExtra = {}) =>
    repo.moveTo(db, c, to, kind, actor, command.commandId, {
      ...extra,
      // Back from placement to recommendation review (or reopened): the case's tasks are from an earlier round.
      reworked: (PLACEMENT_CASE_STATUSES.includes(c.status) && to === CaseStatus.WaitingOnDecision) || kind === 'reopen',
    });

  switch (command.kind) {
    case 'changeStatus': {
      if (command.status === c.status) return { notifications: [] };
      if (command.status === CaseStatus.Closed) fieldRefusal({ status: 'useClose' });
      const all = await requests();
      const allRequestsCancelled = all.every((r) => r.status === 'Canceled');
      if (!allowedTargets(c.status, { allRequestsCancelled }).includes(command.status as never))
        refuse(ErrorCode.Invalid, `The case cannot move from ${c.status} to ${command.status}`, { status: c.status });
      const problems = statusChangeProblems(command);
      if (Object.keys(problems).length) fieldRefusal(problems);
      if (command.status === CaseStatus.Contacting) {
        await repo.setRecommendation(
          c.id,
          { main: command.mainRecommendation ?? null, criteria: command.criteria ?? [], note: command.note ?? null },
          { includeOutOfStateFacilities: command.includeOutOfStateFacilities, startsLocating: true },
        );
      }
      await move(command.status, 'manual', {
        note: command.note,
        statusToResume: isOnHold(command.status) ? (isOnHold(c.status) ? c.status_to_resume : c.status) : null,
        recommendation:
          command.status === CaseStatus.Contacting
            ? { main: command.mainRecommendation ?? null, criteria: command.criteria ?? [], note: command.note ?? null }
            : undefined,
      });
      let taskIds: number[] | undefined;
      if (command.status === CaseStatus.Contacting) {
        // Entering contacting finds the facilities to call; a case that comes back keeps its tasks.
        if (!(await repo.hasPlacementTasks(db, c.id))) taskIds = await generatePlacementTasks(db, c.id, { count: INITIAL_PLACEMENT_TASKS, origin: 'generated', actorId: actor.id || null, travel });
      }
      const payload = { Reason: command.note ?? null };
      if (isOnHold(command.status)) return { notifications: [notice('CaseOnHold', payload)] };
      if (command.status === CaseStatus.Contacting)
        return {
          taskIds,
          notifications: [
            notice('CaseServices', { MainRecommendation: command.mainRecommendation ?? null, Criteria: command.criteria ?? [], RecommendationNote: command.note ?? null }),
          ],
        };
      return { notifications: [] };
    }

    case 'close': {
      const all = await requests();
      if (closeBlockedByRequest(all[0]?.status)) refuse(ErrorCode.CaseHasActiveRequest, 'The case has an active request', { status: all[0].status });
      const withoutOutcome = !command.outcomeRequired;
      if (withoutOutcome && !mayCloseWithoutOutcome({ documentInEhr: c.document_in_ehr, outcomeRequired: c.outcome_required }))
        fieldRefusal({ caseOutcomeType: 'required' });
      const problems = closeProblems(command);
      if (Object.keys(problems).length) fieldRefusal(problems);
      const divisionId = !withoutOutcome && outcomeNeedsFacility(command.caseOutcomeType) ? command.referringDivisionId! : null;
      if (divisionId) await assertReferringDivision(db, divisionId);
      await repo.setOutcome(c.id, { type: withoutOutcome ? null : (command.caseOutcomeType ?? null), note: command.note ?? null, referringDivisionId: divisionId }, true);
      await move(CaseStatus.Closed, 'manual', { note: command.note, statusToResume: null });
      await repo.totalLocatingTime(db, c.id);
      // An EHR-integrated source gets the outcome filed (its workflow starts when this commits).
      await ehrDeliveries.afterOutcome(db, c.id, command.commandId);
      return { notifications: [notice('CaseClosed', { Reason: command.note ?? null })] };
    }

    case 'changeOutcome': {
      if (!closed) refuse(ErrorCode.Invalid, 'The case is not closed');
      const required = !mayCloseWithoutOutcome({ documentInEhr: c.document_in_ehr, outcomeRequired: c.outcome_required });
      const problems = closeProblems({ ...command, outcomeRequired: required || !!command.caseOutcomeType });
      if (Object.keys(problems).length) fieldRefusal(problems);
      const divisionId = outcomeNeedsFacility(command.caseOutcomeType) ? command.referringDivisionId! : null;
      if (divisionId) await assertReferringDivision(db, divisionId);
      await repo.setOutcome(c.id, { type: command.caseOutcomeType ?? null, note: command.note ?? null, referringDivisionId: divisionId }, false);
      await ehrDeliveries.afterOutcome(db, c.id, command.commandId);
      return { notifications: [] };
    }

    case 'resume': {
      if (!isOnHold(c.status) || !c.status_to_resume) refuse(ErrorCode.CaseNothingToResume, 'The case has no status to resume');
      const target = c.status_to_resume!;
      await repo.resumeHeldRequests(c.id);
      await move(target, 'resume', { statusToResume: null });
      return { notifications: [notice('CaseResumed')] };
    }

    case 'undo': {
      const [last, previous] = await repo.lastChanges(db, c.id);
      if (!last || !previous || last.kind !== 'manual' || last.status !== c.status)
        refuse(ErrorCode.CaseNothingToUndo, 'There is no status change to undo');
      await repo.markUndone(last.id);
      await move(previous.status, 'undo', { statusToResume: isOnHold(previous.status) ? c.status_to_resume : null });
      return { notifications: [] };
    }

    case 'reopen': {
      if (!closed) refuse(ErrorCode.Invalid, 'The case is not closed');
      const other = await db.query<{ id: number }>(`SELECT id FROM cases WHERE patient_id = $1 AND id <> $2 AND status <> 'Closed' LIMIT 1`, [
        c.patient_id,
        c.id,
      ]);
      if (other.rows[0]) refuse(ErrorCode.PatientHasActiveCase, 'The patient has another active case', { caseId: other.rows[0].id });
      const target = await repo.reopenTarget(db, c.id);
      await repo.clearOutcome(c.id);
      await move(target, 'reopen', { statusToResume: null });
      return { notifications: [notice('CaseResumed')] };
    }

    case 'removeFromAccepted': {
      // The division's accepted record is cleared (it leaves the referring facility's accepted list
      // and the close dialog); the case goes back to contacting only when no division still accepts.
      const accepted = (
        await db.query<{ division_id: number }>(
          'SELECT division_id FROM case_referring_access WHERE case_id = $1 AND accepted_at IS NOT NULL AND removed_at IS NULL ORDER BY accepted_at FOR UPDATE',
          [c.id],
        )
      ).rows.map((r) => r.division_id);
      let divisionId = command.divisionId ?? null;
      if (divisionId === null) {
        if (accepted.length === 0) refuse(ErrorCode.CaseNotAccepted, 'No division has accepted the patient');
        if (accepted.length > 1) fieldRefusal({ divisionId: 'required' });
        divisionId = accepted[0];
      }
      await db.query('UPDATE case_referring_access SET accepted_at = NULL WHERE case_id = $1 AND division_id = $2', [c.id, divisionId]);
      const next = statusAfterRemovedFromAccepted(c.status, accepted.filter((d) => d !== divisionId).length);
      if (next !== c.status) await move(next, 'auto', {});
      return { notifications: [] };
    }

    case 'createRequest': {
      const all = await requests();
      const active = all.find((r) => isActiveRequestStatus(r.status));
      if (active) refuse(ErrorCode.CaseHasActiveRequest, 'The case already has an active request', { status: active.status, requestId: active.id });
      const type = command.type as RequestType;
      const hasProvider = !!command.evaluationProviderId;
      const requestId = await repo.insertRequest(c.id, c.source_division_id, actor, {
        type,
        status: initialRequestStatus(type, hasProvider),
        evaluationProviderId: command.evaluationProviderId ?? null,
        note: command.note ?? null,
        facilityNote: command.facilityNote ?? null,
        itpNote: command.itpNote ?? null,
      });
      const next = statusAfterRequestCreated(c.status, type, hasProvider);
      if (next !== c.status) await move(next, 'auto', { statusToResume: null });
      return { notifications: requestCreatedNotifications(notice, requestId, type, command.evaluationProviderId ?? null), requestId };
    }

    case 'updateRequest': {
      const r = await request(command.requestId);
      if (!canEditRequest(actor.userType, { type: r.type, status: r.status, evaluationStarted: !!r.evaluation_started_at })) refuse(ErrorCode.RequestNotEditable, 'The request can no longer be edited', { status: r.status });
      const newProvider = command.evaluationProviderId ?? null;
      const providerChanged = newProvider !== r.evaluation_provider_id;
      const status = providerChanged ? (newProvider ? 'Pending' : 'New') : r.status;
      await repo.updateRequest(
        r,
        { type: command.type, evaluationProviderId: newProvider, note: command.note ?? null, status, facilityNote: command.facilityNote ?? null, itpNote: command.itpNote ?? null },
        actor,
      );
      // A change of type or notes is RequestUpdated; a change of provider is told to both providers below.
      const typeUpdated = command.type !== r.type;
      const noteUpdated = (command.note ?? null) !== r.note || (command.facilityNote ?? null) !== r.facility_note || (command.itpNote ?? null) !== r.itp_note;
      const notifications: CaseNotification[] =
        typeUpdated || noteUpdated ? [notice('RequestUpdated', { RequestId: r.id, RequestTypeUpdated: typeUpdated, RequestNoteUpdated: noteUpdated })] : [];
      if (providerChanged) {
        const group = caseStatusGroupOf(c.status);
        if (group === 'PendingAssignment' || group === 'RequestSentToProvider' || group === 'ProviderWorkingRequest') {
          const next = newProvider ? CaseStatus.ProviderNotified : CaseStatus.PendingAssignment;
          if (next !== c.status) await move(next, 'auto', {});
        }
        if (r.evaluation_provider_id)
          notifications.push(notice('CaseReassignedToAnotherProvider', { RequestId: r.id, PreviousProviderId: r.evaluation_provider_id }));
        if (newProvider) notifications.push(notice('CaseAssignedToYou', { RequestId: r.id }));
      }
      return { notifications };
    }

    case 'cancelRequest': {
      const r = await request(command.requestId);
      if (!isActiveRequestStatus(r.status)) refuse(ErrorCode.RequestNotActive, 'The request is not active', { status: r.status });
      await repo.setRequestStatus(r.id, 'Canceled', { reason: command.reason, canceled: true });
      await repo.addLifecycleNote(db, c.id, actor, `Request ${r.type} canceled: ${command.reason}`);
      const next = statusAfterRequestCancelled(c.status);
      if (next !== c.status) await move(next, 'auto', {});
      return {
        notifications: [notice('RequestCanceled', { RequestId: r.id, Reason: command.reason })],
      };
    }

    case 'requestNotReady': {
      const r = await request(command.requestId);
      if (r.status !== 'InProgress') refuse(ErrorCode.RequestNotInProgress, 'The request is not in progress', { status: r.status });
      if (r.evaluation_provider_id !== actor.id) refuse(ErrorCode.Forbidden, "You don't have permission to perform this action");
      await repo.setRequestStatus(r.id, 'OnHold', { reason: command.reason });
      await repo.addLifecycleNote(db, c.id, actor, `Not ready for evaluation: ${command.reason}`);
      await move(CaseStatus.OnHoldDocumentationReview, 'auto', { note: command.reason, statusToResume: isOnHold(c.status) ? c.status_to_resume : c.status });
      return { notifications: [notice('RequestMarkedAsNotReadyForEvaluation', { RequestId: r.id, Reason: command.reason })] };
    }

    case 'requestInProgress': {
      const r = await request(command.requestId);
      if (r.status !== 'Pending') return { notifications: [] }; // already opened: nothing to do
      if (r.evaluation_provider_id !== actor.id) refuse(ErrorCode.Forbidden, "You don't have permission to perform this action");
      await repo.setRequestStatus(r.id, 'InProgress');
      if (caseStatusGroupOf(c.status) === 'RequestSentToProvider' || c.status === CaseStatus.PendingAssignment)
        await move(CaseStatus.ProviderDocumentationReview, 'auto', {});
      return { notifications: [notice('ProviderStartsReviewingDocuments', { RequestId: r.id })] };
    }

    case 'startEvaluation': {
      const r = await request(command.requestId);
      if (r.evaluation_provider_id !== actor.id) refuse(ErrorCode.Forbidden, "You don't have permission to perform this action");
      if (r.status !== 'InProgress' && r.status !== 'Pending') refuse(ErrorCode.RequestNotInProgress, 'The request is not in progress', { status: r.status });
      await repo.setRequestStatus(r.id, 'InProgress', { evaluationStarted: true });
      // The first start shows in the case notes (spec 01 §4 "Evaluation in progress … notes"); continuing adds none.
      if (!r.evaluation_started_at) await repo.addLifecycleNote(db, c.id, actor, `Evaluation in progress: ${r.type} request`);
      const next = evaluationInProgressStatus(r.type);
      if (next !== c.status && !isOnHold(c.status)) await move(next, 'auto', {});
      return { notifications: [] };
    }

    case 'completeEvaluation': {
      const r = await request(command.requestId);
      if (r.evaluation_provider_id !== actor.id) refuse(ErrorCode.Forbidden, "You don't have permission to perform this action");
      if (r.status !== 'InProgress') refuse(ErrorCode.RequestNotInProgress, 'The request is not in progress', { status: r.status });
      // The evaluation is completed with its request, in this transaction: the answers completed are
      // the version the provider validated (a save from another tab since then refuses the completion).
      const ev = await db.query<{ main_recommendation: string | null; criteria: string[]; recommendation_note: string | null }>(
        `UPDATE evaluations SET completed_at = now(), version = version + 1
          WHERE request_id = $1 AND ($2::int IS NULL OR version = $2) RETURNING main_recommendation, criteria, recommendation_note`,
        [r.id, command.evaluationVersion ?? null],
      );
      if (command.evaluationVersion !== undefined && !ev.rows.length) refuse(ErrorCode.EvaluationStale, 'The evaluation was changed in another window');
      await repo.setRequestStatus(r.id, 'Completed', { completed: true });
      const rec = ev.rows[0];
      if (rec?.main_recommendation)
        await repo.setRecommendation(c.id, { main: rec.main_recommendation, criteria: rec.criteria, note: rec.recommendation_note });
      await move(CaseStatus.WaitingOnDecision, 'auto', {
        recommendation: rec ? { main: rec.main_recommendation, criteria: rec.criteria, note: rec.recommendation_note } : undefined,
      });
      // The evaluation document and the claim an EHR-integrated source is owed (after commit).
      await ehrDeliveries.afterEvaluation(db, c.id, r.id);
      return { notifications: [notice('RequestCompleted', { RequestId: r.id, MainRecommendation: rec?.main_recommendation ?? null })] };
    }

    case 'updateRecommendation': {
      const problems = recommendationProblems(command, { caseStatus: c.status });
      if (Object.keys(problems).length) fieldRefusal(problems);
      const recommendation = { main: command.mainRecommendation, criteria: command.criteria, note: command.note };
      await repo.setRecommendation(c.id, recommendation, { bumpVersion: true });
      await repo.recordRecommendation(c.id, c.status, recommendation, actor, command.commandId);
      return { notifications: [] };
    }

    case 'announceCreated': {
      const [r] = await requests();
      if (!r) return { notifications: [] };
      return { notifications: requestCreatedNotifications(notice, r.id, r.type, r.evaluation_provider_id) };
    }

    case 'generateTasks': {
      if (!PLACEMENT_CASE_STATUSES.includes(c.status)) refuse(ErrorCode.CaseNotContacting, 'Tasks are added while contacting service organizations', { status: c.status });
      const count = Math.max(1, Math.min(ADD_TASKS_MAX, command.count));
      const taskIds = await generatePlacementTasks(db, c.id, { count, origin: 'added', notes: command.notes, actorId: actor.id || null, travel });
      return { notifications: [], taskIds };
    }

    case 'addTask': {
      if (!PLACEMENT_CASE_STATUSES.includes(c.status)) refuse(ErrorCode.CaseNotContacting, 'Tasks are added while contacting service organizations', { status: c.status });
      const { rows } = await db.query<{ id: number }>(
        `INSERT INTO placement_tasks (case_id, division_id, facility_id, origin, reasons, rank, created_by,
                                      is_preferred)
         SELECT $1, d.id, d.facility_id, 'manual', ARRAY['Added by hand'],
                (SELECT coalesce(max(rank), 0) + 1 FROM placement_tasks WHERE case_id = $1), $3,
                EXISTS (SELECT 1 FROM preferred_facilities pf JOIN cases x ON x.id = $1 WHERE pf.facility_id = x.source_facility_id AND pf.preferred_facility_id = d.facility_id)
           FROM divisions d WHERE d.id = $2 AND d.type = 'Referring' AND d.is_active
         ON CONFLICT (case_id, division_id) DO NOTHING RETURNING id`,
        [c.id, command.divisionId, actor.id || null],
      );
      if (!rows[0]) {
        const dup = await db.query('SELECT 1 FROM placement_tasks WHERE case_id = $1 AND division_id = $2', [c.id, command.divisionId]);
        if (dup.rows[0]) refuse(ErrorCode.NotUnique, 'The division is already in the placements');
        fieldRefusal({ divisionId: 'notReferring' });
      }
      return { notifications: [], taskIds: rows.map((r) => r.id) };
    }

    case 'createOnlineMeeting': {
      const r = await request(command.requestId);
      if (!isActiveRequestStatus(r.status)) refuse(ErrorCode.RequestNotActive, 'The request is not active', { status: r.status });
      if (!r.evaluation_provider_id) fieldRefusal({ evaluationProviderId: 'required' });
      // A provider makes meetings for his own requests only; partner staff for any.
      if (actor.userType === 'IntegratedTelehealthPartners_Provider' && r.evaluation_provider_id !== actor.id)
        refuse(ErrorCode.Forbidden, "You don't have permission to perform this action");
      const recreated = await meetings.endOpen(db, r.id, 'recreated');
      const meetingId = await meetings.insert(db, {
        requestId: r.id,
        caseId: c.id,
        room: command.room,
        joinUrl: command.joinUrl,
        createdBy: actor.id || null,
        scheduledAt: command.scheduledAt ?? null,
        idleEndsAt: command.idleEndsAt,
      });
      await repo.recordMeetingActivity(c.id, c.status, recreated ? 'Video meeting recreated' : 'Video meeting created', actor, command.commandId);
      return { notifications: [], meetingId };
    }

    case 'joinOnlineMeeting': {
      const r = await request(command.requestId);
      const m = await meetings.latest(db, r.id);
      if (!m) refuse(ErrorCode.NotFound, 'The request has no video meeting');
      if (m!.ended_at) refuse(ErrorCode.OnlineMeetingEnded, 'The video meeting has ended');
      if (command.as === 'provider' && r.evaluation_provider_id !== actor.id) refuse(ErrorCode.Forbidden, "You don't have permission to perform this action");
      const first = await meetings.markJoined(db, m!.id, command.as, command.idleEndsAt);
      if (first) await repo.recordMeetingActivity(c.id, c.status, command.as === 'provider' ? 'Provider joined the video meeting' : 'Patient joined the video meeting', actor, command.commandId);
      return { notifications: [], meetingId: m!.id };
    }

    case 'endOnlineMeeting': {
      const m = await meetings.byId(db, command.meetingId);
      if (!m || m.case_id !== c.id) refuse(ErrorCode.NotFound, 'Requested data not found');
      // A join that committed before this command moved the idle end: then nothing ends.
      if (await meetings.endIfIdle(db, m!.id)) await repo.recordMeetingActivity(c.id, c.status, 'Video meeting ended: nobody joined for the idle time', actor, command.commandId);
      return { notifications: [], meetingId: m!.id };
    }

    case 'recordEvent': {
      const payload = command.payload ?? {};
      const notifications = [notice(command.event, payload)];
      // A case moved to another division: the division it left is told as well.
      if (command.event === 'CaseSourceUpdated' && typeof payload.OldDivisionId === 'number')
        notifications.push(notice('CaseSourceUpdatedToOldDivision', { OldDivisionId: payload.OldDivisionId }));
      return { notifications };
    }

    case 'patientAccepted': {
      if (c.status !== CaseStatus.Contacting && c.status !== CaseStatus.WaitingForConfirmation)
        refuse(ErrorCode.Invalid, 'The case is not contacting service organizations', { status: c.status });
      if (c.status !== CaseStatus.WaitingForConfirmation) await move(CaseStatus.WaitingForConfirmation, 'auto', {});
      return { notifications: [] };
    }
  }
}

/**
 * The callback timers a command starts or stops (spec 02 §4 "Callbacks"). New tasks of a division
 * on a bulk hold are created held (their timers start). A case that leaves placement (closed,
 * reworked, put on hold) stops the timers of its tasks: a callback never fires for it; a case that
 * comes back to placement starts the timers of its follow-ups still pending (one already past
 * comes due at once).
 */
async function callbackTimersAfter(
  db: Sql,
  before: string,
  after: string,
  caseId: number,
  newTaskIds: number[],
): Promise<Pick<CaseCommandResult, 'cancelledCallbacks' | 'callbackTimers'>> {
  const held = await repo.holdNewTasks(db, newTaskIds);
  const wasPlaced = PLACEMENT_CASE_STATUSES.includes(before);
  const isPlaced = PLACEMENT_CASE_STATUSES.includes(after);
  if (wasPlaced && !isPlaced) {
    const cancelledCallbacks = (await repo.pendingCallbacks(db, caseId)).map((t) => t.taskId);
    return cancelledCallbacks.length ? { cancelledCallbacks } : {};
  }
  const timers = new Map(held.map((t) => [t.taskId, t.callbackAt]));
  if (!wasPlaced && isPlaced) for (const t of await repo.pendingCallbacks(db, caseId)) timers.set(t.taskId, t.callbackAt);
  return timers.size ? { callbackTimers: [...timers].map(([taskId, callbackAt]) => ({ taskId, callbackAt })) } : {};
}

function requestCreatedNotifications(
  notice: (type: NotificationType, payload: Record<string, unknown>) => CaseNotification,
  requestId: number,
  type: string,
  providerId: number | null,
): CaseNotification[] {
  const notifications = [notice(type === 'PlacementOnly' ? 'PlacementOnlyRequestCreated' : 'RequestCreated', { RequestId: requestId })];
  if (providerId) notifications.push(notice('CaseAssignedToYou', { RequestId: requestId }));
  return notifications;
}

async function assertReferringDivision(db: Sql, divisionId: number) {
  const { rows } = await db.query(`SELECT 1 FROM divisions WHERE id = $1 AND type = 'Referring'`, [divisionId]);
  if (!rows[0]) fieldRefusal({ referringDivisionId: 'notReferring' });
}
