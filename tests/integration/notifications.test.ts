import { ErrorCode, NOTIFICATION_RECIPIENTS, UserType, type NotificationType } from '@crisis/forms';
import { runCaseCommand, type CaseCommand } from '@crisis/workflows';
import { api, eventually } from '../support/api';
import { completeEvaluation, createCase, startContacting, tampaDivisions } from '../support/cases';
import { NOTIFICATION_READERS, db } from '../support/db';
import { uploadForm } from '../support/files';
import { signInAs } from '../support/oidc-client';
import { withTemporal } from '../support/temporal-client';
import { createTestUser, type TestUser } from '../support/users';

/**
 * In-app notifications (spec 02 §2 bell, §3 types, §4 Notification, §7 "Other"; 03 §7):
 * - every row of the recipient table: the event that means the type reaches exactly the users of
 *   the row's audiences, one notification each, and never the user who acted;
 * - the user's lists (unresolved with its capped count, resolved within 2 days with the
 *   resolver's name), resolve, dismiss, mark read, the user look-ups; one's own only.
 *
 * The audiences are written here from the spec's parties, not read from the fan-out SQL:
 * coordinators = active ITP admins and users; the source division = its users and the admins of
 * its facility; a division = its users.
 */
describe('notifications', () => {
  let tampa: { facilityId: number; edId: number; floorId: number };
  let sunriseAdult: number;
  let coordinator: TestUser;
  let coordinatorToken: string;
  let providerToken: string;
  let providerId: number;
  let floorUser: TestUser;
  let floorToken: string;
  let edUser: TestUser;
  let tampaAdmin: TestUser;
  let sunriseUser: TestUser;
  let outsider: TestUser;

  const put = (path: string, body: unknown, token: string) => api('PUT', path, { token, body });
  const ok = async (res: Promise<{ status: number; body: unknown }>, status = 200) => {
    const r = await res;
    if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${JSON.stringify(r.body)}`);
    return r;
  };

  // ---- the audiences, from the spec's parties (never from the code under test)
  const ids = (rows: Array<{ id: number }>) => rows.map((r) => r.id).sort((a, b) => a - b);
  const coordinators = async () =>
    ids((await db.query(`SELECT id FROM users WHERE is_active AND user_type IN ('IntegratedTelehealthPartners_Admin', 'IntegratedTelehealthPartners_User')`)).rows);
  const divisionUsers = async (divisionId: number) =>
    ids((await db.query('SELECT u.id FROM users u JOIN user_divisions ud ON ud.user_id = u.id WHERE ud.division_id = $1 AND u.is_active', [divisionId])).rows);
  const sourceDivision = async (caseId: number) =>
    ids(
      (
        await db.query(
          `SELECT u.id FROM users u JOIN cases c ON c.id = $1
            WHERE u.is_active AND u.organization_type = 'Facility' AND u.organization_id = c.source_facility_id
              AND (u.user_type = 'Facility_Admin' OR u.id IN (SELECT user_id FROM user_divisions WHERE division_id = c.source_division_id))`,
          [caseId],
        )
      ).rows,
    );
  const union = (...sets: number[][]) => [...new Set(sets.flat())].sort((a, b) => a - b);
  const without = (set: number[], ...who: number[]) => set.filter((id) => !who.includes(id));

  /** The newest notification id: what an event raises comes after it. */
  const mark = async () => Number((await db.query('SELECT coalesce(max(id), 0) AS m FROM notifications')).rows[0].m);
  /** Who got a notification of `type` on the case after `since` (a user twice would show twice). */
  const recipients = async (caseId: number, type: NotificationType, since: number) =>
    (await db.query(`SELECT reader_id FROM ${NOTIFICATION_READERS} n WHERE case_id = $1 AND type = $2 AND id > $3 ORDER BY reader_id`, [caseId, type, since])).rows.map(
      (r) => r.reader_id as number,
    );
  /** Waits for the event's notifications (one statement writes them all), then checks exactly who got one. */
  async function expectRecipients(caseId: number, type: NotificationType, since: number, expected: number[], actorId?: number) {
    await eventually(async () => (await recipients(caseId, type, since)).length > 0 || expected.length === 0, `${type} on case ${caseId}`);
    const got = await recipients(caseId, type, since);
    expect({ type, got }).toEqual({ type, got: [...expected].sort((a, b) => a - b) });
    if (actorId !== undefined) expect(got).not.toContain(actorId);
    return got;
  }
  const covered = new Set<NotificationType>();
  const row = (type: NotificationType) => {
    covered.add(type);
    return NOTIFICATION_RECIPIENTS[type];
  };

  beforeAll(async () => {
    tampa = await tampaDivisions();
    sunriseAdult = (await db.query("SELECT id FROM divisions WHERE name = 'Adult Inpatient Unit'")).rows[0].id;
    coordinator = await createTestUser(UserType.ItpUser, { label: 'coord' });
    coordinatorToken = await coordinator.signIn();
    providerToken = (await signInAs(UserType.ItpProvider)).accessToken;
    providerId = (await db.query("SELECT id FROM users WHERE email = 'provider@itp.example.org'")).rows[0].id;
    floorUser = await createTestUser(UserType.FacilityUser, { facilityId: tampa.facilityId, divisionIds: [tampa.floorId], label: 'floor' });
    floorToken = await floorUser.signIn();
    edUser = await createTestUser(UserType.FacilityUser, { facilityId: tampa.facilityId, divisionIds: [tampa.edId], label: 'ed' });
    tampaAdmin = await createTestUser(UserType.FacilityAdmin, { facilityId: tampa.facilityId, label: 'tadmin' });
    const sunrise = (await db.query('SELECT facility_id FROM divisions WHERE id = $1', [sunriseAdult])).rows[0].facility_id;
    sunriseUser = await createTestUser(UserType.FacilityUser, { facilityId: sunrise, divisionIds: [sunriseAdult], label: 'sunrise' });
    outsider = await createTestUser(UserType.FacilityUser, { facilityId: sunrise, label: 'outsider' });
  });

  afterAll(() => db.end());

  it('raises each case type at its event, to exactly the recipient table\'s users, never to the actor', async () => {
    const itp = await coordinators();
    expect(itp).toContain(coordinator.id);

    // ---- a case created by the floor's user with the provider: RequestCreated, CaseAssignedToYou
    let since = await mark();
    const a = await createCase({ token: floorToken, providerId });
    const floorStaff = await sourceDivision(a.id);
    expect(floorStaff).toEqual(expect.arrayContaining([floorUser.id, tampaAdmin.id]));
    expect(floorStaff).not.toContain(edUser.id);
    expect(row('RequestCreated')).toEqual(expect.objectContaining({ to: ['itp'] }));
    await expectRecipients(a.id, 'RequestCreated', since, itp, floorUser.id);
    row('CaseAssignedToYou');
    await expectRecipients(a.id, 'CaseAssignedToYou', since, [providerId]);

    // ---- the facility takes the provider off (ITP staff must name one), CaseReassignedToAnotherProvider; the coordinator gives it back with a note
    since = await mark();
    await ok(put(`/api/cases/${a.id}/requests/${a.requestId}`, { type: 'Assessment', evaluationProviderId: null }, floorToken));
    row('CaseReassignedToAnotherProvider');
    await expectRecipients(a.id, 'CaseReassignedToAnotherProvider', since, [providerId]);
    since = await mark();
    await ok(put(`/api/cases/${a.id}/requests/${a.requestId}`, { type: 'Assessment', evaluationProviderId: providerId, note: 'Please call the nurse first' }, coordinatorToken));
    await expectRecipients(a.id, 'CaseAssignedToYou', since, [providerId]);
    // RequestUpdated from ITP: the source division and the request's provider.
    row('RequestUpdated');
    await expectRecipients(a.id, 'RequestUpdated', since, union(floorStaff, [providerId]), coordinator.id);
    const updated = (await db.query("SELECT payload FROM notifications WHERE case_id = $1 AND type = 'RequestUpdated' AND id > $2 LIMIT 1", [a.id, since])).rows[0].payload;
    expect(updated).toMatchObject({ CaseId: a.id, RequestId: a.requestId, RequestTypeUpdated: false, RequestNoteUpdated: true, PatientName: expect.stringMatching(/Journey$/) });
    // The same edit from the facility side: ITP staff and the provider, not the facility's own staff.
    since = await mark();
    await ok(put(`/api/cases/${a.id}/requests/${a.requestId}`, { type: 'Assessment', evaluationProviderId: providerId, note: 'Nurse is Pat' }, floorToken));
    await expectRecipients(a.id, 'RequestUpdated', since, union(itp, [providerId]), floorUser.id);

    // ---- the provider opens the request, then finds it not ready
    since = await mark();
    await ok(put(`/api/requests/${a.requestId}/in-progress`, undefined, providerToken));
    row('ProviderStartsReviewingDocuments');
    await expectRecipients(a.id, 'ProviderStartsReviewingDocuments', since, union(itp, floorStaff), providerId);
    since = await mark();
    await ok(put(`/api/requests/${a.requestId}/not-ready-for-evaluation`, { reason: 'No labs yet' }, providerToken));
    row('RequestMarkedAsNotReadyForEvaluation');
    await expectRecipients(a.id, 'RequestMarkedAsNotReadyForEvaluation', since, union(itp, floorStaff), providerId);

    // ---- resumed, put on hold, resumed by the coordinator: the facility and the provider
    since = await mark();
    await ok(put(`/api/cases/${a.id}/resume`, undefined, coordinatorToken));
    row('CaseResumed');
    await expectRecipients(a.id, 'CaseResumed', since, union(floorStaff, [providerId]), coordinator.id);

    // ---- the evaluation completed, then edited: ITP and the facility
    since = await mark();
    await completeEvaluation(providerToken, a.requestId);
    row('RequestCompleted');
    await expectRecipients(a.id, 'RequestCompleted', since, union(itp, floorStaff), providerId);
    since = await mark();
    const view = (await api('GET', `/api/requests/${a.requestId}/evaluation`, { token: providerToken })).body;
    await ok(
      put(
        `/api/requests/${a.requestId}/evaluation`,
        {
          version: view.version,
          primaryDiagnosisId: view.primaryDiagnosis?.code ?? view.primaryDiagnosisId,
          billingCodes: (view.billingCodes ?? []).map((b: { id: number }) => b.id),
          mainRecommendation: view.mainRecommendation,
          recommendationCriteria: view.recommendationCriteria,
          recommendationNote: 'Seen again after the labs',
          reasonForEdit: 'Labs arrived',
          answers: view.answers,
        },
        providerToken,
      ),
    );
    row('CompletedEvaluationUpdated');
    await expectRecipients(a.id, 'CompletedEvaluationUpdated', since, union(itp, floorStaff), providerId);

    // ---- locating services: the facility
    since = await mark();
    await startContacting(coordinatorToken, a.id);
    row('CaseServices');
    await expectRecipients(a.id, 'CaseServices', since, floorStaff, coordinator.id);

    // ---- records: from the facility to ITP and the provider; from ITP to the facility and the provider
    since = await mark();
    await ok(api('POST', `/api/cases/${a.id}/vitals`, { token: floorToken, body: { submittedOn: new Date().toISOString(), pulse: 72 } }), 201);
    row('VitalsAdded');
    await expectRecipients(a.id, 'VitalsAdded', since, union(itp, [providerId]), floorUser.id);
    since = await mark();
    const note = await ok(api('POST', `/api/cases/${a.id}/notes`, { token: coordinatorToken, body: { note: 'Called the family.' } }), 201);
    row('CaseNoteAdded');
    await expectRecipients(a.id, 'CaseNoteAdded', since, union(floorStaff, [providerId]), coordinator.id);
    since = await mark();
    await ok(put(`/api/cases/${a.id}/notes/${(note.body as { id: number }).id}`, { note: 'Called the family twice.' }, coordinatorToken));
    row('CaseNoteUpdated');
    await expectRecipients(a.id, 'CaseNoteUpdated', since, union(floorStaff, [providerId]), coordinator.id);
    since = await mark();
    const pdf = new TextEncoder().encode('%PDF-1.4\n1 0 obj <</Type /Catalog>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n');
    const uploaded = await uploadForm(`/api/cases/${a.id}/files`, floorToken, { content: pdf, name: 'labs.pdf', type: 'application/pdf' }, { title: 'Labs' });
    expect(uploaded.status).toBe(201);
    row('PatientFileUpdated');
    await expectRecipients(a.id, 'PatientFileUpdated', since, union(itp, [providerId]), floorUser.id);

    // ---- a call granting access to a referring division, with a callback: the division's users, then the caller
    since = await mark();
    const claim = await ok(api('POST', `/api/placement-tasks/division/${sunriseAdult}/claim`, { token: coordinatorToken, body: {} }));
    const claimId = (claim.body as { claimId: number }).claimId;
    const taskId = (await db.query('SELECT id FROM placement_tasks WHERE case_id = $1 AND division_id = $2', [a.id, sunriseAdult])).rows[0].id;
    await ok(put(`/api/placement-tasks/claim/${claimId}/calls`, { calls: [{ placementTaskId: taskId, result: 'GrantedAccess', spokeWith: 'Intake' }] }, coordinatorToken));
    row('GrantedAccessSpecified');
    const granted = await divisionUsers(sunriseAdult);
    expect(granted).toContain(sunriseUser.id);
    expect(granted).not.toContain(outsider.id);
    await expectRecipients(a.id, 'GrantedAccessSpecified', since, granted, coordinator.id);
    since = await mark();
    const soon = new Date(Date.now() + 2000).toISOString();
    await ok(put(`/api/placement-tasks/claim/${claimId}/calls`, { calls: [{ placementTaskId: taskId, result: 'CallBack', spokeWith: 'Intake', callbackAt: soon }] }, coordinatorToken));
    await ok(put(`/api/placement-tasks/claim/${claimId}/release`, undefined, coordinatorToken));
    row('CallbackAt');
    await expectRecipients(a.id, 'CallbackAt', since, [coordinator.id]);
    const callback = (await db.query("SELECT payload FROM notifications WHERE case_id = $1 AND type = 'CallbackAt' AND id > $2", [a.id, since])).rows[0].payload;
    expect(callback).toMatchObject({ TaskId: taskId, DivisionId: sunriseAdult, DivisionName: 'Adult Inpatient Unit', OwnerId: coordinator.id });
    expect(Date.parse(callback.CallbackAt)).toBe(Date.parse(soon));

    // ---- a second case, by the coordinator
    since = await mark();
    const b = await createCase({ token: coordinatorToken, facilityId: tampa.facilityId, divisionId: tampa.floorId, providerId });
    await expectRecipients(b.id, 'RequestCreated', since, without(itp, coordinator.id), coordinator.id);
    // On hold and back: the facility and the provider.
    since = await mark();
    await ok(put(`/api/cases/${b.id}/status`, { status: 'OnHold_WaitingForPatient', note: 'Sleeping' }, coordinatorToken));
    row('CaseOnHold');
    await expectRecipients(b.id, 'CaseOnHold', since, union(floorStaff, [providerId]), coordinator.id);
    await ok(put(`/api/cases/${b.id}/resume`, undefined, coordinatorToken));
    since = await mark();
    await ok(put(`/api/requests/${b.requestId}/cancel`, { reason: 'Patient discharged' }, coordinatorToken));
    row('RequestCanceled');
    // The coordinators but the actor, the facility, and the request's provider.
    await expectRecipients(b.id, 'RequestCanceled', since, union(without(itp, coordinator.id), floorStaff, [providerId]), coordinator.id);
    since = await mark();
    await ok(api('POST', `/api/cases/${b.id}/requests`, { token: coordinatorToken, body: { type: 'PlacementOnly' } }), 201);
    row('PlacementOnlyRequestCreated');
    await expectRecipients(b.id, 'PlacementOnlyRequestCreated', since, without(itp, coordinator.id), coordinator.id);
    expect(await recipients(b.id, 'RequestCreated', since)).toEqual([]);
    const placementOnly = (await db.query("SELECT id, status FROM requests WHERE case_id = $1 AND type = 'PlacementOnly'", [b.id])).rows[0];
    if (['New', 'Pending', 'InProgress', 'OnHold'].includes(placementOnly.status))
      await ok(put(`/api/requests/${placementOnly.id}/cancel`, { reason: 'Moving the case' }, coordinatorToken));

    // ---- the case moved from the floor to the ED: the ED's staff hear of it, the floor that it left
    since = await mark();
    await ok(
      put(`/api/cases/${b.id}`, { sourceFacilityId: tampa.facilityId, sourceDivisionId: tampa.edId, contactPhoneNumber: '+18135550111', notificationSendingMethod: 'PhoneCall' }, coordinatorToken),
    );
    const edStaff = await sourceDivision(b.id);
    expect(edStaff).toEqual(expect.arrayContaining([edUser.id, tampaAdmin.id]));
    expect(edStaff).not.toContain(floorUser.id);
    row('CaseSourceUpdated');
    // From ITP: the source division (now the ED) and the provider of the newest request (placement only: none).
    await expectRecipients(b.id, 'CaseSourceUpdated', since, edStaff, coordinator.id);
    row('CaseSourceUpdatedToOldDivision');
    const floorUsers = await divisionUsers(tampa.floorId);
    expect(floorUsers).toContain(floorUser.id);
    await expectRecipients(b.id, 'CaseSourceUpdatedToOldDivision', since, floorUsers, coordinator.id);

    // ---- closed by the coordinator: the (new) source division; the newest request (placement only) has no provider
    since = await mark();
    await ok(put(`/api/cases/${b.id}/close`, { outcomeRequired: true, caseOutcomeType: 'LeftAMA' }, coordinatorToken));
    row('CaseClosed');
    await expectRecipients(b.id, 'CaseClosed', since, edStaff, coordinator.id);

    // ---- types raised by the meetings and messaging domains, through the same case command
    const actor = { id: 0, name: 'Messaging', userType: 'System' };
    await withTemporal(async (client) => {
      for (const [type, expected] of [
        ['VideoCallIsAboutToStart', union(floorStaff, [providerId])],
        ['UserDoesntConfirmReceiptOfTheRobocall', itp],
        ['UserDoesntConfirmReceiptOfTheSms', itp],
      ] as Array<[NotificationType, number[]]>) {
        since = await mark();
        const command = { kind: 'recordEvent', event: type, payload: { RequestId: a.requestId }, commandId: `notifications-${type}-${a.id}-${Date.now()}`, actor } as CaseCommand;
        await runCaseCommand(client, a.id, command);
        // The same command again (a retried call): applied once, nobody notified twice.
        await runCaseCommand(client, a.id, command);
        row(type);
        await expectRecipients(a.id, type, since, expected);
      }
    });

    // ---- one row per recipient and type, whatever retried: the command ids are unique per user and type
    const dup = await db.query('SELECT source_key, user_id, type, count(*) FROM notifications WHERE case_id = ANY($1) GROUP BY 1, 2, 3 HAVING count(*) > 1', [[a.id, b.id]]);
    expect(dup.rows).toEqual([]);
    // Every row of the table but Unspecified (never raised) was exercised above, and EhrDeliveryFailed,
    // raised by an EHR delivery workflow when the EHR refuses (tests/integration/ehr-deliveries.test.ts).
    row('Unspecified');
    row('EhrDeliveryFailed');
    expect(Object.keys(NOTIFICATION_RECIPIENTS).filter((t) => !covered.has(t as NotificationType))).toEqual([]);
  }, 120_000);

  describe('the API', () => {
    let me: TestUser;
    let meToken: string;
    let colleague: TestUser;
    let colleagueToken: string;
    let other: TestUser;
    let otherToken: string;
    let caseId: number;

    /** Inserts notifications for a user straight into the table (as the fan-out would). */
    const insert = async (userId: number, n: number, o: { type?: string; sourceKey?: string; ageSeconds?: number } = {}) =>
      (
        await db.query(
          `INSERT INTO notifications (user_id, type, case_id, payload, source_key, created_at)
           SELECT $1, $2, $3, jsonb_build_object('CaseId', $3::int, 'PatientName', 'Pat Doe', 'Reason', 'n' || g), $4, now() - make_interval(secs => $5 + g)
             FROM generate_series(1, $6) g RETURNING id`,
          [userId, o.type ?? 'CaseOnHold', caseId, o.sourceKey ?? null, o.ageSeconds ?? 0, n],
        )
      ).rows.map((r) => Number(r.id));

    beforeAll(async () => {
      const tampaIds = await tampaDivisions();
      me = await createTestUser(UserType.FacilityUser, { facilityId: tampaIds.facilityId, divisionIds: [tampaIds.floorId], label: 'me' });
      colleague = await createTestUser(UserType.FacilityUser, { facilityId: tampaIds.facilityId, divisionIds: [tampaIds.floorId], label: 'colleague' });
      other = await createTestUser(UserType.ItpUser, { label: 'other' });
      [meToken, colleagueToken, otherToken] = await Promise.all([me.signIn(), colleague.signIn(), other.signIn()]);
      caseId = (await createCase({ token: meToken })).id;
    });

    it('lists the unresolved ones newest first by keyset pages, with a count capped for the 99+ badge', async () => {
      const created = await insert(me.id, 120, { ageSeconds: 1000 });
      const first = await ok(api('GET', '/api/user/getUserNotifications?limit=50', { token: meToken }));
      const page = first.body as { items: Array<{ id: number; createdAt: string; isRead: boolean; payload: any }>; unresolvedCount: number; nextCursor: string };
      expect(page.unresolvedCount).toBe(100); // counted up to 100: more than 99
      expect(page.items).toHaveLength(50);
      const times = page.items.map((i) => Date.parse(i.createdAt));
      expect(times).toEqual([...times].sort((x, y) => y - x));
      expect(page.items[0]).toMatchObject({ type: expect.any(String), caseId, isRead: false, readAt: null, resolvedAt: null });
      // Walk every page: each notification of the user once, none of another user's.
      const seen = new Set<number>(page.items.map((i) => i.id));
      let cursor: string | null = page.nextCursor;
      while (cursor) {
        const next = await ok(api('GET', `/api/user/getUserNotifications?limit=50&cursor=${cursor}`, { token: meToken }));
        for (const i of (next.body as typeof page).items) {
          expect(seen.has(i.id)).toBe(false);
          seen.add(i.id);
        }
        cursor = (next.body as typeof page).nextCursor;
      }
      expect(created.every((id) => seen.has(id))).toBe(true);
      const mine = (await db.query('SELECT count(*)::int AS n FROM notifications WHERE user_id = $1 AND resolved_at IS NULL AND dismissed_at IS NULL', [me.id])).rows[0].n;
      expect(seen.size).toBe(mine);
      // The other user sees none of them.
      const others = await ok(api('GET', '/api/user/getUserNotifications', { token: otherToken }));
      expect((others.body as typeof page).items.some((i) => created.includes(i.id))).toBe(false);
      await db.query('UPDATE notifications SET resolved_at = now() - interval \'3 days\', resolved_by = $1 WHERE id = ANY($2)', [me.id, created]);
    });

    it('marks read, resolves with the resolver recorded for the colleagues of the same event, and lists the resolved of the last 2 days', async () => {
      const key = `test-event-${Date.now()}`;
      const [mine] = await insert(me.id, 1, { type: 'VitalsAdded', sourceKey: key });
      const [theirs] = await insert(colleague.id, 1, { type: 'VitalsAdded', sourceKey: key });
      const [itps] = await insert(other.id, 1, { type: 'VitalsAdded', sourceKey: key });
      const [old] = await insert(me.id, 1, { type: 'CaseOnHold' });
      await db.query("UPDATE notifications SET resolved_at = now() - interval '2 days 1 hour', resolved_by = $1 WHERE id = $2", [colleague.id, old]);

      const read = await ok(api('PUT', '/api/notifications/read', { token: meToken, body: { ids: [mine, itps] } }));
      expect(read.body).toEqual({ updated: 1 }); // the other user's id changes nothing
      const readRows = (await db.query('SELECT id, read_at FROM notifications WHERE id = ANY($1) ORDER BY id', [[mine, itps]])).rows;
      expect(readRows.find((r) => Number(r.id) === mine).read_at).not.toBeNull();
      expect(readRows.find((r) => Number(r.id) === itps).read_at).toBeNull();
      const listed = (await ok(api('GET', '/api/user/getUserNotifications?isRead=true', { token: meToken }))).body as { items: any[] };
      expect(listed.items.map((i) => i.id)).toContain(mine);
      expect(listed.items.find((i) => i.id === mine)).toMatchObject({ isRead: true, readById: me.id });

      const resolved = await ok(api('PUT', `/api/notifications/${theirs}/resolve`, { token: colleagueToken }));
      expect(resolved.body).toMatchObject({ id: theirs, resolvedById: colleague.id, resolvedByName: colleague.name, resolvedAt: expect.any(String) });
      // The same event's notification of a colleague of the same facility is resolved with it; ITP's is not.
      const after = (await db.query('SELECT id, resolved_by FROM notifications WHERE id = ANY($1)', [[mine, itps]])).rows;
      expect(after.find((r) => Number(r.id) === mine).resolved_by).toBe(colleague.id);
      expect(after.find((r) => Number(r.id) === itps).resolved_by).toBeNull();

      const unresolved = (await ok(api('GET', '/api/user/getUserNotifications', { token: meToken }))).body as { items: any[] };
      expect(unresolved.items.map((i) => i.id)).not.toContain(mine);
      const list = (await ok(api('GET', '/api/notifications/resolved', { token: meToken }))).body as any[];
      expect(list.find((i) => i.id === mine)).toMatchObject({ resolvedByName: colleague.name, resolvedById: colleague.id });
      expect(list.map((i) => i.id)).not.toContain(old); // resolved more than 2 days ago
      // Resolving again changes nothing (still the first resolver).
      const again = await ok(api('PUT', `/api/notifications/${mine}/resolve`, { token: meToken }));
      expect(again.body).toMatchObject({ resolvedById: colleague.id });
      // The resolver's name through the batched look-up: the caller and her resolvers only.
      const names = await ok(api('GET', `/api/notifications/users?ids=${colleague.id},${me.id},${other.id}`, { token: meToken }));
      expect(names.body).toEqual(
        [
          { id: me.id, fullName: me.name },
          { id: colleague.id, fullName: colleague.name },
        ].sort((x, y) => x.id - y.id),
      );

      // Dismiss: a resolved one leaves the resolved list; an unresolved one is refused.
      const [open] = await insert(me.id, 1, { type: 'CaseResumed' });
      const refused = await api('PUT', `/api/user/${open}/dismiss-notification`, { token: meToken });
      expect(refused.status).toBe(409);
      expect(refused.error?.code).toBe(ErrorCode.NotificationNotResolved);
      await ok(api('PUT', `/api/user/${mine}/dismiss-notification`, { token: meToken }));
      const afterDismiss = (await ok(api('GET', '/api/notifications/resolved', { token: meToken }))).body as any[];
      expect(afterDismiss.map((i) => i.id)).not.toContain(mine);
      expect((await db.query('SELECT dismissed_at FROM notifications WHERE id = $1', [mine])).rows[0].dismissed_at).not.toBeNull();
    });

    it('lists the resolved ones latest resolved first, by keyset pages', async () => {
      const reader = await createTestUser(UserType.FacilityUser, { facilityId: (await tampaDivisions()).facilityId, label: 'resolved reader' });
      const token = await reader.signIn();
      // Five raised a second apart (newest first), resolved a minute apart from the newest raised: the
      // oldest raised was resolved last, so it leads the list.
      const ids = await insert(reader.id, 5, { ageSeconds: 3600 });
      for (const [i, id] of ids.entries())
        await db.query("UPDATE notifications SET resolved_at = now() - make_interval(mins => 10 - $1), resolved_by = $2 WHERE id = $3", [i, reader.id, id]);
      const first = (await ok(api('GET', '/api/notifications/resolved?limit=3', { token }))).body as Array<{ id: number }>;
      const second = (await ok(api('GET', `/api/notifications/resolved?limit=3&cursor=${first[2].id}`, { token }))).body as Array<{ id: number }>;
      expect([...first, ...second].map((n) => n.id)).toEqual([...ids].reverse());
    });

    it('raises one row for every coordinator: each reads and dismisses her own copy, one resolves it for all', async () => {
      const second = await createTestUser(UserType.ItpUser, { label: 'second coordinator' });
      const secondToken = await second.signIn();
      type Item = { id: number; type: string; caseId: number; isRead: boolean; readById: number | null; resolvedById: number | null; resolvedByName?: string };
      const bell = async (token: string) => ((await ok(api('GET', '/api/user/getUserNotifications?limit=100', { token }))).body as { items: Item[]; unresolvedCount: number });
      const resolvedList = async (token: string) => (await ok(api('GET', '/api/notifications/resolved?limit=100', { token }))).body as Item[];
      // The facility user's new case raises RequestCreated for the coordinators: one row, not one each.
      const newCase = (await createCase({ token: meToken })).id;
      await eventually(async () => (await bell(otherToken)).items.some((i) => i.caseId === newCase && i.type === 'RequestCreated'), 'RequestCreated in the bell');
      const rows = (await db.query("SELECT id, user_id, audience FROM notifications WHERE case_id = $1 AND type = 'RequestCreated'", [newCase])).rows;
      expect(rows).toEqual([{ id: expect.any(String), user_id: null, audience: 'itp' }]);
      const id = Number(rows[0].id);
      expect((await bell(secondToken)).items.map((i) => i.id)).toContain(id);
      expect((await bell(meToken)).items.map((i) => i.id)).not.toContain(id); // the facility user is not a coordinator
      // A coordinator who joins afterwards starts with an empty bell, as she would have with a row each.
      const late = await createTestUser(UserType.ItpUser, { label: 'late coordinator' });
      expect((await bell(await late.signIn())).items.map((i) => i.id)).not.toContain(id);
      const secondCountBefore = (await bell(secondToken)).unresolvedCount;

      // Read: hers only.
      expect((await ok(api('PUT', '/api/notifications/read', { token: otherToken, body: { ids: [id] } }))).body).toEqual({ updated: 1 });
      expect((await bell(otherToken)).items.find((i) => i.id === id)).toMatchObject({ isRead: true, readById: other.id });
      expect((await bell(secondToken)).items.find((i) => i.id === id)).toMatchObject({ isRead: false, readById: null });
      // Someone who does not read it cannot resolve or dismiss it.
      expect((await api('PUT', `/api/notifications/${id}/resolve`, { token: meToken })).status).toBe(404);

      // Resolved by one coordinator: resolved for every coordinator, with her name.
      const resolved = await ok(api('PUT', `/api/notifications/${id}/resolve`, { token: secondToken }));
      expect(resolved.body).toMatchObject({ id, resolvedById: second.id, resolvedByName: second.name });
      expect((await bell(otherToken)).items.map((i) => i.id)).not.toContain(id);
      expect((await bell(secondToken)).unresolvedCount).toBe(secondCountBefore - 1);
      expect((await resolvedList(otherToken)).find((i) => i.id === id)).toMatchObject({ resolvedById: second.id, resolvedByName: second.name, isRead: true });
      const names = await ok(api('GET', `/api/notifications/users?ids=${second.id}`, { token: otherToken }));
      expect(names.body).toEqual([{ id: second.id, fullName: second.name }]);

      // Dismissed by one: gone from her resolved list only.
      await ok(api('PUT', `/api/user/${id}/dismiss-notification`, { token: otherToken }));
      expect((await resolvedList(otherToken)).map((i) => i.id)).not.toContain(id);
      expect((await resolvedList(secondToken)).map((i) => i.id)).toContain(id);
      expect((await db.query('SELECT dismissed_at FROM notifications WHERE id = $1', [id])).rows[0].dismissed_at).toBeNull();

      // The coordinator whose change raised a broadcast is not told of it; the others are.
      const own = Number(
        (
          await db.query(
            `INSERT INTO notifications (audience, except_user_id, type, case_id, payload, source_key)
             VALUES ('itp', $1, 'VitalsAdded', $2, jsonb_build_object('CaseId', $2::int, 'PatientName', 'Pat Doe'), $3) RETURNING id`,
            [other.id, caseId, `test-broadcast-${Date.now()}`],
          )
        ).rows[0].id,
      );
      expect((await bell(otherToken)).items.map((i) => i.id)).not.toContain(own);
      expect((await bell(secondToken)).items.map((i) => i.id)).toContain(own);
      expect((await api('PUT', `/api/notifications/${own}/resolve`, { token: otherToken })).status).toBe(404);
    });

    it("refuses another user's notification as unknown and bad ids with coded errors", async () => {
      const [theirs] = await insert(other.id, 1, { type: 'CaseClosed' });
      await db.query('UPDATE notifications SET resolved_at = now(), resolved_by = $1 WHERE id = $2', [other.id, (await insert(other.id, 1))[0]]);
      for (const [method, path] of [
        ['PUT', `/api/notifications/${theirs}/resolve`],
        ['PUT', `/api/user/${theirs}/dismiss-notification`],
      ]) {
        const res = await api(method, path, { token: meToken });
        expect({ path, status: res.status, code: res.error?.code }).toEqual({ path, status: 404, code: ErrorCode.NotFound });
      }
      const row = (await db.query('SELECT read_at, resolved_at, dismissed_at FROM notifications WHERE id = $1', [theirs])).rows[0];
      expect(row).toEqual({ read_at: null, resolved_at: null, dismissed_at: null });
      for (const path of ['/api/notifications/abc/resolve', '/api/notifications/0/resolve', '/api/user/99999999999/dismiss-notification'])
        expect((await api('PUT', path, { token: meToken })).error?.code).toBe(ErrorCode.NotFound);
      for (const [path, body] of [
        ['/api/notifications/read', { ids: [] }],
        ['/api/notifications/read', { ids: ['x'] }],
        ['/api/notifications/read', { ids: Array.from({ length: 101 }, (_, i) => i + 1) }],
        ['/api/notifications/read', ['1']],
      ] as Array<[string, unknown]>) {
        const res = await api('PUT', path, { token: meToken, body });
        expect({ body, status: res.status, code: res.error?.code }).toEqual({ body, status: 400, code: ErrorCode.Invalid });
      }
      const tooMany = await api('GET', `/api/notifications/users?ids=${Array.from({ length: 26 }, (_, i) => i + 1).join(',')}`, { token: meToken });
      expect({ status: tooMany.status, code: tooMany.error?.code }).toEqual({ status: 400, code: ErrorCode.Invalid });
      for (const q of ['limit=0', 'limit=101', 'cursor=-1', 'isRead=maybe']) {
        const res = await api('GET', `/api/user/getUserNotifications?${q}`, { token: meToken });
        expect({ q, status: res.status, code: res.error?.code }).toEqual({ q, status: 400, code: ErrorCode.Invalid });
      }
      expect((await api('GET', '/api/user/getUserNotifications')).status).toBe(401);
    });
  });
});
