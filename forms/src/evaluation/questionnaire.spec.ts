import Ajv from 'ajv';
import {
  compileQuestionnaire,
  questionName,
  questionnaireProblems,
  visibleAnswers,
  withOptions,
  withItem,
  withType,
  withoutQuestion,
  type QuestionnaireItem,
} from './questionnaire';

const risk: QuestionnaireItem[] = [
  { type: 'heading', label: 'Risk' },
  {
    type: 'radio', name: 'si', label: 'Suicidal ideation', required: true, kind: 'general',
    options: [{ key: 'yes', label: 'Yes' }, { key: 'no', label: 'No' }],
  },
  {
    type: 'text', name: 'plan', label: 'Describe the plan', required: true, kind: 'general',
    conditions: { kind: 'showIfAny', items: [{ question: 'si', answer: 'yes' }] },
  },
  {
    type: 'checkbox', name: 'subs', label: 'Substances', required: false, kind: 'general',
    options: [{ key: 'alc', label: 'Alcohol' }, { key: 'opi', label: 'Opioids' }],
  },
  {
    type: 'text', name: 'opiNote', label: 'Last opioid use', required: true, kind: 'general',
    conditions: { kind: 'showIfAny', items: [{ question: 'subs', answer: 'opi' }, { question: 'si', answer: 'yes' }] },
  },
];

const ajv = new Ajv({ allErrors: true });
const accepts = (items: QuestionnaireItem[], answers: Record<string, unknown>) =>
  ajv.validate(compileQuestionnaire(items).schema, visibleAnswers(items, answers)) as boolean;

describe('questionnaire compiler', () => {
  it('requires an unconditional required question', () => {
    expect(accepts(risk, {})).toBe(false);
    expect(accepts(risk, { si: 'no' })).toBe(true);
    expect(accepts(risk, { si: '   ' })).toBe(false); // blank is no answer
  });

  it('requires a conditional question only while one of its conditions holds', () => {
    expect(accepts(risk, { si: 'yes' })).toBe(false);
    expect(accepts(risk, { si: 'yes', plan: 'Overdose', opiNote: 'none' })).toBe(true);
    expect(accepts(risk, { si: 'no', subs: ['alc'] })).toBe(true);
    expect(accepts(risk, { si: 'no', subs: ['alc', 'opi'] })).toBe(false); // one of several answers
    expect(accepts(risk, { si: 'no', subs: ['opi'], opiNote: 'yesterday' })).toBe(true);
  });

  it('drops answers of hidden questions, and what a hidden answer would have shown', () => {
    expect(visibleAnswers(risk, { si: 'no', plan: 'stale', subs: [], opiNote: null })).toEqual({ si: 'no' });
    const chained: QuestionnaireItem[] = [
      { type: 'radio', name: 'a', label: 'A', required: true, kind: 'general', options: [{ key: 'y', label: 'Y' }, { key: 'n', label: 'N' }] },
      { type: 'radio', name: 'b', label: 'B', required: false, kind: 'general', options: [{ key: 'y', label: 'Y' }, { key: 'n', label: 'N' }], conditions: { kind: 'showIfAny', items: [{ question: 'a', answer: 'y' }] } },
      { type: 'text', name: 'c', label: 'C', required: true, kind: 'general', conditions: { kind: 'showIfAny', items: [{ question: 'b', answer: 'y' }] } },
    ];
    expect(visibleAnswers(chained, { a: 'n', b: 'y' })).toEqual({ a: 'n' });
    expect(accepts(chained, { a: 'n', b: 'y' })).toBe(true);
    expect(accepts(chained, { a: 'y', b: 'y' })).toBe(false);
  });

  it('refuses answers that are not options, unknown questions and wrong types', () => {
    expect(accepts(risk, { si: 'maybe' })).toBe(false);
    expect(accepts(risk, { si: 'no', subs: ['beer'] })).toBe(false);
    expect(accepts(risk, { si: 'no', unknown: 'x' })).toBe(false);
    expect(accepts(risk, { si: ['no'] })).toBe(false);
  });
});

