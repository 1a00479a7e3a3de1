/**
 * Bench data of placement (issue 5 `npm run bench`), on top of the bench cases and the bench
 * facilities' referring divisions: 5 tasks per case and 10 calls per task (5,000,000 call
 * entries for 100,000 cases), 16 "hot" divisions with 25 tasks each in cases being placed, and 16
 * bench coordinators (password Demo1234!). Set-based SQL; skipped when already there.
 */
import type { Client } from 'pg';
import { hashPassword } from '@crisis/api/password-hash';

export const BENCH_COORDINATORS = 16;
export const HOT_TASKS_PER_DIVISION = 25;
export const CALLS_PER_TASK = 10;
export const TASKS_PER_CASE = 5;
export const coordinatorEmail = (i: number) => `bench-coordinator-${i}@itp.example.org`;

export async function seedBenchPlacement(db: Client): Promise<{ calls: number; seeded: boolean; hotDivisions: number[] }> {
  const hot = async () =>
    (
      await db.query(
        `SELECT d.id FROM divisions d JOIN facilities f ON f.id = d.facility_id
          WHERE d.type = 'Referring' AND d.is_active AND f.is_active AND f.name LIKE 'Bench%' ORDER BY d.id LIMIT $1`,
        [BENCH_COORDINATORS],
      )
    ).rows.map((r) => r.id as number);

  const hash = await hashPassword('Demo1234!');
  for (let i = 1; i <= BENCH_COORDINATORS; i++)
    await db.query(
      `INSERT INTO users (first_name, last_name, email, password_hash, email_confirmed, organization_type, user_type)
       VALUES ('Bench', $1, $2, $3, true, 'IntegratedTelehealthPartners', 'IntegratedTelehealthPartners_User')
       ON CONFLICT ((lower(email))) DO NOTHING`,
      [`Coordinator ${i}`, coordinatorEmail(i), hash],
    );

  const have = await db.query(`SELECT count(*)::int AS n FROM placement_calls WHERE created_by_name = 'Bench coordinator'`);
  if (have.rows[0].n >= 1_000_000) return { calls: have.rows[0].n, seeded: false, hotDivisions: await hot() };

  await db.query('BEGIN');
  try {
    await db.query(
      `WITH refs AS (SELECT array_agg(d.id ORDER BY d.id) AS ids, array_agg(d.facility_id ORDER BY d.id) AS fids
                       FROM divisions d JOIN facilities f ON f.id = d.facility_id
                      WHERE d.type = 'Referring' AND d.is_active AND f.is_active),
            bc AS (SELECT c.id, row_number() OVER (ORDER BY c.id) AS g FROM cases c JOIN patients p ON p.id = c.patient_id WHERE p.last_name LIKE 'Bench%')
       INSERT INTO placement_tasks (case_id, division_id, facility_id, origin, reasons, rank, created_at)
       SELECT bc.id, refs.ids[1 + ((bc.g * 7 + k * 101) % array_length(refs.ids, 1))], refs.fids[1 + ((bc.g * 7 + k * 101) % array_length(refs.ids, 1))],
              'generated', ARRAY['Bench'], k + 1, now() - interval '2 days'
         FROM bc, refs, generate_series(0, $1 - 1) k
       ON CONFLICT (case_id, division_id) DO NOTHING`,
      [TASKS_PER_CASE],
    );
    await db.query(
      `INSERT INTO placement_calls (task_id, case_id, division_id, result, note, callback_at, spoke_with, created_by_name, created_at)
       SELECT t.id, t.case_id, t.division_id,
              (ARRAY['NoAnswer','LeftVoicemail','WaitingToHearBack','NoBedsAvailable','WillNotAccept','FaxedInformation','GrantedAccess','CallBack','WaitingList','Other'])[1 + k],
              CASE WHEN k % 3 = 0 THEN 'Bench note ' || k END, NULL, CASE WHEN k % 2 = 0 THEN 'Intake' END, 'Bench coordinator',
              t.created_at + make_interval(mins => k * 20)
         FROM placement_tasks t JOIN cases c ON c.id = t.case_id JOIN patients p ON p.id = c.patient_id, generate_series(0, $1 - 1) k
        WHERE p.last_name LIKE 'Bench%'`,
      [CALLS_PER_TASK],
    );
    await db.query(
      `UPDATE placement_tasks t SET last_call_id = x.id
         FROM (SELECT task_id, max(id) AS id FROM placement_calls WHERE created_by_name = 'Bench coordinator' GROUP BY task_id) x
        WHERE t.id = x.task_id`,
    );
    // The hot divisions: 25 tasks each in cases being placed, never called yet.
    await db.query(
      `WITH hot AS (SELECT d.id, d.facility_id, row_number() OVER (ORDER BY d.id) AS h FROM divisions d JOIN facilities f ON f.id = d.facility_id
                     WHERE d.type = 'Referring' AND d.is_active AND f.is_active AND f.name LIKE 'Bench%' ORDER BY d.id LIMIT $1),
            open AS (SELECT c.id, row_number() OVER (ORDER BY c.id) AS g FROM cases c JOIN patients p ON p.id = c.patient_id
                      WHERE p.last_name LIKE 'Bench%' AND c.status IN ('LocatingServices_ContactingServiceOrganization', 'ServicesLocated_WaitingForConfirmation'))
       INSERT INTO placement_tasks (case_id, division_id, facility_id, origin, reasons, rank)
       SELECT open.id, hot.id, hot.facility_id, 'added', ARRAY['Bench'], 100
         FROM hot JOIN open ON open.g > (hot.h - 1) * 10 AND open.g <= (hot.h - 1) * 10 + $2
       ON CONFLICT (case_id, division_id) DO NOTHING`,
      [BENCH_COORDINATORS, HOT_TASKS_PER_DIVISION],
    );
    await db.query('COMMIT');
  } catch (err) {
    await db.query('ROLLBACK');
    throw err;
  }
  await db.query('ANALYZE placement_tasks; ANALYZE placement_calls');
  const n = await db.query(`SELECT count(*)::int AS n FROM placement_calls`);
  return { calls: n.rows[0].n, seeded: true, hotDivisions: await hot() };
}
