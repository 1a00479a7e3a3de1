import { randomUUID } from 'crypto';
import { CORRELATION_ID_HEADER, ErrorCode, UserType } from '@crisis/forms';
import { api, eventually } from '../support/api';
import { db } from '../support/db';
import { withTemporal } from '../support/temporal-client';
import { signInAs } from '../support/oidc-client';

/**
 * Every admin action appears in the audit log (issue 3, spec 03 §3 Audit log entry), including the
 * changes made by the Temporal schedules (inactivity lock, SMS-window expiry: one entry per
 * affected user by the system actor, committed with the change) and the API calls a route guard
 * refuses (403 FRBD from the ability table or the IP allow-list: one entry, success = false, never
 * two for the same call).
 */
const TASK_QUEUE = process.env.TEMPORAL_TASK_QUEUE || 'crisis';
const from = (ip: string) => ({ 'x-forwarded-for': ip });

let itpAdmin: string;
let facilityAdmin: string;
let facilityUser: string;
let itpId: number;
let facilityId: number;

beforeAll(async () => {
  [itpAdmin, facilityAdmin, facilityUser] = (
    await Promise.all([signInAs(UserType.ItpAdmin), signInAs(UserType.FacilityAdmin), signInAs(UserType.FacilityUser)])
  ).map((r) => r.accessToken);
  itpId = (await api('GET', '/api/itp-organization', { token: itpAdmin })).body.id;
  facilityId = (await api('GET', '/api/user/context', { token: facilityAdmin })).body.facilityId;
}, 60_000);

afterAll(async () => {
  await db.query('UPDATE itp_organization SET ip_white_list_enabled = false');
  await db.query('UPDATE facilities SET ip_white_list_enabled = false WHERE id = $1', [facilityId]);
  await db.end();
});

/** The entries of one call, by the correlation id the test sent. */
async function entriesOf(correlationId: string) {
  const { rows } = await db.query('SELECT * FROM audit_log WHERE correlation_id = $1 ORDER BY id', [correlationId]);
  return rows;
}

/** The entries of one call that must have written exactly one. */
async function oneEntryOf(correlationId: string) {
  const rows = await entriesOf(correlationId);
  expect(rows).toHaveLength(1);
  return rows;
}

/** A call with a correlation id of its own, so its audit entries can be found. */
async function call(method: string, path: string, opts: { token: string; body?: unknown; headers?: Record<string, string> }) {
  const correlationId = randomUUID();
  const res = await api(method, path, { ...opts, headers: { ...opts.headers, [CORRELATION_ID_HEADER]: correlationId } });
  return { ...res, correlationId };
}

/** A refused call: its status, and the correlation id echoed in the header (spec 03 §8, coded failures). */
function expectRefused(res: Awaited<ReturnType<typeof call>>, status: number) {
  expect([res.status, res.headers.get(CORRELATION_ID_HEADER)]).toEqual([status, res.correlationId]);
}

