import { Client } from 'pg';
import { api } from '../support/api';
import { contactingCase as buildContactingCase, placementTeam } from '../support/cases';
import { db } from '../support/db';

/**
 * The calls card (ITP dashboard, spec 02 §2) reads one row per division from a read model kept by
 * the database in the transaction of each change (migration 20261202-0200). Each step below
 * changes the tasks as a coordinator would and checks the card's row against the tasks themselves:
 * a case reaching placement, a call logged with a callback, the case put on hold, and two
 * transactions adding tasks to one division at the same time.
 */
describe('calls card', () => {
  let coordinator: string;
  let provider: string;
  let providerId: number;
  let floor: { facilityId: number; divisionId: number };
  let division: { id: number; facility: string };
  const put = (p: string, body?: unknown) => api('PUT', p, { token: coordinator, body });
  const contactingCase = () =>
    buildContactingCase({ token: coordinator, providerToken: provider, facilityId: floor.facilityId, divisionId: floor.divisionId, providerId, patient: { lastName: 'Card' } });

  /** The division's row as the card shows it (null: not on the card). */
  async function cardRow(divisionId = division.id) {
    const filter = encodeURIComponent(JSON.stringify({ withinTwoHours: false, facilityName: division.facility }));
    const res = await api('GET', `/api/placement-tasks/division/group?filter=${filter}&range=${encodeURIComponent('[0,99]')}`, { token: coordinator });
    expect(res.status).toBe(200);
    const row = res.body.find((r: { divisionId: number }) => r.divisionId === divisionId);
    return row ? { taskCount: row.taskCount, preferredCount: row.preferredCount, uncalledCount: row.uncalledCount, recentCallbackAt: row.recentCallbackAt } : null;
  }

  /** The same figures counted from the tasks of the cases being placed. */
  async function counted(divisionId = division.id) {
    const { rows } = await db.query(
      `SELECT count(*)::int AS "taskCount", (count(*) FILTER (WHERE t.is_preferred))::int AS "preferredCount",
              (count(*) FILTER (WHERE t.last_call_id IS NULL))::int AS "uncalledCount", min(t.callback_at) AS "recentCallbackAt"
         FROM placement_tasks t JOIN cases c ON c.id = t.case_id
        WHERE t.division_id = $1 AND c.status IN ('LocatingServices_ContactingServiceOrganization', 'ServicesLocated_WaitingForConfirmation')`,
      [divisionId],
    );
    const r = rows[0];
    return r.taskCount === 0 ? null : { ...r, recentCallbackAt: r.recentCallbackAt ? r.recentCallbackAt.toISOString() : null };
  }

  const taskOf = async (caseId: number) =>
    (await db.query('SELECT id FROM placement_tasks WHERE case_id = $1 AND division_id = $2', [caseId, division.id])).rows[0].id as number;

  beforeAll(async () => {
    ({ coordinator, provider, providerId, floor } = await placementTeam());
    const s = await db.query("SELECT d.id, f.name FROM divisions d JOIN facilities f ON f.id = d.facility_id WHERE d.name = 'Adult Inpatient Unit'");
    division = { id: s.rows[0].id, facility: s.rows[0].name };
    // A hold left by another suite would log calls on new tasks by itself.
    await db.query('UPDATE division_holds SET released_at = now() WHERE division_id = $1 AND released_at IS NULL', [division.id]);
  });

  it('follows a case into placement, a call with a callback, and the case put on hold', async () => {
    const before = await cardRow();
    expect(before).toEqual(await counted());

    const caseId = await contactingCase();
    const reached = await cardRow();
    expect(reached).toEqual(await counted());
    expect(reached!.taskCount).toBe((before?.taskCount ?? 0) + 1);
    expect(reached!.uncalledCount).toBe((before?.uncalledCount ?? 0) + 1);

    // A call with a callback in ten minutes: one task fewer never called, and the earliest callback.
    const callbackAt = new Date(Math.ceil((Date.now() + 10 * 60_000) / 1000) * 1000).toISOString();
    const claim = await api('POST', `/api/placement-tasks/division/${division.id}/claim`, { token: coordinator, body: {} });
    expect(claim.status).toBe(200);
    const saved = await put(`/api/placement-tasks/claim/${claim.body.claimId}/calls`, {
      calls: [{ placementTaskId: await taskOf(caseId), result: 'CallBack', spokeWith: 'Intake', callbackAt }],
    });
    expect(saved.status).toBe(200);
    await put(`/api/placement-tasks/claim/${claim.body.claimId}/release`);
    const called = await cardRow();
    expect(called).toEqual(await counted());
    expect(called!.uncalledCount).toBe(reached!.uncalledCount - 1);
    expect(Date.parse(called!.recentCallbackAt)).toBeLessThanOrEqual(Date.parse(callbackAt));

    // On hold, the case is no longer being placed: its task leaves the card.
    const hold = await put(`/api/cases/${caseId}/status`, { status: 'OnHold_Other', note: 'Waiting for the family' });
    expect(hold.status).toBe(200);
    const held = await cardRow();
    expect(held).toEqual(await counted());
    expect(held?.taskCount ?? 0).toBe(reached!.taskCount - 1);
  }, 120_000);

  it('finds a division by its facility name after the facility is renamed', async () => {
    await contactingCase();
    const renamed = `${division.facility} Renamed`;
    await db.query('UPDATE facilities SET name = $1 WHERE name = $2', [renamed, division.facility]);
    try {
      const filter = (name: string) => encodeURIComponent(JSON.stringify({ withinTwoHours: false, facilityName: name }));
      const found = await api('GET', `/api/placement-tasks/division/group?filter=${filter('renamed')}&range=${encodeURIComponent('[0,99]')}`, { token: coordinator });
      expect(found.body.map((r: { divisionId: number }) => r.divisionId)).toContain(division.id);
      expect(found.body.find((r: { divisionId: number }) => r.divisionId === division.id).facilityName).toBe(renamed);
    } finally {
      await db.query('UPDATE facilities SET name = $1 WHERE name = $2', [division.facility, renamed]);
    }
  }, 120_000);

  it('counts the tasks of two transactions that change one division at the same time', async () => {
    const a = await contactingCase();
    const b = await contactingCase();
    // A division neither case has a task for yet.
    const other = (
      await db.query(
        `SELECT d.id, d.facility_id FROM divisions d WHERE d.type = 'Referring' AND d.is_active
            AND NOT EXISTS (SELECT 1 FROM placement_tasks t WHERE t.division_id = d.id AND t.case_id = ANY($1::int[])) ORDER BY d.id LIMIT 1`,
        [[a, b]],
      )
    ).rows[0];
    const before = (await counted(other.id))?.taskCount ?? 0;
    const first = new Client({ connectionString: process.env.DATABASE_URL });
    const second = new Client({ connectionString: process.env.DATABASE_URL });
    await Promise.all([first.connect(), second.connect()]);
    try {
      const add = (c: Client, caseId: number) =>
        c.query(`INSERT INTO placement_tasks (case_id, division_id, facility_id, origin) VALUES ($1, $2, $3, 'manual')`, [caseId, other.id, other.facility_id]);
      await first.query('BEGIN');
      await add(first, a);
      await second.query('BEGIN');
      // The second waits for the first's commit, then counts with it.
      const adding = add(second, b);
      await new Promise((r) => setTimeout(r, 300));
      await first.query('COMMIT');
      await adding;
      await second.query('COMMIT');
    } finally {
      await Promise.all([first.end(), second.end()]);
    }
    const { rows } = await db.query('SELECT task_count AS "taskCount" FROM calls_card_divisions WHERE division_id = $1', [other.id]);
    expect(rows[0].taskCount).toBe(before + 2);
    expect((await counted(other.id))!.taskCount).toBe(before + 2);
  }, 120_000);
});
