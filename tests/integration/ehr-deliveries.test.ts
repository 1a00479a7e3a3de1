import { UserType, caseReference } from '@crisis/forms';
import { api, eventually } from '../support/api';
import { completeEvaluation, createCase, tampaDivisions } from '../support/cases';
import { db } from '../support/db';
import { signInAs } from '../support/oidc-client';

/**
 * What the platform files in a hospital's EHR, for real: the worker's delivery workflow calls the
 * local FHIR R4 server (api/src/ehr/fhir-local, started by npm test) through the EHR adapter, with
 * SMART Backend Services tokens. The test breaks the server through its control API (/local). The
 * stack retries EHR deliveries 4 times, 1 s doubling (scripts/test.mjs).
 */
const EHR = process.env.EHR_LOCAL_BASE_URL!;

const local = async <T = any>(method: string, p: string, body?: unknown): Promise<T> => {
  const res = await fetch(`${EHR}${p}`, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
};
const identifiedBy = (key: string) => (r: any) => (r.identifier ?? []).some((i: any) => i.value === key);

const deliveriesOf = async (caseId: number) =>
  (await db.query('SELECT id::text, kind, status, round, attempts, last_error, ehr_resource_id, key FROM ehr_deliveries WHERE case_id = $1 ORDER BY id', [caseId])).rows;
const ehrLines = async (caseId: number) =>
  (await db.query("SELECT note FROM case_activities WHERE case_id = $1 AND kind = 'ehr' ORDER BY id", [caseId])).rows.map((r) => r.note as string);

describe('EHR deliveries: the evaluation document, the claim and the outcome go to the EHR', () => {
  let tampa: { facilityId: number; edId: number; floorId: number };
  let admin: string;
  let coordinator: string;
  let provider: string;
  let providerId: number;

  /** An assessment of Jordan Rivera (MRN E1001, encounter ENC-1001 in the local EHR), completed by the demo provider. */
  async function completedAssessment() {
    const c = await createCase({
      token: coordinator,
      facilityId: tampa.facilityId,
      divisionId: tampa.edId,
      providerId,
      body: { requestType: 'Assessment', patientEpicId: 'E1001', encounterIdentifier: 'ENC-1001' },
    });
    await completeEvaluation(provider, c.requestId);
    return c;
  }

  const billAssessments = (bill: boolean) =>
    db.query(
      `INSERT INTO facility_evaluation_forms (facility_id, request_type, is_athena_billed) VALUES ($1, 'Assessment', $2)
       ON CONFLICT (facility_id, request_type) DO UPDATE SET is_athena_billed = EXCLUDED.is_athena_billed`,
      [tampa.facilityId, bill],
    );

  beforeAll(async () => {
    tampa = await tampaDivisions();
    [admin, coordinator, provider] = (await Promise.all([signInAs(UserType.ItpAdmin), signInAs(UserType.ItpUser), signInAs(UserType.ItpProvider)])).map((s) => s.accessToken);
    providerId = (await db.query("SELECT id FROM users WHERE email = 'provider@itp.example.org'")).rows[0].id;
  });

  afterEach(async () => {
    await local('POST', '/local/faults', {});
    await billAssessments(false);
  });

  it('uploads the evaluation once after the EHR answered 503 twice, and shows it in the case activity', async () => {
    await local('POST', '/local/faults', { 'DocumentReference.create': { status: 503, times: 2 } });
    const c = await completedAssessment();

    const [d] = await eventually(async () => {
      const rows = await deliveriesOf(c.id);
      return rows.length && rows.every((r) => r.status !== 'Pending') && rows;
    }, 'the delivery to end', 60_000);
    expect(d).toMatchObject({ kind: 'EvaluationDocument', status: 'Delivered', attempts: 3, last_error: null });
    expect(d.ehr_resource_id).toMatch(/^DocumentReference\//);

    // Exactly one document for the request, the assessment's title, on the request's encounter.
    const docs = (await local<any[]>('GET', '/local/resources/DocumentReference')).filter(identifiedBy(d.key));
    expect(docs).toHaveLength(1);
    expect(docs[0].description).toBe('Tele-psych Initial Assessment');
    expect(docs[0].content[0].attachment.contentType).toBe('application/pdf');
    expect(Buffer.from(docs[0].content[0].attachment.data, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    expect(docs[0].context.encounter[0].reference).toMatch(/^Encounter\//);

    // The case activity: the refusal once, then the upload.
    const lines = await ehrLines(c.id);
    expect(lines[0]).toMatch(/^EHR: evaluation document not accepted yet, retrying/);
    expect(lines[lines.length - 1]).toBe(`EHR: evaluation document uploaded (${d.ehr_resource_id})`);
    // …and the case page's activity shows it to the coordinator.
    const activity = await api('GET', `/api/cases/${c.id}/activity`, { token: coordinator });
    expect(activity.status).toBe(200);
    expect(JSON.stringify(activity.body)).toContain('EHR: evaluation document uploaded');
    // Nothing failed: nobody is told.
    expect((await db.query("SELECT 1 FROM notifications WHERE case_id = $1 AND type = 'EhrDeliveryFailed'", [c.id])).rows).toHaveLength(0);
  });

  it('fails a refused claim, tells the coordinators, and files it when the ITP admin retries', async () => {
    await billAssessments(true);
    await local('POST', '/local/faults', { 'Claim.create': { status: 422, times: 1 } });
    const c = await completedAssessment();

    const claim = await eventually(async () => {
      const row = (await deliveriesOf(c.id)).find((r) => r.kind === 'Claim');
      return row && row.status !== 'Pending' && row;
    }, 'the claim to fail', 60_000);
    // A refusal (4xx) is not retried: one try, failed, the EHR's words kept.
    expect(claim).toMatchObject({ status: 'Failed', attempts: 1, round: 1 });
    expect(claim.last_error).toBeTruthy();
    expect(await ehrLines(c.id)).toEqual(expect.arrayContaining([expect.stringMatching(/^EHR: claim failed/)]));
    const told = await db.query("SELECT audience, payload FROM notifications WHERE case_id = $1 AND type = 'EhrDeliveryFailed'", [c.id]);
    expect(told.rows).toHaveLength(1);
    expect(told.rows[0]).toMatchObject({ audience: 'itp', payload: expect.objectContaining({ DeliveryKind: 'Claim' }) });

    // Only the ITP admin retries; bad reference numbers change nothing.
    expect((await api('PUT', '/api/cases/retry', { token: coordinator, body: { referenceNumbers: [caseReference(c.id)] } })).status).toBe(403);
    const bad = await api('PUT', '/api/cases/retry', { token: admin, body: { referenceNumbers: ['not-a-case'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('INV');

    const retried = await api('PUT', '/api/cases/retry', { token: admin, body: { referenceNumbers: [caseReference(c.id), '#999999999'] } });
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual({ retried: [caseReference(c.id)], nothingToRetry: [], notFound: ['#999999999'] });

    const filed = await eventually(async () => {
      const row = (await deliveriesOf(c.id)).find((r) => r.kind === 'Claim');
      return row?.status === 'Delivered' && row;
    }, 'the retried claim to be filed', 60_000);
    expect(filed).toMatchObject({ round: 2, ehr_resource_id: expect.stringMatching(/^Claim\//) });
    const claims = (await local<any[]>('GET', '/local/resources/Claim')).filter(identifiedBy(filed.key));
    expect(claims).toHaveLength(1);
    expect(claims[0].diagnosis.length).toBeGreaterThan(0);
    // A second retry finds nothing failed.
    const again = await api('PUT', '/api/cases/retry', { token: admin, body: { referenceNumbers: [caseReference(c.id)] } });
    expect(again.body).toEqual({ retried: [], nothingToRetry: [caseReference(c.id)], notFound: [] });
  });

  it('files the outcome in the EHR when the case is closed', async () => {
    const c = await completedAssessment();
    const closed = await api('PUT', `/api/cases/${c.id}/close`, {
      token: coordinator,
      body: { outcomeRequired: true, caseOutcomeType: 'Discharged_MentalHealthOutpatient_Home', note: 'Home with outpatient follow-up' },
    });
    expect(closed.status).toBe(200);
    const outcome = await eventually(async () => {
      const row = (await deliveriesOf(c.id)).find((r) => r.kind === 'CaseOutcome');
      return row?.status === 'Delivered' && row;
    }, 'the outcome to be filed', 60_000);
    const docs = (await local<any[]>('GET', '/local/resources/DocumentReference')).filter(identifiedBy(outcome.key));
    expect(docs).toHaveLength(1);
    expect(docs[0].description).toBe('Tele-psych Case Outcome');
    expect(Buffer.from(docs[0].content[0].attachment.data, 'base64').toString()).toContain('Home with outpatient follow-up');
  });

  it("tells the case page what the EHR knows now: the encounter, and the fields the platform has otherwise", async () => {
    const c = await createCase({
      token: coordinator,
      facilityId: tampa.facilityId,
      divisionId: tampa.edId,
      providerId,
      patient: { firstName: 'Jordan', lastName: 'Rivers', dateOfBirth: '1990-06-15', phone: '+18135551234' },
      body: { requestType: 'Assessment', patientEpicId: 'E1001', encounterIdentifier: 'ENC-1001' },
    });
    const info = await api('GET', `/api/cases/patient-periodic-information-in-ehr/${c.id}/ENC-1001`, { token: coordinator });
    expect(info.status).toBe(200);
    expect(info.body.patient).toMatchObject({ patientId: 'E1001', firstName: 'Jordan', lastName: 'Rivera' });
    expect(info.body.patient.fhirId).toBeUndefined();
    expect(info.body.encounter).toMatchObject({ id: 'ENC-1001', status: 'in-progress', belongsToPatient: true });
    // The platform spelled the last name otherwise; names, date and phone agree otherwise.
    expect(info.body.differences).toEqual([{ field: 'lastName', label: 'Last name', platform: 'Rivers', ehr: 'Rivera' }]);
    // Another patient's encounter is said so; an unknown one is null; a user who may not read the case is refused.
    expect((await api('GET', `/api/cases/patient-periodic-information-in-ehr/${c.id}/ENC-2002`, { token: coordinator })).body.encounter.belongsToPatient).toBe(false);
    expect((await api('GET', `/api/cases/patient-periodic-information-in-ehr/${c.id}/ENC-NONE`, { token: coordinator })).body.encounter).toBeNull();
    const group = (await signInAs(UserType.GroupUser)).accessToken;
    expect((await api('GET', `/api/cases/patient-periodic-information-in-ehr/${c.id}/ENC-1001`, { token: group })).status).toBe(403);
    expect((await api('GET', '/api/cases/patient-periodic-information-in-ehr/999999999/ENC-1001', { token: coordinator })).status).toBe(404);
  });

  it("gives a case its EHR encounter after creation, only the patient's own", async () => {
    // Created with an encounter id the EHR does not know (typed wrong, say).
    const c = await createCase({ token: coordinator, facilityId: tampa.facilityId, divisionId: tampa.edId, providerId, body: { requestType: 'Assessment', patientEpicId: 'E1001', encounterIdentifier: 'ENC-TYPO' } });
    const put = (encounter: string, token = coordinator) => api('PUT', `/api/cases/add-encounteridentifiertocases-in-ehr/${c.id}/${encounter}`, { token });
    const stored = async () => (await db.query('SELECT encounter_identifier_id AS e FROM cases WHERE id = $1', [c.id])).rows[0].e;
    // Another patient's encounter, or one the EHR does not know: refused, the case keeps its own.
    expect((await put('ENC-2002')).error?.code).toBe('INV.EHR.ENCOUNTER.OTHER.PATIENT');
    expect((await put('ENC-NONE')).error?.code).toBe('INV.EHR.ENCOUNTER.NOT.FOUND');
    expect((await put('ENC-1001', (await signInAs(UserType.GroupUser)).accessToken)).status).toBe(403);
    expect(await stored()).toBe('ENC-TYPO');
    // The patient's own encounter: the case keeps it.
    const ok = await put('ENC-1001');
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ caseId: c.id, encounterIdentifier: 'ENC-1001' });
    expect(await stored()).toBe('ENC-1001');
    const audit = await db.query("SELECT success FROM audit_log WHERE main_action = 'Case.AddEncounterIdentifier' ORDER BY performed_at DESC LIMIT 1");
    expect(audit.rows[0]?.success).toBe(true);
  });

  it('sends nothing for a case of a facility without an EHR connection', async () => {
    const { rows } = await db.query("SELECT f.id AS \"facilityId\", d.id AS \"divisionId\" FROM facilities f JOIN divisions d ON d.facility_id = f.id WHERE f.name = 'Orlando Lakeside Medical Center' AND d.name = 'Emergency Department'");
    const c = await createCase({ token: coordinator, ...rows[0], providerId, body: { requestType: 'Assessment', patientEpicId: null, encounterIdentifier: null } });
    await completeEvaluation(provider, c.requestId);
    expect(await deliveriesOf(c.id)).toEqual([]);
  });
});
