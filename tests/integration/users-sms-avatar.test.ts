import { UserType } from '@crisis/forms';
import { api, API_URL, eventually } from '../support/api';
import { db } from '../support/db';
import { withTemporal } from '../support/temporal-client';
import { signInAs } from '../support/oidc-client';

/**
 * SMS notification settings (spec 03 §5 SMS settings: role hour limits), their expiry and the
 * inactivity lock (Temporal schedules, triggered once here), avatars (images by content, round trip).
 */
const TASK_QUEUE = process.env.TEMPORAL_TASK_QUEUE || 'crisis';
let admin: string;
let itpUser: string;
let provider: string;
let facilityUser: string;

beforeAll(async () => {
  [admin, itpUser, provider, facilityUser] = await Promise.all(
    [UserType.ItpAdmin, UserType.ItpUser, UserType.ItpProvider, UserType.FacilityUser].map(async (r) => (await signInAs(r)).accessToken),
  );
});
afterAll(() => db.end());

const PHONE = '(813) 555-0199';
/** How the phone is stored and answered (E.164). */
const STORED_PHONE = '+18135550199';
const start = (token: string, body: unknown) => api('POST', '/api/user/sms-notifications-receiving/start', { token, body });
const context = async (token: string) => (await api('GET', '/api/user/context', { token })).body;

describe('SMS notification settings', () => {
  it('starts until a time within the role limit (12 h ITP user, 24 h provider), with the spec\'s payload', async () => {
    const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();
    const tooLate = await start(itpUser, { phone: PHONE, alwaysReceive: false, receiveUntil: inHours(13) });
    expect(tooLate.status).toBe(400);
    expect(tooLate.error?.code).toBe('INV');
    expect(tooLate.body.fields).toEqual([expect.objectContaining({ field: 'receiveUntil', key: 'maximum' })]);
    expect((await start(itpUser, { phone: PHONE, alwaysReceive: false })).body.fields).toEqual([expect.objectContaining({ field: 'receiveUntil', key: 'required' })]);
    expect((await start(itpUser, { phone: PHONE, alwaysReceive: false, receiveUntil: inHours(-1) })).body.fields).toEqual([expect.objectContaining({ field: 'receiveUntil', key: 'minimum' })]);
    expect((await start(itpUser, { phone: PHONE, alwaysReceive: false, receiveUntil: 'tomorrow' })).status).toBe(400);
    expect((await start(itpUser, { phone: '12', alwaysReceive: true })).status).toBe(400);
    expect((await start(itpUser, { alwaysReceive: true })).status).toBe(400);
    expect((await start(itpUser, { phone: PHONE })).status).toBe(400);

    const until = inHours(12);
    const ok = await start(itpUser, { phone: PHONE, alwaysReceive: false, receiveUntil: until });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ phone: STORED_PHONE, alwaysReceive: false, receiveUntil: until, isReceiving: true });
    expect((await context(itpUser)).smsNotifications).toMatchObject({ isReceiving: true, phone: STORED_PHONE });

    expect((await start(provider, { phone: PHONE, alwaysReceive: false, receiveUntil: inHours(25) })).status).toBe(400);
    expect((await start(provider, { phone: PHONE, alwaysReceive: false, receiveUntil: inHours(24) })).status).toBe(200);
  });

  it('stops, keeping the phone; always-on; facility users may not', async () => {
    const stop = await api('POST', '/api/user/sms-notifications-receiving/stop', { token: itpUser });
    expect(stop.status).toBe(200);
    expect(stop.body).toEqual({ phone: STORED_PHONE, alwaysReceive: false, receiveUntil: null, isReceiving: false });
    expect((await context(itpUser)).smsNotifications.isReceiving).toBe(false);
    const always = await start(admin, { phone: PHONE, alwaysReceive: true });
    expect(always.body).toMatchObject({ alwaysReceive: true, receiveUntil: null, isReceiving: true });
    await api('POST', '/api/user/sms-notifications-receiving/stop', { token: admin });
    expect((await start(facilityUser, { phone: PHONE, alwaysReceive: true })).status).toBe(403);
  });

  it('clears a lapsed window through the expiry schedule', async () => {
    await start(provider, { phone: PHONE, alwaysReceive: false, receiveUntil: new Date(Date.now() + 2 * 3600_000).toISOString() });
    const { rows } = await db.query(
      `UPDATE users SET notifications_receiving_settings = notifications_receiving_settings || jsonb_build_object('receiveUntil', (now() - interval '1 minute')::text)
        WHERE email = 'provider@itp.example.org' RETURNING id`,
    );
    await withTemporal((c) => c.schedule.getHandle(`sms-windows-expiry-${TASK_QUEUE}`).trigger());
    await eventually(async () => {
      const r = await db.query(`SELECT notifications_receiving_settings->>'receiveUntil' AS until FROM users WHERE id = $1`, [rows[0].id]);
      return r.rows[0].until === null;
    }, 'the lapsed window to be cleared');
    expect((await context(provider)).smsNotifications.isReceiving).toBe(false);
  });
});

