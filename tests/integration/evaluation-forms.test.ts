import { ErrorCode, UserType, type QuestionnaireItem } from '@crisis/forms';
import { api } from '../support/api';
import { audited, auditEntry, enc, fieldsOf } from '../support/audit';
import { db } from '../support/db';
import { signInAs } from '../support/oidc-client';

/**
 * The evaluation forms (spec 02 §2 "Evaluation forms list", §4 "Questionnaire editor", §5, §7, §8):
 * the ITP admin's questionnaires, saved as versions; the editor's rules refused by the API too.
 */
const screening: QuestionnaireItem[] = [
  { type: 'heading', label: 'Screening' },
  { type: 'radio', name: 'si', label: 'Suicidal ideation', required: true, kind: 'general', options: [{ key: 'yes', label: 'Yes' }, { key: 'no', label: 'No' }] },
  { type: 'text', name: 'plan', label: 'Describe the plan', required: true, kind: 'general', conditions: { kind: 'showIfAny', items: [{ question: 'si', answer: 'yes' }] } },
];

let admin: string;
let user: string;
const unique = () => `Screening ${Date.now()}-${Math.floor(Math.random() * 1e6)}`;

beforeAll(async () => {
  [admin, user] = (await Promise.all([signInAs(UserType.ItpAdmin), signInAs(UserType.ItpUser)])).map((r) => r.accessToken);
});

describe('evaluation forms', () => {
  it('lists the two default forms with their seeded questionnaires, by name', async () => {
    const res = await api('GET', `/api/evaluation-forms?sort=${enc(['name', 'ASC'])}&range=${enc([0, 99])}`, { token: admin });
    expect(res.status).toBe(200);
    const defaults = res.body.filter((f: { isDefault: boolean }) => f.isDefault);
    expect(defaults.map((f: { name: string }) => f.name).sort()).toEqual(['Default Assessment Form- Including Crisis Services', 'MercyOne Assessment Form']);
    for (const form of defaults) expect(form.options.items.length).toBeGreaterThan(20);
    const names = res.body.map((f: { name: string }) => f.name.toLowerCase());
    expect(names).toEqual([...names].sort());
    expect((await api('GET', '/api/evaluation-forms', { token: user })).status).toBe(403);
  });

  it('creates a form with a conditional required question, audited', async () => {
    const name = unique();
    const res = await audited('POST', '/api/evaluation-forms', { token: admin, body: { name, options: { items: screening } } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name, isDefault: false, version: 1, options: { items: screening } });
    expect((await auditEntry(res)).main_action).toBe('EvaluationForm.Create');
    const again = await api('POST', '/api/evaluation-forms', { token: admin, body: { name: name.toUpperCase(), options: { items: [] } } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe(ErrorCode.NotUnique);
    expect(fieldsOf(again)).toEqual(['name']);
  });

  it("refuses what the editor forbids: one radio option, a duplicate option, a condition on a missing answer", async () => {
    const bad: QuestionnaireItem[] = [
      { type: 'radio', name: 'a', label: 'A', required: true, kind: 'general', options: [{ key: 'y', label: 'Yes' }] },
      { type: 'checkbox', name: 'b', label: 'B', required: false, kind: 'general', options: [{ key: 'x', label: 'Same' }, { key: 'z', label: 'same' }] },
      { type: 'text', name: 'c', label: 'C', required: true, kind: 'general', conditions: { kind: 'showIfAny', items: [{ question: 'a', answer: 'n' }] } },
    ];
    const res = await api('POST', '/api/evaluation-forms', { token: admin, body: { name: unique(), options: { items: bad } } });
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toEqual(['options.items.0.options', 'options.items.1.options.1.label', 'options.items.2.conditions.items.0.answer']);
  });

  it('saves a new version on every edit and keeps the old one', async () => {
    const created = (await api('POST', '/api/evaluation-forms', { token: admin, body: { name: unique(), options: { items: screening } } })).body;
    const edited = await api('PUT', `/api/evaluation-forms/${created.id}`, { token: admin, body: { name: created.name, options: { items: screening.slice(0, 2) } } });
    expect(edited.status).toBe(200);
    expect(edited.body.version).toBe(2);
    const versions = await db.query('SELECT version, jsonb_array_length(items) AS n FROM evaluation_form_versions WHERE evaluation_form_id = $1 ORDER BY version', [created.id]);
    expect(versions.rows).toEqual([{ version: 1, n: 3 }, { version: 2, n: 2 }]);
  });

  it("locks a default form's name and refuses to remove it; a clone is custom and can be renamed", async () => {
    const forms = (await api('GET', `/api/evaluation-forms?filter=${enc({ q: 'Default Assessment' })}`, { token: admin })).body;
    const form = forms.find((f: { isDefault: boolean }) => f.isDefault);
    const renamed = await api('PUT', `/api/evaluation-forms/${form.id}`, { token: admin, body: { name: 'Renamed', options: form.options } });
    expect(renamed.status).toBe(409);
    expect(renamed.body.code).toBe(ErrorCode.DefaultEvaluationForm);
    expect((await api('DELETE', `/api/evaluation-forms/${form.id}`, { token: admin })).body.code).toBe(ErrorCode.DefaultEvaluationForm);
    const clone = await api('POST', `/api/evaluation-forms/${form.id}/clone`, { token: admin });
    expect(clone.status).toBe(201);
    expect(clone.body).toMatchObject({ isDefault: false, options: form.options });
    expect(clone.body.name).toMatch(/^Default Assessment Form- Including Crisis Services \(copy( \d+)?\)$/);
    const named = await api('PUT', `/api/evaluation-forms/${clone.body.id}`, { token: admin, body: { name: unique(), options: form.options } });
    expect(named.status).toBe(200);
    expect((await api('DELETE', `/api/evaluation-forms/${clone.body.id}`, { token: admin })).status).toBe(200);
    expect((await api('GET', `/api/evaluation-forms/${clone.body.id}`, { token: admin })).status).toBe(404);
  });

  it('refuses to remove a form facilities use, naming them', async () => {
    const created = (await api('POST', '/api/evaluation-forms', { token: admin, body: { name: unique(), options: { items: screening } } })).body;
    const facility = (await db.query(`SELECT id, name FROM facilities WHERE name = 'Tampa Bay General Hospital'`)).rows[0];
    const assigned = await api('PUT', `/api/facilities/${facility.id}/evaluation-forms`, {
      token: admin,
      body: { requestType: 'Reassessment', evaluationFormId: created.id, isAthenaBilled: false },
    });
    expect(assigned.status).toBe(200);
    const users = await api('GET', `/api/evaluation-forms/${created.id}/facilities`, { token: admin });
    expect(users.body).toEqual([{ id: facility.id, name: facility.name }]);
    const removed = await api('DELETE', `/api/evaluation-forms/${created.id}`, { token: admin });
    expect(removed.status).toBe(409);
    expect(removed.body).toMatchObject({ code: ErrorCode.DeleteEvaluationFormAssignedToFacilities, payload: [facility.name] });
    await api('PUT', `/api/facilities/${facility.id}/evaluation-forms`, { token: admin, body: { requestType: 'Reassessment', evaluationFormId: null, isAthenaBilled: false } });
    expect((await api('DELETE', `/api/evaluation-forms/${created.id}`, { token: admin })).status).toBe(200);
  });
});
