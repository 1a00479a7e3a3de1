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
 */
import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';

import { Sequelize } from 'sequelize-typescript';
import {
  COMMANDS_ON_CLOSED_CASE,
  CaseStatus,
  ErrorCode,
  LIVE_CHANNEL,
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
  statusAfterRequestCancelled,
  statusAfterRequestCreated,
  statusChangeProblems,
  statusToReopen,
  ACTIVE_REQUEST_STATUSES,
  ACTIVITY_KINDS_UNDO_SKIPS,
  ADD_TASKS_MAX,
  INITIAL_PLACEMENT_TASKS,
  PLACEMENT_CASE_STATUSES,
  type ErrorCodeName,
  type LiveEventName,
  type LiveEvents,
  type RequestType,
} from '@crisis/forms';
import type {
  ApplyCaseCommandOutcome,
  Audience,
  CaseActor,
  CaseCommand,
  CaseCommandError,
  CaseCommandResult,
  CaseNotification,
  CaseState,
} from '@crisis/workflows';
import { AuditService } from '../audit/audit.service';
import { currentTransaction } from '../common/after-commit';
import { connectionOf, inTransaction, pooledSql, type Sql } from '../db/sql';
import { generatePlacementTasks, travelForCandidates, type TravelTimes } from '../placement/placement-generation';

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
  return { code: ErrorCode.CaseCommandRefused, message: 'The data could not be saved: check for unusual characters' };
}

interface CaseRow {
  id: number;
  patient_id: number;
  status: string;
  status_to_resume: string | null;
  version: number;
  source_division_id: number;
  document_in_ehr: boolean | null;
  outcome_required: boolean | null;
}

interface RequestRow {
  id: number;
  type: RequestType;
  status: string;
  evaluation_provider_id: number | null;
  evaluation_started_at: Date | null;
}

/** Publishes a live event on `db` (inside a transaction: delivered on commit, dropped on rollback). */
async function publish<E extends LiveEventName>(db: Sql, room: string, event: E, data: LiveEvents[E]) {
  await db.query('SELECT pg_notify($1, $2)', [LIVE_CHANNEL, JSON.stringify({ room, event, data })]);
}

/** What a new case is made of (validated by CasesService.create). */
export interface NewCase {
  patientId: number;
  status: string;
  sourceFacilityId: number;
  sourceDivisionId: number;
  attendingProvider: string | null;
  rnCaringForPatient: string | null;
  contactPhoneNumber: string;
  notificationSendingMethod: string;
  isInvoluntary: boolean;
  uninsured: boolean;
  patientEpicId: string | null;
  encounterIdentifier: string | null;
  request: { type: string; status: string; evaluationProviderId: number | null; note: string | null; facilityNote: string | null; itpNote: string | null };
  actor: CaseActor;
}

/** Case fields that are plain details (no rule of the lifecycle depends on them). */
export interface CaseDetails {
  sourceDivisionId?: number;
  attendingProvider?: string | null;
  rnCaringForPatient?: string | null;
  contactPhoneNumber?: string;
  notificationSendingMethod?: string;
  isInvoluntary?: boolean;
  uninsured?: boolean;
  includeOutOfStateFacilities?: boolean;
}
const DETAIL_COLUMNS: Record<keyof CaseDetails, string> = {
  sourceDivisionId: 'source_division_id',
  attendingProvider: 'attending_provider',
  rnCaringForPatient: 'rn_caring_for_patient',
  contactPhoneNumber: 'contact_phone_number',
  notificationSendingMethod: 'notification_sending_method',
  isInvoluntary: 'is_involuntary',
  uninsured: 'uninsured',
  includeOutOfStateFacilities: 'include_out_of_state_facilities',
};

