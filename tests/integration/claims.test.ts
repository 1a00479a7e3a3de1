import { ErrorCode, UserType } from '@crisis/forms';
import { api, eventually } from '../support/api';
import { createCase } from '../support/cases';
import { db } from '../support/db';
import { signIn, signInAs } from '../support/oidc-client';
import { createTestUser } from '../support/users';

/**
 * Claims (spec 03 §7, 01 §4 "Claim (edit lock) on medical information", 02 §3 Claim): leases on
 * the objects a role may edit, against the running API, PostgreSQL and the Temporal worker. The
 * objects are real: a case's medical information (CaseMedicalInformation, the case id) and a
 * referring division's placement tasks (PlacementTask, the division id). The API runs with
 * CLAIM_DEFAULT_SECONDS=3 and the default CLAIM_MAX_SECONDS (300); waits poll with a deadline.
 */
describe('claims', () => {
  const DEFAULT_SECONDS = Number(process.env.CLAIM_DEFAULT_SECONDS ?? 3);
  const MAX_SECONDS = Number(process.env.CLAIM_MAX_SECONDS ?? 300);
  const MEDICAL = 'CaseMedicalInformation';
  const TASKS = 'PlacementTask';

  let ann: string; // ITP admin
  let bob: string; // ITP user (crisis coordinator)
  let provider: string; // ITP provider
  let erUser: string; // Tampa's emergency department (source division)
  let facilityAdmin: string; // Tampa's admin
  let referringUser: string; // Sunrise's adult unit (referring division)
  let groupUser: string;
  let annId: number;
  let annName: string;
  /** Referring divisions, none of them Tampa's (the placement suites use Sunrise's adult unit: not these). */
  let referringDivisions: number[];
  let sourceDivisionId: number;
  let savannahCaseId: number;

  beforeAll(async () => {
    // Claim ids start high: other suites call /api/claims/1/... expecting no such claim (404),
    // whichever order the suites run in.
    await db.query(`SELECT setval('claims_id_seq', GREATEST((SELECT last_value FROM claims_id_seq), 1000))`);
    ann = (await signInAs(UserType.ItpAdmin)).accessToken;
    bob = (await signInAs(UserType.ItpUser)).accessToken;
    provider = (await signInAs(UserType.ItpProvider)).accessToken;
    erUser = (await signInAs(UserType.FacilityUser)).accessToken;
    facilityAdmin = (await signInAs(UserType.FacilityAdmin)).accessToken;
    groupUser = (await signInAs(UserType.GroupUser)).accessToken;
    referringUser = (await signIn({ email: 'intake@sunrisebehavioral.example.org', password: 'Demo1234!' })).accessToken;
    const ctx = (await api('GET', '/api/user/context', { token: ann })).body;
    annId = ctx.id;
    annName = `${ctx.firstName} ${ctx.lastName}`;
    referringDivisions = (
      await db.query(
        `SELECT d.id FROM divisions d JOIN facilities f ON f.id = d.facility_id
          WHERE d.type = 'Referring' AND f.name <> 'Tampa Bay General Hospital' AND d.name <> 'Adult Inpatient Unit' ORDER BY d.id`,
      )
    ).rows.map((r) => r.id);
    expect(referringDivisions.length).toBeGreaterThanOrEqual(2);
    sourceDivisionId = (await db.query(`SELECT min(id) AS id FROM divisions WHERE type = 'Source'`)).rows[0].id;
    savannahCaseId = (
      await db.query(
        `SELECT min(c.id) AS id FROM cases c JOIN facilities f ON f.id = c.source_facility_id WHERE f.name = 'Savannah Coastal Medical Center'`,
      )
    ).rows[0].id;
  });

  afterAll(() => db.end());

  /** The medical information of a new case of Tampa's emergency department (the ER user's own). */
  const newMedical = async () => ({ objectType: MEDICAL, objectId: (await createCase({ token: erUser })).id });
  const claim = (token: string, body: unknown) => api('POST', '/api/claims', { token, body });
  const extend = (token: string, id: number | string, body?: unknown) => api('PUT', `/api/claims/${id}/extend`, { token, body });
  const release = (token: string, id: number | string) => api('PUT', `/api/claims/${id}/release`, { token });
  const actual = (token: string, o: { objectId: string | number; objectType: string }) =>
    api('GET', `/api/claims/actual?objectId=${encodeURIComponent(String(o.objectId))}&objectType=${encodeURIComponent(o.objectType)}`, { token });
  /** "Empty body means null": no content, or a JSON null. */
  const isEmpty = (body: unknown) => body === null || body === '' || body === undefined;
  const row = async (id: number) => (await db.query('SELECT * FROM claims WHERE id = $1', [id])).rows[0];
  const activeClaims = async (o: { objectType: string; objectId: string | number }) =>
    (await db.query('SELECT subject_id FROM claims WHERE object_type = $1 AND object_id = $2 AND released_at IS NULL', [o.objectType, String(o.objectId)])).rows;
  const leaseSeconds = (c: { claimedAt: string; expiresAt: string }) => (Date.parse(c.expiresAt) - Date.parse(c.claimedAt)) / 1000;

  it('is exclusive: another user gets 409 naming the holder, the holder gets the same claim again', async () => {
    const o = await newMedical();
    const first = await claim(ann, o);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ objectId: o.objectId, objectType: o.objectType, subjectId: annId, subjectName: annName });
    // The default lease is CLAIM_DEFAULT_SECONDS.
    expect(Math.abs(leaseSeconds(first.body) - DEFAULT_SECONDS)).toBeLessThan(1);

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
    const objectId = referringDivisions[0];
    const first = await claim(ann, { objectId, objectType: TASKS, extendBy: 30 });
    expect(first.status).toBe(200);
    expect(first.body.objectId).toBe(objectId);
    const asText = await claim(bob, { objectId: String(objectId), objectType: TASKS });
    expect(asText.status).toBe(409);
    expect(asText.body.payload.objectId).toBe(objectId);
    expect((await release(ann, first.body.id)).status).toBe(200);
  });

  it('lets exactly one of two simultaneous claimants win', async () => {
    const o = await newMedical();
    const results = await Promise.all([claim(ann, { ...o, extendBy: 30 }), claim(bob, { ...o, extendBy: 30 })]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = results.find((r) => r.status === 200)!;
    const { rows } = await db.query('SELECT id FROM claims WHERE object_type = $1 AND object_id = $2 AND released_at IS NULL', [
      o.objectType,
      String(o.objectId),
    ]);
    expect(rows.map((r) => Number(r.id))).toEqual([winner.body.id]);
    await release(winner.body.subjectId === annId ? ann : bob, winner.body.id);
  });

  it('stays alive past its original expiry while it is extended', async () => {
    const o = await newMedical();
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
    const o = await newMedical();
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
    const o = await newMedical();
    const c = (await claim(ann, { ...o, extendBy: 1 })).body;
    await eventually(async () => Date.now() > Date.parse(c.expiresAt) + 50, 'the claim to lapse', 5000);
    const next = await claim(bob, { ...o, extendBy: 30 });
    expect(next.status).toBe(200);
    expect((await row(c.id)).release_reason).toBe('expired');
    await release(bob, next.body.id);
  });

  it('is released by its holder, and then another user may claim it', async () => {
    const o = await newMedical();
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
    const o = await newMedical();
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
    // Only the object types of the claim rules: anything else is not a claimable object.
    for (const objectType of ['has spaces', 'MedicalInformation', 'Division', 'User']) {
      const res = await claim(ann, { ...o, objectType });
      expect([objectType, res.status, res.error?.code]).toEqual([objectType, 400, ErrorCode.Invalid]);
      expect(fieldsOf(res)).toContain('objectType');
    }
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

  describe('only on what the role may edit, in her scope', () => {
    it("refuses a facility user another facility's division, and the ITP coordinator then claims it", async () => {
      // The review's case: a facility user claiming a division of another facility for an hour.
      const o = { objectType: TASKS, objectId: referringDivisions[1], extendBy: 3600 };
      const byFacility = await claim(erUser, o);
      expect([byFacility.status, byFacility.error?.code]).toEqual([403, ErrorCode.Forbidden]);
      expect(await activeClaims(o)).toEqual([]);

      const byCoordinator = await api('POST', `/api/placement-tasks/division/${o.objectId}/claim`, { token: bob, body: {} });
      expect(byCoordinator.status).toBe(200);
      expect((await api('PUT', `/api/placement-tasks/claim/${byCoordinator.body.claimId}/release`, { token: bob })).status).toBe(200);
    });

    it('answers each role as the rule says: ITP staff claim divisions; ITP roles claim medical information; facility and group users nothing', async () => {
      const medical = await newMedical();
      const division = { objectType: TASKS, objectId: referringDivisions[0] };
      const outcome: Record<string, [number, number]> = {};
      for (const [who, token] of Object.entries({ ann, bob, provider, facilityAdmin, erUser, referringUser, groupUser })) {
        const m = await claim(token, { ...medical, extendBy: 30 });
        if (m.status === 200) await release(token, m.body.id);
        const d = await claim(token, { ...division, extendBy: 30 });
        if (d.status === 200) await release(token, d.body.id);
        outcome[who] = [m.status, d.status];
      }
      // Spec 01 §6 "Medical information card and edit: ITP roles"; 02 §6 "claim tasks": ITP user and admin.
      expect(outcome).toEqual({
        ann: [200, 200],
        bob: [200, 200],
        provider: [200, 403],
        facilityAdmin: [403, 403],
        erUser: [403, 403],
        referringUser: [403, 403],
        groupUser: [403, 403],
      });
    });

    it('refuses an object that does not exist or is not of its kind with 404, as the case routes do', async () => {
      const missingCase = (await db.query('SELECT coalesce(max(id), 0) + 100000 AS id FROM cases')).rows[0].id;
      const missingDivision = (await db.query('SELECT coalesce(max(id), 0) + 100000 AS id FROM divisions')).rows[0].id;
      const cases: Array<[string, string | number]> = [
        [MEDICAL, missingCase],
        [MEDICAL, 'abc'],
        [TASKS, missingDivision],
        // A source division has no placement tasks.
        [TASKS, sourceDivisionId],
        [TASKS, 'x1'],
      ];
      for (const [objectType, objectId] of cases) {
        const res = await claim(bob, { objectType, objectId });
        expect([objectType, objectId, res.status, res.error?.code]).toEqual([objectType, objectId, 404, ErrorCode.NotFound]);
        const seen = await actual(bob, { objectType, objectId });
        expect([objectType, objectId, seen.status]).toEqual([objectType, objectId, 404]);
      }
    });

    it("never lets a facility user hold a case she cannot open (the medical information of another facility's case)", async () => {
      expect(savannahCaseId).toEqual(expect.any(Number));
      const o = { objectType: MEDICAL, objectId: savannahCaseId };
      const res = await claim(erUser, o);
      expect([403, 404]).toContain(res.status);
      expect(await activeClaims(o)).toEqual([]);
      // The ITP coordinator edits it undisturbed.
      const mine = await claim(bob, { ...o, extendBy: 30 });
      expect(mine.status).toBe(200);
      await release(bob, mine.body.id);
    });

    it("names the holder only to users who may see the object's claim", async () => {
      const o = await newMedical();
      const held = await claim(ann, { ...o, extendBy: 30 });
      expect(held.status).toBe(200);
      try {
        // The ER user's own case, but medical information edits are not hers to see (01 §6).
        for (const token of [erUser, facilityAdmin, groupUser]) {
          const res = await actual(token, o);
          expect([res.status, res.error?.code]).toEqual([403, ErrorCode.Forbidden]);
          expect(JSON.stringify(res.body)).not.toContain(annName);
        }
        const division = await actual(erUser, { objectType: TASKS, objectId: referringDivisions[0] });
        expect(division.status).toBe(403);
        // Those who may see it are told who edits.
        for (const token of [bob, provider]) {
          const res = await actual(token, o);
          expect(res.status).toBe(200);
          expect(res.body).toMatchObject({ subjectId: annId, subjectName: annName });
        }
      } finally {
        await release(ann, held.body.id);
      }
    });
  });

  describe('lease', () => {
    it(`grants at most CLAIM_MAX_SECONDS per claim and per renewal`, async () => {
      const o = await newMedical();
      const c = await claim(ann, { ...o, extendBy: 3600 });
      expect(c.status).toBe(200);
      expect(leaseSeconds(c.body)).toBeLessThanOrEqual(MAX_SECONDS + 1);
      expect(Date.parse(c.body.expiresAt)).toBeLessThanOrEqual(Date.now() + (MAX_SECONDS + 1) * 1000);

      const e = await extend(ann, c.body.id, { extendBy: 3600 });
      expect(e.status).toBe(200);
      expect(Date.parse(e.body.expiresAt)).toBeLessThanOrEqual(Date.now() + (MAX_SECONDS + 1) * 1000);
      // The stored lease is what the answer said.
      expect(new Date((await row(c.body.id)).expires_at).toISOString()).toBe(e.body.expiresAt);
      // A shorter wish is granted as asked.
      const short = await extend(ann, c.body.id, { extendBy: 20 });
      expect(Math.abs(Date.parse(short.body.expiresAt) - Date.now() - 20_000)).toBeLessThan(2000);
      await release(ann, c.body.id);
    });

    it('stops blocking others once the holder is deactivated, and she can no longer renew it', async () => {
      const holder = await createTestUser(UserType.ItpUser, { label: 'holder' });
      const token = await holder.signIn();
      const o = await newMedical();
      const c = await claim(token, { ...o, extendBy: 120 });
      expect(c.status).toBe(200);
      expect((await claim(bob, o)).status).toBe(409);

      const off = await api('POST', '/api/user/deactivate', { token: ann, body: [holder.id] });
      expect(off.status).toBe(200);

      // Her lease had two minutes left: the coordinator gets the object now.
      const next = await claim(bob, { ...o, extendBy: 30 });
      expect(next.status).toBe(200);
      expect(next.body.subjectId).not.toBe(holder.id);
      expect((await row(c.body.id)).released_at).not.toBeNull();
      const renewal = await extend(token, c.body.id, { extendBy: 60 });
      expect(renewal.status).toBe(403);
      await release(bob, next.body.id);
    });
  });
});
