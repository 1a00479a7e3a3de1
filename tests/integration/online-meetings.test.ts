import { ErrorCode, UserType } from '@crisis/forms';
import { touchOnlineMeetingTimer } from '@crisis/workflows';
import { api, eventually } from '../support/api';
import { createCase, tampaDivisions } from '../support/cases';
import { db } from '../support/db';
import { signIn, signInAs } from '../support/oidc-client';
import { withTemporal } from '../support/temporal-client';

/**
 * The video meeting of a request (spec 01 §4 "Video meeting", §7; spec 02 §2 "Video evaluation",
 * §8 INV.ONLINE.MEETING.ENDED): created by the provider, joined by the provider and for the
 * patient by the source facility, ended by its timer when nobody joins for the idle time, then
 * recreated with a new room. Joins and the ending are case activity. The timer is the real
 * workflow on the stack's worker: the test moves the meeting's idle end (the row is the truth)
 * and tells the timer, so the ending path runs in a second instead of an hour.
 */
let coordinator: string;
let provider: string;
let facilityUser: string;
let otherFacilityUser: string;
let providerId: number;
let facilityUserId: number;
let tampa: Awaited<ReturnType<typeof tampaDivisions>>;

const meetingPath = (requestId: number) => `/api/requests/${requestId}/evaluation/online-meeting`;
const get = (requestId: number, token: string) => api('GET', meetingPath(requestId), { token });
const create = (requestId: number, token: string, body: Record<string, unknown> = {}) => api('POST', meetingPath(requestId), { token, body });
const join = (requestId: number, token: string) => api('POST', `${meetingPath(requestId)}/join`, { token });
const roomOf = (joinUrl: string) => new URL(joinUrl).pathname.split('/').pop()!;
const meetingActivity = async (caseId: number) =>
  (await db.query<{ note: string; initiator_name: string }>(`SELECT note, initiator_name FROM case_activities WHERE case_id = $1 AND kind = 'meeting' ORDER BY started_at, id`, [caseId])).rows;

beforeAll(async () => {
  [coordinator, provider, facilityUser] = (
    await Promise.all([signInAs(UserType.ItpUser), signInAs(UserType.ItpProvider), signInAs(UserType.FacilityUser)])
  ).map((r) => r.accessToken);
  otherFacilityUser = (await signIn({ email: 'er@savannahcoastal.example.org', password: 'Demo1234!' })).accessToken;
  providerId = (await db.query("SELECT id FROM users WHERE email = 'provider@itp.example.org'")).rows[0].id;
  facilityUserId = (await db.query("SELECT id FROM users WHERE email = 'er@tampageneral.example.org'")).rows[0].id;
  tampa = await tampaDivisions();
});

/**
 * A case of Tampa's emergency department (the demo facility user's division) with a request for
 * the demo provider, or (created by the facility, "any provider") for no provider yet.
 */
const newRequest = (assigned = true) =>
  assigned ? createCase({ token: coordinator, facilityId: tampa.facilityId, divisionId: tampa.edId, providerId }) : createCase({ token: facilityUser, providerId: null });

