import { randomUUID } from 'crypto';
import { parse } from 'csv-parse/sync';
import { AUDIT_LOG_COUNT_CAP, CROSS_TIME_MESSAGE, ErrorCode, UserType } from '@crisis/forms';
import { api, API_URL } from '../support/api';
import { db } from '../support/db';
import { signInAs } from '../support/oidc-client';

/**
 * The audit log (spec 03 §3 Audit log entry, §5 Audit log filter, §6, §7 Audit log): entries of
 * real admin actions, the filters and their rules, facility scoping, the CSV export, and the
 * append-only table.
 */
const RUN = Date.now().toString(36).toUpperCase();
const PREFIX = `QA AL ${RUN}`;
const enc = (v: unknown) => encodeURIComponent(JSON.stringify(v));

function facilityBody(name: string) {
  return {
    name,
    description: null,
    allowReferringDivisionsAccess: false,
    allowPlacementOnlyCases: false,
    isActive: true,
    isMfaEnabled: false,
    isGeoPositionManually: true,
    ehrDepartmentId: null,
    address: { streetLine: '1 Audit Way', apartmentNumber: null, city: 'Tampa', state: 'FL', zipCode: '33602', county: null },
    geoPosition: { latitude: 27.95, longitude: -82.46 },
    contacts: { phone1: '(813) 555-0100' },
  };
}

async function audited(method: string, path: string, opts: { token: string; body?: unknown }) {
  const cid = `qa-al-${randomUUID()}`;
  const res = await api(method, path, { ...opts, headers: { 'x-correlation-id': cid } });
  const { rows } = await db.query('SELECT id::int AS id FROM audit_log WHERE correlation_id = $1', [cid]);
  expect(rows).toHaveLength(1);
  return { res, entryId: rows[0].id as number };
}

