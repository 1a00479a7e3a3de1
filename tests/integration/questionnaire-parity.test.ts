import { customizeValidator } from '@rjsf/validator-ajv8';
import type { RJSFSchema } from '@rjsf/utils';
import { ErrorCode, UserType, answerProblems, compileQuestionnaire, visibleAnswers, type QuestionnaireItem } from '@crisis/forms';
import { api } from '../support/api';
import { createCase, tampaDivisions } from '../support/cases';
import { db } from '../support/db';
import { signInAs } from '../support/oidc-client';

/**
 * The browser and the API must accept and refuse the same answers (spec 02 §5 "Dynamic question
 * form"): the evaluation screen checks them with react-jsonschema-form's ajv validator, the API
 * with its own ajv, both on the schema forms/ compiles. For every item type and condition shape,
 * each answer set goes through both — rjsf's `validateFormData` on the answers that count, and the
 * API (its `answerProblems`, and the running API: an autosave, then an attempt to complete) —
 * and the verdict must match, and match the spec (`accept`, written from §5, not from the code).
 */
const validator = customizeValidator();

const yesNo = [
  { key: 'yes', label: 'Yes' },
  { key: 'no', label: 'No' },
];
const q = (item: Partial<QuestionnaireItem> & { type: 'text' | 'radio' | 'checkbox'; name: string }): QuestionnaireItem =>
  ({ label: item.name, required: true, kind: 'general', ...item }) as QuestionnaireItem;
const showIf = (...pairs: Array<[string, string]>) => ({ kind: 'showIfAny' as const, items: pairs.map(([question, answer]) => ({ question, answer })) });

type AnswerSet = { answers: Record<string, unknown>; accept: boolean; why: string };
interface Shape {
  name: string;
  items: QuestionnaireItem[];
  sets: AnswerSet[];
}

