import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { Sequelize } from 'sequelize-typescript';
import { ErrorCode, UserType, type OnlineMeetingCreateInput, type OnlineMeetingRow, type OnlineMeetingView, type UserContext } from '@crisis/forms';
import { touchOnlineMeetingTimer } from '@crisis/workflows';
import { config } from '../config';
import { CaseCommandsService } from '../cases/case-commands.service';
import { CasesService } from '../cases/cases.service';
import { CodedError, forbidden, invalid, notFound } from '../common/coded-error';
import { auditValues } from '../common/request-context';
import { pooledSql } from '../db/sql';
import { select } from '../reference/reference-sql';
import { TemporalClientService } from '../temporal/temporal-client.service';
import { MEETING_PROVIDER, type MeetingProvider } from './meeting-provider';
import { onlineMeetingsRepository as meetings, type MeetingRow } from './online-meetings.repository';

interface RequestRef {
  id: number;
  caseId: number;
  evaluationProviderId: number | null;
}

/** How far ahead a meeting may be scheduled. */
const MAX_SCHEDULE_AHEAD_MS = 90 * 24 * 3_600_000;

/**
 * The video meeting of a request (spec 01 §4 "Video meeting", §7; spec 02 §2 "Video evaluation"):
 * its state and the caller's own join link, creation (and recreation) by the provider or partner
 * staff, and joins (the provider as the provider, the source facility for the patient). Every
 * change is a command of the case workflow; the meeting's timer is told after it.
 */
@Injectable()
export class OnlineMeetingsService {
  private readonly log = new Logger('online-meetings');

  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    private readonly cases: CasesService,
    private readonly commands: CaseCommandsService,
    private readonly temporal: TemporalClientService,
    @Inject(MEETING_PROVIDER) private readonly provider: MeetingProvider,
  ) {}

  /** A request whose case the user may open (404 unknown, 403 out of scope, as the request routes). */
  private async request(user: UserContext, requestId: number): Promise<RequestRef> {
    const [r] = await select<RequestRef>(
      this.sequelize,
      'SELECT id, case_id AS "caseId", evaluation_provider_id AS "evaluationProviderId" FROM requests WHERE id = $1',
      [requestId],
    );
    if (!r) throw notFound();
    await this.cases.findInScope(user, r.caseId);
    auditValues({ caseId: r.caseId, requestId: r.id });
    return r;
  }

  /** The open meeting: NTFND when there is none yet (the missing-link tooltip), the coded ended error after it ended. */
  private async openMeeting(requestId: number): Promise<MeetingRow> {
    const m = await meetings.latest(pooledSql(this.sequelize), requestId);
    if (!m) throw new CodedError(ErrorCode.NotFound, undefined, undefined, 'The request has no video meeting');
    if (m.ended_at) throw new CodedError(ErrorCode.OnlineMeetingEnded, { endedAt: m.ended_at, reason: m.ended_reason });
    return m;
  }

  private async toView(user: UserContext, r: RequestRef, m: MeetingRow): Promise<OnlineMeetingView> {
    const isProvider = user.role === UserType.ItpProvider && r.evaluationProviderId === user.id;
    // The link works while the meeting may still be open (its idle end), and at least a few minutes.
    const validUntil = new Date(Math.max(new Date(m.idle_ends_at).getTime(), Date.now() + 5 * 60_000));
    const joinUrl = await this.provider.joinUrl(m.room, { id: user.id, name: `${user.firstName} ${user.lastName}`.trim(), email: user.email, moderator: isProvider }, validUntil);
    return {
      joinUrl,
      isProviderJoined: !!m.provider_joined_at,
      isPatientJoined: !!m.patient_joined_at,
      createdAt: new Date(m.created_at).toISOString(),
      scheduledAt: m.scheduled_at ? new Date(m.scheduled_at).toISOString() : null,
    };
  }

  async view(user: UserContext, requestId: number): Promise<OnlineMeetingView> {
    const r = await this.request(user, requestId);
    return this.toView(user, r, await this.openMeeting(r.id));
  }

  /** POST: a new room for the request, ending the open one (recreate). */
  async create(user: UserContext, requestId: number, body: OnlineMeetingCreateInput): Promise<OnlineMeetingView> {
    const r = await this.request(user, requestId);
    if (user.role === UserType.ItpProvider && r.evaluationProviderId !== user.id) throw forbidden();
    const requested = body.scheduledAt ? new Date(body.scheduledAt) : null;
    if (requested && (Number.isNaN(requested.getTime()) || requested.getTime() > Date.now() + MAX_SCHEDULE_AHEAD_MS))
      throw invalid([{ field: 'scheduledAt', key: 'invalid', message: 'The meeting can be scheduled up to 90 days ahead' }]);
    // A time already past is a meeting now: nothing to remind of.
    const scheduledAt = requested && requested.getTime() > Date.now() ? requested : null;
    const { room, url } = this.provider.newRoom();
    const start = Math.max(Date.now(), scheduledAt?.getTime() ?? 0);
    const result = await this.commands.run(user, r.caseId, {
      kind: 'createOnlineMeeting',
      requestId: r.id,
      room,
      joinUrl: url,
      idleEndsAt: this.idleEnd(start),
      scheduledAt: scheduledAt?.toISOString() ?? null,
    });
    await this.touchTimer(result.meetingId);
    return this.view(user, requestId);
  }

  /** POST join: marks the provider (the request's) or the patient (source facility staff) joined; answers the caller's link. */
  async join(user: UserContext, requestId: number): Promise<OnlineMeetingView> {
    const r = await this.request(user, requestId);
    let as: 'provider' | 'patient';
    if (user.role === UserType.ItpProvider) {
      if (r.evaluationProviderId !== user.id) throw forbidden();
      as = 'provider';
    } else if (user.organizationType === 'Facility') as = 'patient';
    else throw forbidden();
    await this.openMeeting(r.id);
    const result = await this.commands.run(user, r.caseId, { kind: 'joinOnlineMeeting', requestId: r.id, as, idleEndsAt: this.idleEnd(Date.now()) });
    await this.touchTimer(result.meetingId);
    return this.view(user, requestId);
  }

  private idleEnd(from: number): string {
    return new Date(from + config.meetings.idleMinutes * 60_000).toISOString();
  }

  /** Starts or wakes the meeting's timer; the row holds the times, so a lost call costs only a late wake-up. */
  private async touchTimer(meetingId: number | undefined) {
    if (!meetingId) return;
    try {
      await touchOnlineMeetingTimer(await this.temporal.get(), meetingId, { taskQueue: this.temporal.taskQueue });
    } catch (err) {
      this.log.error(`meeting ${meetingId}: the timer could not be told (${(err as Error).message})`);
    }
  }

  /** Demo tools' meetings page: the newest meetings with their rooms and flags. */
  async list(limit = 100): Promise<OnlineMeetingRow[]> {
    return select<OnlineMeetingRow>(
      this.sequelize,
      `SELECT id, request_id AS "requestId", case_id AS "caseId", room, join_url AS "joinUrl", created_at AS "createdAt",
              scheduled_at AS "scheduledAt", idle_ends_at AS "idleEndsAt", provider_joined_at IS NOT NULL AS "isProviderJoined",
              patient_joined_at IS NOT NULL AS "isPatientJoined", ended_at AS "endedAt", ended_reason AS "endedReason"
         FROM online_meetings ORDER BY created_at DESC, id DESC LIMIT $1`,
      [limit],
    );
  }
}
