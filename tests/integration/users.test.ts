import { ErrorCode, TOKEN_REVOKED_HEADER, UserType } from '@crisis/forms';
import { api, API_URL } from '../support/api';
import { db } from '../support/db';
import { signIn, signInAs } from '../support/oidc-client';

/**
 * Users administration (spec 03 §2 /users, §4 bulk applicability, §5 invite/edit, §6 reach, §7,
 * §8 INV.NOT.UNIQ): invitations with their one-time link, validation, the facility admin's reach,
 * bulk actions with skipped rows, token revocation on deactivation, unlock.
 */
const RUN = Date.now().toString(36);
const email = (n: string) => `qa-${n}-${RUN}@users.example.org`;
const PASSWORD = 'Welcome123';

function itpUser(overrides: Record<string, unknown> = {}) {
  return {
    email: email('itp'),
    phone: '(813) 555-0100',
    firstName: 'Quinn',
    lastName: `Tester${RUN}`,
    jobTitle: 'Coordinator',
    isEnabled: true,
    organizationType: 'IntegratedTelehealthPartners',
    organizationId: null,
    userType: UserType.ItpUser,
    divisionsIds: [],
    providerInfo: null,
    ...overrides,
  };
}

let admin: string;
let facilityAdmin: string;
let facilityAdminOrg: number;
let facilityDivision: number;
let otherFacility: number;

async function linkOf(to: string): Promise<string> {
  const { rows } = await db.query(`SELECT body FROM outbox_messages WHERE recipient = $1 AND channel = 'email' ORDER BY id DESC LIMIT 1`, [to]);
  expect(rows.length).toBe(1);
  const m = /(http\S+\/identity\/account\/[\w-]+\?token=[\w-]+)/.exec(rows[0].body);
  expect(m).not.toBeNull();
  return m![1];
}

/** Opens the e-mailed link and submits the password form, as a browser would. */
async function usePasswordLink(link: string, password: string, confirm = password) {
  const url = new URL(link);
  const page = await fetch(API_URL + url.pathname + url.search);
  const html = await page.text();
  const token = url.searchParams.get('token')!;
  const post = await fetch(API_URL + url.pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, newPassword: password, confirmPassword: confirm }).toString(),
    redirect: 'manual',
  });
  return { pageStatus: page.status, pageHtml: html, status: post.status, html: await post.text() };
}

beforeAll(async () => {
  admin = (await signInAs(UserType.ItpAdmin)).accessToken;
  facilityAdmin = (await signInAs(UserType.FacilityAdmin)).accessToken;
  const ctx = await api('GET', '/api/user/context', { token: facilityAdmin });
  facilityAdminOrg = ctx.body.organizationId;
  const div = await db.query('SELECT id FROM divisions WHERE facility_id = $1 ORDER BY id LIMIT 1', [facilityAdminOrg]);
  facilityDivision = div.rows[0].id;
  const other = await db.query('SELECT id FROM facilities WHERE id <> $1 ORDER BY id LIMIT 1', [facilityAdminOrg]);
  otherFacility = other.rows[0].id;
}, 60000);

afterAll(async () => {
  await db.end();
});