describe('changes made by the Temporal schedules', () => {
  it('records one User.LockDueInactivity entry per locked user, by the system actor, visible to her facility admin', async () => {
    const { rows } = await db.query(
      `UPDATE users SET last_login = now() - interval '100 days'
        WHERE email IN ('reviewer@nfcrb.example.org', 'er@tampageneral.example.org') RETURNING id, email, organization_id`,
    );
    const reviewer = rows.find((r) => r.email === 'reviewer@nfcrb.example.org')!;
    const erUser = rows.find((r) => r.email === 'er@tampageneral.example.org')!;
    const since = (await db.query('SELECT now() AS t')).rows[0].t;
    try {
      await withTemporal((c) => c.schedule.getHandle(`inactivity-lock-${TASK_QUEUE}`).trigger());
      const entries = await eventually(async () => {
        const r = await db.query(
          `SELECT * FROM audit_log WHERE main_action = 'User.LockDueInactivity' AND performed_at >= $1 ORDER BY id`,
          [since],
        );
        return r.rows.length >= 2 && r.rows;
      }, 'the lock entries');
      // The change and its entries commit together: every locked user has exactly one entry.
      const locked = await db.query('SELECT id FROM users WHERE id = ANY($1) AND locked_due_inactivity', [[reviewer.id, erUser.id]]);
      expect(locked.rows).toHaveLength(2);
      for (const u of [reviewer, erUser]) {
        const mine = entries.filter((e: any) => e.values?.userId === u.id);
        expect(mine).toHaveLength(1);
        expect(mine[0]).toMatchObject({
          kind: 'Update',
          success: true,
          user_id: null,
          user_name: 'System',
          user_type: 'System',
          body: expect.objectContaining({ lockedDueInactivity: true }),
        });
        expect(mine[0].values).toMatchObject({ userId: u.id, email: u.email });
        expect(mine[0].correlation_id).toMatch(/inactivity-lock/);
      }
      const erEntry = entries.find((e: any) => e.values?.userId === erUser.id);
      expect(erEntry.facility_id).toBe(erUser.organization_id);
      expect(entries.find((e: any) => e.values?.userId === reviewer.id).facility_id).toBeNull();

      // The facility admin sees her user's lock in her scoped log; the ITP admin sees both.
      const filter = encodeURIComponent(JSON.stringify({ mainAction: 'User.LockDueInactivity' }));
      const scoped = await api('GET', `/api/audit-log?filter=${filter}`, { token: facilityAdmin });
      expect(scoped.status).toBe(200);
      expect(scoped.body.map((e: any) => Number(e.id))).toContain(Number(erEntry.id));
      expect(scoped.body.every((e: any) => e.facilityId === facilityId)).toBe(true);
      const global = await api('GET', `/api/audit-log?filter=${filter}`, { token: itpAdmin });
      expect(global.body.map((e: any) => Number(e.id))).toEqual(expect.arrayContaining(entries.map((e: any) => Number(e.id))));
      expect(global.body[0]).toMatchObject({ mainAction: 'User.LockDueInactivity', userName: 'System', success: true });

      // A second run changes nothing and so records nothing.
      const before = (await db.query(`SELECT count(*)::int AS n FROM audit_log WHERE main_action = 'User.LockDueInactivity'`)).rows[0].n;
      await withTemporal(async (c) => {
        const handle = await c.workflow.start('lockInactiveUsersWorkflow', { taskQueue: TASK_QUEUE, workflowId: `qa-lock-${randomUUID()}`, args: [90] });
        expect(await handle.result()).toEqual([]);
      });
      const after = (await db.query(`SELECT count(*)::int AS n FROM audit_log WHERE main_action = 'User.LockDueInactivity'`)).rows[0].n;
      expect(after).toBe(before);
    } finally {
      await db.query(`UPDATE users SET last_login = now(), locked_due_inactivity = false WHERE id = ANY($1)`, [[reviewer.id, erUser.id]]);
    }
  });

  it('records one User.SmsNotificationsExpired entry per lapsed SMS window', async () => {
    const { rows } = await db.query(
      `UPDATE users SET notifications_receiving_settings = jsonb_build_object(
          'phone', '(813) 555-0199', 'alwaysReceive', false, 'receiveUntil', (now() - interval '1 minute')::text)
        WHERE email IN ('provider@itp.example.org', 'coordinator@itp.example.org') RETURNING id, email`,
    );
    expect(rows).toHaveLength(2);
    const ids = rows.map((r) => r.id);
    const since = (await db.query('SELECT now() AS t')).rows[0].t;
    await withTemporal((c) => c.schedule.getHandle(`sms-windows-expiry-${TASK_QUEUE}`).trigger());
    const entries = await eventually(async () => {
      const r = await db.query(
        `SELECT * FROM audit_log WHERE main_action = 'User.SmsNotificationsExpired' AND ("values"->>'userId')::int = ANY($1)
            AND performed_at >= $2 ORDER BY id`,
        [ids, since],
      );
      return r.rows.length >= 2 && r.rows;
    }, 'the SMS expiry entries');
    expect(entries).toHaveLength(2);
    for (const r of rows) {
      const e = entries.find((x: any) => x.values.userId === r.id);
      expect(e).toMatchObject({ kind: 'Update', success: true, user_name: 'System', user_type: 'System' });
      expect(e.values.email).toBe(r.email);
      expect(e.body).toMatchObject({ receiveUntil: null });
      expect(typeof e.body.previousReceiveUntil).toBe('string');
    }
    const cleared = await db.query(`SELECT count(*)::int AS n FROM users WHERE id = ANY($1) AND notifications_receiving_settings->>'receiveUntil' IS NULL`, [ids]);
    expect(cleared.rows[0].n).toBe(2);
  });
});