@Injectable()
export class CaseCommandsHandler {
  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    private readonly audit: AuditService,
  ) {}

  private transaction<T>(fn: (db: Sql) => Promise<T>): Promise<T> {
    return inTransaction(this.sequelize, fn);
  }

  async loadState(caseId: number): Promise<CaseState | null> {
    return stateOf(this.pooled(), caseId);
  }

  private pooled(): Sql {
    return pooledSql(this.sequelize);
  }

  async apply(caseId: number, command: CaseCommand): Promise<ApplyCaseCommandOutcome> {
    // Slow outside calls happen before the transaction that locks the case (routing: up to 3 s).
    const travel = await this.travelBefore(caseId, command);
    try {
      return await this.transaction(async (db) => {
        const done = await db.query<{ result: { result: CaseCommandResult; notifications: CaseNotification[] } }>(
          'SELECT result FROM case_commands WHERE command_id = $1',
          [command.commandId],
        );
        // Applied by an earlier attempt whose reply was lost: same answer, nothing written twice.
        if (done.rows[0]) return { ok: true as const, ...done.rows[0].result };
        const { rows } = await db.query<CaseRow>(
          `SELECT c.id, c.patient_id, c.status, c.status_to_resume, c.version, c.source_division_id,
                  d.document_in_ehr, d.outcome_required
             FROM cases c JOIN divisions d ON d.id = c.source_division_id
            WHERE c.id = $1 FOR UPDATE OF c`,
          [caseId],
        );
        const row = rows[0];
        if (!row) refuse(ErrorCode.NotFound, 'Requested data not found');
        const applied = await apply(db, row!, command, travel);
        const state = (await stateOf(db, caseId))!;
        const result: CaseCommandResult = {
          state,
          ...(applied.requestId ? { requestId: applied.requestId } : {}),
          ...(applied.taskIds ? { taskIds: applied.taskIds } : {}),
        };
        await db.query('INSERT INTO case_commands (command_id, case_id, kind, result) VALUES ($1, $2, $3, $4)', [
          command.commandId,
          caseId,
          command.kind,
          JSON.stringify({ result, notifications: applied.notifications }),
        ]);
        if (command.audit)
          await this.audit.record({
            ...command.audit,
            success: true,
            statusCode: 200,
            values: { ...command.audit.values, caseId, status: state.status, ...(applied.requestId ? { requestId: applied.requestId } : {}) },
          });
        await publish(db, LiveRoom.case(caseId), 'case.updated', { caseId, status: state.status, version: state.version });
        if (applied.taskIds?.length) await publish(db, LiveRoom.case(caseId), 'placements.updated', { caseId });
        return { ok: true as const, result, notifications: applied.notifications };
      });
    } catch (err) {
      const error = err instanceof Refusal ? err.error : dataRefusal(err);
      if (!error) throw err; // transient database trouble: the activity retries (a bounded number of times)
      return { ok: false, error, state: (await this.loadState(caseId).catch(() => null)) ?? undefined };
    }
  }

  /** Travel times of the divisions a command may add as placement tasks, asked before the transaction. */
  private async travelBefore(caseId: number, command: CaseCommand): Promise<TravelTimes | undefined> {
    const recommendation =
      command.kind === 'changeStatus' && command.status === CaseStatus.Contacting
        ? command.mainRecommendation
        : command.kind === 'generateTasks'
          ? undefined
          : null;
    if (recommendation === null) return undefined;
    return this.transaction((db) => travelForCandidates(db, caseId, recommendation));
  }

  /** Inserts the notifications of a command for the users of each audience and tells them live; returns who got one. */
  async raiseNotifications(caseId: number, commandId: string, notifications: CaseNotification[]): Promise<number[]> {
    const notified = new Set<number>();
    await this.transaction(async (db) => {
      for (const n of notifications) {
        const { rows } = await db.query<{ user_id: number }>(
          `WITH c AS (
             SELECT c.id, c.source_division_id, c.source_facility_id,
                    p.first_name || ' ' || p.last_name AS patient_name,
                    (SELECT r.evaluation_provider_id FROM requests r WHERE r.case_id = c.id ORDER BY r.created_at DESC, r.id DESC LIMIT 1) AS provider_id
               FROM cases c JOIN patients p ON p.id = c.patient_id WHERE c.id = $1
           ), recipients AS (
             SELECT u.id FROM users u, c
              WHERE 'itp' = ANY($2::text[]) AND u.is_active
                AND u.user_type IN ('IntegratedTelehealthPartners_Admin', 'IntegratedTelehealthPartners_User')
             UNION
             SELECT u.id FROM users u JOIN c ON true
              WHERE 'sourceDivision' = ANY($2::text[]) AND u.is_active AND u.organization_type = 'Facility'
                AND u.organization_id = c.source_facility_id
                AND (u.user_type = 'Facility_Admin'
                     OR EXISTS (SELECT 1 FROM user_divisions ud WHERE ud.user_id = u.id AND ud.division_id = c.source_division_id))
             UNION
             SELECT c.provider_id FROM c WHERE 'provider' = ANY($2::text[]) AND c.provider_id IS NOT NULL
             UNION
             SELECT ud.user_id FROM c JOIN case_referring_access a ON a.case_id = c.id AND a.removed_at IS NULL
               JOIN user_divisions ud ON ud.division_id = a.division_id JOIN users u ON u.id = ud.user_id AND u.is_active
              WHERE 'referring' = ANY($2::text[])
             UNION
             SELECT unnest($3::int[])
           ), inserted AS (
             INSERT INTO notifications (user_id, type, case_id, payload, source_key)
             SELECT r.id, $4, $1, jsonb_build_object('CaseId', $1::int, 'PatientName', (SELECT patient_name FROM c)) || $5::jsonb, $6
               FROM recipients r WHERE r.id IS NOT NULL
             ON CONFLICT (source_key, user_id, type) WHERE source_key IS NOT NULL DO NOTHING
             RETURNING user_id
           )
           SELECT user_id, pg_notify($7, json_build_object('room', 'user:' || user_id, 'event', 'notification',
                                                            'data', json_build_object('caseId', $1::int))::text)
             FROM inserted`,
          [caseId, n.to, n.userIds ?? [], n.type, JSON.stringify(n.payload ?? {}), commandId, LIVE_CHANNEL],
        );
        for (const r of rows) notified.add(r.user_id);
      }
    });
    return [...notified];
  }

  /**
   * Writes a new case, its first activity rows and its first request, inside the caller's
   * transaction (CasesService.create, with the patient and insurances). Returns the ids.
   */
  async createCase(input: NewCase): Promise<{ id: number; requestId: number }> {
    const transaction = currentTransaction();
    if (!transaction) throw new Error('createCase runs inside the request transaction');
    const db = connectionOf(transaction);
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO cases (patient_id, status, source_facility_id, source_division_id, attending_provider, rn_caring_for_patient,
                          contact_phone_number, notification_sending_method, is_involuntary, uninsured, patient_epic_id,
                          encounter_identifier_id, created_by, main_recommendation)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, NULL)
       RETURNING id`,
      [
        input.patientId,
        input.status,
        input.sourceFacilityId,
        input.sourceDivisionId,
        input.attendingProvider,
        input.rnCaringForPatient,
        input.contactPhoneNumber,
        input.notificationSendingMethod,
        input.isInvoluntary,
        input.uninsured,
        input.patientEpicId,
        input.encounterIdentifier,
        input.actor.id,
      ],
    );
    const caseId = rows[0].id;
    // The first activity rows: documentation review, then where the request took the case.
    await db.query(
      `INSERT INTO case_activities (case_id, status, status_group, kind, initiator_id, initiator_name, ended_at)
       VALUES ($1, $2, 'PendingAssignment', 'created', $3, $4, CASE WHEN $2 <> $5 THEN now() END)`,
      [caseId, CaseStatus.PendingAssignment, input.actor.id, input.actor.name, input.status],
    );
    if (input.status !== CaseStatus.PendingAssignment)
      await db.query(
        `INSERT INTO case_activities (case_id, status, status_group, kind, initiator_id, initiator_name) VALUES ($1, $2, $3, 'auto', $4, $5)`,
        [caseId, input.status, caseStatusGroupOf(input.status), input.actor.id, input.actor.name],
      );
    const requestId = await insertRequest(db, caseId, input.sourceDivisionId, input.actor, input.request);
    return { id: caseId, requestId };
  }

  /** Writes plain details of a case inside the caller's transaction (CLS) and bumps updated_at. */
  async updateDetails(caseId: number, details: CaseDetails): Promise<void> {
    const entries = (Object.keys(details) as Array<keyof CaseDetails>).filter((k) => details[k] !== undefined);
    const sets = entries.map((k, i) => `${DETAIL_COLUMNS[k]} = $${i + 2}`);
    await this.sequelize.query(`UPDATE cases SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = $1`, {
      bind: [caseId, ...entries.map((k) => details[k])],
    });
  }
}

async function stateOf(db: Sql, caseId: number): Promise<CaseState | null> {
  const { rows } = await db.query<{
    status: string;
    status_to_resume: string | null;
    version: number;
    all_cancelled: boolean;
    latest_status: string | null;
  }>(
    `SELECT c.status, c.status_to_resume, c.version,
            NOT EXISTS (SELECT 1 FROM requests r WHERE r.case_id = c.id AND r.status <> 'Canceled') AS all_cancelled,
            (SELECT r.status FROM requests r WHERE r.case_id = c.id ORDER BY r.created_at DESC, r.id DESC LIMIT 1) AS latest_status
       FROM cases c WHERE c.id = $1`,
    [caseId],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    caseId,
    status: r.status,
    statusToResume: r.status_to_resume,
    version: r.version,
    allRequestsCancelled: r.all_cancelled,
    latestRequestStatus: r.latest_status,
  };
}

interface Applied {
  notifications: CaseNotification[];
  requestId?: number;
  taskIds?: number[];
}

async function apply(db: Sql, c: CaseRow, command: CaseCommand, travel?: TravelTimes): Promise<Applied> {
  const actor = command.actor;
  if (command.expectedStatus && command.expectedStatus !== c.status)
    refuse(ErrorCode.CaseStatusChanged, 'The case status was changed by someone else', { status: c.status });
  const closed = c.status === CaseStatus.Closed;
  if (closed && !COMMANDS_ON_CLOSED_CASE.includes(command.kind)) refuse(ErrorCode.CaseIsClosed, 'The case is closed');

  const requests = async () =>
    (
      await db.query<RequestRow>(
        'SELECT id, type, status, evaluation_provider_id, evaluation_started_at FROM requests WHERE case_id = $1 ORDER BY created_at DESC, id DESC',
        [c.id],
      )
    ).rows;
  const request = async (id: number) => {
    const r = (await requests()).find((x) => x.id === id);
    if (!r) refuse(ErrorCode.NotFound, 'Requested data not found');
    return r!;
  };
  const move = (to: string, kind: string, extra: MoveExtra = {}) => moveTo(db, c, to, kind, actor, command.commandId, extra);

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
        await db.query(
          `UPDATE cases SET main_recommendation = $2, criteria = $3, recommendation_note = $4, include_out_of_state_facilities = $5,
                  locating_services_started_at = coalesce(locating_services_started_at, now())
            WHERE id = $1`,
          [c.id, command.mainRecommendation, command.criteria ?? [], command.note ?? null, command.includeOutOfStateFacilities],
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
        const existing = await db.query('SELECT 1 FROM placement_tasks WHERE case_id = $1 LIMIT 1', [c.id]);
        if (!existing.rows[0]) taskIds = await generatePlacementTasks(db, c.id, { count: INITIAL_PLACEMENT_TASKS, origin: 'generated', actorId: actor.id || null, travel });
      }
      const payload = { Reason: command.note ?? null };
      if (isOnHold(command.status)) return { notifications: [{ type: 'CaseOnHold', to: ['sourceDivision', 'provider'], payload }] };
      if (command.status === CaseStatus.Contacting)
        return {
          taskIds,
          notifications: [
            {
              type: 'CaseServices',
              to: ['sourceDivision'],
              payload: { MainRecommendation: command.mainRecommendation, Criteria: command.criteria ?? [], RecommendationNote: command.note ?? null },
            },
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
      await db.query(
        `UPDATE cases SET outcome_type = $2, outcome_note = $3, outcome_referring_division_id = $4, closed_at = now()
          WHERE id = $1`,
        [c.id, withoutOutcome ? null : command.caseOutcomeType, command.note ?? null, divisionId],
      );
      await move(CaseStatus.Closed, 'manual', { note: command.note, statusToResume: null });
      await db.query(
        `UPDATE cases SET locating_services_seconds = coalesce((
           SELECT sum(extract(epoch FROM coalesce(ended_at, now()) - started_at))::int FROM case_activities
            WHERE case_id = $1 AND status_group = 'LocatingServices' AND undone_at IS NULL), 0)
          WHERE id = $1`,
        [c.id],
      );
      return { notifications: [{ type: 'CaseClosed', to: ['sourceDivision', 'provider'], payload: { Reason: command.note ?? null } }] };
    }

    case 'changeOutcome': {
      if (!closed) refuse(ErrorCode.Invalid, 'The case is not closed');
      const required = !mayCloseWithoutOutcome({ documentInEhr: c.document_in_ehr, outcomeRequired: c.outcome_required });
      const problems = closeProblems({ ...command, outcomeRequired: required || !!command.caseOutcomeType });
      if (Object.keys(problems).length) fieldRefusal(problems);
      const divisionId = outcomeNeedsFacility(command.caseOutcomeType) ? command.referringDivisionId! : null;
      if (divisionId) await assertReferringDivision(db, divisionId);
      await db.query(
        'UPDATE cases SET outcome_type = $2, outcome_note = $3, outcome_referring_division_id = $4, updated_at = now() WHERE id = $1',
        [c.id, command.caseOutcomeType ?? null, command.note ?? null, divisionId],
      );
      return { notifications: [] };
    }

    case 'resume': {
      if (!isOnHold(c.status) || !c.status_to_resume) refuse(ErrorCode.CaseNothingToResume, 'The case has no status to resume');
      const target = c.status_to_resume!;
      // A request put on hold as not ready goes back to its provider's queue.
      await db.query(`UPDATE requests SET status = 'Pending', updated_at = now() WHERE case_id = $1 AND status = 'OnHold'`, [c.id]);
      await move(target, 'resume', { statusToResume: null });
      return { notifications: [{ type: 'CaseResumed', to: ['sourceDivision', 'provider'] }] };
    }

    case 'undo': {
      const { rows } = await db.query<{ id: string; status: string; kind: string }>(
        `SELECT id, status, kind FROM case_activities WHERE case_id = $1 AND undone_at IS NULL AND kind <> ALL($2::text[])
          ORDER BY started_at DESC, id DESC LIMIT 2`,
        [c.id, ACTIVITY_KINDS_UNDO_SKIPS],
      );
      const [last, previous] = rows;
      if (!last || !previous || last.kind !== 'manual' || last.status !== c.status)
        refuse(ErrorCode.CaseNothingToUndo, 'There is no status change to undo');
      await db.query('UPDATE case_activities SET undone_at = now() WHERE id = $1', [last.id]);
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
      const target = await reopenTarget(db, c.id);
      await db.query(
        `UPDATE cases SET closed_at = NULL, outcome_type = NULL, outcome_note = NULL, outcome_referring_division_id = NULL WHERE id = $1`,
        [c.id],
      );
      await move(target, 'reopen', { statusToResume: null });
      return { notifications: [{ type: 'CaseResumed', to: ['sourceDivision', 'provider'] }] };
    }

    case 'removeFromAccepted': {
      if (c.status === CaseStatus.WaitingForConfirmation) await move(CaseStatus.Contacting, 'auto', {});
      return { notifications: [] };
    }

    case 'createRequest': {
      const all = await requests();
      const active = all.find((r) => isActiveRequestStatus(r.status));
      if (active) refuse(ErrorCode.CaseHasActiveRequest, 'The case already has an active request', { status: active.status, requestId: active.id });
      const type = command.type as RequestType;
      const hasProvider = !!command.evaluationProviderId;
      const requestId = await insertRequest(db, c.id, c.source_division_id, actor, {
        type,
        status: initialRequestStatus(type, hasProvider),
        evaluationProviderId: command.evaluationProviderId ?? null,
        note: command.note ?? null,
        facilityNote: command.facilityNote ?? null,
        itpNote: command.itpNote ?? null,
      });
      const next = statusAfterRequestCreated(c.status, type, hasProvider);
      if (next !== c.status) await move(next, 'auto', { statusToResume: null });
      return { notifications: requestCreatedNotifications(requestId, type, command.evaluationProviderId ?? null), requestId };
    }

    case 'updateRequest': {
      const r = await request(command.requestId);
      if (!canEditRequest(actor.userType, { type: r.type, status: r.status, evaluationStarted: !!r.evaluation_started_at })) refuse(ErrorCode.RequestNotEditable, 'The request can no longer be edited', { status: r.status });
      const newProvider = command.evaluationProviderId ?? null;
      const providerChanged = newProvider !== r.evaluation_provider_id;
      const status = providerChanged ? (newProvider ? 'Pending' : 'New') : r.status;
      await db.query(
        `UPDATE requests SET type = $2, evaluation_provider_id = $3, note = $4, status = $5,
                facility_note = $6, facility_note_author = CASE WHEN $6::text IS DISTINCT FROM facility_note THEN $7 ELSE facility_note_author END,
                itp_note = $8, itp_note_author = CASE WHEN $8::text IS DISTINCT FROM itp_note THEN $7 ELSE itp_note_author END,
                updated_at = now()
          WHERE id = $1`,
        [r.id, command.type, newProvider, command.note ?? null, status, command.facilityNote ?? null, actor.name, command.itpNote ?? null],
      );
      const notifications: CaseNotification[] = [{ type: 'RequestUpdated', to: ['itp'], payload: { RequestId: r.id, RequestTypeUpdated: command.type !== r.type } }];
      if (providerChanged) {
        const group = caseStatusGroupOf(c.status);
        if (group === 'PendingAssignment' || group === 'RequestSentToProvider' || group === 'ProviderWorkingRequest') {
          const next = newProvider ? CaseStatus.ProviderNotified : CaseStatus.PendingAssignment;
          if (next !== c.status) await move(next, 'auto', {});
        }
        if (r.evaluation_provider_id)
          notifications.push({ type: 'CaseReassignedToAnotherProvider', to: [], userIds: [r.evaluation_provider_id], payload: { RequestId: r.id } });
        if (newProvider) notifications.push({ type: 'CaseAssignedToYou', to: [], userIds: [newProvider], payload: { RequestId: r.id } });
      }
      return { notifications };
    }

    case 'cancelRequest': {
      const r = await request(command.requestId);
      if (!isActiveRequestStatus(r.status)) refuse(ErrorCode.RequestNotActive, 'The request is not active', { status: r.status });
      await db.query(`UPDATE requests SET status = 'Canceled', reason = $2, canceled_at = now(), updated_at = now() WHERE id = $1`, [
        r.id,
        command.reason,
      ]);
      await addLifecycleNote(db, c.id, actor, `Request ${r.type} canceled: ${command.reason}`);
      const next = statusAfterRequestCancelled(c.status);
      if (next !== c.status) await move(next, 'auto', {});
      return {
        notifications: [
          { type: 'RequestCanceled', to: ['itp', 'sourceDivision'], userIds: r.evaluation_provider_id ? [r.evaluation_provider_id] : [], payload: { RequestId: r.id, Reason: command.reason } },
        ],
      };
    }

    case 'requestNotReady': {
      const r = await request(command.requestId);
      if (r.status !== 'InProgress') refuse(ErrorCode.RequestNotInProgress, 'The request is not in progress', { status: r.status });
      if (r.evaluation_provider_id !== actor.id) refuse(ErrorCode.Forbidden, "You don't have permission to perform this action");
      await db.query(`UPDATE requests SET status = 'OnHold', reason = $2, updated_at = now() WHERE id = $1`, [r.id, command.reason]);
      await addLifecycleNote(db, c.id, actor, `Not ready for evaluation: ${command.reason}`);
      await move(CaseStatus.OnHoldDocumentationReview, 'auto', { note: command.reason, statusToResume: isOnHold(c.status) ? c.status_to_resume : c.status });
      return { notifications: [{ type: 'RequestMarkedAsNotReadyForEvaluation', to: ['itp', 'sourceDivision'], payload: { RequestId: r.id, Reason: command.reason } }] };
    }

    case 'requestInProgress': {
      const r = await request(command.requestId);
      if (r.status !== 'Pending') return { notifications: [] }; // already opened: nothing to do
      if (r.evaluation_provider_id !== actor.id) refuse(ErrorCode.Forbidden, "You don't have permission to perform this action");
      await db.query(`UPDATE requests SET status = 'InProgress', updated_at = now() WHERE id = $1`, [r.id]);
      if (caseStatusGroupOf(c.status) === 'RequestSentToProvider' || c.status === CaseStatus.PendingAssignment)
        await move(CaseStatus.ProviderDocumentationReview, 'auto', {});
      return { notifications: [{ type: 'ProviderStartsReviewingDocuments', to: ['itp', 'sourceDivision'], payload: { RequestId: r.id } }] };
    }

    case 'startEvaluation': {
      const r = await request(command.requestId);
      if (r.evaluation_provider_id !== actor.id) refuse(ErrorCode.Forbidden, "You don't have permission to perform this action");
      if (r.status !== 'InProgress' && r.status !== 'Pending') refuse(ErrorCode.RequestNotInProgress, 'The request is not in progress', { status: r.status });
      await db.query(
        `UPDATE requests SET status = 'InProgress', evaluation_started_at = coalesce(evaluation_started_at, now()), updated_at = now() WHERE id = $1`,
        [r.id],
      );
      const next = evaluationInProgressStatus(r.type);
      if (next !== c.status && !isOnHold(c.status)) await move(next, 'auto', {});
      return { notifications: [] };
    }

    case 'completeEvaluation': {
      const r = await request(command.requestId);
      if (r.evaluation_provider_id !== actor.id) refuse(ErrorCode.Forbidden, "You don't have permission to perform this action");
      if (r.status !== 'InProgress') refuse(ErrorCode.RequestNotInProgress, 'The request is not in progress', { status: r.status });
      await db.query(`UPDATE requests SET status = 'Completed', completed_at = now(), updated_at = now() WHERE id = $1`, [r.id]);
      const ev = await db.query<{ main_recommendation: string | null; criteria: string[]; recommendation_note: string | null }>(
        'SELECT main_recommendation, criteria, recommendation_note FROM evaluations WHERE request_id = $1',
        [r.id],
      );
      const rec = ev.rows[0];
      if (rec?.main_recommendation)
        await db.query('UPDATE cases SET main_recommendation = $2, criteria = $3, recommendation_note = $4 WHERE id = $1', [
          c.id,
          rec.main_recommendation,
          rec.criteria,
          rec.recommendation_note,
        ]);
      await move(CaseStatus.WaitingOnDecision, 'auto', {
        recommendation: rec ? { main: rec.main_recommendation, criteria: rec.criteria, note: rec.recommendation_note } : undefined,
      });
      return { notifications: [{ type: 'RequestCompleted', to: ['itp', 'sourceDivision'], payload: { RequestId: r.id, MainRecommendation: rec?.main_recommendation ?? null } }] };
    }

    case 'updateRecommendation': {
      const problems = recommendationProblems(command, { caseStatus: c.status });
      if (Object.keys(problems).length) fieldRefusal(problems);
      await db.query(
        `UPDATE cases SET main_recommendation = $2, criteria = $3::text[], recommendation_note = $4, version = version + 1, updated_at = now()
          WHERE id = $1`,
        [c.id, command.mainRecommendation, command.criteria, command.note],
      );
      await db.query(
        `INSERT INTO case_activities (case_id, status, status_group, kind, note, initiator_id, initiator_name,
                                      main_recommendation, criteria, recommendation_note, command_id, started_at, ended_at)
         VALUES ($1, $2, $3, 'recommendation', $4, $5, $6, $7, $8, $4, $9, now(), now())`,
        [c.id, c.status, caseStatusGroupOf(c.status), command.note, actor.id || null, actor.name, command.mainRecommendation, command.criteria, command.commandId],
      );
      return { notifications: [] };
    }

    case 'announceCreated': {
      const [r] = await requests();
      if (!r) return { notifications: [] };
      return { notifications: requestCreatedNotifications(r.id, r.type, r.evaluation_provider_id) };
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

    case 'recordEvent': {
      // ITP staff and the provider hear of what the facility adds, the facility of what ITP adds.
      const fromFacility = !actor.userType.startsWith('IntegratedTelehealthPartners');
      // Granted access is news for the referring division that may now open the case.
      const to: Audience[] = command.event === 'GrantedAccessSpecified' ? ['referring'] : fromFacility ? ['itp', 'provider'] : ['sourceDivision', 'provider'];
      return { notifications: [{ type: command.event, to, payload: command.payload }] };
    }

    case 'patientAccepted': {
      if (c.status !== CaseStatus.Contacting && c.status !== CaseStatus.WaitingForConfirmation)
        refuse(ErrorCode.Invalid, 'The case is not contacting service organizations', { status: c.status });
      if (c.status !== CaseStatus.WaitingForConfirmation) await move(CaseStatus.WaitingForConfirmation, 'auto', {});
      return { notifications: [] };
    }
  }
}

/** Inserts a request (at creation and by createRequest): a note's author is the actor. */
async function insertRequest(db: Sql, caseId: number, divisionId: number, actor: CaseActor, r: NewCase['request']): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO requests (case_id, type, status, evaluation_provider_id, division_id, note, facility_note, facility_note_author,
                           itp_note, itp_note_author, created_by, completed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, CASE WHEN $7::text IS NULL THEN NULL ELSE $8 END,
             $9, CASE WHEN $9::text IS NULL THEN NULL ELSE $8 END, $10, CASE WHEN $3 = 'Completed' THEN now() END)
     RETURNING id`,
    [caseId, r.type, r.status, r.evaluationProviderId, divisionId, r.note, r.facilityNote, actor.name, r.itpNote, actor.id || null],
  );
  return rows[0].id;
}

