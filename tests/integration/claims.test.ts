import { ErrorCode, UserType } from '@crisis/forms';
import { api, eventually } from '../support/api';
import { db } from '../support/db';
import { signInAs } from '../support/oidc-client';

/**
 * Claims (spec 03 §7): leases on objects under edit, against the running API, PostgreSQL and the
 * Temporal worker. The API runs with CLAIM_DEFAULT_SECONDS=3; most calls pass a short `extendBy`
 * so the suite stays fast. Waits poll with a deadline, never a fixed sleep for the outcome.
 */
describe('claims', () => {
  const DEFAULT_SECONDS = Number(process.env.CLAIM_DEFAULT_SECONDS ?? 3);
  /** Distinct per run, so a reused database never holds a claim of ours. */
  const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  let n = 0;
  const newObject = (objectType = 'MedicalInformation') => ({ objectType, objectId: `${run}-${++n}` });

  let ann: string; // ITP admin
  let bob: string; // ITP user
  let annId: number;
  let annName: string;

  beforeAll(async () => {
    // Claim ids start high: other suites call /api/claims/1/... expecting no such claim (404),
    // whichever order the suites run in.
    await db.query(`SELECT setval('claims_id_seq', GREATEST((SELECT last_value FROM claims_id_seq), 1000))`);
    ann = (await signInAs(UserType.ItpAdmin)).accessToken;
    bob = (await signInAs(UserType.ItpUser)).accessToken;
    const ctx = (await api('GET', '/api/user/context', { token: ann })).body;
    annId = ctx.id;
    annName = `${ctx.firstName} ${ctx.lastName}`;
  });

  afterAll(() => db.end());

  const claim = (token: string, body: unknown) => api('POST', '/api/claims', { token, body });
  const extend = (token: string, id: number | string, body?: unknown) => api('PUT', `/api/claims/${id}/extend`, { token, body });
  const release = (token: string, id: number | string) => api('PUT', `/api/claims/${id}/release`, { token });
  const actual = (token: string, o: { objectId: string; objectType: string }) =>
    api('GET', `/api/claims/actual?objectId=${encodeURIComponent(o.objectId)}&objectType=${encodeURIComponent(o.objectType)}`, { token });
  /** "Empty body means null": no content, or a JSON null. */
  const isEmpty = (body: unknown) => body === null || body === '' || body === undefined;
  const row = async (id: number) => (await db.query('SELECT * FROM claims WHERE id = $1', [id])).rows[0];

  it('is exclusive: another user gets 409 naming the holder, the holder gets the same claim again', async () => {
    const o = newObject();
    const first = await claim(ann, o);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ objectId: o.objectId, objectType: o.objectType, subjectId: annId, subjectName: annName });
    // The default lease is CLAIM_DEFAULT_SECONDS.
    const lease = Date.parse(first.body.expiresAt) - Date.parse(first.body.claimedAt);
    expect(Math.abs(lease - DEFAULT_SECONDS * 1000)).toBeLessThan(1000);

    const other = await claim(bob, o);
    expect(other.status).toBe(409);
    expect(other.error?.code).toBe(ErrorCode.ObjectAlreadyClaimed);
    expect(other.body.payload).toEqual({ objectId: o.objectId, objectType: o.objectType, subjectId: annId, subjectName: annName });
    // The x-error header carries the payload URI-encoded (spec 03 §8).
    expect(JSON.parse(decodeURIComponent(other.error!.payload as string))).toEqual(other.body.payload);

    const again = await claim(ann, { ...o, extendBy: 30 });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(Date.parse(again.body.expiresAt)).toBeGreaterThan(Date.parse(first.body.expiresAt));

    const seen = await actual(bob, o);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ id: first.body.id, subjectId: annId, subjectName: annName });
    expect((await release(ann, first.body.id)).status).toBe(200);
  });

  it('keeps a numeric object id a number, and treats "17" and 17 as the same object', async () => {
    const objectId = 1_000_000 + Math.floor(Math.random() * 1e9);
    const first = await claim(ann, { objectId, objectType: 'Division', extendBy: 30 });
    expect(first.status).toBe(200);
    expect(first.body.objectId).toBe(objectId);
    const asText = await claim(bob, { objectId: String(objectId), objectType: 'Division' });
    expect(asText.status).toBe(409);
    expect(asText.body.payload.objectId).toBe(objectId);
    expect((await release(ann, first.body.id)).status).toBe(200);
  });

  it('lets exactly one of two simultaneous claimants win', async () => {
    const o = newObject();
    const results = await Promise.all([claim(ann, { ...o, extendBy: 30 }), claim(bob, { ...o, extendBy: 30 })]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = results.find((r) => r.status === 200)!;
    const { rows } = await db.query('SELECT id FROM claims WHERE object_type = $1 AND object_id = $2 AND released_at IS NULL', [
      o.objectType,
      o.objectId,
    ]);
    expect(rows.map((r) => Number(r.id))).toEqual([winner.body.id]);
    await release(winner.body.subjectId === annId ? ann : bob, winner.body.id);
  });

  it('stays alive past its original expiry while it is extended', async () => {
    const o = newObject();
    const c = (await claim(ann, { ...o, extendBy: 2 })).body;
    const originalExpiry = Date.parse(c.expiresAt);

    const ext = await extend(ann, c.id, { extendBy: 6 });
    expect(ext.status).toBe(200);
    expect(Date.parse(ext.body.expiresAt)).toBeGreaterThan(originalExpiry);

    // Past the original expiry, plus time for the worker to have (wrongly) reacted.
    await eventually(async () => Date.now() > originalExpiry + 1500, 'the original expiry to pass', 10_000);
    const seen = await actual(bob, o);
    expect(seen.body).toMatchObject({ id: c.id, subjectId: annId });
    expect((await row(c.id)).released_at).toBeNull();
    expect((await extend(ann, c.id, { extendBy: 2 })).status).toBe(200);
    // Without a body the default lease applies.
    const plain = await extend(ann, c.id);
    expect(plain.status).toBe(200);
    expect((await release(ann, c.id)).status).toBe(200);
  });

  it('expires without renewals: the worker releases it, actual is empty and extend is refused', async () => {
    const o = newObject();
    const c = (await claim(ann, { ...o, extendBy: 1 })).body;
    expect(c.id).toBeGreaterThan(0);

    // The lease workflow marks the row released; nobody else touches it (no new claim is made).
    const released = await eventually(
      async () => {
        const r = await row(c.id);
        return r.released_at ? r : null;
      },
      'the lease workflow to release the claim',
      15_000,
    );
    expect(released.release_reason).toBe('expired');
    expect(new Date(released.released_at).getTime()).toBeGreaterThanOrEqual(new Date(released.expires_at).getTime());

    const seen = await actual(bob, o);
    expect(seen.status).toBe(200);
    expect(isEmpty(seen.body)).toBe(true);

    const late = await extend(ann, c.id, { extendBy: 5 });
    expect(late.status).toBe(409);
    expect(late.error?.code).toBe(ErrorCode.ClaimOverdueOrInactive);

    // The object is free for the next user.
    const next = await claim(bob, { ...o, extendBy: 30 });
    expect(next.status).toBe(200);
    expect(next.body.id).not.toBe(c.id);
    await release(bob, next.body.id);
  });

  it('frees a lapsed claim for the next claimant at once, whether or not the worker has reacted yet', async () => {
    const o = newObject();
    const c = (await claim(ann, { ...o, extendBy: 1 })).body;
    await eventually(async () => Date.now() > Date.parse(c.expiresAt) + 50, 'the claim to lapse', 5000);
    const next = await claim(bob, { ...o, extendBy: 30 });
    expect(next.status).toBe(200);
    expect((await row(c.id)).release_reason).toBe('expired');
    await release(bob, next.body.id);
  });

  it('is released by its holder, and then another user may claim it', async () => {
    const o = newObject();
    const c = (await claim(ann, { ...o, extendBy: 30 })).body;
    expect((await claim(bob, o)).status).toBe(409);

    // Only the holder may release or extend it.
    const foreign = await release(bob, c.id);
    expect([foreign.status, foreign.error?.code]).toEqual([403, ErrorCode.Forbidden]);
    const foreignExtend = await extend(bob, c.id);
    expect([foreignExtend.status, foreignExtend.error?.code]).toEqual([403, ErrorCode.Forbidden]);

    const rel = await release(ann, c.id);
    expect(rel.status).toBe(200);
    expect(rel.body).toMatchObject({ id: c.id, releaseReason: 'released' });
    expect(rel.body.releasedAt).toBeTruthy();
    expect(isEmpty((await actual(bob, o)).body)).toBe(true);

    // Releasing twice is harmless (the UI releases "on leaving"); extending is refused.
    const twice = await release(ann, c.id);
    expect(twice.status).toBe(200);
    expect(twice.body.releasedAt).toBe(rel.body.releasedAt);
    expect((await extend(ann, c.id)).error?.code).toBe(ErrorCode.ClaimOverdueOrInactive);

    const next = await claim(bob, { ...o, extendBy: 30 });
    expect(next.status).toBe(200);
    expect(next.body.subjectId).not.toBe(annId);
    await release(bob, next.body.id);

    const audit = await db.query(`SELECT main_action FROM audit_log WHERE path = $1 AND success ORDER BY id`, [`/api/claims/${c.id}/release`]);
    expect(audit.rows.map((r) => r.main_action)).toContain('Claim.Release');
  });

  it('refuses bad input with a coded 4xx naming the field, and changes nothing', async () => {
    const o = newObject();
    const fieldsOf = (res: { body: any }) => (res.body?.fields ?? []).map((f: any) => f.field);
    const before = (await db.query('SELECT count(*)::int AS n FROM claims')).rows[0].n;

    const noType = await claim(ann, { objectId: o.objectId });
    expect([noType.status, noType.error?.code]).toEqual([400, ErrorCode.Invalid]);
    expect(fieldsOf(noType)).toContain('objectType');

    for (const objectId of [{ a: 1 }, true, -5, 0, 1.5, '', '   ', ['1']]) {
      const res = await claim(ann, { objectId, objectType: o.objectType });
      expect([JSON.stringify(objectId), res.status, res.error?.code]).toEqual([JSON.stringify(objectId), 400, ErrorCode.Invalid]);
      expect(fieldsOf(res)).toContain('objectId');
    }

    for (const extendBy of [0, -1, 1.5, 'ten', 100000]) {
      const res = await claim(ann, { ...o, extendBy });
      expect([extendBy, res.status]).toEqual([extendBy, 400]);
      expect(fieldsOf(res)).toContain('extendBy');
    }
    const badType = await claim(ann, { ...o, objectType: 'has spaces' });
    expect(fieldsOf(badType)).toContain('objectType');
    const unknownField = await claim(ann, { ...o, color: 'red' });
    expect(unknownField.status).toBe(400);
    const notJson = await api('POST', '/api/claims', { token: ann, body: '{"objectId": ' });
    expect([notJson.status, notJson.error?.code]).toEqual([400, ErrorCode.Invalid]);

    expect((await db.query('SELECT count(*)::int AS n FROM claims')).rows[0].n).toBe(before);

    const unknown = await extend(ann, 987654321987);
    expect([unknown.status, unknown.error?.code]).toEqual([404, ErrorCode.NotFound]);
    expect((await release(ann, 987654321987)).status).toBe(404);
    for (const id of ['abc', '0', '-1', '99999999999999999999999']) {
      const res = await extend(ann, id);
      expect([id, res.status, res.error?.code]).toEqual([id, 400, ErrorCode.Invalid]);
    }

    const c = (await claim(ann, { ...o, extendBy: 30 })).body;
    const zero = await extend(ann, c.id, { extendBy: 0 });
    expect([zero.status, zero.error?.code]).toEqual([400, ErrorCode.Invalid]);
    expect(fieldsOf(zero)).toContain('extendBy');
    await release(ann, c.id);

    const noQuery = await api('GET', '/api/claims/actual', { token: ann });
    expect([noQuery.status, noQuery.error?.code]).toEqual([400, ErrorCode.Invalid]);
    expect(fieldsOf(noQuery)).toEqual(expect.arrayContaining(['objectId', 'objectType']));

    const anonymous = await api('POST', '/api/claims', { body: o });
    expect([anonymous.status, anonymous.error?.code]).toEqual([401, ErrorCode.Unauthorized]);
  });
});
