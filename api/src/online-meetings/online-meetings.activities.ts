import { Context } from '@temporalio/activity';
import { caseCommandFailure, runCaseCommand, type OnlineMeetingActivities } from '@crisis/workflows';
import type { Sequelize } from 'sequelize-typescript';
import { config } from '../config';
import { inTransaction, pooledSql } from '../db/sql';
import { recipientsOf } from '@crisis/forms';
import { messagingRepository } from '../messaging/messaging.repository';
import { insertNotificationRows } from '../notifications/notification-fanout';
import { onlineMeetingsRepository as meetings } from './online-meetings.repository';

/** The timer's own actor in the case activity. */
const SYSTEM_ACTOR = { id: 0, name: 'System', userType: 'System' };

/**
 * The activities of a meeting's timer (workflows/src/workflows/online-meeting.ts). The reminder
 * time is read from the configuration when asked (MEETING_REMINDER_MINUTES), the idle end from the
 * row (set from MEETING_IDLE_MINUTES at creation and at each join).
 */
export function createOnlineMeetingActivities({ sequelize }: { sequelize: Sequelize }): OnlineMeetingActivities {
  const pool = pooledSql(sequelize);
  return {
    async onlineMeetingTimes(meetingId) {
      const m = await meetings.byId(pool, meetingId);
      if (!m || m.ended_at) return { ended: true, idleEndsAt: new Date().toISOString(), remindAt: null };
      const remindAt =
        m.scheduled_at && !m.reminded_at ? new Date(new Date(m.scheduled_at).getTime() - config.meetings.reminderMinutes * 60_000).toISOString() : null;
      return { ended: false, idleEndsAt: new Date(m.idle_ends_at).toISOString(), remindAt };
    },

    async remindOnlineMeeting(meetingId) {
      return inTransaction(sequelize, async (db) => {
        const m = await meetings.markReminded(db, meetingId);
        if (!m) return false;
        // VideoCallIsAboutToStart (spec 02 §3): the bell of the request's provider and the source
        // division, their SMS copies, and the facility alert that calls the nurse to bring the patient.
        const type = 'VideoCallIsAboutToStart';
        const payload = { RequestId: m.request_id, JoinUrl: m.join_url, ScheduledAt: m.scheduled_at ? new Date(m.scheduled_at).toISOString() : null };
        const sourceKey = `online-meeting:${m.id}:reminder`;
        await insertNotificationRows(db, { caseId: m.case_id, type, audiences: recipientsOf(type), payload, sourceKey });
        await messagingRepository.raiseFacilityAlert(db, { caseId: m.case_id, type, payload, sourceKey, actorActsForFacility: false, raisedBy: null });
        return true;
      });
    },

    /**
     * Ends an idle meeting through its case's workflow, so that the ending is written with its
     * case activity row by the case's one writer. The command id is the meeting's: a retried
     * activity applies it once. The handler checks the idle end again under the case's lock.
     */
    async endIdleOnlineMeeting(meetingId) {
      const m = await meetings.byId(pool, meetingId);
      if (!m || m.ended_at) return true;
      if (new Date(m.idle_ends_at).getTime() > Date.now()) return false;
      const ctx = Context.current();
      try {
        await runCaseCommand(
          ctx.client,
          m.case_id,
          { kind: 'endOnlineMeeting', meetingId, commandId: `online-meeting:${meetingId}:idle-end:${new Date(m.idle_ends_at).toISOString()}`, actor: SYSTEM_ACTOR },
          { taskQueue: ctx.info.taskQueue },
        );
      } catch (err) {
        // Refused by the case's rules (the meeting or its case is gone): nothing is left to end.
        const refusal = caseCommandFailure(err);
        if (refusal && refusal.code !== 'UNEXP.SERVICE.UNAVAILABLE') {
          ctx.log.warn(`meeting ${meetingId}: the idle end was refused (${refusal.code}: ${refusal.message})`);
          return true;
        }
        throw err;
      }
      const after = await meetings.byId(pool, meetingId);
      return !after || !!after.ended_at;
    },
  };
}