const SHAPES: Shape[] = [
  {
    name: 'unconditional required text',
    items: [{ type: 'heading', label: 'Notes' }, q({ type: 'text', name: 'story' })],
    sets: [
      { answers: {}, accept: false, why: 'a required question unanswered' },
      { answers: { story: '   ' }, accept: false, why: 'blank text is no answer' },
      { answers: { story: ['a'] }, accept: false, why: 'a list for a text question' },
      { answers: { story: 'Came in with his sister' }, accept: true, why: 'answered' },
    ],
  },
  {
    name: 'unconditional required radio',
    items: [q({ type: 'radio', name: 'si', options: yesNo })],
    sets: [
      { answers: {}, accept: false, why: 'unanswered' },
      { answers: { si: 'maybe' }, accept: false, why: 'a wrong option' },
      { answers: { si: ['yes'] }, accept: false, why: 'a list for a single choice' },
      { answers: { si: 'no' }, accept: true, why: 'one of its options' },
    ],
  },
  {
    name: 'unconditional required checkbox',
    items: [q({ type: 'checkbox', name: 'subs', options: [{ key: 'alc', label: 'Alcohol' }, { key: 'opi', label: 'Opioids' }] })],
    sets: [
      { answers: {}, accept: false, why: 'unanswered' },
      { answers: { subs: [] }, accept: false, why: 'an empty list is no answer' },
      { answers: { subs: ['alc', 'meth'] }, accept: false, why: 'a wrong option among right ones' },
      { answers: { subs: 'alc' }, accept: false, why: 'a single value for a multiple choice' },
      { answers: { subs: ['alc', 'alc'] }, accept: false, why: 'the same option twice' },
      { answers: { subs: ['alc'] }, accept: true, why: 'one option' },
      { answers: { subs: ['opi', 'alc'] }, accept: true, why: 'two options' },
    ],
  },
  {
    name: 'conditional on a radio',
    items: [q({ type: 'radio', name: 'si', required: false, options: yesNo }), q({ type: 'text', name: 'plan', conditions: showIf(['si', 'yes']) })],
    sets: [
      { answers: { si: 'yes' }, accept: false, why: 'the condition holds, the question is required' },
      { answers: { si: 'yes', plan: ' ' }, accept: false, why: 'blank is no answer' },
      { answers: {}, accept: true, why: 'nothing shows the question' },
      { answers: { si: 'no', plan: 'Left over from before' }, accept: true, why: 'the answer of a hidden question does not count' },
      { answers: { si: 'yes', plan: 'Overdose' }, accept: true, why: 'shown and answered' },
    ],
  },
  {
    name: 'conditional on a checkbox',
    items: [
      q({ type: 'checkbox', name: 'subs', required: false, options: [{ key: 'alc', label: 'Alcohol' }, { key: 'opi', label: 'Opioids' }] }),
      q({ type: 'text', name: 'lastUse', conditions: showIf(['subs', 'opi']) }),
    ],
    sets: [
      { answers: { subs: ['opi'] }, accept: false, why: 'the condition holds' },
      { answers: { subs: ['alc', 'opi'] }, accept: false, why: 'the answer is among the ticked ones' },
      { answers: { subs: ['alc'] }, accept: true, why: 'another option ticked' },
      { answers: { subs: ['alc', 'opi'], lastUse: 'Yesterday' }, accept: true, why: 'shown and answered' },
    ],
  },
  {
    name: 'conditional on one of several answers',
    items: [
      q({ type: 'radio', name: 'mood', required: false, options: [{ key: 'low', label: 'Low' }, { key: 'flat', label: 'Flat' }, { key: 'ok', label: 'Fine' }] }),
      q({ type: 'text', name: 'why', conditions: showIf(['mood', 'low'], ['mood', 'flat']) }),
    ],
    sets: [
      { answers: { mood: 'low' }, accept: false, why: 'the first condition holds' },
      { answers: { mood: 'flat' }, accept: false, why: 'the second condition holds' },
      { answers: { mood: 'ok' }, accept: true, why: 'none holds' },
      { answers: { mood: 'flat', why: 'Since the loss' }, accept: true, why: 'shown and answered' },
    ],
  },
  {
    name: 'chained conditions',
    items: [
      q({ type: 'radio', name: 'harm', required: false, options: yesNo }),
      q({ type: 'radio', name: 'plan', options: yesNo, conditions: showIf(['harm', 'yes']) }),
      q({ type: 'text', name: 'means', conditions: showIf(['plan', 'yes']) }),
    ],
    sets: [
      { answers: { harm: 'yes' }, accept: false, why: 'the second question shows and is required' },
      { answers: { harm: 'yes', plan: 'yes' }, accept: false, why: 'the third shows too' },
      { answers: { harm: 'yes', plan: 'no' }, accept: true, why: 'the chain stops' },
      { answers: { harm: 'no', plan: 'yes' }, accept: true, why: 'a hidden answer shows nothing below it' },
      { answers: { harm: 'yes', plan: 'yes', means: 'Pills at home' }, accept: true, why: 'the whole chain answered' },
    ],
  },
  {
    name: 'an answer to an unknown question',
    items: [q({ type: 'text', name: 'story', required: false })],
    sets: [
      { answers: { ghost: 'boo' }, accept: false, why: 'no such question on this form' },
      { answers: { story: 'Fine', ghost: ['x'] }, accept: false, why: 'even beside a good answer' },
      { answers: { story: 'Fine' }, accept: true, why: 'only its own question' },
    ],
  },
];

/** The questions the browser's validator names (rjsf's errors mapped as the evaluation screen maps them). */
function browserVerdict(items: QuestionnaireItem[], answers: Record<string, unknown>): string[] {
  const { errors } = validator.validateFormData(visibleAnswers(items, answers), compileQuestionnaire(items).schema as RJSFSchema);
  const named = errors
    .filter((e) => !['if', 'const', 'anyOf'].includes(e.name ?? ''))
    .map((e) => {
      const p = (e.params ?? {}) as { missingProperty?: string; additionalProperty?: string };
      return e.name === 'required' ? p.missingProperty : e.name === 'additionalProperties' ? p.additionalProperty : (e.property ?? '').replace(/^\./, '').split('.')[0];
    });
  // An error the screen could not place on a question would still refuse the answers.
  return [...new Set(named.map((n) => n || '(form)'))].sort();
}

const apiVerdict = (items: QuestionnaireItem[], answers: Record<string, unknown>) =>
  [...new Set(answerProblems(items, answers, { draft: false }).map((p) => p.field.replace(/^answers\./, '')))].sort();

let admin: string;
let coordinator: string;
let provider: string;
let providerId: number;
let tampa: Awaited<ReturnType<typeof tampaDivisions>>;
let diagnosis: string;