describe('calls refused by a route guard', () => {
  it('records a mutating call refused by the ability table once, with success = false', async () => {
    const res = await call('POST', '/api/facilities', { token: facilityUser, body: { name: 'QA refused facility' } });
    expectRefused(res, 403);
    expect(res.error?.code).toBe(ErrorCode.Forbidden);
    const entries = await oneEntryOf(res.correlationId);
    expect(entries[0]).toMatchObject({
      main_action: 'Facility.Create',
      kind: 'Create',
      success: false,
      status_code: 403,
      method: 'POST',
      path: '/api/facilities',
      email: 'er@tampageneral.example.org',
      body: { name: 'QA refused facility' },
      facility_id: null, // a role-table refusal: in the ITP admin's global table only
    });
    expect(entries[0].values).toMatchObject({ refusedBy: 'Ability', requires: 'manage Facility' });
  });

  it('records a read refused by the ability table (kind Read)', async () => {
    const res = await call('GET', '/api/audit-log', { token: facilityUser });
    expectRefused(res, 403);
    const entries = await oneEntryOf(res.correlationId);
    expect(entries[0]).toMatchObject({ main_action: 'AuditLog.list', kind: 'Read', success: false, status_code: 403, method: 'GET' });
  });

  it('records a call refused by the IP allow-list, naming the guard and the address', async () => {
    const url = `/api/itp-organization/${itpId}/update-ip-whitelist-settings`;
    const on = await api('PUT', url, { token: itpAdmin, body: { facilityId, ipWhiteListEnabled: true, ipAddresses: '10.9.8.0/24' } });
    expect(on.status).toBe(200);
    try {
      const res = await call('PUT', `/api/facilities/${facilityId}/settings/mfa`, {
        token: facilityAdmin,
        headers: from('10.9.9.1'),
        body: { isMfaEnabled: false },
      });
      expectRefused(res, 403);
      const entries = await oneEntryOf(res.correlationId);
      expect(entries[0]).toMatchObject({
        main_action: 'Facility.UpdateMfa',
        kind: 'Update',
        success: false,
        status_code: 403,
        email: 'admin@tampageneral.example.org',
        facility_id: facilityId,
      });
      expect(entries[0].values).toMatchObject({ refusedBy: 'IpAllowList', clientIp: '10.9.9.1', id: String(facilityId) });
      // Inside the list the same call passes and is recorded once, as a success.
      const ok = await call('PUT', `/api/facilities/${facilityId}/settings/mfa`, { token: facilityAdmin, headers: from('10.9.8.7'), body: { isMfaEnabled: false } });
      expect(ok.status).toBe(200);
      const okEntries = await oneEntryOf(ok.correlationId);
      expect(okEntries[0]).toMatchObject({ main_action: 'Facility.UpdateMfa', success: true });
    } finally {
      await api('PUT', url, { token: itpAdmin, body: { facilityId, ipWhiteListEnabled: false, ipAddresses: '10.9.8.0/24' } });
    }
  });

  it('records a call refused inside its handler once (by the interceptor), not twice', async () => {
    const { rows } = await db.query('SELECT id FROM facilities WHERE id <> $1 ORDER BY id LIMIT 1', [facilityId]);
    const res = await call('PUT', `/api/facilities/${rows[0].id}/settings/mfa`, { token: facilityAdmin, body: { isMfaEnabled: false } });
    expectRefused(res, 403);
    const entries = await oneEntryOf(res.correlationId);
    expect(entries[0]).toMatchObject({ main_action: 'Facility.UpdateMfa', success: false, status_code: 403 });
    expect(entries[0].values?.refusedBy).toBeUndefined();
  });

  it('records a call whose path holds a NUL (%00), refused by a guard or by its handler', async () => {
    // The log's jsonb cannot hold the character: the entry was lost, so such a call left no trace.
    const byGuard = await call('PUT', '/api/facilities/%00/settings/mfa', { token: facilityUser, body: { isMfaEnabled: true } });
    expectRefused(byGuard, 403);
    const [guardEntry] = await oneEntryOf(byGuard.correlationId);
    expect(guardEntry).toMatchObject({ main_action: 'Facility.UpdateMfa', success: false, status_code: 403, path: '/api/facilities/%00/settings/mfa' });
    expect(guardEntry.values).toMatchObject({ id: '\ufffd', refusedBy: 'Ability' });

    const byHandler = await call('PUT', '/api/facilities/1%00/settings/mfa', { token: itpAdmin, body: { isMfaEnabled: true } });
    expectRefused(byHandler, 404);
    const [handlerEntry] = await oneEntryOf(byHandler.correlationId);
    expect(handlerEntry).toMatchObject({ main_action: 'Facility.UpdateMfa', success: false, status_code: 404 });
    expect(handlerEntry.values).toMatchObject({ id: '1\ufffd' });
  });

  it('does not record calls without a valid token (401)', async () => {
    const res = await call('POST', '/api/facilities', { token: 'not-a-token', body: {} });
    expectRefused(res, 401);
    expect(await entriesOf(res.correlationId)).toHaveLength(0);
  });
});
