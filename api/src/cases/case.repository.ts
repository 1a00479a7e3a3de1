/**
 * The writes of the case domain: `cases`, `requests` and `case_activities` change here and
 * nowhere else (CaseCommandsHandler decides, this module writes). Simple writes go through the
 * Sequelize models, which join the command's transaction through CLS. SQL on the same
 * transaction's connection where a model cannot say it as well (the row lock, arithmetic on the
 * row) or would be slower on the status-change path, which
 * a coordinator waits for: the lock with the applied-command check, the move, and the command's
 * record with its live events are one statement each.
 */
import { fn, literal } from 'sequelize';
import { ACTIVE_REQUEST_STATUSES, ACTIVITY_KINDS_UNDO_SKIPS, CaseStatus, LIVE_CHANNEL, LiveRoom, caseStatusGroupOf, statusToReopen, type LiveEventName, type RequestType, type LiveEvents, type LiveMessage } from '@crisis/forms';
import type { CaseActor, CaseNotification, CaseState } from '@crisis/workflows';
import type { Sql } from '../db/sql';
import { insertNotificationRows } from '../notifications/notification-fanout';
import { Case } from './models/case.model';
import { CaseActivity } from './models/case-activity.model';
import { CaseRequest } from './models/case-request.model';

/** The note of a call a division hold logs on a task (the bulk result's own cases and the ones after it). */
export const DIVISION_HOLD_NOTE = 'Division on hold (bulk result)';

/** The case row a command is checked against (locked for the command's transaction). */
export interface CaseRow {
  id: number;
  patient_id: number;
  status: string;
  status_to_resume: string | null;
  version: number;
  source_division_id: number;
  document_in_ehr: boolean | null;
  outcome_required: boolean | null;
}

export interface RequestRow {
  id: number;
  type: RequestType;
  status: string;
  evaluation_provider_id: number | null;
  evaluation_started_at: Date | null;
  note: string | null;
  facility_note: string | null;
  itp_note: string | null;
}

/** Case fields that are plain details (no rule of the lifecycle depends on them). */
export type CaseDetails = Partial<
  Pick<Case, 'sourceDivisionId' | 'attendingProvider' | 'rnCaringForPatient' | 'contactPhoneNumber' | 'notificationSendingMethod' | 'isInvoluntary' | 'uninsured' | 'includeOutOfStateFacilities' | 'encounterIdentifier'>
>;

export interface NewRequest {
  type: string;
  status: string;
  evaluationProviderId: number | null;
  note: string | null;
  facilityNote: string | null;
  itpNote: string | null;
}

/** The columns of a new case (validated by CasesService.create). */
export interface NewCaseRow {
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
  actor: CaseActor;
}

export interface MoveExtra {
  note?: string | null;
  /** undefined keeps the case's statusToResume; null clears it. */
  statusToResume?: string | null;
  recommendation?: { main: string | null; criteria: string[]; note: string | null };
  /** The case leaves placement for an earlier round (back to review, or reopened). */
  reworked?: boolean;
}

const now = () => fn('now');

/**
 * What statusToReopen reads, as two SELECT columns for the case `caseId` (an SQL expression):
 * `status`, the newest status row before closing (newest by id, as in lastChanges), and `active`,
 * whether a request of the case is still active (`statuses`: a parameter holding
 * ACTIVE_REQUEST_STATUSES). The reopen command and GET /{id}/reopen-status both read these.
 */
export const REOPEN_INPUTS_SQL = (caseId: string, statuses: string) =>
  `(SELECT status FROM case_activities WHERE case_id = ${caseId} AND status <> 'Closed' AND undone_at IS NULL
     ORDER BY id DESC LIMIT 1) AS status,
   EXISTS (SELECT 1 FROM requests WHERE case_id = ${caseId} AND status = ANY(${statuses}::text[])) AS active`;