beforeAll(async () => {
  [admin, coordinator, provider] = (await Promise.all([signInAs(UserType.ItpAdmin), signInAs(UserType.ItpUser), signInAs(UserType.ItpProvider)])).map((r) => r.accessToken);
  providerId = (await db.query("SELECT id FROM users WHERE email = 'provider@itp.example.org'")).rows[0].id;
  tampa = await tampaDivisions();
  diagnosis = (await db.query('SELECT code FROM diagnoses ORDER BY code LIMIT 1')).rows[0].code;
});

afterAll(async () => {
  await api('PUT', `/api/facilities/${tampa.facilityId}/evaluation-forms`, { token: admin, body: { requestType: 'Assessment', evaluationFormId: null, isAthenaBilled: false } });
});

/** A started evaluation on a form of `items` (Tampa's medical floor uses it for assessments while it is made). */
async function evaluationOn(shape: Shape): Promise<number> {
  const form = await api('POST', '/api/evaluation-forms', { token: admin, body: { name: `Parity ${shape.name} ${Date.now()}`, options: { items: shape.items } } });
  expect(form.status).toBe(201);
  const assigned = await api('PUT', `/api/facilities/${tampa.facilityId}/evaluation-forms`, {
    token: admin,
    body: { requestType: 'Assessment', evaluationFormId: form.body.id, isAthenaBilled: false },
  });
  expect(assigned.status).toBe(200);
  const c = await createCase({ token: coordinator, facilityId: tampa.facilityId, divisionId: tampa.floorId, providerId, body: { requestType: 'Assessment' } });
  for (const step of ['in-progress', 'evaluation/start']) expect((await api('PUT', `/api/requests/${c.requestId}/${step}`, { token: provider })).status).toBe(200);
  // The first save ties the evaluation to this form's version.
  const first = await api('PUT', `/api/requests/${c.requestId}/evaluation`, { token: provider, body: { version: 0 } });
  expect(first.status).toBe(200);
  expect((await api('GET', `/api/requests/${c.requestId}/evaluation`, { token: provider })).body.form.items).toEqual(shape.items);
  return c.requestId;
}

describe('questionnaire parity: the browser (rjsf ajv8) and the API accept the same answers', () => {
  describe.each(SHAPES)('$name', (shape) => {
    it.each(shape.sets)('$why → accept: $accept', ({ answers, accept }) => {
      const browser = browserVerdict(shape.items, answers);
      const server = apiVerdict(shape.items, answers);
      expect(browser.length === 0).toBe(accept);
      expect(server.length === 0).toBe(accept);
      // Both name the same questions.
      expect(browser).toEqual(server);
    });

    it('the running API gives the same verdicts (autosave, then completion)', async () => {
      const requestId = await evaluationOn(shape);
      let version = (await api('GET', `/api/requests/${requestId}/evaluation`, { token: provider })).body.version as number;
      const complete = () => api('PUT', `/api/requests/${requestId}/evaluation/complete`, { token: provider, body: { sourceDivisionId: tampa.floorId, version } });
      // The accepted sets last: a completion that succeeds ends the evaluation.
      const ordered = [...shape.sets.filter((s) => !s.accept), shape.sets.find((s) => s.accept)!];
      for (const set of ordered) {
        const saved = await api('PUT', `/api/requests/${requestId}/evaluation`, {
          token: provider,
          body: { version, primaryDiagnosisId: diagnosis, mainRecommendation: 'MentalHealthInpatient', recommendationCriteria: ['HighAcuity'], answers: set.answers },
        });
        let named: string[];
        if (saved.status === 400) {
          // A wrong answer is refused already by the autosave.
          expect(saved.body.code).toBe(ErrorCode.EvaluationCannotBeSaved);
          named = saved.body.fields.map((f: { field: string }) => f.field.replace(/^answers\./, ''));
        } else {
          expect(saved.status).toBe(200);
          version = saved.body.version;
          const done = await complete();
          if (done.status === 200) named = [];
          else {
            expect(done.status).toBe(400);
            expect(done.body.code).toBe(ErrorCode.EvaluationCannotBeCompleted);
            named = done.body.fields.map((f: { field: string }) => f.field.replace(/^answers\./, ''));
          }
        }
        expect({ answers: set.answers, named: [...new Set(named)].sort() }).toEqual({ answers: set.answers, named: browserVerdict(shape.items, set.answers) });
      }
      const request = (await db.query('SELECT status FROM requests WHERE id = $1', [requestId])).rows[0];
      expect(request.status).toBe('Completed');
    });
  });
});
