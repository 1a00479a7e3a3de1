import { ErrorCode, UserType, type QuestionnaireItem } from '@crisis/forms';
import { api } from '../support/api';
import { enc } from '../support/audit';
import { answerEverything, createCase, fillEvaluation, startContacting, tampaDivisions } from '../support/cases';
import { db } from '../support/db';
import { download, pdfText } from '../support/files';
import { signInAs } from '../support/oidc-client';

/**
 * The evaluation (spec 02 §2 "Evaluation screen", §4 "Evaluation flow", §5 "Evaluation"): the
 * provider answers the questionnaire of the form version the request uses; drafts autosave, a
 * stale save is refused, completion checks everything and moves the case through the workflow,
 * an edit after completion needs a reason and leaves a change log.
 */
const screening: QuestionnaireItem[] = [
  { type: 'heading', label: 'Screening' },
  { type: 'radio', name: 'si', label: 'Suicidal ideation', required: true, kind: 'general', options: [{ key: 'yes', label: 'Yes' }, { key: 'no', label: 'No' }] },
  { type: 'text', name: 'plan', label: 'Describe the plan', required: true, kind: 'general', conditions: { kind: 'showIfAny', items: [{ question: 'si', answer: 'yes' }] } },
  { type: 'radio', name: 'activeDetox', label: 'Active detox', required: false, kind: 'medicalInformation', system: 'activeDetox', options: [{ key: 'yes', label: 'Yes' }, { key: 'no', label: 'No' }] },
];

let admin: string;
let coordinator: string;
let provider: string;
let providerId: number;
let tampa: Awaited<ReturnType<typeof tampaDivisions>>;
let formId: number;
let diagnosis: string;

/** A case on Tampa's medical floor (which uses the screening form for assessments while this suite runs), opened and started by the provider. */
async function startedRequest(): Promise<{ caseId: number; requestId: number }> {
  const c = await createCase({ token: coordinator, facilityId: tampa.facilityId, divisionId: tampa.floorId, providerId, body: { requestType: 'Assessment' } });
  // What the coordinators recorded (their own route and its claim are tested elsewhere).
  await db.query(
    `INSERT INTO medical_information (case_id, data) VALUES ($1, '{"activeDetox": true}')
     ON CONFLICT (case_id) DO UPDATE SET data = medical_information.data || EXCLUDED.data`,
    [c.id],
  );
  for (const step of ['in-progress', 'evaluation/start']) expect((await api('PUT', `/api/requests/${c.requestId}/${step}`, { token: provider })).status).toBe(200);
  return { caseId: c.id, requestId: c.requestId };
}
const view = (requestId: number, token = provider) => api('GET', `/api/requests/${requestId}/evaluation`, { token });
const save = (requestId: number, body: Record<string, unknown>) => api('PUT', `/api/requests/${requestId}/evaluation`, { token: provider, body });

beforeAll(async () => {
  [admin, coordinator, provider] = (
    await Promise.all([signInAs(UserType.ItpAdmin), signInAs(UserType.ItpUser), signInAs(UserType.ItpProvider)])
  ).map((r) => r.accessToken);
  providerId = (await db.query("SELECT id FROM users WHERE email = 'provider@itp.example.org'")).rows[0].id;
  tampa = await tampaDivisions();
  diagnosis = (await db.query('SELECT code FROM diagnoses ORDER BY code LIMIT 1')).rows[0].code;
  const form = await api('POST', '/api/evaluation-forms', { token: admin, body: { name: `Screening ${Date.now()}`, options: { items: screening } } });
  formId = form.body.id;
  await api('PUT', `/api/facilities/${tampa.facilityId}/evaluation-forms`, { token: admin, body: { requestType: 'Assessment', evaluationFormId: formId, isAthenaBilled: false } });
});

afterAll(async () => {
  await api('PUT', `/api/facilities/${tampa.facilityId}/evaluation-forms`, { token: admin, body: { requestType: 'Assessment', evaluationFormId: null, isAthenaBilled: false } });
});

