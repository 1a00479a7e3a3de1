/**
 * Bench data of the case domain (issue 4 `npm run bench`): 100,000 patients with one case each
 * (about 3 % open, spread over the open statuses and the source divisions) and 1,000,000 case
 * activity rows, written by set-based SQL in one transaction. Idempotent: skipped when the bench
 * patients are there already.
 */
import type { Client } from 'pg';

export const BENCH_CASES = 100_000;
export const BENCH_ACTIVITIES_PER_CASE = 10;

const OPEN_STATUSES = [
  'PendingAssignment_DocumentationReview',
  'OnHold_MissingDocumentation',
  'RequestSentToProvider_ProviderNotified',
  'ProviderWorkingRequest_AssessmentInProgress',
  'RecommendationReview_WaitingOnDecision',
  'LocatingServices_ContactingServiceOrganization',
  'ServicesLocated_WaitingForConfirmation',
];

export async function seedBenchCases(db: Client): Promise<{ cases: number; activities: number; seeded: boolean }> {
  const have = await db.query(`SELECT count(*)::int AS n FROM patients WHERE last_name LIKE 'Bench%'`);
  if (have.rows[0].n >= BENCH_CASES) {
    const a = await db.query('SELECT count(*)::int AS n FROM case_activities');
    return { cases: have.rows[0].n, activities: a.rows[0].n, seeded: false };
  }
  await db.query('BEGIN');
  try {
    await db.query(`DELETE FROM cases WHERE patient_id IN (SELECT id FROM patients WHERE last_name LIKE 'Bench%')`);
    await db.query(`DELETE FROM patients WHERE last_name LIKE 'Bench%'`);
    await db.query(
      `INSERT INTO patients (first_name, last_name, date_of_birth, gender, street_line, city, state, county, zip_code)
       SELECT (ARRAY['Ava','Liam','Mia','Noah','Zoe','Eli','Ivy','Leo','Ada','Max'])[1 + g % 10] || g,
              'Bench' || lpad(g::text, 6, '0'), date '1940-01-01' + (g % 25000), (ARRAY['Female','Male'])[1 + g % 2],
              '1 Bench St', 'Tampa', 'FL', 'Hillsborough County', '33606'
         FROM generate_series(1, $1) g`,
      [BENCH_CASES],
    );
    await db.query(
      `WITH src AS (SELECT array_agg(id ORDER BY id) AS ids, array_agg(facility_id ORDER BY id) AS fids
                      FROM divisions WHERE type = 'Source' AND is_active),
            p AS (SELECT id, row_number() OVER (ORDER BY id) AS g FROM patients WHERE last_name LIKE 'Bench%')
       INSERT INTO cases (patient_id, status, source_facility_id, source_division_id, contact_phone_number, main_recommendation,
                          criteria, created_at, status_changed_at, closed_at, outcome_type)
       SELECT p.id,
              CASE WHEN p.g % 33 = 0 THEN ($1::text[])[1 + (p.g / 33) % array_length($1::text[], 1)] ELSE 'Closed' END,
              src.fids[1 + p.g % array_length(src.ids, 1)], src.ids[1 + p.g % array_length(src.ids, 1)], '+18135550000',
              (ARRAY['MentalHealthInpatient','CrisisCenter','Outpatient','DetoxUnit'])[1 + p.g % 4],
              CASE WHEN p.g % 4 = 0 THEN ARRAY['HighAcuity'] ELSE '{}' END,
              now() - make_interval(mins => (p.g % 129600)::int), now() - make_interval(mins => (p.g % 600)::int),
              CASE WHEN p.g % 33 = 0 THEN NULL ELSE now() - make_interval(mins => (p.g % 120000)::int) END,
              CASE WHEN p.g % 33 = 0 THEN NULL ELSE 'LeftAMA' END
         FROM p, src`,
      [OPEN_STATUSES],
    );
    await db.query(
      `INSERT INTO requests (case_id, type, status, division_id, created_at, completed_at)
       SELECT c.id, 'Assessment', CASE WHEN c.status = 'Closed' OR c.status LIKE 'Recommendation%' OR c.status LIKE 'Locating%' OR c.status LIKE 'Services%'
                                       THEN 'Completed' ELSE 'New' END,
              c.source_division_id, c.created_at, CASE WHEN c.status = 'Closed' THEN c.closed_at END
         FROM cases c JOIN patients p ON p.id = c.patient_id WHERE p.last_name LIKE 'Bench%'`,
    );
    await db.query(
      `INSERT INTO case_activities (case_id, status, status_group, kind, initiator_name, started_at, ended_at)
       SELECT c.id, s.status, split_part(s.status, '_', 1), 'manual', 'Bench coordinator',
              c.created_at + make_interval(mins => k * 10), c.created_at + make_interval(mins => k * 10 + 10)
         FROM cases c JOIN patients p ON p.id = c.patient_id
         CROSS JOIN generate_series(0, $1 - 1) k
         CROSS JOIN LATERAL (SELECT (ARRAY['PendingAssignment_DocumentationReview','RequestSentToProvider_ProviderNotified',
                                          'ProviderWorkingRequest_DocumentationReview','ProviderWorkingRequest_AssessmentInProgress',
                                          'RecommendationReview_WaitingOnDecision','LocatingServices_ContactingServiceOrganization',
                                          'OnHold_WaitingForFacility','LocatingServices_ContactingServiceOrganization',
                                          'ServicesLocated_WaitingForConfirmation','Closed'])[1 + k] AS status) s
        WHERE p.last_name LIKE 'Bench%'
        ORDER BY c.id, k`, // ids in the order of each case's changes: "newest" is the highest id
      [BENCH_ACTIVITIES_PER_CASE],
    );
    await db.query('COMMIT');
  } catch (err) {
    await db.query('ROLLBACK');
    throw err;
  }
  await db.query('ANALYZE patients; ANALYZE cases; ANALYZE requests; ANALYZE case_activities');
  const a = await db.query('SELECT count(*)::int AS n FROM case_activities');
  return { cases: BENCH_CASES, activities: a.rows[0].n, seeded: true };
}