describe('invite', () => {
  it('creates a pending user, e-mails a one-time link; the link sets the password and the user can sign in', async () => {
    const res = await api('POST', '/api/user/invite', { token: admin, body: itpUser() });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email: email('itp'), creating: true, emailConfirmed: false, isPasswordSet: false, userType: UserType.ItpUser });
    const link = await linkOf(email('itp'));
    expect(link).toContain('/identity/account/set-password?token=');
    const { rows } = await db.query(`SELECT token_hash FROM user_account_tokens WHERE user_id = $1`, [res.body.id]);
    expect(rows[0].token_hash).not.toBe(new URL(link).searchParams.get('token'));

    const mismatch = await usePasswordLink(link, PASSWORD, 'Different123');
    expect(mismatch.status).toBe(400);
    expect(mismatch.html).toContain('Passwords do not match');
    const weak = await usePasswordLink(link, 'short');
    expect(weak.status).toBe(400);

    const ok = await usePasswordLink(link, PASSWORD);
    expect(ok.pageStatus).toBe(200);
    expect(ok.pageHtml).toContain('name="newPassword"');
    expect(ok.status).toBe(200);
    expect(ok.html).toContain('Password saved');
    const user = await db.query('SELECT creating, email_confirmed, password_hash IS NOT NULL AS set FROM users WHERE id = $1', [res.body.id]);
    expect(user.rows[0]).toEqual({ creating: false, email_confirmed: true, set: true });

    // Used once only.
    const again = await usePasswordLink(link, PASSWORD);
    expect(again.pageStatus).toBe(400);
    expect(again.pageHtml).toContain('invalid');

    const session = await signIn({ email: email('itp'), password: PASSWORD });
    const me = await api('GET', '/api/user/context', { token: session.accessToken });
    expect(me.body).toMatchObject({ email: email('itp'), role: UserType.ItpUser });
  }, 60000);

  it('refuses a duplicate e-mail with 409 INV.NOT.UNIQ on email', async () => {
    const res = await api('POST', '/api/user/invite', { token: admin, body: itpUser({ email: email('itp').toUpperCase() }) });
    expect(res.status).toBe(409);
    expect(res.error?.code).toBe(ErrorCode.NotUnique);
    expect(res.body.fields[0]).toMatchObject({ field: 'email', key: 'notUnique' });
    expect(res.body.fields[0].message).toBe(`User with email ${email('itp').toUpperCase()} already exists`);
  });

  it('validates the affiliation rules', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ email: 'not-an-email' }, 'email'],
      [{ phone: '12' }, 'phone'],
      [{ firstName: '  ' }, 'firstName'],
      [{ userType: UserType.FacilityUser }, 'userType'],
      [{ organizationId: otherFacility }, 'organizationId'],
      [{ userType: UserType.ItpProvider, providerInfo: null }, 'providerInfo'],
      [{ userType: UserType.ItpProvider, providerInfo: { providerType: 'XX', npi: '1' } }, 'providerInfo.providerType'],
      [{ providerInfo: { providerType: 'MD', npi: '1' } }, 'providerInfo'],
      [{ organizationType: 'Facility', organizationId: otherFacility, userType: UserType.FacilityUser, divisionsIds: [] }, 'divisionsIds'],
      [{ organizationType: 'Facility', organizationId: null, userType: UserType.FacilityAdmin }, 'organizationId'],
    ];
    for (const [override, fieldName] of cases) {
      const res = await api('POST', '/api/user/invite', { token: admin, body: itpUser({ email: email(`v${fieldName}`), ...override }) });
      expect([res.status, res.error?.code, res.body.fields?.map((f: { field: string }) => f.field)]).toEqual([400, ErrorCode.Invalid, expect.arrayContaining([fieldName])]);
    }
  });

  it('invites a provider with provider info', async () => {
    const res = await api('POST', '/api/user/invite', {
      token: admin,
      body: itpUser({ email: email('prov'), userType: UserType.ItpProvider, providerInfo: { providerType: 'ARNP', npi: '1234567890', biography: 'Bio' } }),
    });
    expect(res.status).toBe(201);
    expect(res.body.providerInfo).toMatchObject({ providerType: 'ARNP', npi: '1234567890' });
    const change = await api('PUT', `/api/user/${res.body.id}`, { token: admin, body: { ...res.body, userType: UserType.ItpUser, providerInfo: null } });
    expect(change.status).toBe(400);
    expect(change.body.fields[0]).toMatchObject({ field: 'userType', key: 'cannotChange' });
  });
});

describe('facility admin', () => {
  let ownUserId: number;

  it('invites into her own facility only: the organization is forced', async () => {
    const res = await api('POST', '/api/user/invite', {
      token: facilityAdmin,
      body: itpUser({ email: email('fac'), organizationType: 'Facility', organizationId: otherFacility, userType: UserType.FacilityUser, divisionsIds: [facilityDivision] }),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ organizationType: 'Facility', organizationId: facilityAdminOrg, divisionsIds: [facilityDivision] });
    ownUserId = res.body.id;
    const itp = await api('POST', '/api/user/invite', { token: facilityAdmin, body: itpUser({ email: email('fac-itp') }) });
    expect(itp.status).toBe(400);
    expect(itp.body.fields.map((f: { field: string }) => f.field)).toContain('userType');
  });

  it("sees and edits only her facility's users", async () => {
    const list = await api('GET', `/api/user?range=${encodeURIComponent('[0,499]')}`, { token: facilityAdmin });
    expect(list.status).toBe(200);
    expect(list.body.length).toBeGreaterThan(0);
    expect(list.body.every((u: { organizationId: number; organizationType: string }) => u.organizationId === facilityAdminOrg && u.organizationType === 'Facility')).toBe(true);
    expect(list.headers.get('content-range')).toMatch(/^users /);

    const own = await api('GET', `/api/user/${ownUserId}`, { token: facilityAdmin });
    expect(own.status).toBe(200);
    const itpAdminRow = await db.query(`SELECT id FROM users WHERE user_type = 'IntegratedTelehealthPartners_Admin' ORDER BY id LIMIT 1`);
    const foreign = await api('GET', `/api/user/${itpAdminRow.rows[0].id}`, { token: facilityAdmin });
    expect(foreign.status).toBe(403);
    const put = await api('PUT', `/api/user/${itpAdminRow.rows[0].id}`, { token: facilityAdmin, body: itpUser({ email: email('x') }) });
    expect(put.status).toBe(403);
    const bulk = await api('POST', '/api/user/deactivate', { token: facilityAdmin, body: [itpAdminRow.rows[0].id] });
    expect(bulk.status).toBe(400);
    expect(bulk.error?.code).toBe('users.table.actions.no-suitable-rows');
    const still = await db.query('SELECT is_active FROM users WHERE id = $1', [itpAdminRow.rows[0].id]);
    expect(still.rows[0].is_active).toBe(true);
  });
});

