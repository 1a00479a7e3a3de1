/**
 * The demo world's case side: credentialed providers, and patients with cases in every status
 * group (ARCHITECTURE "seed/"). Idempotent: credentialed providers are upserted by (facility,
 * provider); a demo patient (name + date of birth) and its case are written only once.
 */
import type { Client } from 'pg';
import { caseStatusGroupOf, type AcceptedPatientsRecord } from '@crisis/forms';

const ALL_AGES: AcceptedPatientsRecord = {
  allAges: true,
  adolescent: { isActive: false, from: null, to: null },
  adult: { isActive: false, from: null, to: null },
  geriatric: { isActive: false, from: null, to: null },
};

/** provider@itp is credentialed at the source facilities the demo cases come from. */
const CREDENTIALED = [
  { provider: 'provider@itp.example.org', facility: 'Tampa Bay General Hospital' },
  { provider: 'provider@itp.example.org', facility: 'Orlando Lakeside Medical Center' },
  { provider: 'provider@itp.example.org', facility: 'Atlanta Peachtree Regional Hospital' },
  { provider: 'provider@itp.example.org', facility: 'Savannah Coastal Medical Center' },
];

interface DemoCase {
  patient: { firstName: string; lastName: string; dateOfBirth: string; gender: string; city: string; county: string; zip: string; isVeteran?: boolean; ssn?: string };
  facility: string;
  division: string;
  /** Statuses the case went through, oldest first; the last is its status now. */
  path: string[];
  request: { type: string; status: string; provider?: boolean; started?: boolean };
  recommendation?: { main: string; criteria: string[]; note?: string };
  outcome?: { type: string; division?: { facility: string; name: string } };
  acceptedBy?: { facility: string; division: string };
  hoursAgo: number;
}

const DEMO_CASES: DemoCase[] = [
  {
    patient: { firstName: 'Maria', lastName: 'Lopez', dateOfBirth: '1988-04-12', gender: 'Female', city: 'Tampa', county: 'Hillsborough County', zip: '33606' },
    facility: 'Tampa Bay General Hospital',
    division: 'Emergency Department',
    path: ['PendingAssignment_DocumentationReview'],
    request: { type: 'Assessment', status: 'New' },
    hoursAgo: 1,
  },
  {
    patient: { firstName: 'James', lastName: 'Carter', dateOfBirth: '1975-09-30', gender: 'Male', city: 'Tampa', county: 'Hillsborough County', zip: '33607' },
    facility: 'Tampa Bay General Hospital',
    division: 'Emergency Department',
    path: ['PendingAssignment_DocumentationReview', 'RequestSentToProvider_ProviderNotified'],
    request: { type: 'Assessment', status: 'Pending', provider: true },
    hoursAgo: 2,
  },
  {
    patient: { firstName: 'Aisha', lastName: 'Khan', dateOfBirth: '1996-01-22', gender: 'Female', city: 'Orlando', county: 'Orange County', zip: '32803' },
    facility: 'Orlando Lakeside Medical Center',
    division: 'Emergency Department',
    path: ['PendingAssignment_DocumentationReview', 'RequestSentToProvider_ProviderNotified', 'ProviderWorkingRequest_DocumentationReview', 'ProviderWorkingRequest_AssessmentInProgress'],
    request: { type: 'Assessment', status: 'InProgress', provider: true, started: true },
    hoursAgo: 3,
  },
  {
    patient: { firstName: 'Robert', lastName: 'Nguyen', dateOfBirth: '1969-06-05', gender: 'Male', city: 'Atlanta', county: 'Fulton County', zip: '30309', isVeteran: true, ssn: '123-45-6789' },
    facility: 'Atlanta Peachtree Regional Hospital',
    division: 'Emergency Department',
    path: ['PendingAssignment_DocumentationReview', 'OnHold_MissingDocumentation'],
    request: { type: 'Assessment', status: 'New' },
    hoursAgo: 5,
  },
  {
    patient: { firstName: 'Emily', lastName: 'Brooks', dateOfBirth: '2008-11-17', gender: 'Female', city: 'Tampa', county: 'Hillsborough County', zip: '33609' },
    facility: 'Tampa Bay General Hospital',
    division: 'Emergency Department',
    path: ['PendingAssignment_DocumentationReview', 'RequestSentToProvider_ProviderNotified', 'ProviderWorkingRequest_AssessmentInProgress', 'RecommendationReview_WaitingOnDecision'],
    request: { type: 'Assessment', status: 'Completed', provider: true, started: true },
    recommendation: { main: 'MentalHealthInpatient', criteria: ['HighAcuity'], note: 'Adolescent unit preferred.' },
    hoursAgo: 7,
  },
  {
    patient: { firstName: 'Daniel', lastName: 'Reyes', dateOfBirth: '1983-02-14', gender: 'Male', city: 'Tampa', county: 'Hillsborough County', zip: '33610' },
    facility: 'Tampa Bay General Hospital',
    division: 'Emergency Department',
    path: ['PendingAssignment_DocumentationReview', 'RequestSentToProvider_ProviderNotified', 'ProviderWorkingRequest_AssessmentInProgress', 'RecommendationReview_WaitingOnDecision', 'LocatingServices_ContactingServiceOrganization'],
    request: { type: 'Assessment', status: 'Completed', provider: true, started: true },
    recommendation: { main: 'MentalHealthInpatient', criteria: ['SingleOccupancy', 'HighAcuity'] },
    hoursAgo: 10,
  },
  {
    patient: { firstName: 'Grace', lastName: 'Whitfield', dateOfBirth: '1958-07-03', gender: 'Female', city: 'Savannah', county: 'Chatham County', zip: '31405' },
    facility: 'Savannah Coastal Medical Center',
    division: 'Emergency Department',
    path: ['PendingAssignment_DocumentationReview', 'RequestSentToProvider_ProviderNotified', 'ProviderWorkingRequest_AssessmentInProgress', 'RecommendationReview_WaitingOnDecision', 'LocatingServices_ContactingServiceOrganization', 'ServicesLocated_WaitingForConfirmation'],
    request: { type: 'Assessment', status: 'Completed', provider: true, started: true },
    recommendation: { main: 'MentalHealthInpatient', criteria: [] },
    acceptedBy: { facility: 'Sunrise Behavioral Health Hospital', division: 'Adult Inpatient Unit' },
    hoursAgo: 20,
  },
  {
    patient: { firstName: 'Thomas', lastName: 'Hale', dateOfBirth: '1991-03-28', gender: 'Male', city: 'Tampa', county: 'Hillsborough County', zip: '33606' },
    facility: 'Tampa Bay General Hospital',
    division: 'Emergency Department',
    path: ['PendingAssignment_DocumentationReview', 'RequestSentToProvider_ProviderNotified', 'ProviderWorkingRequest_AssessmentInProgress', 'RecommendationReview_WaitingOnDecision', 'LocatingServices_ContactingServiceOrganization', 'ServicesLocated_WaitingForConfirmation', 'Closed'],
    request: { type: 'Assessment', status: 'Completed', provider: true, started: true },
    recommendation: { main: 'MentalHealthInpatient', criteria: [] },
    outcome: { type: 'Transferred_MentalHealthInpatient', division: { facility: 'Sunrise Behavioral Health Hospital', name: 'Adult Inpatient Unit' } },
    hoursAgo: 72,
  },
];

