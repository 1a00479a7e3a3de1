import { randomUUID } from 'crypto';
import { Injectable, Logger } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { Sequelize } from 'sequelize-typescript';
import {
  outOfStateToggle,
  acceptGridEnabled,
  ADD_TASKS_MAX,
  CALL_LOG_MESSAGES,
  CALLBACK_RESULTS,
  ErrorCode,
  LiveRoom,
  PLACEMENT_CASE_STATUSES,
  type LiveMessage,
  callLogProblems,
  callbackFor,
  canUndoCall,
  isBulkHold,
  isWillNotAcceptWithEmptyCallback,
  type CallLogSubmitInput,
  type UserContext,
} from '@crisis/forms';
import { setCallbackTimer, setCallbackTimers } from '@crisis/workflows';
import { ClaimsService } from '../claims/claims.service';
import { afterCommit } from '../common/after-commit';
import { CodedError, forbidden, invalid, notFound } from '../common/coded-error';
import type { ListQuery } from '../common/list-query';
import { auditValues } from '../common/request-context';
import { config } from '../config';
import { LiveService } from '../live/live.service';
import { preparedRead } from '../common/prepared-read';
import { select } from '../reference/reference-sql';
import { TemporalClientService } from '../temporal/temporal-client.service';
import { CaseCommandsService } from '../cases/case-commands.service';
import { CasesService } from '../cases/cases.service';
import { DIVISION_HOLD_NOTE } from '../cases/case.repository';
import { pooledSql } from '../db/sql';
import { fittingDivisions } from './placement-generation';

/** Division claims are claims on object type PlacementTask with the division's id (spec 02 §3 Claim). */
export const DIVISION_CLAIM_TYPE = 'PlacementTask';
/** The call log renews its claim every 60 s (spec 02 §9); the lease lasts a little longer. */
export const DIVISION_CLAIM_SECONDS = Number(process.env.DIVISION_CLAIM_SECONDS) || 90;

interface ClaimRow {
  id: string;
  object_id: string;
  subject_id: number;
  subject_name: string;
  released_at: Date | null;
  expires_at: Date;
}

interface TaskRow {
  id: number;
  case_id: number;
  division_id: number;
  case_status: string;
  last_call_id: string | null;
  callback_at: Date | null;
  extend: boolean;
  genders?: string[] | null;
  accepted_patients?: Parameters<typeof acceptGridEnabled>[0]['acceptedPatients'];
}

/**
 * Placement (spec 02 §2–§5, §7): the placements of a case, division claims, the call log and its
 * submission, callbacks and undo. Case status moves (patient accepted) and task generation go
 * through the case workflow; the calls themselves are rows written in the request's transaction.
 */
