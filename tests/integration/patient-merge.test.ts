import { Client } from 'pg';
import { io, type Socket } from 'socket.io-client';
import type { LiveEvents } from '@crisis/forms';
import { API_URL, api, eventually } from '../support/api';
import { enc } from '../support/audit';
import { caseBody, createCase, tampaDivisions, uniqueLetters } from '../support/cases';
import { db } from '../support/db';
import { signInAs } from '../support/oidc-client';

/**
 * The patient directory and the merge of duplicates (spec 02 §2 "Patients", "Merge page", §4
 * "Patient merge", §5, §6, §7, §9): a merge is one transaction (a merge whose connection is
 * killed half-way leaves both records as they were), moves every row that belongs to the
 * merged-away record, is audited and announced live, and the merged-away id answers
 * INV.PATIENT.MERGED with the survivor. Gates from spec 02 §6 / 03 §6; the directory's filters
 * checked against expectations written by hand, the age bands at their edges.
 */
describe('patient directory and merge', () => {
  let admin: string;
  let itpUser: string;
  let provider: string;
  let facilityAdmin: string;
  let facilityUser: string;
  let groupUser: string;
  let adminId: number;
  let providerId: number;
  let tampa: { facilityId: number; edId: number; floorId: number };
  let payerId: number;
  const sockets: Socket[] = [];
  afterAll(() => sockets.forEach((s) => s.close()));

  beforeAll(async () => {
    admin = (await signInAs('IntegratedTelehealthPartners_Admin')).accessToken;
    itpUser = (await signInAs('IntegratedTelehealthPartners_User')).accessToken;
    provider = (await signInAs('IntegratedTelehealthPartners_Provider')).accessToken;
    facilityAdmin = (await signInAs('Facility_Admin')).accessToken;
    facilityUser = (await signInAs('Facility_User')).accessToken;
    groupUser = (await signInAs('Group_User')).accessToken;
    adminId = (await api('GET', '/api/user/context', { token: admin })).body.id;
    tampa = await tampaDivisions();
    providerId = (await db.query("SELECT id FROM users WHERE email = 'provider@itp.example.org'")).rows[0].id;
    payerId = (await db.query('SELECT id FROM payers WHERE is_active ORDER BY id LIMIT 1')).rows[0].id;
  });

  /** A name no other suite uses: letters only (names are validated). */
  const uniqueName = (prefix: string) => `${prefix}${uniqueLetters()}`.replace(/^./, (c) => c.toUpperCase());

  /** A patient record with a case through the API (the way duplicates arise: a new record each time). */
  async function recordWithCase(firstName: string, lastName: string, extra: Record<string, unknown> = {}) {
    const c = await createCase({
      token: itpUser,
      facilityId: tampa.facilityId,
      divisionId: tampa.floorId,
      providerId,
      patient: { firstName, lastName, dateOfBirth: '1979-05-06', gender: 'Female' },
      body: extra,
    });
    const patientId = (await db.query('SELECT patient_id FROM cases WHERE id = $1', [c.id])).rows[0].patient_id as number;
    return { caseId: c.id, patientId };
  }
  /** Closes a case in the database (a fixture: closing through the workflow is another suite's subject). */
  const closeCase = (caseId: number) => db.query(`UPDATE cases SET status = 'Closed', closed_at = now() WHERE id = $1`, [caseId]);

  async function addFile(caseId: number, patientId: number) {
    const { rows } = await db.query(
      `INSERT INTO patient_files (case_id, patient_id, title, file_name, storage_key, size_bytes) VALUES ($1, $2, 'Discharge', 'discharge.pdf', $3, 10) RETURNING id`,
      [caseId, patientId, `merge-test-${uniqueLetters()}`],
    );
    return rows[0].id as number;
  }

  /** Rows that belong to each record, per table (directly, or through its cases). */
  async function rowsOf(patientId: number) {
    const count = async (sql: string) => (await db.query(sql, [patientId])).rows[0].n as number;
    return {
      cases: await count('SELECT count(*)::int AS n FROM cases WHERE patient_id = $1'),
      requests: await count('SELECT count(*)::int AS n FROM requests r JOIN cases c ON c.id = r.case_id WHERE c.patient_id = $1'),
      case_activities: await count('SELECT count(*)::int AS n FROM case_activities a JOIN cases c ON c.id = a.case_id WHERE c.patient_id = $1'),
      medical_information: await count('SELECT count(*)::int AS n FROM medical_information m JOIN cases c ON c.id = m.case_id WHERE c.patient_id = $1'),
      patient_files: await count('SELECT count(*)::int AS n FROM patient_files WHERE patient_id = $1'),
      patient_insurances: await count('SELECT count(*)::int AS n FROM patient_insurances WHERE patient_id = $1'),
      change_logs: await count('SELECT count(*)::int AS n FROM change_logs WHERE patient_id = $1'),
    };
  }
  const patientRow = async (id: number) =>
    (await db.query('SELECT id, first_name, last_name, phone, merged_into_id, merged_by, updated_at FROM patients WHERE id = $1', [id])).rows[0];

  /** A second browser with the case page open: a socket in the case's room. */
  async function openCasePage(caseId: number): Promise<Array<LiveEvents['case.updated']>> {
    const socket = io(API_URL, { path: '/socket.io', auth: { token: itpUser }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    await new Promise((resolve, reject) => {
      socket.on('ready', resolve);
      socket.on('connect_error', reject);
    });
    expect(await socket.timeout(10_000).emitWithAck('case.join', { caseId })).toEqual({ joined: true });
    const seen: Array<LiveEvents['case.updated']> = [];
    socket.on('case.updated', (e: LiveEvents['case.updated']) => seen.push(e));
    return seen;
  }

  /** Every duplicate group, all pages of 7. */
  async function allGroups(): Promise<Array<{ id: string; firstName: string; lastName: string; dateOfBirth: string; recordsCount: number }>> {
    const out = [];
    for (let first = 0; ; first += 7) {
      const res = await api('GET', `/api/patients/merge/groups?range=${enc([first, first + 6])}`, { token: admin });
      expect(res.status).toBe(200);
      out.push(...res.body);
      const total = Number(String(res.headers.get('content-range')).split('/')[1]);
      if (first + 7 >= total) return out;
    }
  }

  describe('merge', () => {
    it('the tables that reference a patient record are exactly those the merge moves', async () => {
      // Written by hand: a new table with a foreign key to patients fails here until the merge moves it.
      const { rows } = await db.query(
        `SELECT cl.relname || '.' || a.attname AS col
           FROM pg_constraint k JOIN pg_class cl ON cl.oid = k.conrelid
           JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = ANY(k.conkey)
          WHERE k.contype = 'f' AND k.confrelid = 'patients'::regclass ORDER BY 1`,
      );
      expect(rows.map((r) => r.col)).toEqual([
        'cases.patient_id',
        'change_logs.patient_id',
        'patient_files.patient_id',
        'patient_insurances.patient_id',
        'patients.merged_into_id',
      ]);
    });

    it('moves every dependent row to the oldest record, audits who merged what, tells open case pages, and the merged-away id points to the survivor', async () => {
      const first = uniqueName('Mergeone');
      const last = uniqueName('Dup');
      const older = await recordWithCase(first, last);
      await closeCase(older.caseId);
      await addFile(older.caseId, older.patientId);
      const newer = await recordWithCase(first, last, {
        uninsured: false,
        insurances: [{ payerId, insuranceId: `M-${uniqueLetters()}`, relationToInsured: 'Spouse', verified: true }],
      });
      await addFile(newer.caseId, newer.patientId);
      // A change of the newer record's phone: its change-log rows are its history.
      const patientNow = (await api('GET', `/api/cases/${newer.caseId}`, { token: itpUser })).body.patient;
      const edit = await api('PUT', `/api/cases/${newer.caseId}/patient`, {
        token: itpUser,
        body: { firstName: first, lastName: last, dateOfBirth: '1979-05-06', gender: 'Female', phone: '+18135550177', address: patientNow.address },
      });
      expect(edit.status).toBe(200);

      const olderBefore = await rowsOf(older.patientId);
      const newerBefore = await rowsOf(newer.patientId);
      // Every kind of row is there to move (else the test proves nothing for that table).
      for (const [table, n] of Object.entries(newerBefore)) expect([table, n > 0]).toEqual([table, true]);
      expect(olderBefore.cases).toBe(1);

      const seen = await openCasePage(newer.caseId);
      const res = await api('POST', '/api/patients/merge/records', {
        token: admin,
        body: { patientIds: [newer.patientId, older.patientId] },
        headers: { 'x-correlation-id': `merge-${newer.patientId}` },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        survivorId: older.patientId,
        mergedIds: [newer.patientId],
        moved: { cases: 1, patient_files: 1, patient_insurances: 1, change_logs: newerBefore.change_logs },
      });

      // Per table: the survivor holds the sum, the merged-away record nothing.
      const olderAfter = await rowsOf(older.patientId);
      const newerAfter = await rowsOf(newer.patientId);
      for (const table of Object.keys(olderBefore) as Array<keyof typeof olderBefore>) {
        expect([table, olderAfter[table]]).toEqual([table, olderBefore[table] + newerBefore[table]]);
        expect([table, newerAfter[table]]).toEqual([table, 0]);
      }
      const merged = await patientRow(newer.patientId);
      expect(merged).toMatchObject({ merged_into_id: older.patientId, merged_by: adminId, first_name: first, phone: '+18135550177' });
      // The survivor had no phone of its own: the merged-away record's fills it.
      expect((await patientRow(older.patientId)).phone).toBe('+18135550177');

      // The audit log says who merged what.
      const audit = (await db.query(`SELECT * FROM audit_log WHERE correlation_id = $1`, [`merge-${newer.patientId}`])).rows;
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ main_action: 'Patient.Merge', user_id: adminId, success: true });
      expect(JSON.stringify(audit[0].values)).toContain(`"survivorId":${older.patientId}`);
      expect(JSON.stringify(audit[0].values)).toContain(`"mergedIds":[${newer.patientId}]`);

      // The open page of the moved case hears of it.
      await eventually(async () => seen.find((e) => e.caseId === newer.caseId), 'case.updated of the moved case');

      // The survivor's history shows both cases.
      const history = await api('GET', `/api/patients/${older.patientId}/history`, { token: itpUser });
      expect(history.status).toBe(200);
      expect(history.body.cases.map((c: { id: number }) => c.id).sort()).toEqual([older.caseId, newer.caseId].sort());

      // The merged-away id answers the coded error with the survivor, on every patient route and on case creation.
      for (const path of [`/api/patients/${newer.patientId}`, `/api/patients/${newer.patientId}/history`, `/api/patients/${newer.patientId}/insurances/last`]) {
        const r = await api('GET', path, { token: admin });
        expect([path, r.status, r.body.code, r.body.payload]).toEqual([path, 409, 'INV.PATIENT.MERGED', { survivorId: older.patientId }]);
        expect(r.error?.code).toBe('INV.PATIENT.MERGED');
      }
      const again = await api('POST', '/api/cases', {
        token: itpUser,
        body: caseBody({ facilityId: tampa.facilityId, divisionId: tampa.floorId, providerId, body: { patientId: newer.patientId } }),
      });
      expect([again.status, again.body.code, again.body.payload]).toEqual([409, 'INV.PATIENT.MERGED', { survivorId: older.patientId }]);
      // Merging the merged-away record again is refused the same way.
      const twice = await api('POST', '/api/patients/merge/records', { token: admin, body: { patientIds: [older.patientId, newer.patientId] } });
      expect([twice.status, twice.body.code, twice.body.payload]).toEqual([409, 'INV.PATIENT.MERGED', { survivorId: older.patientId }]);

      // The directory and the duplicate groups no longer show the merged-away record.
      const listed = await api('GET', `/api/patients?filter=${enc({ name: last })}`, { token: admin });
      expect(listed.body.map((p: { id: number }) => p.id)).toEqual([older.patientId]);
      expect((await allGroups()).find((g) => g.lastName === last)).toBeUndefined();
    });

    it('a merge whose connection is killed half-way (pg_terminate_backend while it waits on a row lock) leaves both records untouched', async () => {
      const first = uniqueName('Faultone');
      const last = uniqueName('Dup');
      const older = await recordWithCase(first, last);
      await closeCase(older.caseId);
      const newer = await recordWithCase(first, last);
      const fileId = await addFile(newer.caseId, newer.patientId);
      const before = { older: await rowsOf(older.patientId), newer: await rowsOf(newer.patientId) };
      const rowsBefore = { older: await patientRow(older.patientId), newer: await patientRow(newer.patientId) };

      // A second connection holds the file's row: the merge moves the cases first, then waits here.
      const holder = new Client({ connectionString: process.env.DATABASE_URL });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT id FROM patient_files WHERE id = $1 FOR UPDATE', [fileId]);
        const merging = api('POST', '/api/patients/merge/records', { token: admin, body: { patientIds: [older.patientId, newer.patientId] } });
        const blocked = await eventually(
          async () =>
            // Asked on another connection: inside a transaction pg_stat_activity is a snapshot.
            (
              await db.query(
                `SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%UPDATE patient_files SET patient_id%' AND pid <> pg_backend_pid()`,
              )
            ).rows[0]?.pid as number | undefined,
          'the merge waiting on the held file row',
        );
        // Half-way: the merge's transaction has already rewritten the cases (its connection shows it in pg_locks).
        const caseLocks = await db.query(
          `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE l.pid = $1 AND c.relname = 'cases' AND l.mode = 'RowExclusiveLock'`,
          [blocked],
        );
        expect(caseLocks.rows[0].n).toBeGreaterThan(0);
        await db.query('SELECT pg_terminate_backend($1)', [blocked]);
        const res = await merging;
        expect(res.status).toBeGreaterThanOrEqual(500);
        expect(res.body.code).toMatch(/^UNEXP/);
      } finally {
        await holder.query('ROLLBACK').catch(() => undefined);
        await holder.end();
      }

      expect(await rowsOf(older.patientId)).toEqual(before.older);
      expect(await rowsOf(newer.patientId)).toEqual(before.newer);
      expect(await patientRow(older.patientId)).toEqual(rowsBefore.older);
      expect(await patientRow(newer.patientId)).toEqual(rowsBefore.newer);
      expect((await db.query('SELECT patient_id FROM cases WHERE id = $1', [newer.caseId])).rows[0].patient_id).toBe(newer.patientId);

      // The same merge afterwards goes through (nothing was left half-done or locked).
      const retry = await api('POST', '/api/patients/merge/records', { token: admin, body: { patientIds: [older.patientId, newer.patientId] } });
      expect(retry.status).toBe(200);
      expect((await rowsOf(older.patientId)).cases).toBe(2);
    });

    it('refuses to merge records that each have an active case, naming the cases, and changes nothing', async () => {
      const first = uniqueName('Activeone');
      const last = uniqueName('Dup');
      const a = await recordWithCase(first, last);
      const b = await recordWithCase(first, last);
      const res = await api('POST', '/api/patients/merge/records', { token: admin, body: { patientIds: [a.patientId, b.patientId] } });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('INV.MERGE.PATIENTS.WITH.MORE.THAN.ONE.ACTIVE.CASES');
      expect(res.body.payload.activeCases.map((c: { caseId: number }) => c.caseId)).toEqual([a.caseId, b.caseId]);
      expect((await patientRow(b.patientId)).merged_into_id).toBeNull();
      expect((await rowsOf(b.patientId)).cases).toBe(1);
    });

    it('refuses fewer than 2 records, records of different groups, and unknown records', async () => {
      const a = await recordWithCase(uniqueName('Lonely'), uniqueName('Dup'));
      const b = await recordWithCase(uniqueName('Other'), uniqueName('Dup'));
      await closeCase(a.caseId);
      const one = await api('POST', '/api/patients/merge/records', { token: admin, body: { patientIds: [a.patientId] } });
      expect([one.status, one.body.code, one.body.fields?.[0]?.field]).toEqual([400, 'INV', 'patientIds']);
      const none = await api('POST', '/api/patients/merge/records', { token: admin, body: { patientIds: [] } });
      expect(none.status).toBe(400);
      const apart = await api('POST', '/api/patients/merge/records', { token: admin, body: { patientIds: [a.patientId, b.patientId] } });
      expect([apart.status, apart.body.fields?.[0]?.key]).toEqual([400, 'notOneGroup']);
      const unknown = await api('POST', '/api/patients/merge/records', { token: admin, body: { patientIds: [a.patientId, 2147483000] } });
      expect(unknown.status).toBe(404);
      expect((await patientRow(b.patientId)).merged_into_id).toBeNull();
    });
  });

  describe('duplicate groups and no merging needed', () => {
    it('lists a group with its count, 7 a page; "no merging needed" needs every record and hides the group until a new look-alike arrives', async () => {
      const first = uniqueName('Twin');
      const last = uniqueName('Dup');
      const a = await recordWithCase(first, last);
      await closeCase(a.caseId);
      const b = await recordWithCase(first, last);
      const page = await api('GET', `/api/patients/merge/groups?range=${enc([0, 49])}`, { token: admin });
      expect(page.status).toBe(200);
      expect(page.body.length).toBeLessThanOrEqual(7);
      expect(page.headers.get('content-range')).toMatch(/^merge-groups 0-\d+\/\d+$/);
      const group = (await allGroups()).find((g) => g.lastName === last);
      expect(group).toMatchObject({ firstName: first, lastName: last, dateOfBirth: '1979-05-06', recordsCount: 2 });

      const records = await api('GET', `/api/patients/merge/records?firstName=${first}&lastName=${last}&dateOfBirth=1979-05-06`, { token: admin });
      expect(records.status).toBe(200);
      expect(records.body.map((r: { id: number }) => r.id)).toEqual([a.patientId, b.patientId]);

      // Not every record selected: refused (the merge page's info dialog), the group stays.
      const c = await recordWithCase(uniqueName('Third'), uniqueName('Dup'));
      const partial = await api('POST', '/api/patients/merge/not-needed', { token: admin, body: { patientIds: [a.patientId, c.patientId] } });
      expect(partial.status).toBe(400);
      await db.query(`UPDATE patients SET first_name = $2, last_name = $3, date_of_birth = '1979-05-06' WHERE id = $1`, [c.patientId, first, last]);
      const twoOfThree = await api('POST', '/api/patients/merge/not-needed', { token: admin, body: { patientIds: [a.patientId, b.patientId] } });
      expect([twoOfThree.status, twoOfThree.body.fields?.[0]?.key]).toEqual([400, 'allRecordsRequired']);
      expect((await allGroups()).find((g) => g.lastName === last)?.recordsCount).toBe(3);

      const done = await api('POST', '/api/patients/merge/not-needed', { token: admin, body: { patientIds: [a.patientId, b.patientId, c.patientId] } });
      expect(done.status).toBe(200);
      expect((await allGroups()).find((g) => g.lastName === last)).toBeUndefined();

      // A fourth look-alike was never reviewed: the group shows again.
      const d = await recordWithCase(uniqueName('Fourth'), uniqueName('Dup'));
      await db.query(`UPDATE patients SET first_name = $2, last_name = $3 WHERE id = $1`, [d.patientId, first, last]);
      await db.query(`UPDATE patients SET date_of_birth = '1979-05-06' WHERE id = $1`, [d.patientId]);
      expect((await allGroups()).find((g) => g.lastName === last)?.recordsCount).toBe(4);
    });
  });

  describe('gates (spec 02 §6, 03 §6)', () => {
    it('only the ITP admin reviews duplicates and merges; the directory is for ITP admins and users', async () => {
      const first = uniqueName('Gate');
      const last = uniqueName('Dup');
      const a = await recordWithCase(first, last);
      await closeCase(a.caseId);
      const b = await recordWithCase(first, last);
      const others: Array<[string, string]> = [
        ['ITP user', itpUser],
        ['provider', provider],
        ['facility admin', facilityAdmin],
        ['facility user', facilityUser],
        ['group user', groupUser],
      ];
      for (const [who, token] of others) {
        const calls = [
          await api('GET', '/api/patients/merge/groups', { token }),
          await api('GET', `/api/patients/merge/records?firstName=${first}&lastName=${last}&dateOfBirth=1979-05-06`, { token }),
          await api('POST', '/api/patients/merge/records', { token, body: { patientIds: [a.patientId, b.patientId] } }),
          await api('POST', '/api/patients/merge/not-needed', { token, body: { patientIds: [a.patientId, b.patientId] } }),
        ];
        expect([who, calls.map((c) => c.status)]).toEqual([who, [403, 403, 403, 403]]);
      }
      expect((await patientRow(b.patientId)).merged_into_id).toBeNull();
      expect((await allGroups()).find((g) => g.lastName === last)?.recordsCount).toBe(2);

      const directory: Array<[string, string, number]> = [
        ['ITP admin', admin, 200],
        ['ITP user', itpUser, 200],
        ['provider', provider, 403],
        ['facility admin', facilityAdmin, 403],
        ['facility user', facilityUser, 403],
        ['group user', groupUser, 403],
      ];
      for (const [who, token, status] of directory) expect([who, (await api('GET', '/api/patients', { token })).status]).toEqual([who, status]);
      expect((await api('GET', '/api/patients')).status).toBe(401);
    });
  });

  describe('directory filters', () => {
    /** YYYY-MM-DD of today (UTC) shifted by whole years and days, by hand with Date.UTC. */
    const now = new Date();
    const born = (yearsAgo: number, daysLater = 0) =>
      new Date(Date.UTC(now.getUTCFullYear() - yearsAgo, now.getUTCMonth(), now.getUTCDate() + daysLater)).toISOString().slice(0, 10);
    const tag = uniqueName('Edge');
    const city = uniqueName('Edgeville');
    // name → [date of birth, gender, state]; ages on today's date in the comments.
    const PEOPLE: Record<string, [string, string, string]> = {
      Four: [born(5, 1), 'Female', 'FL'], // 4: turns 5 tomorrow
      Five: [born(5), 'Male', 'FL'], // 5 today
      Twelve: [born(13, 1), 'Female', 'GA'], // 12: turns 13 tomorrow
      Thirteen: [born(13), 'Male', 'GA'], // 13 today
      Seventeen: [born(18, 1), 'Transgender_Female', 'FL'], // 17: turns 18 tomorrow
      Eighteen: [born(18), 'Female', 'GA'], // 18 today
      Fiftyfour: [born(55, 1), 'Male', 'FL'], // 54: turns 55 tomorrow
      Fiftyfive: [born(55), 'Transgender_Male', 'GA'], // 55 today
    };
    const ids: Record<string, number> = {};

    beforeAll(async () => {
      for (const [first, [dob, gender, state]] of Object.entries(PEOPLE)) {
        const { rows } = await db.query(
          `INSERT INTO patients (first_name, last_name, date_of_birth, gender, street_line, city, state, county, zip_code)
           VALUES ($1, $2, $3, $4, '1 Edge St', $5, $6, 'Edge County', '33606') RETURNING id`,
          [first, tag, dob, gender, city, state],
        );
        ids[first] = rows[0].id;
      }
    });

    const names = async (filter: Record<string, unknown>, token = admin) => {
      const res = await api('GET', `/api/patients?filter=${enc({ name: tag, ...filter })}&sort=${enc(['dateOfBirth', 'DESC'])}&range=${enc([0, 24])}`, { token });
      expect(res.status).toBe(200);
      return res.body.map((p: { firstName: string }) => p.firstName);
    };

    it('takes the age bands at their edges (12/13, 17/18, 54/55; Child from 5; Adult 18 and up, Geriatric 55 and up)', async () => {
      expect(await names({})).toEqual(['Four', 'Five', 'Twelve', 'Thirteen', 'Seventeen', 'Eighteen', 'Fiftyfour', 'Fiftyfive']);
      expect(await names({ ageRanges: ['Child'] })).toEqual(['Five', 'Twelve']);
      expect(await names({ ageRanges: ['Adolescent'] })).toEqual(['Thirteen', 'Seventeen']);
      expect(await names({ ageRanges: ['Adult'] })).toEqual(['Eighteen', 'Fiftyfour', 'Fiftyfive']);
      expect(await names({ ageRanges: ['Geriatric'] })).toEqual(['Fiftyfive']);
      expect(await names({ ageRanges: ['Child', 'Geriatric'] })).toEqual(['Five', 'Twelve', 'Fiftyfive']);
    });

    it('filters by genders, states, cities and name, combined, and pages with the total in Content-Range', async () => {
      expect(await names({ genders: ['Male'] })).toEqual(['Five', 'Thirteen', 'Fiftyfour']);
      expect(await names({ genders: ['Transgender_Female', 'Transgender_Male'] })).toEqual(['Seventeen', 'Fiftyfive']);
      expect(await names({ states: ['GA'] })).toEqual(['Twelve', 'Thirteen', 'Eighteen', 'Fiftyfive']);
      expect(await names({ states: ['GA'], genders: ['Female'], ageRanges: ['Adult'] })).toEqual(['Eighteen']);
      expect(await names({ name: null, cities: [city.toLowerCase()], states: ['FL'] })).toEqual(['Four', 'Five', 'Seventeen', 'Fiftyfour']);
      expect(await names({ name: `${tag} thirt` })).toEqual(['Thirteen']);
      expect(await names({ cities: ['Nowhere'] })).toEqual([]);

      const page = await api('GET', `/api/patients?filter=${enc({ name: tag })}&sort=${enc(['name', 'ASC'])}&range=${enc([2, 4])}`, { token: itpUser });
      expect(page.headers.get('content-range')).toBe('patients 2-4/8');
      // Name ascending: all share the last name, so by first name.
      expect(page.body.map((p: { firstName: string }) => p.firstName)).toEqual(['Fiftyfour', 'Five', 'Four']);
      expect(page.body[0]).toMatchObject({ id: ids.Fiftyfour, referenceNumber: String(ids.Fiftyfour).padStart(5, '0'), address: { city, state: 'FL' }, sourceFacilities: [] });
    });

    it('refuses a filter value outside the enumerations with a coded 400', async () => {
      for (const filter of [{ ageRanges: ['Elderly'] }, { genders: ['Other'] }, { states: ['ZZ'] }, { name: 'x'.repeat(300) }]) {
        const res = await api('GET', `/api/patients?filter=${enc(filter)}`, { token: admin });
        expect([JSON.stringify(filter), res.status, res.body.code]).toEqual([JSON.stringify(filter), 400, 'INV']);
      }
      const sort = await api('GET', `/api/patients?sort=${enc(['ssn', 'ASC'])}`, { token: admin });
      expect(sort.status).toBe(400);
    });
  });
});
