import { Client, Connection } from '@temporalio/client';
import twilio from 'twilio';
import { UserType } from '@crisis/forms';
import { connectionOptions, facilityAlertStart, messagingTaskQueueOf, temporalEnv } from '@crisis/workflows';
import { api, API_URL, eventually } from '../support/api';
import { createCase, tampaDivisions } from '../support/cases';
import { db } from '../support/db';
import { createTestUser, type TestUser } from '../support/users';
import { WorkerProcesses } from '../support/worker-process';

/**
 * What leaves the platform, for real: the worker sends through the `twilio` SDK to the local
 * server that speaks Twilio's API (api/src/messaging/twilio-local, started by npm test), which
 * rings, texts and calls our webhooks back with Twilio's signatures. The test plays the facility's
 * phone through the local server's control API (/local). The stack runs facility alerts with 2
 * attempts 4 s apart and calls that ring 2 s (scripts/test.mjs).
 */
const TWILIO = process.env.TWILIO_LOCAL_URL!;
const ATTEMPTS = 2;

interface LocalCall { sid: string; to: string; status: string; spoken: string[]; digits: string | null }
interface LocalMessage { sid: string; direction: 'outbound' | 'inbound'; to: string; from: string; body: string; status: string }

const local = async <T = any>(method: string, p: string, body?: unknown): Promise<T> => {
  const res = await fetch(`${TWILIO}${p}`, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
};
const callsTo = (phone: string) => local<LocalCall[]>('GET', `/local/calls?to=${encodeURIComponent(phone)}`);
const messagesTo = (phone: string) => local<LocalMessage[]>('GET', `/local/messages?to=${encodeURIComponent(phone)}`);

/** A phone number of its own for each scenario, so that the local server's lists tell them apart. */
let phoneSeq = Math.floor(Math.random() * 9000);
const nextPhone = () => `+1813555${String(1000 + (phoneSeq++ % 9000)).padStart(4, '0')}`;

describe('messaging: facility alerts, staff SMS and durable delivery', () => {
  let tampa: { facilityId: number; edId: number; floorId: number };
  let coordinator: TestUser;
  let coordinatorToken: string;
  let coordinatorPhone: string;

  const alertsOf = async (caseId: number) =>
    (await db.query('SELECT id::text, status, method, attempts, confirmed_via, notification_type FROM facility_alerts WHERE case_id = $1 ORDER BY id', [caseId])).rows;
  const alertActivity = async (caseId: number) =>
    (await db.query("SELECT note FROM case_activities WHERE case_id = $1 AND kind = 'alert' ORDER BY id", [caseId])).rows.map((r) => r.note as string);
  const notificationsOf = async (userId: number, type: string, caseId: number) =>
    (await db.query('SELECT id FROM notifications WHERE user_id = $1 AND type = $2 AND case_id = $3', [userId, type, caseId])).rows.length;

  /** A case of Tampa's floor whose contact phone is `phone`, put on hold by the coordinator: a CaseOnHold alert. */
  async function caseOnHold(phone: string, method: 'PhoneCall' | 'SMS') {
    const c = await createCase({ token: coordinatorToken, facilityId: tampa.facilityId, divisionId: tampa.floorId, providerId: null, body: { contactPhoneNumber: phone, notificationSendingMethod: method, requestType: 'PlacementOnly' } });
    const res = await api('PUT', `/api/cases/${c.id}/status`, { token: coordinatorToken, body: { status: 'OnHold_WaitingForPatient', note: 'Sleeping' } });
    if (res.status !== 200) throw new Error(`on hold: ${res.status} ${JSON.stringify(res.body)}`);
    return c.id;
  }

  beforeAll(async () => {
    tampa = await tampaDivisions();
    coordinator = await createTestUser(UserType.ItpUser, { label: 'alerts' });
    coordinatorToken = await coordinator.signIn();
    // The coordinator receives her notifications by SMS too (an open window).
    coordinatorPhone = nextPhone();
    const start = await api('POST', '/api/user/sms-notifications-receiving/start', { token: coordinatorToken, body: { phone: coordinatorPhone, alwaysReceive: true } });
    expect(start.status).toBe(200);
  });
  afterAll(async () => {
    await local('POST', '/local/faults', { failRate: 0, failNext: 0 });
    await db.end();
  });

  it('calls the facility, and a key press confirms the alert once, in the case activity', async () => {
    const phone = nextPhone();
    const caseId = await caseOnHold(phone, 'PhoneCall');
    const ringing = await eventually(async () => (await callsTo(phone)).find((c) => c.status === 'ringing'), 'the facility phone rings');
    const answered = await local<LocalCall>('POST', `/local/calls/${ringing.sid}/answer`, { digits: '1' });
    // The nurse heard the message (the patient by initials only) and pressed 1.
    expect(answered.spoken.join(' ')).toMatch(/The case of patient [A-Z]\. J\. is on hold: Sleeping\. Press 1 to confirm/);
    expect(answered.spoken.join(' ')).toMatch(/confirmation was recorded/);
    await eventually(async () => (await alertActivity(caseId)).some((n) => /confirmed/.test(n)), 'the confirmation in the case activity');
    const [alert] = await alertsOf(caseId);
    expect(alert).toMatchObject({ status: 'confirmed', method: 'PhoneCall', confirmed_via: 'call', attempts: 1, notification_type: 'CaseOnHold' });
    // Past the retry time: no second call, no escalation, one confirmation line.
    await new Promise((r) => setTimeout(r, 5000));
    expect(await callsTo(phone)).toHaveLength(1);
    const notes = await alertActivity(caseId);
    expect(notes.filter((n) => /confirmed/.test(n))).toHaveLength(1);
    expect(notes[0]).toMatch(/^Phone call 1 of 2 to \+1813555\d{4} \(CaseOnHold\): awaiting confirmation$/);
    expect(await notificationsOf(coordinator.id, 'UserDoesntConfirmReceiptOfTheRobocall', caseId)).toBe(0);
  });

  it('calls again when nobody answers, then tells the coordinator in the bell and by SMS', async () => {
    const phone = nextPhone();
    const caseId = await caseOnHold(phone, 'PhoneCall');
    await eventually(async () => (await alertsOf(caseId))[0]?.status === 'escalated', 'the escalation', 30_000);
    // Each call rang out unanswered (they ring 8 s in the suite, longer than the 4 s between attempts).
    const calls = await eventually(async () => {
      const c = await callsTo(phone);
      return c.every((x) => x.status === 'no-answer') ? c : null;
    }, 'the calls to end unanswered');
    expect(calls).toHaveLength(ATTEMPTS);
    await eventually(async () => (await notificationsOf(coordinator.id, 'UserDoesntConfirmReceiptOfTheRobocall', caseId)) === 1, 'the bell notification');
    // Only the coordinator whose change raised it (another coordinator's bell stays quiet).
    const others = (await db.query("SELECT count(*)::int AS n FROM notifications WHERE type = 'UserDoesntConfirmReceiptOfTheRobocall' AND case_id = $1 AND user_id <> $2", [caseId, coordinator.id])).rows[0].n;
    expect(others).toBe(0);
    // Her SMS window is open: the same news by SMS, once, the patient by initials.
    const sms = await eventually(async () => (await messagesTo(coordinatorPhone)).filter((m) => /did not confirm the phone call/.test(m.body)), 'the SMS copy');
    expect(sms).toHaveLength(1);
    expect(sms[0].body).toMatch(/about [A-Z]\. J\.\.$/);
    const notes = await alertActivity(caseId);
    expect(notes.filter((n) => /awaiting confirmation/.test(n))).toHaveLength(ATTEMPTS);
    expect(notes.filter((n) => /Nobody confirmed/.test(n))).toHaveLength(1);
  });

  it('places the call once when the provider refuses the first try, and the alert still waits for the key press', async () => {
    // The alert sends its first try itself; a refused try is retried by the delivery's own workflow.
    const phone = nextPhone();
    const message = async () => (await db.query("SELECT attempts, status, last_error FROM outbox_messages WHERE case_id = $1 AND purpose = 'facility-alert'", [caseId])).rows[0];
    await local('POST', '/local/faults', { failRate: 1 });
    let caseId: number;
    try {
      caseId = await caseOnHold(phone, 'PhoneCall');
      await eventually(async () => (await message())?.last_error, 'the first try refused');
    } finally {
      await local('POST', '/local/faults', { failRate: 0 });
    }
    const ringing = await eventually(async () => (await callsTo(phone)).find((c) => c.status === 'ringing'), 'the facility phone rings', 20_000);
    expect((await message()).attempts).toBeGreaterThan(1);
    await local('POST', `/local/calls/${ringing.sid}/answer`, { digits: '1' });
    await eventually(async () => (await alertsOf(caseId))[0]?.status === 'confirmed', 'the confirmation');
    expect(await callsTo(phone)).toHaveLength(1);
  });

  it('texts the facility when its method is SMS; the reply 1 confirms, and is answered', async () => {
    const phone = nextPhone();
    const caseId = await caseOnHold(phone, 'SMS');
    const [sms] = await eventually(async () => {
      const m = await messagesTo(phone);
      return m.length ? m : null;
    }, 'the SMS to the facility');
    expect(sms.body).toMatch(/on hold: Sleeping\. Reply 1 to confirm\.$/);
    const { reply } = await local<{ reply: LocalMessage | null }>('POST', '/local/messages/inbound', { from: phone, to: process.env.TWILIO_FROM, body: ' 1 ' });
    expect(reply?.body).toMatch(/confirmation was recorded/);
    await eventually(async () => (await alertsOf(caseId))[0]?.status === 'confirmed', 'the confirmation');
    await eventually(async () => (await alertActivity(caseId)).some((n) => /SMS confirmed by/.test(n)), 'the confirmation in the case activity');
    await new Promise((r) => setTimeout(r, 5000));
    expect((await messagesTo(phone)).filter((m) => /Reply 1/.test(m.body))).toHaveLength(1);
    expect(await notificationsOf(coordinator.id, 'UserDoesntConfirmReceiptOfTheSms', caseId)).toBe(0);
  });

  it('refuses a webhook without Twilio\'s valid signature, and changes nothing', async () => {
    const phone = nextPhone();
    const caseId = await caseOnHold(phone, 'SMS');
    await eventually(async () => (await messagesTo(phone)).length > 0, 'the SMS to the facility');
    const params = { From: phone, To: process.env.TWILIO_FROM!, Body: '1', MessageSid: 'SMforged' };
    const url = `${API_URL}/api/twilio/messages/inbound`;
    const post = (signature: string | null) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...(signature ? { 'x-twilio-signature': signature } : {}) }, body: new URLSearchParams(params).toString() });
    // No signature, a signature made with another token, a signature of other parameters.
    for (const signature of [null, twilio.getExpectedTwilioSignature('not-the-token', url, params), twilio.getExpectedTwilioSignature(process.env.TWILIO_AUTH_TOKEN!, url, { ...params, Body: '2' })]) {
      const res = await post(signature);
      expect(res.status).toBe(403);
      expect(JSON.parse(res.headers.get('x-error')!).code).toBe('FRBD');
    }
    expect((await alertsOf(caseId))[0].status).toBe('pending');
    // The same request signed by Twilio's token is taken.
    const signed = await post(twilio.getExpectedTwilioSignature(process.env.TWILIO_AUTH_TOKEN!, url, params));
    expect(signed.status).toBe(200);
    expect(await signed.text()).toMatch(/<Message>Thank you/);
    await eventually(async () => (await alertsOf(caseId))[0]?.status === 'confirmed', 'the confirmation');
  });

  it('a STOP reply ends a staff member\'s SMS window', async () => {
    const staff = await createTestUser(UserType.ItpUser, { label: 'stop' });
    const token = await staff.signIn();
    const phone = nextPhone();
    expect((await api('POST', '/api/user/sms-notifications-receiving/start', { token, body: { phone, alwaysReceive: true } })).status).toBe(200);
    await local('POST', '/local/messages/inbound', { from: phone, to: process.env.TWILIO_FROM, body: 'stop' });
    const settings = (await db.query('SELECT notifications_receiving_settings AS s FROM users WHERE id = $1', [staff.id])).rows[0].s;
    expect(settings).toMatchObject({ phone, alwaysReceive: false, receiveUntil: null });
  });

  it('sends every message once when the provider fails a third of the sends', async () => {
    // A third, not half: with the retries' backoff (1, 2, 4, … s) a message failing 6 times in a row
    // needs over a minute, which at 50 % one of 20 messages did about once in four runs.
    await local('POST', '/local/faults', { failRate: 0.3 });
    const phone = nextPhone();
    const ids: string[] = [];
    try {
      // 20 SMS queued at once, as a burst of notifications would.
      for (let i = 0; i < 20; i++)
        ids.push(
          (
            await db.query(
              `WITH ins AS (INSERT INTO outbox_messages (channel, recipient, body, status, purpose, idempotency_key) VALUES ('sms', $1, $2, 'queued', 'test', $3) RETURNING id)
               SELECT id::text, pg_notify('messaging_dispatch', json_build_object('kind', 'message', 'id', id::text)::text) FROM ins`,
              [phone, `Burst message ${i}`, `burst:${phone}:${i}`],
            )
          ).rows[0].id,
        );
      await eventually(
        async () => (await db.query("SELECT count(*)::int AS n FROM outbox_messages WHERE id = ANY($1::bigint[]) AND status <> 'queued'", [ids])).rows[0].n === 20,
        'all 20 sent',
        90_000,
      );
    } finally {
      await local('POST', '/local/faults', { failRate: 0 });
    }
    const received = await messagesTo(phone);
    const bodies = received.map((m) => m.body).sort();
    expect(bodies).toEqual(Array.from({ length: 20 }, (_, i) => `Burst message ${i}`).sort());
    // The provider really refused some: those rows took more than one attempt.
    const retried = (await db.query('SELECT count(*)::int AS n FROM outbox_messages WHERE id = ANY($1::bigint[]) AND attempts > 1', [ids])).rows[0].n;
    expect(retried).toBeGreaterThan(0);
  }, 120_000);

  describe('a worker killed between attempts', () => {
    const env = temporalEnv();
    const taskQueue = `alerts-kill-${Date.now()}`;
    let connection: Connection;
    let client: Client;
    // PUBLIC_URL comes from npm test: the calls these workers place name the stack's webhooks.
    // They run the deliveries only, as the bench's deliveries worker does (WORKER_QUEUES).
    const workers = new WorkerProcesses(taskQueue, { FACILITY_ALERT_ATTEMPTS: '2', FACILITY_ALERT_RETRY_SECONDS: '4', WORKER_QUEUES: 'deliveries' });

    beforeAll(async () => {
      connection = await Connection.connect(connectionOptions(env));
      client = new Client({ connection, namespace: env.namespace });
    });
    afterAll(async () => {
      await workers.killAll();
      await connection.close();
    });

    it('still ends in exactly one escalation, or one confirmation', async () => {
      // Two alerts written as the case writer writes them, driven by a worker of their own queue.
      const run = async (confirm: boolean) => {
        const phone = nextPhone();
        const c = await createCase({ token: coordinatorToken, facilityId: tampa.facilityId, divisionId: tampa.floorId, providerId: null, body: { contactPhoneNumber: phone, requestType: 'PlacementOnly' } });
        const alertId = (
          await db.query(
            `INSERT INTO facility_alerts (case_id, notification_type, method, phone, message, source_key, raised_by)
             VALUES ($1, 'CaseOnHold', 'PhoneCall', $2, 'The case of patient C. J. is on hold. Press 1 to confirm that you received this message.', $3, $4) RETURNING id::text`,
            [c.id, phone, `kill-test:${c.id}`, coordinator.id],
          )
        ).rows[0].id;
        return { caseId: c.id, phone, alertId, confirm };
      };
      const scenarios = [await run(false), await run(true)];
      let worker = await workers.start();
      for (const s of scenarios) {
        const start = facilityAlertStart(s.alertId, { attempts: ATTEMPTS, retrySeconds: 4 });
        await client.workflow.start(start.workflowType, { workflowId: start.workflowId, taskQueue: messagingTaskQueueOf(taskQueue), args: start.args });
      }
      // The first calls ring; the worker dies before the second attempts.
      for (const s of scenarios) await eventually(async () => (await callsTo(s.phone)).some((c) => c.status === 'ringing'), 'the first call');
      await workers.kill(worker);
      // Meanwhile the nurse of the second case answers and presses 1 (the webhook reaches the API, alive).
      const ringing = (await callsTo(scenarios[1].phone)).find((c) => c.status === 'ringing')!;
      await local('POST', `/local/calls/${ringing.sid}/answer`, { digits: '1' });
      await new Promise((r) => setTimeout(r, 3000));
      worker = await workers.start();
      const [unanswered, answered] = scenarios;
      await eventually(async () => (await alertsOf(unanswered.caseId))[0]?.status === 'escalated', 'the escalation after the restart', 40_000);
      await eventually(async () => (await alertActivity(answered.caseId)).some((n) => /confirmed/.test(n)), 'the confirmation after the restart', 40_000);
      await new Promise((r) => setTimeout(r, 5000));
      const un = await alertActivity(unanswered.caseId);
      expect(un.filter((n) => /Nobody confirmed/.test(n))).toHaveLength(1);
      expect(await notificationsOf(coordinator.id, 'UserDoesntConfirmReceiptOfTheRobocall', unanswered.caseId)).toBe(1);
      expect(await callsTo(unanswered.phone)).toHaveLength(ATTEMPTS);
    // The answered alert called once: the second attempt found it confirmed.
      const an = await alertActivity(answered.caseId);
      expect(an.filter((n) => /confirmed/.test(n))).toHaveLength(1);
      expect(an.some((n) => /Nobody confirmed/.test(n))).toBe(false);
      expect((await alertsOf(answered.caseId))[0].status).toBe('confirmed');
      expect(await callsTo(answered.phone)).toHaveLength(1);
      await workers.kill(worker);
    }, 120_000);
  });
});