describe('inactivity lock', () => {
  it('locks users inactive for 90 days (never ITP admins) and they can be unlocked', async () => {
    const { rows } = await db.query(
      `UPDATE users SET last_login = now() - interval '100 days'
        WHERE email IN ('reviewer@nfcrb.example.org', 'admin@itp.example.org') RETURNING id, email`,
    );
    const reviewer = rows.find((r) => r.email === 'reviewer@nfcrb.example.org')!.id;
    const itpAdmin = rows.find((r) => r.email === 'admin@itp.example.org')!.id;
    try {
      await withTemporal((c) => c.schedule.getHandle(`inactivity-lock-${TASK_QUEUE}`).trigger());
      await eventually(async () => {
        const r = await db.query('SELECT locked_due_inactivity FROM users WHERE id = $1', [reviewer]);
        return r.rows[0].locked_due_inactivity;
      }, 'the inactive user to be locked');
      const adminRow = await db.query('SELECT locked_due_inactivity FROM users WHERE id = $1', [itpAdmin]);
      expect(adminRow.rows[0].locked_due_inactivity).toBe(false);
      const unlock = await api('PUT', '/api/user/unlock', { token: admin, body: [reviewer] });
      expect(unlock.status).toBe(200);
      const after = await db.query('SELECT locked_due_inactivity FROM users WHERE id = $1', [reviewer]);
      expect(after.rows[0].locked_due_inactivity).toBe(false);
    } finally {
      await db.query(`UPDATE users SET last_login = now(), locked_due_inactivity = false WHERE id = ANY($1)`, [[reviewer, itpAdmin]]);
    }
  });
});

describe('avatars', () => {
  const PNG = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.from('0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d8ddcd0000000049454e44ae426082', 'hex'),
  ]);
  async function upload(token: string, content: Buffer, filename: string, type: string) {
    const form = new FormData();
    form.append('file', new Blob([content], { type }), filename);
    const res = await fetch(`${API_URL}/api/user/avatar`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    return { status: res.status, body: await res.json() };
  }

  it('refuses what is not an image by its content, whatever its name', async () => {
    const res = await upload(itpUser, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'me.png', 'image/png');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INV');
    expect((await upload(itpUser, Buffer.alloc(0), 'me.png', 'image/png')).status).toBe(400);
  });

  it('refuses a file over 20,971,520 bytes', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(20_971_520)]);
    const res = await upload(itpUser, big, 'big.png', 'image/png');
    expect(res.status).toBe(400);
    expect(res.body.defaultMessage).toBe('File size bigger than allowed max size');
  });

  it('stores an image and serves it back; the profile names it', async () => {
    const res = await upload(itpUser, PNG, 'me.bin', 'application/octet-stream');
    expect(res.status).toBe(200);
    expect(res.body.avatar).toMatch(/^avatar-[0-9a-f-]{36}\.png$/);
    const ctx = await context(itpUser);
    const profile = await api('GET', `/api/user/profile/${ctx.id}`, { token: itpUser });
    expect(profile.body.avatar).toBe(res.body.avatar);
    const img = await fetch(`${API_URL}/api/avatar/${res.body.avatar}`, { headers: { authorization: `Bearer ${admin}` } });
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await img.arrayBuffer()).equals(PNG)).toBe(true);
    expect((await fetch(`${API_URL}/api/avatar/${res.body.avatar}`)).status).toBe(401);
    expect((await api('GET', '/api/avatar/..%2F..%2Fetc%2Fpasswd', { token: admin })).status).toBe(404);
    expect((await api('GET', '/api/avatar/avatar-00000000-0000-0000-0000-000000000000.png', { token: admin })).status).toBe(404);
  });
});
