/**
 * Case builders for the suites (ARCHITECTURE "fixture builders"): a case through the real API,
 * and the provider's steps that bring it to recommendation review and then to contacting.
 */
import { visibleQuestions, type Answers, type QuestionnaireItem } from '@crisis/forms';
import { api } from './api';
import { db } from './db';

export interface NewCaseOptions {
  token: string;
  /** The source facility and division; leave out for a facility user (hers are implied). */
  facilityId?: number;
  divisionId?: number;
  /** The evaluating provider; leave out for none. */
  providerId?: number | null;
  patient?: Record<string, unknown>;
  body?: Record<string, unknown>;
}

/** A short run of letters for unique, name-valid patient names. */
export const uniqueLetters = () => Date.now().toString(36).replace(/[^a-z]/g, '').slice(-6) + Math.random().toString(36).replace(/[^a-z]/g, '').slice(0, 3);

/** A valid POST /api/cases body (an adult patient in Tampa, uninsured, EHR ids the local EHR knows); `patient` may be replaced by a `patientId` in `body`. */
export function caseBody(o: Omit<NewCaseOptions, 'token'>): Record<string, unknown> {
  const body: Record<string, unknown> = {
    patient: {
      firstName: `Case${uniqueLetters()}`,
      lastName: 'Journey',
      dateOfBirth: '1985-03-03',
      gender: 'Male',
      address: { streetLine: '1 Bay St', city: 'Tampa', state: 'FL', county: 'Hillsborough County', zipCode: '33606' },
      ...o.patient,
    },
    sourceFacilityId: o.facilityId,
    sourceDivisionId: o.divisionId,
    evaluationProviderId: o.providerId,
    contactPhoneNumber: '+18135550199',
    notificationSendingMethod: 'PhoneCall',
    requestType: 'Assessment',
    // Casey Morgan's ids in the local EHR (api/src/ehr/fhir-local): an evaluation completed at
    // Tampa's EHR-integrated divisions is uploaded there, and must find its patient and encounter.
    patientEpicId: 'E1002',
    encounterIdentifier: 'ENC-2002',
    uninsured: true,
    ...o.body,
  };
  if (o.body && 'patientId' in o.body) delete body.patient; // an existing patient
  return body;
}