function requestCreatedNotifications(requestId: number, type: string, providerId: number | null): CaseNotification[] {
  const notifications: CaseNotification[] = [
    { type: type === 'PlacementOnly' ? 'PlacementOnlyRequestCreated' : 'RequestCreated', to: ['itp'], payload: { RequestId: requestId } },
  ];
  if (providerId) notifications.push({ type: 'CaseAssignedToYou', to: [], userIds: [providerId], payload: { RequestId: requestId } });
  return notifications;
}

interface MoveExtra {
  note?: string | null;
  /** undefined keeps the case's statusToResume; null clears it. */
  statusToResume?: string | null;
  recommendation?: { main: string | null; criteria: string[]; note: string | null };
}

/** Ends the open activity row, starts one for `to`, and moves the case (bumping its version). */
async function moveTo(db: Sql, c: CaseRow, to: string, kind: string, actor: CaseActor, commandId: string, extra: MoveExtra) {
  await db.query('UPDATE case_activities SET ended_at = now() WHERE case_id = $1 AND ended_at IS NULL', [c.id]);
  await db.query(
    `INSERT INTO case_activities (case_id, status, status_group, kind, note, initiator_id, initiator_name,
                                  main_recommendation, criteria, recommendation_note, command_id, ended_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, CASE WHEN $2 = 'Closed' THEN now() END)`,
    [
      c.id,
      to,
      caseStatusGroupOf(to),
      kind,
      extra.note ?? null,
      actor.id || null,
      actor.name,
      extra.recommendation?.main ?? null,
      extra.recommendation?.criteria ?? null,
      extra.recommendation?.note ?? null,
      commandId,
    ],
  );
  const resume = extra.statusToResume === undefined ? c.status_to_resume : extra.statusToResume;
  // Back from placement to recommendation review (or reopened): the case's tasks are from an earlier round.
  if ((PLACEMENT_CASE_STATUSES.includes(c.status) && to === CaseStatus.WaitingOnDecision) || kind === 'reopen')
    await db.query('UPDATE cases SET reworked_at = now() WHERE id = $1', [c.id]);
  await db.query(
    `UPDATE cases SET status = $2, status_to_resume = $3, status_changed_at = now(), version = version + 1, updated_at = now() WHERE id = $1`,
    [c.id, to, resume],
  );
  c.status = to;
  c.status_to_resume = resume;
}