describe('list', () => {
  it('pages a search by two keys with the total on every page, and past the last page', async () => {
    const list = (range: [number, number], sort: [string, string]) =>
      api('GET', `/api/user?filter=${encodeURIComponent(JSON.stringify({ nameOrEmail: RUN }))}&sort=${encodeURIComponent(JSON.stringify(sort))}&range=${encodeURIComponent(JSON.stringify(range))}`, { token: admin });
    const all = await list([0, 99], ['organizationName', 'DESC']);
    expect(all.status).toBe(200);
    const total = Number(all.headers.get('content-range')!.split('/')[1]);
    expect(total).toBe(all.body.length);
    const names = all.body.map((u: { organizationName: string | null }) => (u.organizationName ?? '').toLowerCase());
    expect(names).toEqual([...names].sort().reverse());
    expect(total).toBeGreaterThanOrEqual(3);
    // Pages of 1 are the whole list's first rows, in order, each telling the same total.
    const first = await list([0, 0], ['organizationName', 'DESC']);
    const second = await list([1, 1], ['organizationName', 'DESC']);
    expect([...first.body, ...second.body].map((u: { id: number }) => u.id)).toEqual(all.body.slice(0, 2).map((u: { id: number }) => u.id));
    expect(second.headers.get('content-range')).toBe(`users 1-1/${total}`);
    const past = await list([total + 10, total + 19], ['fullName', 'ASC']);
    expect(past.body).toEqual([]);
    expect(past.headers.get('content-range')!.split('/')[1]).toBe(String(total));
  });

  it('searches by name or e-mail (3+ characters), filters and sorts; spec and simple-rest forms', async () => {
    const rest = await api('GET', `/api/user?filter=${encodeURIComponent(JSON.stringify({ nameOrEmail: RUN }))}&sort=${encodeURIComponent('["email","DESC"]')}`, { token: admin });
    expect(rest.status).toBe(200);
    expect(rest.body.length).toBeGreaterThanOrEqual(3);
    const emails = rest.body.map((u: { email: string }) => u.email);
    expect(emails).toEqual([...emails].sort().reverse());
    const short = await api('GET', `/api/user?filter=${encodeURIComponent(JSON.stringify({ nameOrEmail: 'ab' }))}`, { token: admin });
    expect(short.status).toBe(400);
    const spec = await api('GET', `/api/user?skip=0&take=2&includeTotal=true&sorting=email%20asc&nameOrEmail=${RUN}&userTypes=${UserType.ItpUser}`, { token: admin });
    expect(spec.status).toBe(200);
    expect(spec.body.items.length).toBeGreaterThanOrEqual(1);
    expect(spec.body.items.every((u: { userType: string }) => u.userType === UserType.ItpUser)).toBe(true);
    expect(typeof spec.body.total).toBe('number');
    const coordinator = (await signInAs(UserType.ItpUser)).accessToken;
    const itpUserList = await api('GET', '/api/user', { token: coordinator });
    expect(itpUserList.status).toBe(200);
    expect(itpUserList.body.every((u: { organizationType: string }) => u.organizationType === 'Facility')).toBe(true);
    const lookups = await api('GET', `/api/user/lookups?nameOrEmail=${RUN}`, { token: admin });
    expect(lookups.status).toBe(200);
    expect(lookups.body[0]).toHaveProperty('fullName');
  });
});