describe('questionnaire editor rules', () => {
  const keys = (items: QuestionnaireItem[]) => questionnaireProblems(items).map((p) => `${p.field}:${p.key}`);

  it('accepts a well-formed form', () => expect(keys(risk)).toEqual([]));

  it('needs labels, 2 radio and 1 checkbox options, unique option labels ignoring case', () => {
    expect(
      keys([
        { type: 'radio', name: 'r', label: '', required: true, kind: 'general', options: [{ key: 'a', label: 'Yes' }] },
        { type: 'checkbox', name: 'c', label: 'C', required: false, kind: 'general', options: [] },
        { type: 'radio', name: 'd', label: 'D', required: false, kind: 'general', options: [{ key: 'a', label: 'Yes' }, { key: 'b', label: ' yes' }] },
      ]),
    ).toEqual(['items.0.label:required', 'items.0.options:minItems', 'items.1.options:minItems', 'items.2.options.1.label:notUnique']);
  });

  it('uses a medical-information field once, with its own type', () => {
    const mi = (type: 'radio' | 'text'): QuestionnaireItem => ({
      type, name: 'activeDetox', label: 'Detox', required: false, kind: 'medicalInformation', system: 'activeDetox',
      ...(type === 'radio' ? { options: [{ key: 'yes', label: 'Yes' }, { key: 'no', label: 'No' }] } : {}),
    });
    expect(keys([mi('text')])).toEqual(['items.0.type:systemFieldType']);
    expect(keys([mi('radio'), { ...mi('radio'), name: 'activeDetox2' } as QuestionnaireItem])).toEqual(
      expect.arrayContaining(['items.1.system:notUniqueSystemField']),
    );
    expect(keys([{ type: 'text', name: 'x', label: 'X', required: false, kind: 'medicalInformation' }])).toEqual(['items.0.system:required']);
  });

  it('needs each condition to name a choice question above and one of its answers', () => {
    const [, si, plan] = risk as [QuestionnaireItem, QuestionnaireItem, QuestionnaireItem];
    expect(keys([plan, si])).toEqual(['items.0.conditions.items.0.question:invalid']);
    expect(keys([si, { ...plan, conditions: { kind: 'showIfAny', items: [{ question: 'si', answer: 'perhaps' }] } } as QuestionnaireItem])).toEqual([
      'items.1.conditions.items.0.answer:invalid',
    ]);
  });
});

describe("questionnaire editor's moves", () => {
  it('removing a question drops the conditions that referred to it', () => {
    const after = withoutQuestion(risk, 'si');
    expect(after.find((i) => i.type !== 'heading' && i.name === 'plan')).toMatchObject({ conditions: null });
    expect(after.find((i) => i.type !== 'heading' && i.name === 'opiNote')).toMatchObject({
      conditions: { items: [{ question: 'subs', answer: 'opi' }] },
    });
  });

  it('retyping resets options (radio two blank, checkbox one), sets required and drops conditions on it', () => {
    let n = 0;
    const after = withType(risk, 'subs', 'radio', () => (n++ % 10) / 10);
    expect(after[3]).toMatchObject({ type: 'radio', required: true, options: [{ label: '' }, { label: '' }] });
    expect(after[4]).toMatchObject({ conditions: { items: [{ question: 'si', answer: 'yes' }] } });
    expect(withType(risk, 'si', 'checkbox')[1]).toMatchObject({ options: [{ label: '' }] });
  });

  it('removing an option drops the conditions that pointed to it', () => {
    const after = withOptions(risk, 'subs', [{ key: 'alc', label: 'Alcohol' }]);
    expect(after[4]).toMatchObject({ conditions: { items: [{ question: 'si', answer: 'yes' }] } });
  });

  it('a question that is renamed keeps the conditions pointing to it, as far as its answers remain', () => {
    const si = risk[1] as Extract<QuestionnaireItem, { name: string }>;
    const asSystem = { ...si, name: 'homicidalOrSuicidalIdeations', kind: 'medicalInformation' as const, system: 'homicidalOrSuicidalIdeations' as const };
    const after = withItem(risk, 1, asSystem);
    expect(after[2]).toMatchObject({ conditions: { items: [{ question: 'homicidalOrSuicidalIdeations', answer: 'yes' }] } });
    expect(after[4]).toMatchObject({ conditions: { items: [{ question: 'subs', answer: 'opi' }, { question: 'homicidalOrSuicidalIdeations', answer: 'yes' }] } });
    // Renamed with other answers: the conditions on the answers it no longer has go.
    const otherAnswers = withItem(risk, 1, { ...si, name: 'violentBehavior', options: [{ key: 'Past', label: 'Past' }, { key: 'None', label: 'None' }] });
    expect(otherAnswers[2]).toMatchObject({ conditions: null });
    // Adding an item appends it and leaves the others alone.
    expect(withItem(risk, null, { type: 'heading', label: 'End' })).toEqual([...risk, { type: 'heading', label: 'End' }]);
  });

  it('names a question after 15 characters of its label, or its system field', () => {
    expect(questionName('Describe the plan, if any!', null, () => 0)).toBe('Describethepl_000000');
    expect(questionName('Detox', 'activeDetox')).toBe('activeDetox');
  });
});