async function assertReferringDivision(db: Sql, divisionId: number) {
  const { rows } = await db.query(`SELECT 1 FROM divisions WHERE id = $1 AND type = 'Referring'`, [divisionId]);
  if (!rows[0]) fieldRefusal({ referringDivisionId: 'notReferring' });
}

/** The status before the case was closed, adjusted by statusToReopen. */
async function reopenTarget(db: Sql, caseId: number): Promise<string> {
  const { rows } = await db.query<{ status: string }>(
    `SELECT status FROM case_activities WHERE case_id = $1 AND status <> 'Closed' AND undone_at IS NULL ORDER BY started_at DESC, id DESC LIMIT 1`,
    [caseId],
  );
  const active = await db.query('SELECT 1 FROM requests WHERE case_id = $1 AND status = ANY($2::text[])', [caseId, ACTIVE_REQUEST_STATUSES]);
  return statusToReopen(rows[0]?.status, !!active.rows[0]);
}

/** Request lifecycle events are written to the case notes (spec 01 §4 "appear in case notes"). */
async function addLifecycleNote(db: Sql, caseId: number, actor: CaseActor, note: string) {
  await db.query(
    `INSERT INTO case_notes (case_id, note, kind, created_by, author_organization_type)
     VALUES ($1, $2, 'evaluation', $3, CASE WHEN $4 LIKE 'IntegratedTelehealthPartners%' THEN 'IntegratedTelehealthPartners' ELSE 'Facility' END)`,
    [caseId, note, actor.id || null, actor.userType],
  );
}