describe('online meetings', () => {
  it('is created by the provider, joined by both sides, ended by its idle timer, then recreated with a new room', async () => {
    const c = await newRequest();
    // No meeting yet: the missing-link case of the join buttons.
    const missing = await get(c.requestId, provider);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(ErrorCode.NotFound);

    const created = await create(c.requestId, provider);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ isProviderJoined: false, isPatientJoined: false, scheduledAt: null });
    const firstRoom = roomOf(created.body.joinUrl);
    expect(firstRoom).toMatch(/^crisis-[0-9a-f]{32}$/);
    expect(created.body.joinUrl.startsWith('https://meet.jit.si/')).toBe(true);

    // The provider joins: his flag only.
    const providerJoin = await join(c.requestId, provider);
    expect(providerJoin.status).toBe(201);
    expect(providerJoin.body).toMatchObject({ isProviderJoined: true, isPatientJoined: false });
    expect(roomOf(providerJoin.body.joinUrl)).toBe(firstRoom);
    // The facility user of the case joins for the patient.
    const patientJoin = await join(c.requestId, facilityUser);
    expect(patientJoin.status).toBe(201);
    expect(patientJoin.body).toMatchObject({ isProviderJoined: true, isPatientJoined: true });
    expect(roomOf(patientJoin.body.joinUrl)).toBe(firstRoom);
    // Everyone who sees the request sees the flags; the request card's summary says the same.
    expect((await get(c.requestId, coordinator)).body).toMatchObject({ isProviderJoined: true, isPatientJoined: true });
    const card = (await api('GET', `/api/cases/${c.id}/requests`, { token: facilityUser })).body.find((r: { id: number }) => r.id === c.requestId);
    expect(card.onlineMeeting).toMatchObject({ isProviderJoined: true, isPatientJoined: true, ended: false });
    // A second join changes nothing and is not logged twice.
    expect((await join(c.requestId, provider)).status).toBe(201);
    expect((await meetingActivity(c.id)).map((a) => a.note)).toEqual([
      'Video meeting created',
      'Provider joined the video meeting',
      'Patient joined the video meeting',
    ]);

    // Nobody joins again: the idle end comes (moved to a second from now) and the timer ends the meeting.
    const meetingId = (await db.query('SELECT id FROM online_meetings WHERE request_id = $1 AND ended_at IS NULL', [c.requestId])).rows[0].id;
    await db.query(`UPDATE online_meetings SET idle_ends_at = now() + interval '1 second' WHERE id = $1`, [meetingId]);
    await withTemporal((client) => touchOnlineMeetingTimer(client, meetingId));
    const ended = await eventually(async () => {
      const res = await get(c.requestId, provider);
      return res.status === 409 ? res : null;
    }, 'the idle timer to end the meeting');
    expect(ended.body.code).toBe(ErrorCode.OnlineMeetingEnded);
    expect((await get(c.requestId, facilityUser)).body.code).toBe(ErrorCode.OnlineMeetingEnded);
    const endedJoin = await join(c.requestId, facilityUser);
    expect(endedJoin.status).toBe(409);
    expect(endedJoin.body.code).toBe(ErrorCode.OnlineMeetingEnded);
    expect((await db.query('SELECT ended_reason FROM online_meetings WHERE id = $1', [meetingId])).rows[0].ended_reason).toBe('idle');
    const activity = await meetingActivity(c.id);
    expect(activity[activity.length - 1]).toEqual({ note: 'Video meeting ended: nobody joined for the idle time', initiator_name: 'System' });

    // Recreate: a new room, nobody joined yet.
    const recreated = await create(c.requestId, provider);
    expect(recreated.status).toBe(201);
    expect(roomOf(recreated.body.joinUrl)).not.toBe(firstRoom);
    expect(recreated.body).toMatchObject({ isProviderJoined: false, isPatientJoined: false });
    expect((await get(c.requestId, facilityUser)).status).toBe(200);
    expect((await meetingActivity(c.id)).map((a) => a.note).pop()).toBe('Video meeting created');
  });

  it('recreating an open meeting ends it and gives a new room', async () => {
    const c = await newRequest();
    const first = await create(c.requestId, coordinator);
    expect(first.status).toBe(201);
    const second = await create(c.requestId, provider);
    expect(second.status).toBe(201);
    expect(roomOf(second.body.joinUrl)).not.toBe(roomOf(first.body.joinUrl));
    const rows = (await db.query('SELECT ended_reason FROM online_meetings WHERE request_id = $1 ORDER BY id', [c.requestId])).rows;
    expect(rows.map((r) => r.ended_reason)).toEqual(['recreated', null]);
    expect((await meetingActivity(c.id)).map((a) => a.note)).toEqual(['Video meeting created', 'Video meeting recreated']);
  });

  it('keeps the meeting to the people of the request', async () => {
    const c = await newRequest();
    const unassigned = await newRequest(false);
    expect((await create(c.requestId, provider)).status).toBe(201);
    // Another facility's user does not see the case's meeting, nor join it.
    expect((await get(c.requestId, otherFacilityUser)).status).toBe(403);
    expect((await join(c.requestId, otherFacilityUser)).status).toBe(403);
    // Facility staff join; they do not create or recreate.
    expect((await create(c.requestId, facilityUser)).status).toBe(403);
    // Partner staff create but do not join (no flag is theirs).
    expect((await join(c.requestId, coordinator)).status).toBe(403);
    // A provider not on the request neither creates nor joins its meeting.
    const notHis = await create(unassigned.requestId, provider);
    expect(notHis.status).toBe(403);
    expect(notHis.body.code).toBe(ErrorCode.Forbidden);
    expect((await join(unassigned.requestId, provider)).status).toBe(403);
    // Unknown request: 404; a bad scheduled time: a coded 400.
    expect((await get(2147483000, provider)).status).toBe(404);
    const bad = await create(c.requestId, provider, { scheduledAt: 'tomorrow' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(ErrorCode.Invalid);
    // None of the refusals left a trace in the meeting.
    expect((await get(c.requestId, provider)).body).toMatchObject({ isProviderJoined: false, isPatientJoined: false });
  });

  it('reminds the provider and the facility a few minutes before a scheduled meeting (VideoCallIsAboutToStart)', async () => {
    const c = await newRequest();
    // MEETING_REMINDER_MINUTES defaults to 5: a meeting 5 minutes and 2 seconds ahead is reminded in 2 seconds.
    const scheduledAt = new Date(Date.now() + 5 * 60_000 + 2_000).toISOString();
    const created = await create(c.requestId, provider, { scheduledAt });
    expect(created.status).toBe(201);
    expect(created.body.scheduledAt).toBe(scheduledAt);
    const recipients = await eventually(async () => {
      const { rows } = await db.query<{ user_id: number; payload: Record<string, unknown> }>(
        `SELECT user_id, payload FROM notifications WHERE case_id = $1 AND type = 'VideoCallIsAboutToStart' ORDER BY user_id`,
        [c.id],
      );
      return rows.length >= 2 ? rows : null;
    }, 'the reminder');
    const ids = recipients.map((r) => r.user_id);
    expect(ids).toEqual(expect.arrayContaining([providerId, facilityUserId]));
    expect(new Set(ids).size).toBe(ids.length);
    expect(recipients[0].payload).toMatchObject({ CaseId: c.id, RequestId: c.requestId, ScheduledAt: scheduledAt });
    // Partner staff are not told (their bell is another matter).
    const itpUsers = (await db.query(`SELECT id FROM users WHERE user_type LIKE 'IntegratedTelehealthPartners_%' AND user_type <> 'IntegratedTelehealthPartners_Provider'`)).rows.map((r) => r.id);
    expect(ids.some((id) => itpUsers.includes(id))).toBe(false);
    // The nurse may be away from any screen: the case's contact phone is called or texted once.
    const alerts = await eventually(async () => {
      const { rows } = await db.query(`SELECT notification_type, message FROM facility_alerts WHERE case_id = $1 AND notification_type = 'VideoCallIsAboutToStart'`, [c.id]);
      return rows.length ? rows : null;
    }, 'the facility alert of the reminder');
    expect(alerts).toHaveLength(1);
    expect(alerts[0].message).toMatch(/video evaluation .* is about to start/i);
    // The nurse answers (as the call webhook records a key press): unconfirmed, it would tell every
    // coordinator a few seconds later, in the middle of the suites that follow.
    await db.query(`UPDATE facility_alerts SET status = 'confirmed', confirmed_at = now(), confirmed_via = 'call' WHERE case_id = $1 AND status = 'pending'`, [c.id]);
    // The meeting is still open: a reminder does not end it.
    expect((await get(c.requestId, provider)).status).toBe(200);
  });
});