/** POST /api/cases with caseBody(o); returns { id, requestId, status }. */
export async function createCase(o: NewCaseOptions): Promise<{ id: number; requestId: number; status: string }> {
  const created = await api('POST', '/api/cases', { token: o.token, body: caseBody(o) });
  if (created.status !== 201) throw new Error(`case not created: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body;
}

/**
 * Answers every question a form requires (the first option of a choice, a sentence for text),
 * following the conditions: an answer may show further required questions.
 */
export function answerEverything(items: readonly QuestionnaireItem[], given: Answers = {}): Answers {
  const answers: Answers = { ...given };
  for (let pass = 0; pass < 5; pass++)
    for (const q of visibleQuestions(items, answers))
      if (q.required && answers[q.name] === undefined)
        answers[q.name] = q.type === 'text' ? `Answer to ${q.label}` : q.type === 'checkbox' ? [q.options![0].key] : q.options![0].key;
  return answers;
}

export interface EvaluationChoices {
  mainRecommendation?: string;
  recommendationCriteria?: string[];
  recommendationNote?: string | null;
  answers?: Answers;
}

/** Saves a complete evaluation through the API as the provider; returns the body completion needs. */
export async function fillEvaluation(providerToken: string, requestId: number, choices: EvaluationChoices = {}) {
  const view = await api('GET', `/api/requests/${requestId}/evaluation`, { token: providerToken });
  if (view.status !== 200) throw new Error(`evaluation: ${view.status} ${JSON.stringify(view.body)}`);
  const diagnosis = (await db.query(`SELECT code FROM diagnoses ORDER BY code LIMIT 1`)).rows[0].code;
  const billing = view.body.showBillingCode ? (await db.query('SELECT id FROM billing_codes WHERE is_active ORDER BY id LIMIT 1')).rows.map((r) => r.id) : [];
  const saved = await api('PUT', `/api/requests/${requestId}/evaluation`, {
    token: providerToken,
    body: {
      version: view.body.version,
      primaryDiagnosisId: diagnosis,
      billingCodes: billing,
      mainRecommendation: choices.mainRecommendation ?? 'MentalHealthInpatient',
      recommendationCriteria: choices.recommendationCriteria ?? ['HighAcuity'],
      recommendationNote: choices.recommendationNote ?? null,
      answers: answerEverything(view.body.form.items, { ...view.body.answers, ...choices.answers }),
    },
  });
  if (saved.status !== 200) throw new Error(`evaluation save: ${saved.status} ${JSON.stringify(saved.body)}`);
  return { sourceDivisionId: view.body.sourceDivisionId as number, version: saved.body.version as number };
}

/** The provider opens the request, starts, fills and completes the evaluation: the case waits on a decision. */
export async function completeEvaluation(providerToken: string, requestId: number, choices: EvaluationChoices = {}): Promise<void> {
  for (const step of ['in-progress', 'evaluation/start']) {
    const res = await api('PUT', `/api/requests/${requestId}/${step}`, { token: providerToken });
    if (res.status !== 200) throw new Error(`${step}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  const body = await fillEvaluation(providerToken, requestId, choices);
  const res = await api('PUT', `/api/requests/${requestId}/evaluation/complete`, { token: providerToken, body });
  if (res.status !== 200) throw new Error(`evaluation/complete: ${res.status} ${JSON.stringify(res.body)}`);
}

/** Recommendation review → contacting service organizations (which generates the placement tasks). */
export async function startContacting(token: string, caseId: number, mainRecommendation = 'MentalHealthInpatient'): Promise<void> {
  const res = await api('PUT', `/api/cases/${caseId}/status`, {
    token,
    body: { status: 'LocatingServices_ContactingServiceOrganization', mainRecommendation, criteria: [], includeOutOfStateFacilities: false },
  });
  if (res.status !== 200) throw new Error(`contacting: ${res.status} ${JSON.stringify(res.body)}`);
}

/** A case of an adult man, with the evaluation done, being placed (contacting). */
export async function contactingCase(o: NewCaseOptions & { providerToken: string }): Promise<number> {
  const c = await createCase(o);
  await completeEvaluation(o.providerToken, c.requestId);
  await startContacting(o.token, c.id);
  return c.id;
}

/** The demo world's Tampa Bay General Hospital: its id, its emergency department and medical floor. */
export async function tampaDivisions(): Promise<{ facilityId: number; edId: number; floorId: number }> {
  const { rows } = await db.query(
    `SELECT f.id AS "facilityId", max(d.id) FILTER (WHERE d.name = 'Emergency Department') AS "edId",
            max(d.id) FILTER (WHERE d.name = 'Medical Floor 5 West') AS "floorId"
       FROM facilities f JOIN divisions d ON d.facility_id = f.id WHERE f.name = 'Tampa Bay General Hospital' GROUP BY f.id`,
  );
  if (!rows[0]) throw new Error('the seed has no Tampa Bay General Hospital');
  return rows[0];
}

/** Who takes a Tampa case to placement: the demo ITP coordinator and provider, and the medical floor the case comes from. */
export async function placementTeam(): Promise<{ coordinator: string; provider: string; providerId: number; floor: { facilityId: number; divisionId: number } }> {
  const { signInAs } = await import('./oidc-client');
  const coordinator = (await signInAs('IntegratedTelehealthPartners_User')).accessToken;
  const provider = (await signInAs('IntegratedTelehealthPartners_Provider')).accessToken;
  const providerId = (await db.query("SELECT id FROM users WHERE email = 'provider@itp.example.org'")).rows[0].id as number;
  const tampa = await tampaDivisions();
  return { coordinator, provider, providerId, floor: { facilityId: tampa.facilityId, divisionId: tampa.floorId } };
}