describe('evaluations', () => {
  it("opens on the facility's form for the request type, medical-information questions filled from the case", async () => {
    const { requestId } = await startedRequest();
    const res = await view(requestId);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ mode: 'new', version: 0, form: { id: formId, version: 1, items: screening }, answers: { activeDetox: 'yes' } });
    // Read-only for partner staff; another provider's request is not his.
    expect((await view(requestId, coordinator)).body.mode).toBe('readOnly');
  });

  it("offers the billing codes of the request's type and the source division's type, active ones only; the request says when it has an evaluation", async () => {
    const { caseId, requestId } = await startedRequest();
    const inactive = (await db.query(`INSERT INTO billing_codes (code, description, source_division_types, request_types, is_active)
      VALUES ($1, 'Retired assessment code', '{MedFloor}', '{Assessment}', false) RETURNING id`, [`Z${Date.now() % 100000}`])).rows[0].id;
    const res = await api('GET', `/api/requests/${requestId}/evaluation/billing-codes`, { token: provider });
    expect(res.status).toBe(200);
    // Tampa's medical floor is a MedFloor division; the request an Assessment (seeded codes, spec 03 reference data).
    expect(res.body.map((b: { code: string }) => b.code)).toEqual(['90791', '90792', 'H0031']);
    expect(res.body.map((b: { id: number }) => b.id)).not.toContain(inactive);
    const requestOf = async () => (await api('GET', `/api/cases/${caseId}`, { token: coordinator })).body.requests.find((r: { id: number }) => r.id === requestId);
    expect((await requestOf()).hasEvaluation).toBe(false);
    expect((await save(requestId, { version: 0, answers: { si: 'no' } })).status).toBe(200);
    expect((await requestOf()).hasEvaluation).toBe(true);
  });

  it('autosaves a partial draft, but not a wrong answer, and refuses a save from an older version', async () => {
    const { requestId } = await startedRequest();
    const first = await save(requestId, { version: 0, answers: { si: 'yes' } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ requestId, version: 1 });
    expect((await view(requestId)).body).toMatchObject({ version: 1, answers: { si: 'yes' } });
    const wrong = await save(requestId, { version: 1, answers: { si: 'perhaps' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: ErrorCode.EvaluationCannotBeSaved, fields: [expect.objectContaining({ field: 'answers.si' })] });
    // A second tab still at version 0 does not overwrite the first.
    const stale = await save(requestId, { version: 0, answers: { si: 'no' } });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe(ErrorCode.EvaluationStale);
    expect((await view(requestId)).body.answers).toEqual({ si: 'yes' });
  });

  it('refuses completion while a conditional required answer is missing, then completes through the case workflow', async () => {
    const { caseId, requestId } = await startedRequest();
    const draft = { primaryDiagnosisId: diagnosis, mainRecommendation: 'MentalHealthInpatient', recommendationCriteria: ['HighAcuity'] };
    const saved = await save(requestId, { ...draft, version: 0, answers: { si: 'yes' } });
    const complete = (version: number) =>
      api('PUT', `/api/requests/${requestId}/evaluation/complete`, { token: provider, body: { sourceDivisionId: tampa.floorId, version } });
    const refused = await complete(saved.body.version);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: ErrorCode.EvaluationCannotBeCompleted, fields: [expect.objectContaining({ field: 'answers.plan', key: 'required' })] });
    const answered = await save(requestId, { ...draft, version: saved.body.version, answers: { si: 'yes', plan: 'Overdose' } });
    expect(answered.status).toBe(200);
    const done = await complete(answered.body.version);
    expect(done.status).toBe(200);
    const c = (await db.query('SELECT status, main_recommendation, criteria FROM cases WHERE id = $1', [caseId])).rows[0];
    expect(c).toEqual({ status: 'RecommendationReview_WaitingOnDecision', main_recommendation: 'MentalHealthInpatient', criteria: ['HighAcuity'] });
    expect((await view(requestId)).body.mode).toBe('edit');
  });

  it('keeps the questions an evaluation was answered on when the form changes', async () => {
    const { requestId } = await startedRequest();
    await save(requestId, { version: 0, answers: { si: 'no' } });
    const form = (await api('GET', `/api/evaluation-forms/${formId}`, { token: admin })).body;
    const edited = await api('PUT', `/api/evaluation-forms/${formId}`, {
      token: admin,
      body: { name: form.name, options: { items: [...form.options.items, { type: 'text', name: 'extra', label: 'New question', required: true, kind: 'general' }] } },
    });
    expect(edited.body.version).toBe(form.version + 1);
    const after = await view(requestId);
    expect(after.body.form).toMatchObject({ version: form.version, items: form.options.items });
    expect(after.body.answers).toEqual({ si: 'no' });
    await api('PUT', `/api/evaluation-forms/${formId}`, { token: admin, body: { name: form.name, options: { items: screening } } });
  });

  it('an edit that changes the recommendation while services are contacted is confirmed, then changes the case too', async () => {
    const { caseId, requestId } = await startedRequest();
    const body = await fillEvaluation(provider, requestId, { answers: answerEverything(screening, { si: 'no' }) });
    expect((await api('PUT', `/api/requests/${requestId}/evaluation/complete`, { token: provider, body })).status).toBe(200);
    await startContacting(coordinator, caseId);
    const current = (await view(requestId)).body;
    const edit = {
      version: current.version,
      primaryDiagnosisId: diagnosis,
      mainRecommendation: 'IntensiveOutpatient',
      recommendationCriteria: ['MentalHealth'],
      reasonForEdit: 'Safer at home with the family',
      answers: current.answers,
    };
    const asked = await save(requestId, edit);
    expect(asked.status).toBe(409);
    expect(asked.body.code).toBe(ErrorCode.MedicalInformationConfirmationRequired);
    const started = Date.now();
    const confirmed = await save(requestId, { ...edit, confirmed: true });
    expect(confirmed.status).toBe(200);
    // Not held up by its own transaction until the command deadline (15 s).
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await view(requestId)).body).toMatchObject({ mainRecommendation: 'IntensiveOutpatient', recommendationCriteria: ['MentalHealth'] });
    const c = (await db.query('SELECT main_recommendation, criteria FROM cases WHERE id = $1', [caseId])).rows[0];
    expect(c).toEqual({ main_recommendation: 'IntensiveOutpatient', criteria: ['MentalHealth'] });
    const log = await api('GET', `/api/requests/${requestId}/evaluation/logs`, { token: provider });
    expect(log.body).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Main recommendation', oldValue: 'MentalHealthInpatient', newValue: 'IntensiveOutpatient' })]));
    // A second window still on the version before: refused, and the case keeps the confirmed recommendation.
    expect((await save(requestId, { ...edit, mainRecommendation: 'Outpatient', recommendationCriteria: ['MentalHealthTherapy'], confirmed: true })).status).toBe(409);
    expect((await db.query('SELECT main_recommendation FROM cases WHERE id = $1', [caseId])).rows[0].main_recommendation).toBe('IntensiveOutpatient');
  });

  it('an edit after completion needs a reason and writes the change log with the question names', async () => {
    const { requestId } = await startedRequest();
    const body = await fillEvaluation(provider, requestId, { answers: answerEverything(screening, { si: 'no' }) });
    expect((await api('PUT', `/api/requests/${requestId}/evaluation/complete`, { token: provider, body })).status).toBe(200);
    const current = (await view(requestId)).body;
    const edit = { version: current.version, primaryDiagnosisId: diagnosis, billingCodes: current.billingCodes.map((b: { id: number }) => b.id), mainRecommendation: current.mainRecommendation, recommendationCriteria: current.recommendationCriteria, answers: { ...current.answers, si: 'yes', plan: 'Found a note' } };
    const noReason = await save(requestId, edit);
    expect(noReason.status).toBe(400);
    expect(noReason.body.fields).toEqual([expect.objectContaining({ field: 'reasonForEdit', key: 'required' })]);
    const edited = await save(requestId, { ...edit, reasonForEdit: 'Collateral from the sister' });
    expect(edited.status).toBe(200);
    const log = await api('GET', `/api/requests/${requestId}/evaluation/logs?range=${enc([0, 9])}`, { token: provider });
    expect(log.status).toBe(200);
    expect(log.headers.get('content-range')).toMatch(/\/2$/);
    expect(log.body).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'Suicidal ideation', oldValue: 'no', newValue: 'yes', reason: 'Collateral from the sister' }),
        expect.objectContaining({ name: 'Describe the plan', oldValue: null, newValue: 'Found a note' }),
      ]),
    );
  });

  it("prints the evaluation as the provider saw it: visible answers with their labels, never a hidden one's, and the provider's signature with the NPI; the case PDF has it too", async () => {
    const { caseId, requestId } = await startedRequest();
    const body = await fillEvaluation(provider, requestId, { answers: { si: 'no' }, recommendationNote: 'Family meeting tomorrow' });
    expect((await api('PUT', `/api/requests/${requestId}/evaluation/complete`, { token: provider, body })).status).toBe(200);
    // An answer of a question its conditions hide (left from an earlier state of the form): stored, never shown.
    await db.query(
      `UPDATE evaluations SET answers = answers || '[{"questionName": "plan", "type": "text", "value": "Hidden plan answer"}]'::jsonb WHERE request_id = $1`,
      [requestId],
    );
    const pdf = await download(`/api/cases/${caseId}/requests/${requestId}/evaluation/pdf?tz=America/New_York`, coordinator);
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toContain(`-evaluation-${requestId}.pdf`);
    const text = (await pdfText(pdf.bytes)).text.replace(/\s+/g, ' ');
    expect(text).toContain('Suicidal ideation No'); // the visible question's label and its answer's label
    expect(text).not.toContain('Hidden plan answer');
    expect(text).not.toContain('Describe the plan');
    expect(text).toContain('Family meeting tomorrow');
    expect(text).toContain('Mental Health Inpatient');
    expect(text).toContain(diagnosis);
    expect(text).toMatch(/Electronically signed by Clara Nguyen, MD · NPI 1457382910 · Completed at \d{2}\/\d{2}\/\d{4} \d{2}:\d{2} (AM|PM)/);
    // The case PDF carries the same evaluation with its signature.
    const casePdf = await download(`/api/cases/${caseId}/pdf?includeEvaluations=true`, coordinator);
    expect(casePdf.status).toBe(200);
    const caseText = (await pdfText(casePdf.bytes)).text.replace(/\s+/g, ' ');
    expect(caseText).toContain('Suicidal ideation No');
    expect(caseText).toContain('NPI 1457382910');
    expect(caseText).not.toContain('Hidden plan answer');
    // A request of another case, or one without an evaluation: not found.
    const other = await createCase({ token: coordinator, facilityId: tampa.facilityId, divisionId: tampa.floorId, providerId, body: { requestType: 'Assessment' } });
    expect((await download(`/api/cases/${caseId}/requests/${other.requestId}/evaluation/pdf`, coordinator)).status).toBe(404);
    expect((await download(`/api/cases/${other.id}/requests/${other.requestId}/evaluation/pdf`, coordinator)).status).toBe(404);
  });
});
