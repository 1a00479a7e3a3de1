import type { Sql } from '../db/sql';

/** An online_meetings row as the writers and readers here see it. */
export interface MeetingRow {
  id: number;
  request_id: number;
  case_id: number;
  room: string;
  join_url: string;
  created_at: Date;
  scheduled_at: Date | null;
  idle_ends_at: Date;
  reminded_at: Date | null;
  provider_joined_at: Date | null;
  patient_joined_at: Date | null;
  ended_at: Date | null;
  ended_reason: 'idle' | 'recreated' | null;
}

const COLUMNS = `id, request_id, case_id, room, join_url, created_at, scheduled_at, idle_ends_at, reminded_at,
  provider_joined_at, patient_joined_at, ended_at, ended_reason`;

/**
 * The writes of `online_meetings`. Creating, joining and ending a meeting are commands of the case
 * workflow (CaseCommandsHandler calls these inside the command's transaction, with the case
 * activity row); only the reminder's mark is set by the meeting's timer (markReminded).
 */
export const onlineMeetingsRepository = {
  /** The request's newest meeting (the open one, or the last that ended). */
  async latest(db: Sql, requestId: number): Promise<MeetingRow | undefined> {
    const { rows } = await db.query<MeetingRow>(`SELECT ${COLUMNS} FROM online_meetings WHERE request_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1`, [requestId]);
    return rows[0];
  },

  async byId(db: Sql, meetingId: number): Promise<MeetingRow | undefined> {
    const { rows } = await db.query<MeetingRow>(`SELECT ${COLUMNS} FROM online_meetings WHERE id = $1`, [meetingId]);
    return rows[0];
  },

  /** Ends the request's open meeting, if any (recreate); returns its id. */
  async endOpen(db: Sql, requestId: number, reason: 'idle' | 'recreated'): Promise<number | null> {
    const { rows } = await db.query<{ id: number }>(
      `UPDATE online_meetings SET ended_at = now(), ended_reason = $2 WHERE request_id = $1 AND ended_at IS NULL RETURNING id`,
      [requestId, reason],
    );
    return rows[0]?.id ?? null;
  },

  async insert(
    db: Sql,
    m: { requestId: number; caseId: number; room: string; joinUrl: string; createdBy: number | null; scheduledAt: string | null; idleEndsAt: string },
  ): Promise<number> {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO online_meetings (request_id, case_id, room, join_url, created_by, scheduled_at, idle_ends_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [m.requestId, m.caseId, m.room, m.joinUrl, m.createdBy, m.scheduledAt, m.idleEndsAt],
    );
    return rows[0].id;
  },

  /** Marks who joined (if not yet) and moves the idle end; true when that side joined for the first time. */
  async markJoined(db: Sql, meetingId: number, as: 'provider' | 'patient', idleEndsAt: string): Promise<boolean> {
    const column = as === 'provider' ? 'provider_joined_at' : 'patient_joined_at';
    const { rows } = await db.query<{ first: boolean }>(
      `UPDATE online_meetings m SET ${column} = coalesce(m.${column}, now()), idle_ends_at = greatest(m.idle_ends_at, $2::timestamptz)
        FROM (SELECT ${column} IS NULL AS first FROM online_meetings WHERE id = $1) before
        WHERE m.id = $1 AND m.ended_at IS NULL RETURNING before.first`,
      [meetingId, idleEndsAt],
    );
    return !!rows[0]?.first;
  },

  /** Ends the meeting if nobody joined before its idle end; true when this call ended it. */
  async endIfIdle(db: Sql, meetingId: number): Promise<boolean> {
    const { rows } = await db.query(
      `UPDATE online_meetings SET ended_at = now(), ended_reason = 'idle' WHERE id = $1 AND ended_at IS NULL AND idle_ends_at <= now() RETURNING id`,
      [meetingId],
    );
    return rows.length > 0;
  },

  /** Marks the reminder sent; true only for the first caller (the one that raises it). */
  async markReminded(db: Sql, meetingId: number): Promise<MeetingRow | undefined> {
    const { rows } = await db.query<MeetingRow>(
      `UPDATE online_meetings SET reminded_at = now() WHERE id = $1 AND reminded_at IS NULL AND ended_at IS NULL AND scheduled_at IS NOT NULL
       RETURNING ${COLUMNS}`,
      [meetingId],
    );
    return rows[0];
  },
};