@Injectable()
export class PlacementService {
  private readonly log = new Logger('placement');

  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    private readonly claims: ClaimsService,
    private readonly cases: CasesService,
    private readonly commands: CaseCommandsService,
    private readonly temporal: TemporalClientService,
    private readonly live: LiveService,
  ) {}

  // -------------------------------------------------------------------------------------------
  // Placements of a case
  // -------------------------------------------------------------------------------------------

  async placements(user: UserContext, caseId: number, includeWillNotAccept = false) {
    await this.cases.findInScope(user, caseId);
    const rows = await select<Record<string, any>>(
      this.sequelize,
      `SELECT t.id, t.case_id AS "caseId", t.division_id AS "divisionId", t.facility_id AS "facilityId", f.name AS "facilityName",
              d.name AS "divisionName", t.is_preferred AS "isPreferredFacility", coalesce(d.veteran_only, false) AS "isVeteranOnlyDivision",
              json_build_object('city', f.city, 'state', f.state) AS address, t.travel_seconds AS "travelSeconds", t.reasons, t.origin,
              t.notes, t.rank, t.callback_at AS "callbackAt", t.due_at AS "dueAt", t.created_at AS "createdAt",
              coalesce(d.extend_maximum_callback_time, false) AS "extendMaximumCallbackTime",
              CASE WHEN lc.id IS NULL THEN NULL ELSE json_build_object('id', lc.id, 'result', lc.result, 'note', lc.note, 'createdAt', lc.created_at,
                'createdByName', lc.created_by_name) END AS "lastCall",
              h.until AS "holdUntil", h.result AS "holdResult",
              CASE WHEN cl.id IS NULL THEN NULL ELSE json_build_object('id', cl.id, 'claimedById', cl.subject_id, 'claimedByName', cl.subject_name) END AS claim
         FROM placement_tasks t
         JOIN divisions d ON d.id = t.division_id
         JOIN facilities f ON f.id = t.facility_id
         LEFT JOIN placement_calls lc ON lc.id = t.last_call_id
         LEFT JOIN LATERAL (SELECT until, result FROM division_holds WHERE division_id = t.division_id AND released_at IS NULL AND until > now()
                             ORDER BY until DESC LIMIT 1) h ON true
         LEFT JOIN claims cl ON cl.object_type = $2 AND cl.object_id = t.division_id::text AND cl.released_at IS NULL AND cl.expires_at > now()
        WHERE t.case_id = $1
        ORDER BY t.rank, t.id`,
      [caseId, DIVISION_CLAIM_TYPE],
    );
    // Tasks a division will not accept, with no callback left, are left out unless asked for.
    const done = (r: Record<string, any>) => isWillNotAcceptWithEmptyCallback(r.lastCall?.result, r.callbackAt);
    const tasks = includeWillNotAccept ? rows : rows.filter((r) => !done(r));
    const [c] = await select<{ status: string; reworked: boolean; is_involuntary: boolean; populate: boolean; include: boolean }>(
      this.sequelize,
      `SELECT c.status, (c.reworked_at IS NOT NULL AND EXISTS (SELECT 1 FROM placement_tasks t WHERE t.case_id = c.id AND t.created_at < c.reworked_at)) AS reworked,
              c.is_involuntary, f.populate_out_of_state_facilities AS populate, c.include_out_of_state_facilities AS include
         FROM cases c JOIN facilities f ON f.id = c.source_facility_id WHERE c.id = $1`,
      [caseId],
    );
    const canAddTasks = PLACEMENT_CASE_STATUSES.includes(c.status);
    return {
      tasks,
      hiddenWillNotAccept: rows.length - tasks.length,
      reworkedWarning: c.reworked && rows.length > 0,
      readOnly: c.status === 'Closed',
      canAddTasks,
      // What "add tasks" would add now (spec 02 §2 "It says how many tasks (up to 5) will be added").
      addTasksCount: canAddTasks ? Math.min(ADD_TASKS_MAX, (await fittingDivisions(pooledSql(this.sequelize), caseId)).length) : 0,
      outOfState: { ...outOfStateToggle({ status: c.status, isInvoluntary: c.is_involuntary, populateOutOfStateFacilities: c.populate }), value: c.include },
    };
  }

  async generate(user: UserContext, caseId: number, notes: string | null) {
    await this.cases.findInScope(user, caseId);
    return this.commands.run(user, caseId, { kind: 'generateTasks', count: ADD_TASKS_MAX, notes });
  }

  async createTask(user: UserContext, caseId: number, divisionId: number) {
    await this.cases.findInScope(user, caseId);
    return this.commands.run(user, caseId, { kind: 'addTask', divisionId });
  }

  // -------------------------------------------------------------------------------------------
  // Division claims and the call log
  // -------------------------------------------------------------------------------------------

  /**
   * Claims a division's tasks across every case (exclusive); returns the claim. With `resumeTask`
   * the division's on-hold tasks are resumed instead of waited for (spec 02 §4 "An on-hold task
   * can be resumed instead of claimed"): its bulk hold ends and they are due now.
   */
  async claimDivision(user: UserContext, divisionId: number, resumeTask = false) {
    const [division] = await select<{ id: number }>(this.sequelize, `SELECT id FROM divisions WHERE id = $1 AND type = 'Referring'`, [divisionId]);
    if (!division) throw notFound();
    try {
      const claim = await this.claims.claim(user, { objectType: DIVISION_CLAIM_TYPE, objectId: divisionId, extendBy: DIVISION_CLAIM_SECONDS });
      auditValues({ divisionId });
      const resumed = resumeTask ? await this.resumeHeldTasks(divisionId) : [];
      await this.live.publish(LiveRoom.calls, 'division.claimed', { divisionId, claimedByName: claim.subjectName });
      return { claimId: claim.id, divisionId, expiresAt: claim.expiresAt, resumedTaskIds: resumed };
    } catch (err) {
      if (err instanceof CodedError && err.code === ErrorCode.ObjectAlreadyClaimed) {
        const p = (err.payload ?? {}) as { subjectId?: number; subjectName?: string };
        // The holder is named in the payload (the calls card shows it), not in the message: the
        // message travels in the x-error header, where a name beyond Latin-1 is not allowed.
        throw new CodedError(ErrorCode.DivisionAlreadyClaimed, { divisionId, claimedByName: p.subjectName, claimedById: p.subjectId });
      }
      throw err;
    }
  }

  /**
   * Resumes the on-hold tasks of a division just claimed: its active bulk holds end (future cases
   * are no longer created held), and the tasks of the cases being placed whose last result holds
   * them (NoBedsAvailable, NoSecureBeds, CallBack with a callback still ahead) are due now, their
   * timers stopped. Returns the resumed task ids.
   */
  private async resumeHeldTasks(divisionId: number): Promise<number[]> {
    await select(this.sequelize, 'UPDATE division_holds SET released_at = now() WHERE division_id = $1 AND released_at IS NULL AND until > now()', [divisionId]);
    const resumed = await select<{ id: number; case_id: number }>(
      this.sequelize,
      `UPDATE placement_tasks t SET callback_at = now(), due_at = now(), updated_at = now()
         FROM placement_calls lc, cases c
        WHERE t.division_id = $1 AND lc.id = t.last_call_id AND lc.result = ANY($2::text[]) AND t.callback_at > now()
          AND c.id = t.case_id AND c.status = ANY($3::text[])
        RETURNING t.id, t.case_id`,
      [divisionId, CALLBACK_RESULTS, PLACEMENT_CASE_STATUSES],
    );
    if (!resumed.length) return [];
    auditValues({ resumedTaskIds: resumed.map((r) => r.id) });
    const caseIds = [...new Set(resumed.map((r) => r.case_id))];
    await this.live.publishAll([
      ...caseIds.map((caseId): LiveMessage => ({ room: LiveRoom.case(caseId), event: 'placements.updated', data: { caseId } })),
      { room: LiveRoom.calls, event: 'calls.updated', data: { divisionId } },
    ]);
    const timers = new Map(resumed.map((r): [number, string | null] => [r.id, null]));
    await afterCommit('callback timers of resumed tasks', async () => {
      void this.startTimers(timers);
    });
    return resumed.map((r) => r.id);
  }

  /** The caller's claim, active: else INV.CLAIM.IS.OVERDUE.OR.INACTIVE (the call log's cancel flow). */
  private async activeClaim(user: UserContext, claimId: number): Promise<ClaimRow> {
    const [claim] = await select<ClaimRow>(
      this.sequelize,
      `SELECT id, object_id, subject_id, subject_name, released_at, expires_at FROM claims WHERE id = $1 AND object_type = $2`,
      [claimId, DIVISION_CLAIM_TYPE],
    );
    if (!claim) throw notFound();
    if (claim.subject_id !== user.id) throw forbidden();
    if (claim.released_at || claim.expires_at.getTime() <= Date.now()) throw new CodedError(ErrorCode.ClaimOverdueOrInactive);
    return claim;
  }

  /** GET claim/{id}: the claimed division and its tasks in every case being placed. */
  async callLog(user: UserContext, claimId: number) {
    const claim = await this.activeClaim(user, claimId);
    const divisionId = Number(claim.object_id);
    const [division] = await select<Record<string, any>>(
      this.sequelize,
      `SELECT d.id, d.name, d.description, d.referring_type AS "referringType", d.contacts, d.accepted_patients AS "acceptedPatients",
              d.genders, d.type, coalesce(d.extend_maximum_callback_time, false) AS "extendMaximumCallbackTime",
              coalesce(d.veteran_only, false) AS "veteranOnly", d.document_in_ehr AS "documentInEHR", d.no_placement AS "noPlacement",
              json_build_object('id', f.id, 'name', f.name, 'streetLine', f.street_line, 'city', f.city, 'state', f.state, 'zipCode', f.zip_code,
                                'contacts', f.contacts) AS facility,
              (SELECT json_build_object('until', h.until, 'result', h.result) FROM division_holds h
                WHERE h.division_id = d.id AND h.released_at IS NULL AND h.until > now() ORDER BY h.until DESC LIMIT 1) AS hold
         FROM divisions d JOIN facilities f ON f.id = d.facility_id WHERE d.id = $1`,
      [divisionId],
    );
    const tasks = await select<Record<string, any>>(
      this.sequelize,
      `SELECT t.id, t.case_id AS "caseId", c.status AS "caseStatus", p.first_name AS "firstName", p.last_name AS "lastName",
              p.gender, p.date_of_birth AS "dateOfBirth", date_part('year', age(now(), p.date_of_birth))::int AS age,
              sf.name AS "sourceFacilityName", c.criteria, c.main_recommendation AS "mainRecommendation",
              t.callback_at AS "callbackAt", t.due_at AS "dueAt", t.draft,
              CASE WHEN lc.id IS NULL THEN NULL ELSE json_build_object('id', lc.id, 'result', lc.result, 'note', lc.note, 'createdAt', lc.created_at,
                'spokeWith', lc.spoke_with, 'createdByName', lc.created_by_name) END AS "lastCall",
              (lc.result = ANY($2::text[]) AND t.callback_at > now()) AS "onHold",
              CASE WHEN lc.result = ANY($2::text[]) AND t.callback_at > now() THEN lc.created_at END AS "onHoldSince"
         FROM placement_tasks t
         JOIN cases c ON c.id = t.case_id AND c.status = ANY($3::text[]) AND c.status <> 'Closed'
         JOIN patients p ON p.id = c.patient_id
         JOIN facilities sf ON sf.id = c.source_facility_id
         LEFT JOIN placement_calls lc ON lc.id = t.last_call_id
        WHERE t.division_id = $1
        ORDER BY t.callback_at NULLS FIRST, c.created_at, t.id`,
      [divisionId, CALLBACK_RESULTS, PLACEMENT_CASE_STATUSES],
    );
    return { claimId: Number(claim.id), expiresAt: claim.expires_at, division, tasks };
  }

  /** PUT claim/{id}/draft/calls: the rows as typed so far, kept per task (survives a reload). */
  async saveDraft(user: UserContext, claimId: number, calls: CallLogSubmitInput['calls']) {
    const claim = await this.activeClaim(user, claimId);
    await select(
      this.sequelize,
      `UPDATE placement_tasks t SET draft = CASE WHEN x.row IS NULL THEN NULL ELSE x.row END
         FROM (SELECT t2.id, d.row FROM placement_tasks t2
                 LEFT JOIN LATERAL (SELECT r AS row FROM jsonb_array_elements($2::jsonb) r WHERE (r->>'placementTaskId')::int = t2.id LIMIT 1) d ON true
                WHERE t2.division_id = $1) x
        WHERE t.id = x.id AND t.draft IS DISTINCT FROM x.row`,
      [Number(claim.object_id), JSON.stringify(calls)],
    );
    return { saved: calls.length };
  }

  /**
   * PUT claim/{id}/calls: logs the calls (spec 02 §4, §5). One transaction (the request's): the
   * call rows, the tasks' last call and callback, division holds of bulk hold results, granted
   * access; after commit the callback timers, the case workflow (patient accepted) and the live
   * updates. A call is never lost: it is committed before anything that may fail on its own.
   */
  async submit(user: UserContext, claimId: number, body: CallLogSubmitInput) {
    const claim = await this.activeClaim(user, claimId);
    const divisionId = Number(claim.object_id);
    const ids = body.calls.map((c) => c.placementTaskId);
    if (new Set(ids).size !== ids.length) throw invalid([{ field: 'calls', key: 'duplicate', message: 'A task appears twice' }]);
    const tasks = await select<TaskRow>(
      this.sequelize,
      `SELECT t.id, t.case_id, t.division_id, c.status AS case_status, t.last_call_id, t.callback_at,
              coalesce(d.extend_maximum_callback_time, false) AS extend, d.genders, d.accepted_patients
         FROM placement_tasks t JOIN cases c ON c.id = t.case_id JOIN divisions d ON d.id = t.division_id
        WHERE t.id = ANY($1::int[]) FOR UPDATE OF t`,
      [ids],
    );
    const byId = new Map(tasks.map((t) => [t.id, t]));
    for (const id of ids) {
      const t = byId.get(id);
      if (!t || t.division_id !== divisionId) throw invalid([{ field: 'calls', key: 'invalid', message: `Task ${id} is not a task of the claimed division` }]);
    }
    const now = new Date();
    // The accept grid's cells the division cannot take are refused here too, not only disabled on screen.
    const grid = acceptGridEnabled({ genders: tasks[0]?.genders, acceptedPatients: tasks[0]?.accepted_patients });
    const problems = callLogProblems(body.calls, { now, allowExtended: (taskId) => byId.get(taskId)!.extend, bulk: !!body.bulk, acceptEnabled: () => grid });
    if (Object.keys(problems).length)
      throw invalid(Object.entries(problems).map(([field, key]) => ({ field, key, message: CALL_LOG_MESSAGES[key] ?? key })));
    for (const t of tasks) {
      if (t.case_status === 'Closed') throw new CodedError(ErrorCode.CaseIsClosed, { caseId: t.case_id }, undefined, 'The case is closed');
      if (!PLACEMENT_CASE_STATUSES.includes(t.case_status))
        throw new CodedError(ErrorCode.CaseIsReworked, { caseId: t.case_id }, undefined, 'The case was reworked');
    }

    const bulkId = body.bulk ? randomUUID() : null;
    const name = `${user.firstName} ${user.lastName}`;
    const timers = new Map<number, string | null>();
    const accepted: Array<{ caseId: number }> = [];
    const granted = new Set<number>();
    let holdUntil: { result: string; until: Date } | null = null;

    type CallRow = { t: TaskRow; result: string; note?: string | null; callbackAt: Date | null; spokeWith?: string | null; accept?: unknown };
    /** Inserts the calls and points their tasks at them: two statements however many rows. */
    const writeCalls = async (rows: CallRow[]) => {
      if (!rows.length) return;
      await select(
        this.sequelize,
        `WITH x AS (
           SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(task_id int, case_id int, division_id int, result text, note text, callback_at timestamptz,
                                                         spoke_with text, accept jsonb, previous_call_id bigint, previous_callback_at timestamptz)
         ), ins AS (
           INSERT INTO placement_calls (task_id, case_id, division_id, claim_id, result, note, callback_at, spoke_with, accept, bulk_id,
                                        created_by, created_by_name, previous_call_id, previous_callback_at)
           SELECT task_id, case_id, division_id, $2, result, note, callback_at, spoke_with, accept, $3, $4, $5, previous_call_id, previous_callback_at FROM x
           RETURNING id, task_id, callback_at
         )
         UPDATE placement_tasks t SET last_call_id = ins.id, callback_at = ins.callback_at, due_at = NULL, draft = NULL, updated_at = now()
           FROM ins WHERE t.id = ins.task_id`,
        [
          JSON.stringify(
            rows.map((r) => ({
              task_id: r.t.id,
              case_id: r.t.case_id,
              division_id: r.t.division_id,
              result: r.result,
              note: r.note ?? null,
              callback_at: r.callbackAt?.toISOString() ?? null,
              spoke_with: r.spokeWith ?? null,
              accept: r.accept ?? null,
              previous_call_id: r.t.last_call_id,
              previous_callback_at: r.t.callback_at?.toISOString() ?? null,
            })),
          ),
          claimId,
          bulkId,
          user.id,
          name,
        ],
      );
      for (const r of rows) {
        timers.set(r.t.id, r.callbackAt ? r.callbackAt.toISOString() : null);
        if (r.result === 'GrantedAccess' || r.result === 'PatientAccepted') granted.add(r.t.case_id);
        if (r.result === 'PatientAccepted') accepted.push({ caseId: r.t.case_id });
      }
    };

    const submitted: CallRow[] = [];
    for (const c of body.calls) {
      const t = byId.get(c.placementTaskId)!;
      const callbackAt = callbackFor(c.result!, c.callbackAt ? new Date(c.callbackAt) : null, now);
      submitted.push({ t, result: c.result!, note: c.note, callbackAt, spokeWith: c.spokeWith, accept: c.accept });
      if (isBulkHold(c.result!, !!body.bulk) && callbackAt && (!holdUntil || callbackAt > holdUntil.until)) holdUntil = { result: c.result!, until: callbackAt };
    }
    await writeCalls(submitted);
    // A bulk NoBedsAvailable / NoSecureBeds / CallBack holds the division for every case until then.
    if (holdUntil) {
      await select(
        this.sequelize,
        `INSERT INTO division_holds (division_id, result, until, call_bulk_id, created_by) VALUES ($1, $2, $3, $4, $5)`,
        [divisionId, holdUntil.result, holdUntil.until, bulkId, user.id],
      );
      const others = await select<TaskRow>(
        this.sequelize,
        `SELECT t.id, t.case_id, t.division_id, c.status AS case_status, t.last_call_id, t.callback_at, false AS extend
           FROM placement_tasks t JOIN cases c ON c.id = t.case_id
          WHERE t.division_id = $1 AND c.status = ANY($2::text[]) AND c.status <> 'Closed' AND NOT (t.id = ANY($3::int[])) FOR UPDATE OF t`,
        [divisionId, PLACEMENT_CASE_STATUSES, ids],
      );
      await writeCalls(others.map((t) => ({ t, result: holdUntil!.result, note: DIVISION_HOLD_NOTE, callbackAt: holdUntil!.until })));
    }

    for (const caseId of granted) {
      await select(
        this.sequelize,
        `INSERT INTO case_referring_access (case_id, division_id) VALUES ($1, $2)
         ON CONFLICT (case_id, division_id) DO UPDATE SET removed_at = NULL`,
        [caseId, divisionId],
      );
    }
    for (const { caseId } of accepted)
      await select(this.sequelize, 'UPDATE case_referring_access SET accepted_at = coalesce(accepted_at, now()) WHERE case_id = $1 AND division_id = $2', [caseId, divisionId]);

    auditValues({ divisionId, claimId, calls: timers.size, bulk: !!body.bulk });
    const caseIds = [...new Set([...timers.keys()].map((id) => (byId.get(id) ?? { case_id: 0 }).case_id).filter(Boolean))];
    await this.live.publishAll([
      ...caseIds.map((caseId): LiveMessage => ({ room: LiveRoom.case(caseId), event: 'placements.updated', data: { caseId } })),
      { room: LiveRoom.calls, event: 'calls.updated', data: { divisionId } },
    ]);
    await afterCommit('case moves after calls', async () => {
      // The timers are not awaited: the calls are saved, and a timer that cannot be set now is
      // made up for by the callbacks sweep (the task row holds the callback time).
      void this.startTimers(timers);
      for (const { caseId } of accepted) await this.commands.run(user, caseId, { kind: 'patientAccepted', divisionId });
      for (const caseId of granted)
        void this.commands.run(user, caseId, { kind: 'recordEvent', event: 'GrantedAccessSpecified', payload: { DivisionId: divisionId } }).catch(() => undefined);
    });
    return { saved: timers.size, bulkId };
  }

  /** Sets the follow-up timers of the tasks (one signal-with-start per dispatcher shard); failures are logged, the sweep covers them. */
  private async startTimers(timers: Map<number, string | null>) {
    try {
      const client = await this.temporal.get();
      await setCallbackTimers(client, [...timers].map(([taskId, callbackAt]) => ({ taskId, callbackAt })), { taskQueue: config.temporal.taskQueue });
    } catch (err) {
      this.log.warn(`callback timers not set (${(err as Error).message}); the callbacks sweep will make the tasks due`);
    }
  }

  async releaseClaim(user: UserContext, claimId: number) {
    const released = await this.claims.release(user, String(claimId));
    await this.live.publish(LiveRoom.calls, 'division.released', { divisionId: Number(released.objectId) });
    return released;
  }

  // -------------------------------------------------------------------------------------------
  // The calls card (ITP dashboard)
  // -------------------------------------------------------------------------------------------

  async callsCard(q: ListQuery<{ facilityName?: string | null; withinTwoHours?: boolean | null }>) {
    const bind: unknown[] = [DIVISION_CLAIM_TYPE];
    const where: string[] = [];
    // facility_sort_name is the facility's name lowercased: ILIKE matches it as it matches the name.
    if (q.filter.facilityName) where.push(`g.facility_sort_name ILIKE $${bind.push(`%${q.filter.facilityName.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`);
    // "Within two hours": divisions with a task never called, due, or due within the next two hours.
    if (q.filter.withinTwoHours) where.push(`(g.uncalled_count > 0 OR g.recent_callback_at <= now() + interval '2 hours')`);
    const limit = bind.push(q.limit);
    const offset = bind.push(q.offset);
    const filtered = `FROM calls_card_divisions g ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`;
    const order = 'ORDER BY (g.uncalled_count > 0) DESC, g.recent_callback_at NULLS FIRST, g.facility_sort_name, g.division_id';
    // calls_card_divisions: one row per division with tasks in cases being placed, kept by triggers
    // in the transaction of every task or case change (migrations 20261202-0200, -0300). The page
    // comes in the card's order from its index; only its rows get their names, claim and hold.
    const rows = await preparedRead<Record<string, any>>(
      this.sequelize,
      `WITH page AS (SELECT g.* ${filtered} ${order} LIMIT $${limit} OFFSET $${offset})
       SELECT d.id AS "divisionId", d.name AS "divisionName", f.id AS "facilityId", f.name AS "facilityName",
              g.task_count AS "taskCount", g.preferred_count AS "preferredCount", g.recent_callback_at AS "recentCallbackAt",
              g.uncalled_count AS "uncalledCount",
              CASE WHEN cl.id IS NULL THEN NULL ELSE json_build_object('id', cl.id, 'claimedById', cl.subject_id, 'claimedByName', cl.subject_name) END AS claim,
              CASE WHEN g.recent_callback_at < now() THEN 'expired' WHEN cl.id IS NOT NULL THEN 'claimed' ELSE 'active' END AS circle,
              h.until AS "holdUntil", h.result AS "holdResult",
              (SELECT count(*) ${filtered})::int AS total
         FROM page g JOIN divisions d ON d.id = g.division_id JOIN facilities f ON f.id = d.facility_id
         LEFT JOIN claims cl ON cl.object_type = $1 AND cl.object_id = d.id::text AND cl.released_at IS NULL AND cl.expires_at > now()
         LEFT JOIN LATERAL (SELECT until, result FROM division_holds WHERE division_id = d.id AND released_at IS NULL AND until > now()
                             ORDER BY until DESC LIMIT 1) h ON true
        ${order}`,
      bind,
    );
    const total = rows[0]?.total ?? 0;
    return { rows: rows.map(({ total: _t, ...r }) => r), total };
  }

  // -------------------------------------------------------------------------------------------
  // The placement log of a case, and undo
  // -------------------------------------------------------------------------------------------

  async caseLog(
    user: UserContext,
    caseId: number,
    f: { from?: string | null; to?: string | null; facilityIds?: number[] | null; results?: string[] | null; coordinatorIds?: number[] | null },
    sort: { field: string; order: 'ASC' | 'DESC' },
    page: { offset: number; limit: number },
  ) {
    await this.cases.findInScope(user, caseId);
    const bind: unknown[] = [caseId, DIVISION_CLAIM_TYPE];
    const where = ['pc.case_id = $1'];
    if (f.from) where.push(`pc.created_at >= $${bind.push(f.from)}::timestamptz`);
    if (f.to) where.push(`pc.created_at <= $${bind.push(f.to)}::timestamptz`);
    if (f.facilityIds?.length) where.push(`d.facility_id = ANY($${bind.push(f.facilityIds)}::int[])`);
    if (f.results?.length) where.push(`pc.result = ANY($${bind.push(f.results)}::text[])`);
    if (f.coordinatorIds?.length) where.push(`pc.created_by = ANY($${bind.push(f.coordinatorIds)}::int[])`);
    const sortSql: Record<string, string> = {
      dateContact: 'pc.created_at',
      coordinator: 'lower(pc.created_by_name)',
      referringFacility: 'lower(fa.name || d.name)',
      result: 'pc.result',
      callbackAt: 'pc.callback_at',
    };
    const order = `${sortSql[sort.field] ?? 'pc.created_at'} ${sort.order === 'ASC' ? 'ASC' : 'DESC'} NULLS LAST, pc.id DESC`;
    const [c] = await select<{ status: string }>(this.sequelize, 'SELECT status FROM cases WHERE id = $1', [caseId]);
    const rows = await select<Record<string, any>>(
      this.sequelize,
      `SELECT pc.id AS "placementTaskCallId", pc.task_id AS "placementTaskId", pc.created_at AS "createdAt", pc.spoke_with AS "spokeWith",
              pc.created_by_name AS "crisisCoordinator", pc.created_by AS "coordinatorId",
              json_build_object('facilityId', fa.id, 'facilityName', fa.name, 'divisionName', d.name,
                                'facilityAddress', concat_ws(', ', fa.street_line, fa.city, fa.state || ' ' || fa.zip_code)) AS "referringFacilityDivisionInfo",
              pc.result, pc.note, pc.callback_at AS "callbackAt", pc.undone_at IS NOT NULL AS undone, pc.bulk_id AS "bulkId",
              (t.last_call_id = pc.id) AS "isLast",
              EXISTS (SELECT 1 FROM claims cl WHERE cl.object_type = $2 AND cl.object_id = pc.division_id::text AND cl.released_at IS NULL AND cl.expires_at > now()) AS "isClaimed",
              count(*) OVER ()::int AS total
         FROM placement_calls pc
         JOIN placement_tasks t ON t.id = pc.task_id
         JOIN divisions d ON d.id = pc.division_id
         JOIN facilities fa ON fa.id = d.facility_id
        WHERE ${where.join(' AND ')}
        ORDER BY ${order}
        LIMIT $${bind.push(page.limit)} OFFSET $${bind.push(page.offset)}`,
      bind,
    );
    let total = rows[0]?.total ?? 0;
    // A page past the end still tells the total.
    if (!rows.length && page.offset > 0)
      total = (await select<{ n: number }>(this.sequelize, `SELECT count(*)::int AS n FROM placement_calls pc JOIN divisions d ON d.id = pc.division_id JOIN facilities fa ON fa.id = d.facility_id WHERE $2::text IS NOT NULL AND ${where.join(' AND ')}`, bind.slice(0, bind.length - 2)))[0].n;
    return {
      rows: rows.map(({ total: _t, ...r }) => ({ ...r, canUndo: r.isLast && canUndoCall(c.status, { result: r.result, undone: r.undone, isClaimed: r.isClaimed }) })),
      total,
    };
  }

  /**
   * PUT {taskId}/undo/{callId}: takes back the task's last call (spec 02 §4 "Undo a call"): the
   * call is marked undone (kept, shown crossed out) and the task shows what it showed before.
   */
  async undo(user: UserContext, taskId: number, callId: number) {
    const [row] = await select<{ case_id: number; status: string; last_call_id: string | null; result: string; undone: boolean; division_id: number; previous_call_id: string | null; previous_callback_at: Date | null; claimed: boolean }>(
      this.sequelize,
      `SELECT t.case_id, c.status, t.last_call_id, pc.result, pc.undone_at IS NOT NULL AS undone, pc.division_id, pc.previous_call_id, pc.previous_callback_at,
              EXISTS (SELECT 1 FROM claims cl WHERE cl.object_type = $3 AND cl.object_id = pc.division_id::text AND cl.released_at IS NULL AND cl.expires_at > now()) AS claimed
         FROM placement_calls pc JOIN placement_tasks t ON t.id = pc.task_id JOIN cases c ON c.id = t.case_id
        WHERE pc.id = $1 AND pc.task_id = $2 FOR UPDATE OF t`,
      [callId, taskId, DIVISION_CLAIM_TYPE],
    );
    if (!row) throw notFound();
    await this.cases.findInScope(user, row.case_id);
    if (String(row.last_call_id) !== String(callId) || !canUndoCall(row.status, { result: row.result, undone: row.undone, isClaimed: row.claimed }))
      throw new CodedError(ErrorCode.CallCannotBeUndone, { status: row.status, isClaimed: row.claimed, undone: row.undone }, undefined, 'This call cannot be undone');
    await select(this.sequelize, 'UPDATE placement_calls SET undone_at = now(), undone_by = $2 WHERE id = $1', [callId, user.id]);
    const callbackAt = row.previous_callback_at && row.previous_callback_at.getTime() > Date.now() ? row.previous_callback_at : null;
    await select(this.sequelize, 'UPDATE placement_tasks SET last_call_id = $2, callback_at = $3, due_at = NULL, updated_at = now() WHERE id = $1', [
      taskId,
      row.previous_call_id,
      callbackAt,
    ]);
    const undidAcceptance = row.result === 'PatientAccepted';
    if (undidAcceptance)
      await select(this.sequelize, 'UPDATE case_referring_access SET accepted_at = NULL WHERE case_id = $1 AND division_id = $2', [row.case_id, row.division_id]);
    auditValues({ caseId: row.case_id, taskId, callId });
    await this.live.publish(LiveRoom.case(row.case_id), 'placements.updated', { caseId: row.case_id });
    await this.live.publish(LiveRoom.calls, 'calls.updated', { divisionId: row.division_id });
    await afterCommit('callback timer after undo', async () => {
      // Taking back "patient accepted" takes the case back to contacting.
      if (undidAcceptance) await this.commands.run(user, row.case_id, { kind: 'removeFromAccepted', divisionId: row.division_id });
      await setCallbackTimer(await this.temporal.get(), taskId, callbackAt ? callbackAt.toISOString() : null, { taskQueue: config.temporal.taskQueue });
    });
    return { undone: true, callbackAt };
  }
}