describe('bulk actions and revocation', () => {
  it('skips rows that do not qualify, revokes a deactivated user’s tokens, re-activates', async () => {
    const target = await api('GET', `/api/user?filter=${encodeURIComponent(JSON.stringify({ nameOrEmail: email('itp') }))}`, { token: admin });
    const id = target.body[0].id as number;
    const pending = await api('POST', '/api/user/invite', { token: admin, body: itpUser({ email: email('pending') }) });
    const session = await signIn({ email: email('itp'), password: PASSWORD });
    expect((await api('GET', '/api/user/context', { token: session.accessToken })).status).toBe(200);

    const res = await api('POST', '/api/user/deactivate', { token: admin, body: [id, pending.body.id] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ applied: 1, skipped: 1, ids: [id] });
    const revoked = await api('GET', '/api/user/context', { token: session.accessToken });
    expect(revoked.status).toBe(403);
    expect(revoked.headers.get(TOKEN_REVOKED_HEADER)).toBe('true');

    const none = await api('POST', '/api/user/deactivate', { token: admin, body: [id] });
    expect(none.status).toBe(400);
    expect(none.error?.code).toBe('users.table.actions.no-suitable-rows');

    const act = await api('POST', '/api/user/activate', { token: admin, body: [id, pending.body.id] });
    expect(act.body).toMatchObject({ applied: 1, skipped: 1 });

    const reset = await api('POST', '/api/user/reset-password', { token: admin, body: [id, pending.body.id] });
    expect(reset.body).toMatchObject({ applied: 1, skipped: 1 });
    const link = await linkOf(email('itp'));
    expect(link).toContain('/identity/account/reset-password?token=');
    const used = await usePasswordLink(link, 'Another123');
    expect(used.status).toBe(200);
    await signIn({ email: email('itp'), password: 'Another123' });

    const audit = await db.query(`SELECT "values" FROM audit_log WHERE main_action = 'User.Deactivate' AND success ORDER BY id DESC LIMIT 1`);
    expect(audit.rows[0].values).toMatchObject({ userIds: [id], skipped: 1 });
  }, 60000);

  it('unlock clears both locks and the failure count', async () => {
    const { rows } = await db.query('SELECT id FROM users WHERE email = $1', [email('itp')]);
    const id = rows[0].id;
    await db.query('UPDATE users SET password_locked_out = true, locked_due_inactivity = true, failed_login_count = 5 WHERE id = $1', [id]);
    const res = await api('PUT', '/api/user/unlock', { token: admin, body: [id] });
    expect(res.status).toBe(200);
    expect(res.body.applied).toBe(1);
    const after = await db.query('SELECT password_locked_out, locked_due_inactivity, failed_login_count FROM users WHERE id = $1', [id]);
    expect(after.rows[0]).toEqual({ password_locked_out: false, locked_due_inactivity: false, failed_login_count: 0 });
    const again = await api('PUT', '/api/user/unlock', { token: admin, body: [id] });
    expect(again.status).toBe(400);
  });
});

describe('unlock-users list (ITP user)', () => {
  it('lists locked, enabled facility users and unlocks facility users only', async () => {
    const coordinator = (await signInAs(UserType.ItpUser)).accessToken;
    const fac = await db.query('SELECT id FROM users WHERE email = $1', [email('fac')]);
    const itp = await db.query('SELECT id FROM users WHERE email = $1', [email('itp')]);
    const ids = [fac.rows[0].id, itp.rows[0].id];
    await db.query('UPDATE users SET password_locked_out = true, failed_login_count = 5, creating = false, is_active = true WHERE id = ANY($1)', [ids]);
    const list = await api('GET', `/api/user?filter=${encodeURIComponent(JSON.stringify({ lockedOnly: true, enabledOnly: true }))}`, { token: coordinator });
    expect(list.status).toBe(200);
    const listed = list.body.map((u: { id: number }) => u.id);
    expect(listed).toContain(ids[0]);
    expect(listed).not.toContain(ids[1]);
    const res = await api('PUT', '/api/user/unlock', { token: coordinator, body: ids });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ applied: 1, skipped: 1, ids: [ids[0]] });
    const itpOnly = await api('PUT', '/api/user/unlock', { token: coordinator, body: [ids[1]] });
    expect(itpOnly.status).toBe(400);
    expect(itpOnly.error?.code).toBe('users.table.actions.no-suitable-rows');
    const bulk = await api('POST', '/api/user/activate', { token: coordinator, body: [ids[0]] });
    expect(bulk.status).toBe(403);
    await db.query('UPDATE users SET password_locked_out = false, failed_login_count = 0 WHERE id = ANY($1)', [ids]);
  });
});

describe('profile', () => {
  it('the user edits her own profile only; the affiliation is ignored', async () => {
    const me = await api('GET', '/api/user/context', { token: facilityAdmin });
    const profile = await api('GET', `/api/user/profile/${me.body.id}`, { token: facilityAdmin });
    expect(profile.status).toBe(200);
    const put = await api('PUT', `/api/user/profile/${me.body.id}`, {
      token: facilityAdmin,
      body: { ...profile.body, jobTitle: `Admin ${RUN}`, userType: UserType.ItpAdmin },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ jobTitle: `Admin ${RUN}`, userType: UserType.FacilityAdmin });
    const other = await api('GET', `/api/user/profile/${me.body.id + 1}`, { token: facilityAdmin });
    expect(other.status).toBe(404);
  });
});