export const caseRepository = {
  /**
   * Locks the case row for a command (FOR UPDATE: one command of a case at a time, also across
   * workers) and reads, in the same round trip, the result of that command if an earlier attempt
   * applied it (its reply was lost). A command's record belongs to its case (a foreign key), so
   * no case means no earlier result either.
   */
  async lockForCommand<T>(db: Sql, caseId: number, commandId: string): Promise<{ row?: CaseRow; applied: T | null }> {
    const { rows } = await db.query<CaseRow & { applied: T | null }>(
      `SELECT c.id, c.patient_id, c.status, c.status_to_resume, c.version, c.source_division_id,
              d.document_in_ehr, d.outcome_required,
              (SELECT result FROM case_commands WHERE command_id = $2) AS applied
         FROM cases c JOIN divisions d ON d.id = c.source_division_id
        WHERE c.id = $1 FOR UPDATE OF c`,
      [caseId, commandId],
    );
    if (!rows[0]) return { applied: null };
    const { applied, ...row } = rows[0];
    return { row: row as CaseRow, applied };
  },

  /**
   * Records the command's result (so a retried attempt gets the same answer) and sends its live
   * events, delivered when the transaction commits: one statement, one round trip while the case is locked.
   */
  async recordCommand(db: Sql, commandId: string, caseId: number, kind: string, result: unknown, events: readonly LiveMessage[] = []): Promise<void> {
    await db.query(
      `WITH recorded AS (INSERT INTO case_commands (command_id, case_id, kind, result) VALUES ($1, $2, $3, $4))
       SELECT pg_notify($5, m) FROM unnest($6::text[]) AS m`,
      [commandId, caseId, kind, JSON.stringify(result), LIVE_CHANNEL, events.map((e) => JSON.stringify(e))],
    );
  },

  async state(db: Sql, caseId: number): Promise<CaseState | null> {
    const { rows } = await db.query<{ status: string; status_to_resume: string | null; version: number; all_cancelled: boolean; latest_status: string | null }>(
      `SELECT c.status, c.status_to_resume, c.version,
              NOT EXISTS (SELECT 1 FROM requests r WHERE r.case_id = c.id AND r.status <> 'Canceled') AS all_cancelled,
              (SELECT r.status FROM requests r WHERE r.case_id = c.id ORDER BY r.created_at DESC, r.id DESC LIMIT 1) AS latest_status
         FROM cases c WHERE c.id = $1`,
      [caseId],
    );
    const r = rows[0];
    if (!r) return null;
    return { caseId, status: r.status, statusToResume: r.status_to_resume, version: r.version, allRequestsCancelled: r.all_cancelled, latestRequestStatus: r.latest_status };
  },

  async hasPlacementTasks(db: Sql, caseId: number): Promise<boolean> {
    const { rows } = await db.query('SELECT 1 FROM placement_tasks WHERE case_id = $1 LIMIT 1', [caseId]);
    return rows.length > 0;
  },

  /**
   * Tasks just created for a division on a bulk hold (spec 02 §4: a bulk NoBedsAvailable,
   * NoSecureBeds or CallBack applies to the current and future cases of the division until it
   * expires) start held, as the cases held when the bulk result was logged: the hold's result is
   * their last call (logged by the coordinator who set the hold) and its end their callback time.
   * Returns the callback timers to start.
   */
  async holdNewTasks(db: Sql, taskIds: number[]): Promise<Array<{ taskId: number; callbackAt: string }>> {
    if (!taskIds.length) return [];
    const { rows } = await db.query<{ task_id: number; callback_at: Date | string }>(
      `WITH h AS (
         SELECT DISTINCT ON (t.id) t.id AS task_id, t.case_id, t.division_id, h.result, h.until, h.created_by,
                coalesce(u.first_name || ' ' || u.last_name, 'System') AS created_by_name
           FROM placement_tasks t
           JOIN division_holds h ON h.division_id = t.division_id AND h.released_at IS NULL AND h.until > now()
           LEFT JOIN users u ON u.id = h.created_by
          WHERE t.id = ANY($1::int[]) AND t.last_call_id IS NULL
          ORDER BY t.id, h.until DESC
       ), ins AS (
         INSERT INTO placement_calls (task_id, case_id, division_id, result, note, callback_at, created_by, created_by_name)
         SELECT task_id, case_id, division_id, result, $2, until, created_by, created_by_name FROM h
         RETURNING id, task_id, callback_at
       )
       UPDATE placement_tasks t SET last_call_id = ins.id, callback_at = ins.callback_at, due_at = NULL, updated_at = now()
         FROM ins WHERE t.id = ins.task_id
       RETURNING t.id AS task_id, t.callback_at`,
      [taskIds, DIVISION_HOLD_NOTE],
    );
    return rows.map((r) => ({ taskId: r.task_id, callbackAt: new Date(r.callback_at).toISOString() }));
  },

  /** The case's tasks whose follow-up has not come due yet (each has a callback timer while the case is placed). */
  async pendingCallbacks(db: Sql, caseId: number): Promise<Array<{ taskId: number; callbackAt: string }>> {
    const { rows } = await db.query<{ id: number; callback_at: Date | string }>(
      'SELECT id, callback_at FROM placement_tasks WHERE case_id = $1 AND callback_at IS NOT NULL AND due_at IS NULL ORDER BY id',
      [caseId],
    );
    return rows.map((r) => ({ taskId: r.id, callbackAt: new Date(r.callback_at).toISOString() }));
  },

  /** The case's requests, newest first. */
  async requests(db: Sql, caseId: number): Promise<RequestRow[]> {
    const { rows } = await db.query<RequestRow>(
      'SELECT id, type, status, evaluation_provider_id, evaluation_started_at, note, facility_note, itp_note FROM requests WHERE case_id = $1 ORDER BY created_at DESC, id DESC',
      [caseId],
    );
    return rows;
  },

  async createCase(input: NewCaseRow): Promise<number> {
    const { actor, ...fields } = input;
    const created = await Case.create({ ...fields, createdBy: actor.id, mainRecommendation: null });
    // The first activity rows: documentation review, then where the request took the case.
    const moved = input.status !== CaseStatus.PendingAssignment;
    await CaseActivity.create({
      caseId: created.id,
      status: CaseStatus.PendingAssignment,
      statusGroup: caseStatusGroupOf(CaseStatus.PendingAssignment),
      kind: 'created',
      initiatorId: actor.id,
      initiatorName: actor.name,
      endedAt: moved ? now() : null,
    });
    if (moved)
      await CaseActivity.create({ caseId: created.id, status: input.status, statusGroup: caseStatusGroupOf(input.status), kind: 'auto', initiatorId: actor.id, initiatorName: actor.name });
    return created.id;
  },

  /** Inserts a request (at creation and by createRequest): a note's author is the actor. */
  async insertRequest(caseId: number, divisionId: number, actor: CaseActor, r: NewRequest): Promise<number> {
    const created = await CaseRequest.create({
      caseId,
      type: r.type,
      status: r.status,
      evaluationProviderId: r.evaluationProviderId,
      divisionId,
      note: r.note,
      facilityNote: r.facilityNote,
      facilityNoteAuthor: r.facilityNote === null ? null : actor.name,
      itpNote: r.itpNote,
      itpNoteAuthor: r.itpNote === null ? null : actor.name,
      createdBy: actor.id || null,
      completedAt: r.status === 'Completed' ? now() : null,
    });
    return created.id;
  },

  /** Edits a request; a note's author changes only with the note. */
  async updateRequest(
    request: RequestRow,
    fields: { type: string; evaluationProviderId: number | null; note: string | null; status: string; facilityNote: string | null; itpNote: string | null },
    actor: CaseActor,
  ): Promise<void> {
    await CaseRequest.update(
      {
        ...fields,
        ...(fields.facilityNote !== request.facility_note ? { facilityNoteAuthor: actor.name } : {}),
        ...(fields.itpNote !== request.itp_note ? { itpNoteAuthor: actor.name } : {}),
      },
      { where: { id: request.id } },
    );
  },

  async setRequestStatus(requestId: number, status: string, extra: { reason?: string; canceled?: boolean; completed?: boolean; evaluationStarted?: boolean } = {}): Promise<void> {
    await CaseRequest.update(
      {
        status,
        ...(extra.reason !== undefined ? { reason: extra.reason } : {}),
        ...(extra.canceled ? { canceledAt: now() } : {}),
        ...(extra.completed ? { completedAt: now() } : {}),
        ...(extra.evaluationStarted ? { evaluationStartedAt: fn('coalesce', literal('evaluation_started_at'), now()) } : {}),
      },
      { where: { id: requestId } },
    );
  },

  /** A request put on hold as not ready goes back to its provider's queue. */
  async resumeHeldRequests(caseId: number): Promise<void> {
    await CaseRequest.update({ status: 'Pending' }, { where: { caseId, status: 'OnHold' } });
  },

  /** The recommendation (and, entering contacting, the out-of-state choice and the start of locating). */
  async setRecommendation(
    caseId: number,
    r: { main: string | null; criteria: string[]; note: string | null },
    options: { includeOutOfStateFacilities?: boolean | null; startsLocating?: boolean; bumpVersion?: boolean } = {},
  ): Promise<void> {
    await Case.update(
      {
        mainRecommendation: r.main,
        criteria: r.criteria,
        recommendationNote: r.note,
        ...(options.includeOutOfStateFacilities !== undefined ? { includeOutOfStateFacilities: options.includeOutOfStateFacilities } : {}),
        ...(options.startsLocating ? { locatingServicesStartedAt: fn('coalesce', literal('locating_services_started_at'), now()) } : {}),
        ...(options.bumpVersion ? { version: literal('version + 1') } : {}),
      },
      { where: { id: caseId } },
    );
  },

  /** A change of the recommendation alone: an activity row of its own, the status unchanged. */
  async recordRecommendation(caseId: number, status: string, r: { main: string | null; criteria: string[]; note: string | null }, actor: CaseActor, commandId: string): Promise<void> {
    await CaseActivity.create({
      caseId,
      status,
      statusGroup: caseStatusGroupOf(status),
      kind: 'recommendation',
      note: r.note,
      initiatorId: actor.id || null,
      initiatorName: actor.name,
      mainRecommendation: r.main,
      criteria: r.criteria,
      recommendationNote: r.note,
      commandId,
      endedAt: now(),
    });
  },

  /** A video meeting was created, joined or ended: an activity row of its own, the status unchanged. */
  async recordMeetingActivity(caseId: number, status: string, note: string, actor: CaseActor, commandId: string): Promise<void> {
    await CaseActivity.create({
      caseId,
      status,
      statusGroup: caseStatusGroupOf(status),
      kind: 'meeting',
      note,
      initiatorId: actor.id || null,
      initiatorName: actor.name,
      commandId,
      endedAt: now(),
    });
  },

  /**
   * A facility alert was sent, confirmed or went unconfirmed: a line of the case activity that
   * changes nothing of the case, so it needs neither the case's lock nor its workflow's order.
   * Written once per key (a retried activity adds nothing) and told live; false when it was there.
   */
  async recordAlertLine(db: Sql, caseId: number, note: string, key: string): Promise<boolean> {
    return this.recordSystemLine(db, caseId, 'alert', note, key);
  },

  /**
   * A line of the case activity written by the platform about something outside the case (a
   * facility alert, an EHR delivery): it changes nothing of the case, so it takes neither the
   * case's lock nor its workflow's order. Written once per key and told live; false when it was there.
   */
  async recordSystemLine(db: Sql, caseId: number, kind: 'alert' | 'ehr', note: string, key: string): Promise<boolean> {
    const { rows: found } = await db.query<{ status: string; version: number }>('SELECT status, version FROM cases WHERE id = $1', [caseId]);
    const c = found[0];
    if (!c) return false;
    const { rows } = await db.query(
      `INSERT INTO case_activities (case_id, status, status_group, kind, note, initiator_name, command_id, ended_at)
       SELECT $1, $2, $3, $6, $4, 'System', $5, now()
        WHERE NOT EXISTS (SELECT 1 FROM case_activities WHERE case_id = $1 AND command_id = $5)
       RETURNING id`,
      [caseId, c.status, caseStatusGroupOf(c.status), note, key, kind],
    );
    if (rows.length) await this.publish(db, LiveRoom.case(caseId), 'case.updated', { caseId, status: c.status, version: c.version });
    return rows.length > 0;
  },

  async setOutcome(caseId: number, o: { type: string | null; note: string | null; referringDivisionId: number | null }, closing: boolean): Promise<void> {
    await Case.update(
      { outcomeType: o.type, outcomeNote: o.note, outcomeReferringDivisionId: o.referringDivisionId, ...(closing ? { closedAt: now() } : {}) },
      { where: { id: caseId } },
    );
  },

  /** How long the case was locating services (spec 01: the closed case keeps the total). */
  async totalLocatingTime(db: Sql, caseId: number): Promise<void> {
    await db.query(
      `UPDATE cases SET locating_services_seconds = coalesce((
         SELECT sum(extract(epoch FROM coalesce(ended_at, now()) - started_at))::int FROM case_activities
          WHERE case_id = $1 AND status_group = 'LocatingServices' AND undone_at IS NULL), 0)
        WHERE id = $1`,
      [caseId],
    );
  },

  async clearOutcome(caseId: number): Promise<void> {
    await Case.update({ closedAt: null, outcomeType: null, outcomeNote: null, outcomeReferringDivisionId: null }, { where: { id: caseId } });
  },

  /**
   * The last two status changes undo may look at, newest first. "Newest" is the highest id: a
   * case's commands run one at a time under its row lock, so its activity ids rise in the order of
   * its changes, while started_at (the transaction's start) can tie, or go back with the clock.
   */
  async lastChanges(db: Sql, caseId: number): Promise<Array<{ id: string; status: string; kind: string }>> {
    const { rows } = await db.query<{ id: string; status: string; kind: string }>(
      `SELECT id, status, kind FROM case_activities WHERE case_id = $1 AND undone_at IS NULL AND kind <> ALL($2::text[])
        ORDER BY id DESC LIMIT 2`,
      [caseId, ACTIVITY_KINDS_UNDO_SKIPS],
    );
    return rows;
  },

  async markUndone(activityId: string): Promise<void> {
    await CaseActivity.update({ undoneAt: now() }, { where: { id: activityId } });
  },

  /** The status before the case was closed, adjusted by statusToReopen (its inputs: REOPEN_INPUTS_SQL). */
  async reopenTarget(db: Sql, caseId: number): Promise<string> {
    const { rows } = await db.query<{ status: string; active: boolean }>(`SELECT ${REOPEN_INPUTS_SQL('$1', '$2')}`, [caseId, ACTIVE_REQUEST_STATUSES]);
    return statusToReopen(rows[0]?.status, !!rows[0]?.active);
  },

  /** Ends the open activity row, starts one for `to`, and moves the case (bumping its version): one statement. */
  async moveTo(db: Sql, c: CaseRow, to: string, kind: string, actor: CaseActor, commandId: string, extra: MoveExtra): Promise<void> {
    const resume = extra.statusToResume === undefined ? c.status_to_resume : extra.statusToResume;
    await db.query(
      `WITH ended AS (
         UPDATE case_activities SET ended_at = now() WHERE case_id = $1 AND ended_at IS NULL
       ), started AS (
         INSERT INTO case_activities (case_id, status, status_group, kind, note, initiator_id, initiator_name,
                                      main_recommendation, criteria, recommendation_note, command_id, ended_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, CASE WHEN $2 = 'Closed' THEN now() END)
       )
       UPDATE cases SET status = $2, status_to_resume = $12, status_changed_at = now(), version = version + 1, updated_at = now(),
                        reworked_at = CASE WHEN $13 THEN now() ELSE reworked_at END
        WHERE id = $1`,
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
        resume,
        !!extra.reworked,
      ],
    );
    c.status = to;
    c.status_to_resume = resume;
  },

  /**
   * Moves every case of the `from` patients to patient `to` (a patient merge): locks them first
   * (FOR UPDATE: no command of theirs runs meanwhile), then one UPDATE. Returns the moved cases.
   */
  async reassignPatient(db: Sql, from: number[], to: number): Promise<Array<{ id: number; status: string; version: number }>> {
    await db.query('SELECT id FROM cases WHERE patient_id = ANY($1::int[]) ORDER BY id FOR UPDATE', [from]);
    const { rows } = await db.query<{ id: number; status: string; version: number }>(
      `UPDATE cases SET patient_id = $2, updated_at = now() WHERE patient_id = ANY($1::int[]) RETURNING id, status, version`,
      [from, to],
    );
    return rows.sort((a, b) => a.id - b.id);
  },

  /** Plain details of a case (no lifecycle rule reads them); bumps updated_at. */
  async updateDetails(caseId: number, details: CaseDetails): Promise<void> {
    await Case.update({ ...details }, { where: { id: caseId } });
  },

  /**
   * Inserts the in-app notifications of a command for its audiences (the recipient table of
   * forms/src/notifications, resolved by insertNotificationRows) in the command's transaction,
   * never for the actor, and tells each user live on commit; returns the users named one by one
   * (a broadcast to the ITP coordinators is one row for all of them, and names none).
   */
  async insertNotifications(db: Sql, caseId: number, commandId: string, n: CaseNotification): Promise<number[]> {
    const { userRows } = await insertNotificationRows(db, {
      caseId,
      type: n.type,
      audiences: n.to,
      userIds: n.userIds,
      payload: n.payload,
      sourceKey: commandId,
      exceptUserId: n.actorId ?? null,
    });
    return userRows.map((r) => r.user_id);
  },

  /** Request lifecycle events are written to the case notes (spec 01 §4 "appear in case notes"). */
  async addLifecycleNote(db: Sql, caseId: number, actor: CaseActor, note: string): Promise<void> {
    await db.query(
      `INSERT INTO case_notes (case_id, note, kind, created_by, author_organization_type)
       VALUES ($1, $2, 'evaluation', $3, CASE WHEN $4 LIKE 'IntegratedTelehealthPartners%' THEN 'IntegratedTelehealthPartners' ELSE 'Facility' END)`,
      [caseId, note, actor.id || null, actor.userType],
    );
  },

  /** A live event, delivered when the transaction commits (LiveRelay emits it to socket.io). */
  async publish<E extends LiveEventName>(db: Sql, room: string, event: E, data: LiveEvents[E]): Promise<void> {
    await db.query('SELECT pg_notify($1, $2)', [LIVE_CHANNEL, JSON.stringify({ room, event, data })]);
  },
};