export async function seedCaseWorld(db: Client): Promise<{ cases: number }> {
  const one = async <T>(sql: string, params: unknown[]): Promise<T | undefined> => (await db.query(sql, params)).rows[0] as T | undefined;
  const divisionId = async (facility: string, name: string) =>
    (await one<{ id: number }>('SELECT d.id FROM divisions d JOIN facilities f ON f.id = d.facility_id WHERE f.name = $1 AND d.name = $2', [facility, name]))?.id;

  for (const c of CREDENTIALED) {
    const provider = await one<{ id: number }>('SELECT id FROM users WHERE lower(email) = $1', [c.provider]);
    const facility = await one<{ id: number }>('SELECT id FROM facilities WHERE name = $1', [c.facility]);
    if (!provider || !facility) continue;
    const cp = await one<{ id: number }>(
      `INSERT INTO credentialed_providers (facility_id, provider_id, add_to_new_divisions, accepted_patients)
       VALUES ($1, $2, true, $3) ON CONFLICT (facility_id, provider_id) DO UPDATE SET add_to_new_divisions = true RETURNING id`,
      [facility.id, provider.id, JSON.stringify(ALL_AGES)],
    );
    await db.query(
      `INSERT INTO credentialed_provider_divisions (credentialed_provider_id, division_id)
       SELECT $1, id FROM divisions WHERE facility_id = $2 AND type = 'Source' AND is_active ON CONFLICT DO NOTHING`,
      [cp!.id, facility.id],
    );
  }

  const provider = await one<{ id: number; name: string }>(
    "SELECT id, first_name || ' ' || last_name AS name FROM users WHERE lower(email) = 'provider@itp.example.org'",
    [],
  );
  const coordinator = await one<{ id: number; name: string }>(
    "SELECT id, first_name || ' ' || last_name AS name FROM users WHERE lower(email) = 'coordinator@itp.example.org'",
    [],
  );
  let created = 0;
  for (const c of DEMO_CASES) {
    const p = c.patient;
    const exists = await one('SELECT 1 FROM patients WHERE first_name = $1 AND last_name = $2 AND date_of_birth = $3', [p.firstName, p.lastName, p.dateOfBirth]);
    if (exists) continue;
    const division = await divisionId(c.facility, c.division);
    const facility = await one<{ id: number; street: string }>('SELECT id, street_line AS street FROM facilities WHERE name = $1', [c.facility]);
    if (!division || !facility) continue;
    const patient = await one<{ id: number }>(
      `INSERT INTO patients (first_name, last_name, date_of_birth, gender, phone, is_veteran, ssn, street_line, city, state, county, zip_code,
                             patient_epic_id, encounter_identifier, created_in_facility_id)
       VALUES ($1, $2, $3, $4, '+18135551234', $5, $6, '100 Main St', $7, (SELECT state FROM facilities WHERE id = $11), $8, $9, $10, $10 || '-E1', $11)
       RETURNING id`,
      [p.firstName, p.lastName, p.dateOfBirth, p.gender, !!p.isVeteran, p.ssn ?? null, p.city, p.county, p.zip, `E${100000 + created}`, facility.id],
    );
    const status = c.path[c.path.length - 1];
    const startedAt = (i: number) => `now() - interval '${c.hoursAgo * 60 - i * Math.max(1, Math.floor((c.hoursAgo * 60) / (c.path.length + 1)))} minutes'`;
    const outcomeDivision = c.outcome?.division ? await divisionId(c.outcome.division.facility, c.outcome.division.name) : null;
    const kase = await one<{ id: number }>(
      `INSERT INTO cases (patient_id, status, status_changed_at, status_to_resume, source_facility_id, source_division_id, attending_provider,
                          rn_caring_for_patient, contact_phone_number, notification_sending_method, main_recommendation, criteria,
                          recommendation_note, patient_epic_id, encounter_identifier_id, outcome_type, outcome_referring_division_id,
                          closed_at, created_by, created_at, locating_services_started_at)
       VALUES ($1, $2, ${startedAt(c.path.length - 1)}, $3, $4, $5, 'Dr. Sarah Mitchell', 'RN Kevin Ortiz', '+18135550102', 'PhoneCall', $6, $7, $8,
               $9, $9 || '-E1', $10, $11, ${status === 'Closed' ? startedAt(c.path.length - 1) : 'NULL'}, $12, ${startedAt(0)},
               ${c.path.includes('LocatingServices_ContactingServiceOrganization') ? startedAt(c.path.indexOf('LocatingServices_ContactingServiceOrganization')) : 'NULL'})
       RETURNING id`,
      [
        patient!.id,
        status,
        status.startsWith('OnHold') ? c.path[c.path.length - 2] : null,
        facility.id,
        division,
        c.recommendation?.main ?? null,
        c.recommendation?.criteria ?? [],
        c.recommendation?.note ?? null,
        `E${100000 + created}`,
        c.outcome?.type ?? null,
        outcomeDivision,
        coordinator?.id ?? null,
      ],
    );
    for (const [i, s] of c.path.entries()) {
      const last = i === c.path.length - 1;
      await db.query(
        `INSERT INTO case_activities (case_id, status, status_group, kind, initiator_id, initiator_name, started_at, ended_at)
         VALUES ($1, $2, $3, $4, $5, $6, ${startedAt(i)}, ${last ? (s === 'Closed' ? startedAt(i) : 'NULL') : startedAt(i + 1)})`,
        [kase!.id, s, caseStatusGroupOf(s), i === 0 ? 'created' : 'manual', coordinator?.id ?? null, coordinator?.name ?? 'ITP coordinator'],
      );
    }
    await db.query(
      `INSERT INTO requests (case_id, type, status, evaluation_provider_id, division_id, note, created_by, created_at, evaluation_started_at, completed_at)
       VALUES ($1, $2, $3, $4, $5, 'Patient agitated, requesting evaluation.', $6, ${startedAt(0)},
               ${c.request.started ? startedAt(1) : 'NULL'}, ${c.request.status === 'Completed' ? startedAt(2) : 'NULL'})`,
      [kase!.id, c.request.type, c.request.status, c.request.provider ? (provider?.id ?? null) : null, division, coordinator?.id ?? null],
    );
    await db.query('INSERT INTO medical_information (case_id) VALUES ($1)', [kase!.id]);
    if (c.recommendation && ['LocatingServices_ContactingServiceOrganization', 'ServicesLocated_WaitingForConfirmation', 'Closed'].includes(status)) {
      // The demo's placements: the best-scored divisions of the recommended type (the workflow's
      // matching generates them for real cases).
      await db.query(
        `INSERT INTO placement_tasks (case_id, division_id, facility_id, origin, reasons, rank, created_at)
         SELECT $1, d.id, d.facility_id, 'generated', ARRAY[replace(d.referring_type, 'MentalHealth', 'Mental Health ') || ' division'],
                row_number() OVER (ORDER BY d.score DESC NULLS LAST, d.id), ${startedAt(c.path.indexOf('LocatingServices_ContactingServiceOrganization'))}
           FROM divisions d JOIN facilities f ON f.id = d.facility_id
          WHERE d.type = 'Referring' AND d.is_active AND f.is_active AND d.referring_type = $2
          ORDER BY d.score DESC NULLS LAST, d.id LIMIT 5`,
        [kase!.id, c.recommendation.main],
      );
    }
    if (c.acceptedBy) {
      const accepted = await divisionId(c.acceptedBy.facility, c.acceptedBy.division);
      if (accepted) {
        await db.query(
          `INSERT INTO case_referring_access (case_id, division_id, granted_at, accepted_at) VALUES ($1, $2, now() - interval '2 hours', now() - interval '1 hour')`,
          [kase!.id, accepted],
        );
      }
    }
    created++;
  }
  return { cases: created };
}