describe('audit log', () => {
  let admin: string;
  let facilityAdmin: string;
  let coordinator: string;
  let ownFacilityId: number;
  let createdFacilityId: number;
  let createdEntryId: number;
  let refusedEntryId: number;
  let ownEntryId: number;

  beforeAll(async () => {
    admin = (await signInAs(UserType.ItpAdmin)).accessToken;
    facilityAdmin = (await signInAs(UserType.FacilityAdmin)).accessToken;
    coordinator = (await signInAs(UserType.ItpUser)).accessToken;
    ownFacilityId = (await api('GET', '/api/user/context', { token: facilityAdmin })).body.facilityId;

    const created = await audited('POST', '/api/facilities', { token: admin, body: facilityBody(`${PREFIX} Facility`) });
    expect(created.res.status).toBe(201);
    createdFacilityId = created.res.body.id;
    createdEntryId = created.entryId;

    // The same name and zip again: refused by the service (INV.NOT.UNIQ), recorded with success false.
    const refused = await audited('POST', '/api/facilities', { token: admin, body: facilityBody(`${PREFIX} Facility`) });
    expect(refused.res.status).toBe(409);
    refusedEntryId = refused.entryId;

    const own = await api('GET', `/api/facilities/${ownFacilityId}`, { token: facilityAdmin });
    const mfa = await audited('PUT', `/api/facilities/${ownFacilityId}/settings/mfa`, { token: facilityAdmin, body: { isMfaEnabled: own.body.isMfaEnabled } });
    expect(mfa.res.status).toBe(200);
    ownEntryId = mfa.entryId;
  });

  afterAll(() => db.end());

  it('lists a facility create by the ITP admin with success true and its values', async () => {
    const res = await api('GET', `/api/audit-log/get-all?includeTotal=true&take=100&filter=${enc({ mainAction: 'Facility.Create' })}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.total).toBeGreaterThanOrEqual(2);
    const row = res.body.items.find((r: any) => r.id === createdEntryId);
    expect(row).toMatchObject({ mainAction: 'Facility.Create', kind: 'Create', success: true, email: 'admin@itp.example.org', userType: UserType.ItpAdmin });
    const detail = await api('GET', `/api/audit-log/audit-log-value/${createdEntryId}`, { token: admin });
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ id: createdEntryId, success: true, facilityId: createdFacilityId, body: { name: `${PREFIX} Facility` } });
    expect(detail.body.values).toEqual(expect.arrayContaining([{ path: 'facilityId', value: String(createdFacilityId) }, { path: 'isActive', value: 'true' }]));
    expect(detail.body.body.address).toMatchObject({ city: 'Tampa', zipCode: '33602' });
  });

  it('lists the refused create with success false', async () => {
    const res = await api('GET', `/api/audit-log/get-all?take=1000&success=false&mainAction=Facility.Create`, { token: admin });
    expect(res.status).toBe(200);
    const row = res.body.items.find((r: any) => r.id === refusedEntryId);
    expect(row).toMatchObject({ mainAction: 'Facility.Create', success: false });
    expect(res.body.items.every((r: any) => r.success === false && r.mainAction === 'Facility.Create')).toBe(true);
    expect(res.body.total).toBeUndefined();
  });

  it('sorts by performedAt descending by default and pages with skip/take', async () => {
    const all = await api('GET', '/api/audit-log/get-all?take=5&includeTotal=true', { token: admin });
    const times = all.body.items.map((r: any) => Date.parse(r.performedAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const second = await api('GET', '/api/audit-log/get-all?skip=1&take=1', { token: admin });
    expect(second.body.items[0].id).toBe(all.body.items[1].id);
    const asc = await api('GET', '/api/audit-log/get-all?take=5&fieldId=performedAt&dir=asc', { token: admin });
    const ascTimes = asc.body.items.map((r: any) => Date.parse(r.performedAt));
    expect(ascTimes).toEqual([...ascTimes].sort((a, b) => a - b));
    expect((await api('GET', '/api/audit-log/get-all?fieldId=password', { token: admin })).status).toBe(400);
  });

  it('serves the react-admin list with Content-Range, sorted newest first', async () => {
    const res = await api('GET', `/api/audit-log?range=${enc([0, 9])}&filter=${enc({ user: 'admin@itp' })}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-range')).toMatch(/^audit-log (0-\d+|\*)\/\d+$/);
    expect(res.body.length).toBeGreaterThan(0);
    expect(res.body.every((r: any) => r.email === 'admin@itp.example.org')).toBe(true);
  });

  it('filters by user id and offers the distinct main actions', async () => {
    const me = (await api('GET', '/api/user/context', { token: admin })).body;
    const res = await api('GET', `/api/audit-log/get-all?take=50&userId=${me.id}`, { token: admin });
    expect(res.body.items.length).toBeGreaterThan(0);
    expect(res.body.items.every((r: any) => r.userId === me.id)).toBe(true);
    const actions = await api('GET', '/api/audit-log/main-actions', { token: admin });
    expect(actions.body).toEqual(expect.arrayContaining(['Facility.Create', 'Facility.UpdateMfa']));
    expect(actions.body).toEqual([...actions.body].sort());
  });

  it('scopes a facility admin to her facility', async () => {
    const res = await api('GET', '/api/audit-log/get-all?take=1000&includeTotal=true', { token: facilityAdmin });
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeGreaterThan(0);
    expect(res.body.items.every((r: any) => r.facilityId === ownFacilityId)).toBe(true);
    expect(res.body.items.some((r: any) => r.id === ownEntryId)).toBe(true);
    expect(res.body.items.some((r: any) => r.id === createdEntryId)).toBe(false);

    const list = await api('GET', `/api/audit-log?range=${enc([0, 999])}`, { token: facilityAdmin });
    expect(list.body.every((r: any) => r.facilityId === ownFacilityId)).toBe(true);

    // Another facility's entry: refused by id, absent from her main actions.
    const other = await api('GET', `/api/audit-log/audit-log-value/${createdEntryId}`, { token: facilityAdmin });
    expect(other.status).toBe(403);
    expect(other.error?.code).toBe(ErrorCode.Forbidden);
    const mine = await api('GET', `/api/audit-log/audit-log-value/${ownEntryId}`, { token: facilityAdmin });
    expect(mine.status).toBe(200);
    const actions = await api('GET', '/api/audit-log/main-actions', { token: facilityAdmin });
    expect(actions.body).not.toContain('Facility.Create');
    expect(actions.body).toContain('Facility.UpdateMfa');
    // Her CSV holds her facility's entries only.
    const csv = await fetch(`${API_URL}/api/audit-log/csv`, { headers: { authorization: `Bearer ${facilityAdmin}` } });
    const rows = parse(await csv.text(), { columns: true }) as Array<Record<string, string>>;
    expect(rows.some((r) => r['Main action'] === 'Facility.Create' && r['E-mail'] === 'admin@itp.example.org')).toBe(false);
  });

  it('refuses the other roles with FRBD', async () => {
    for (const path of ['/api/audit-log/get-all', '/api/audit-log', '/api/audit-log/csv', '/api/audit-log/main-actions', `/api/audit-log/audit-log-value/${ownEntryId}`]) {
      const res = await api('GET', path, { token: coordinator });
      expect([path, res.status, res.error?.code]).toEqual([path, 403, ErrorCode.Forbidden]);
    }
  });

  it("refuses 'to' before 'from' (cross time) and times in the future", async () => {
    const from = new Date(Date.now() - 3600_000).toISOString();
    const to = new Date(Date.now() - 7200_000).toISOString();
    const res = await api('GET', `/api/audit-log/get-all?filter=${enc({ from, to })}`, { token: admin });
    expect(res.status).toBe(400);
    expect(res.error?.code).toBe(ErrorCode.Invalid);
    expect(res.body.fields).toEqual([{ field: 'filter.to', key: 'crossTime', message: CROSS_TIME_MESSAGE }]);

    const ra = await api('GET', `/api/audit-log?filter=${enc({ from, to })}`, { token: admin });
    expect(ra.status).toBe(400);
    expect(ra.body.fields[0]).toMatchObject({ field: 'filter.to', key: 'crossTime' });

    const future = new Date(Date.now() + 86400_000).toISOString();
    const fut = await api('GET', `/api/audit-log/get-all?to=${encodeURIComponent(future)}`, { token: admin });
    expect(fut.status).toBe(400);
    expect(fut.body.fields[0]).toMatchObject({ field: 'filter.to', key: 'future' });

    const garbage = await api('GET', '/api/audit-log/get-all?from=yesterday&userId=abc&success=maybe', { token: admin });
    expect(garbage.status).toBe(400);
    expect(garbage.body.fields.map((f: any) => f.field).sort()).toEqual(['filter.from', 'filter.success', 'filter.userId']);
  });

  it('counts the total up to 1,000 ("1,000+" beyond), exactly below it, and pages past the last page', async () => {
    const who = `cap-${Date.now()}`;
    const insert = (n: number, name: string) =>
      db.query(
        `INSERT INTO audit_log (performed_at, main_action, kind, user_name, email, success)
         SELECT now() - make_interval(secs => g), 'Test.Cap', 'Action', $2, $2 || '@example.org', true FROM generate_series(1, $1::int) g`,
        [n, name],
      );
    await insert(AUDIT_LOG_COUNT_CAP + 10, who);
    await insert(7, `${who}-few`);
    const many = await api('GET', `/api/audit-log?range=${enc([0, 24])}&filter=${enc({ user: who })}`, { token: admin });
    expect(many.body).toHaveLength(25);
    expect(many.headers.get('content-range')).toBe(`audit-log 0-24/${AUDIT_LOG_COUNT_CAP + 1}`);
    const few = await api('GET', `/api/audit-log?range=${enc([0, 24])}&filter=${enc({ user: `${who}-few` })}`, { token: admin });
    expect(few.headers.get('content-range')).toBe('audit-log 0-6/7');
    const past = await api('GET', `/api/audit-log?range=${enc([50, 74])}&filter=${enc({ user: `${who}-few` })}`, { token: admin });
    expect(past.body).toEqual([]);
    expect(past.headers.get('content-range')).toBe('audit-log */7');
    const spec = await api('GET', `/api/audit-log/get-all?take=5&includeTotal=true&filter=${enc({ user: who })}`, { token: admin });
    expect(spec.body.total).toBe(AUDIT_LOG_COUNT_CAP + 1);
    expect(spec.body.items).toHaveLength(5);
  });

  it("finds an entry by a part of the name or of the e-mail it was written with, whoever wrote it, and nothing else", async () => {
    const tag = `Qq${Date.now().toString(36)}`;
    // Entries as every writer leaves them: a name and an e-mail, an e-mail only (a failed sign-in),
    // the same person under a later name, and a bulk insert of several people in one statement.
    await db.query(
      `INSERT INTO audit_log (main_action, kind, user_name, email, success) VALUES
         ('Test.Find', 'Action', $1 || ' Smith', lower($1) || '.one@example.org', true),
         ('Test.Find', 'Action', NULL, lower($1) || '.unknown@example.org', false),
         ('Test.Find', 'Action', $1 || ' Jones', lower($1) || '.one@example.org', true),
         ('Test.Find', 'Action', 'Pat Other', 'pat.other.' || lower($1) || '@example.org', true),
         ('Test.Find', 'Action', 'Pat Unrelated', 'pat.unrelated@example.org', true)`,
      [tag],
    );
    const find = async (text: string) => {
      const res = await api('GET', `/api/audit-log/get-all?take=50&includeTotal=true&filter=${enc({ user: text, mainAction: 'Test.Find' })}`, { token: admin });
      expect(res.status).toBe(200);
      return (res.body.items as any[]).map((r) => `${r.userName ?? '-'} <${r.email}>`).sort();
    };
    const lower = tag.toLowerCase();
    expect(await find(tag)).toEqual(
      [
        `${tag} Jones <${lower}.one@example.org>`,
        `${tag} Smith <${lower}.one@example.org>`,
        `- <${lower}.unknown@example.org>`,
        `Pat Other <pat.other.${lower}@example.org>`,
      ].sort(),
    );
    expect(await find(`${tag} smi`)).toEqual([`${tag} Smith <${lower}.one@example.org>`]);
    expect(await find(`${lower}.unknown@`)).toEqual([`- <${lower}.unknown@example.org>`]);
    expect(await find(`${tag}-nobody`)).toEqual([]);
    // A LIKE wildcard in the text is a character, not a pattern.
    expect(await find(`${tag}%`)).toEqual([]);
  });

  it('defaults the range to the last day', async () => {
    const { rows } = await db.query("SELECT count(*)::int AS n FROM audit_log WHERE performed_at >= now() - interval '1 day'");
    const res = await api('GET', '/api/audit-log/get-all?take=1&includeTotal=true', { token: admin });
    // Entries may be added between the two reads (sign-ins, other suites), never fewer; counted up to the cap.
    expect(res.body.total).toBeGreaterThanOrEqual(Math.min(rows[0].n, AUDIT_LOG_COUNT_CAP + 1));
    const old = await api('GET', `/api/audit-log/get-all?take=1&includeTotal=true&filter=${enc({ from: '2001-01-01T00:00:00Z', to: '2001-01-02T00:00:00Z' })}`, { token: admin });
    expect(old.body).toEqual({ items: [], total: 0 });
  });

  it('exports the filtered list as a CSV attachment with a header row', async () => {
    const res = await fetch(`${API_URL}/api/audit-log/csv?filter=${enc({ mainAction: 'Facility.Create' })}&tz=America/New_York`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = await res.text();
    const records = parse(text) as string[][];
    expect(records[0]).toEqual(['Performed at', 'Main action', 'Kind', 'User', 'E-mail', 'User type', 'Organization', 'Division', 'Success']);
    const rows = records.slice(1);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows.every((r) => r[1] === 'Facility.Create')).toBe(true);
    expect(rows.every((r) => /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2} (AM|PM)$/.test(r[0]))).toBe(true);
    expect(rows.some((r) => r[8] === 'Yes' && r[4] === 'admin@itp.example.org' && r[5] === UserType.ItpAdmin)).toBe(true);
    expect(rows.some((r) => r[8] === 'No')).toBe(true);
    // Same order as the list: newest first.
    const list = await api('GET', `/api/audit-log/get-all?take=1000&filter=${enc({ mainAction: 'Facility.Create' })}`, { token: admin });
    expect(rows.length).toBe(list.body.items.length);

    const bad = await api('GET', `/api/audit-log/csv?tz=Mars/Base`, { token: admin });
    expect(bad.status).toBe(400);
  });

  it('answers unknown and malformed ids with 404 NTFND', async () => {
    for (const id of ['987654321', 'abc', '99999999999999999999']) {
      const res = await api('GET', `/api/audit-log/audit-log-value/${id}`, { token: admin });
      expect([id, res.status, res.error?.code]).toEqual([id, 404, ErrorCode.NotFound]);
    }
  });

  it('is append-only: the database refuses UPDATE and DELETE', async () => {
    await expect(db.query('UPDATE audit_log SET success = NOT success WHERE id = $1', [createdEntryId])).rejects.toThrow(/append-only/);
    await expect(db.query('DELETE FROM audit_log WHERE id = $1', [createdEntryId])).rejects.toThrow(/append-only/);
    const { rows } = await db.query('SELECT success FROM audit_log WHERE id = $1', [createdEntryId]);
    expect(rows[0].success).toBe(true);
  });
});
