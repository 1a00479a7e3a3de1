import { CASE_STATUSES, CASE_STATUS_GROUPS, CRITERIA_BY_RECOMMENDATION, MAIN_RECOMMENDATIONS, OUTCOMES_NEEDING_FACILITY, CASE_OUTCOMES, criteriaForRecommendation, type CaseStatus } from './enums';
import { MANUAL_TRANSITIONS, allowedTargets, closeProblems, isManualTransitionAllowed, statusChangeNeedsNote, statusChangeProblems, statusToReopen } from './transitions';

const open = { allRequestsCancelled: false };
const cancelled = { allRequestsCancelled: true };
const FOUR_ON_HOLD = ['OnHold_MissingDocumentation', 'OnHold_WaitingForPatient', 'OnHold_WaitingForFacility', 'OnHold_Other'];
const FIVE_ON_HOLD = [...FOUR_ON_HOLD, 'OnHold_WaitingForAssignment'];

/** Spec 01 §4 "Manual transitions allowed", written out row by row. */
const SPEC_TABLE: Array<[string[], string[]]> = [
  [
    ['PendingAssignment_DocumentationReview', 'OnHold_DocumentationReview', 'RequestSentToProvider_ProviderNotified', 'RequestSentToProvider_ProviderAcknowledged'],
    [...FIVE_ON_HOLD, 'Closed'],
  ],
  [['OnHold_MissingDocumentation', 'OnHold_WaitingForAssignment', 'OnHold_WaitingForPatient', 'OnHold_WaitingForFacility', 'OnHold_Other'], ['Closed']],
  [['RecommendationReview_WaitingOnDecision'], ['LocatingServices_ContactingServiceOrganization', ...FOUR_ON_HOLD, 'Closed']],
  [['LocatingServices_ContactingServiceOrganization'], ['RecommendationReview_WaitingOnDecision', ...FOUR_ON_HOLD, 'Closed']],
  [['ServicesLocated_WaitingForConfirmation'], ['LocatingServices_ContactingServiceOrganization', ...FOUR_ON_HOLD, 'Closed']],
  [[...CASE_STATUS_GROUPS.ProviderWorkingRequest], ['Closed']],
  [['Closed'], []],
];
const expected = new Map<string, string[]>(SPEC_TABLE.flatMap(([froms, tos]) => froms.map((f) => [f, tos] as [string, string[]])));

describe('manual transition table (spec 01 §4)', () => {
  it('has one row per status, and the spec table covers every status', () => {
    expect(Object.keys(MANUAL_TRANSITIONS).sort()).toEqual([...CASE_STATUSES].sort());
    expect([...expected.keys()].sort()).toEqual([...CASE_STATUSES].sort());
  });

  it.each([...expected.entries()])('%s → exactly its targets', (from, tos) => {
    expect([...allowedTargets(from, open)].sort()).toEqual([...tos].sort());
  });

  const pairs = CASE_STATUSES.flatMap((from) => CASE_STATUSES.map((to) => [from, to] as [CaseStatus, CaseStatus]));
  it.each(pairs)('%s → %s allowed only when the spec lists it', (from, to) => {
    expect(isManualTransitionAllowed(from, to, open)).toBe(expected.get(from)!.includes(to));
  });

  it('never allows selecting the current status', () => {
    for (const s of CASE_STATUSES) expect(isManualTransitionAllowed(s, s, open)).toBe(false);
  });

  it('refuses unknown statuses', () => {
    expect(allowedTargets('Nonsense', open)).toEqual([]);
    expect(isManualTransitionAllowed('Closed', 'Nonsense', open)).toBe(false);
  });
});

describe('contacting option when every request is cancelled', () => {
  it('is hidden from waiting-on-decision and waiting-for-confirmation', () => {
    for (const from of ['RecommendationReview_WaitingOnDecision', 'ServicesLocated_WaitingForConfirmation']) {
      expect(allowedTargets(from, cancelled)).not.toContain('LocatingServices_ContactingServiceOrganization');
      expect(allowedTargets(from, open)).toContain('LocatingServices_ContactingServiceOrganization');
      expect(allowedTargets(from, cancelled)).toEqual(expect.arrayContaining([...FOUR_ON_HOLD, 'Closed']));
    }
  });

  it('leaves the other targets of a case already contacting', () => {
    expect(allowedTargets('LocatingServices_ContactingServiceOrganization', cancelled).sort()).toEqual(
      ['RecommendationReview_WaitingOnDecision', ...FOUR_ON_HOLD, 'Closed'].sort(),
    );
  });
});

describe('status change notes', () => {
  it.each(CASE_STATUSES)('a note is required for %s only if OnHold or waiting on decision', (s) => {
    const needs = s.startsWith('OnHold_') || s === 'RecommendationReview_WaitingOnDecision';
    expect(statusChangeNeedsNote(s)).toBe(needs);
    expect(statusChangeProblems({ status: s, note: null, mainRecommendation: 'MentalHealthInpatient', includeOutOfStateFacilities: false }).note).toBe(
      needs ? 'required' : undefined,
    );
  });

  it('a blank note does not count', () => {
    expect(statusChangeProblems({ status: 'OnHold_Other', note: '   ' })).toEqual({ note: 'required' });
    expect(statusChangeProblems({ status: 'OnHold_Other', note: 'Waiting for labs' })).toEqual({});
  });
});

describe('contacting service organizations', () => {
  const contacting = 'LocatingServices_ContactingServiceOrganization';

  it('requires the recommendation and the out-of-state option', () => {
    expect(statusChangeProblems({ status: contacting })).toEqual({ mainRecommendation: 'required', includeOutOfStateFacilities: 'required' });
  });

  it('refuses Defer', () => {
    expect(statusChangeProblems({ status: contacting, mainRecommendation: 'DeferRecommendationsAtThisTime', includeOutOfStateFacilities: true })).toEqual({
      mainRecommendation: 'deferNotAllowed',
    });
  });

  it('refuses criteria outside the table and accepts those in it', () => {
    expect(statusChangeProblems({ status: contacting, mainRecommendation: 'Outpatient', criteria: ['HighAcuity'], includeOutOfStateFacilities: false })).toEqual({
      criteria: 'notAllowed',
    });
    expect(statusChangeProblems({ status: contacting, mainRecommendation: 'DetoxUnit', criteria: ['SubstanceAbuse'], includeOutOfStateFacilities: false })).toEqual({
      criteria: 'notAllowed',
    });
    expect(
      statusChangeProblems({ status: contacting, mainRecommendation: 'MentalHealthInpatient', criteria: ['SingleOccupancy', 'DualDiagnosis'], includeOutOfStateFacilities: false }),
    ).toEqual({});
  });

  it('does not need a note', () => {
    expect(statusChangeProblems({ status: contacting, mainRecommendation: 'CrisisCenter', includeOutOfStateFacilities: true, note: null })).toEqual({});
  });
});

describe('recommendation → criteria table (spec 01 §3)', () => {
  const SPEC: Record<string, string[]> = {
    MentalHealthInpatient: ['SingleOccupancy', 'HighAcuity', 'DualDiagnosis'],
    SubstanceAbuseResidential: [],
    DetoxUnit: [],
    MedPsychUnit: [],
    PartialHospitalization: [],
    DeferRecommendationsAtThisTime: [],
    CrisisCenter: ['{hash}', 'CrisisStabilization', 'SubAcute'],
    Outpatient: ['MentalHealthTherapy', 'MentalHealthPsychiatry', 'SubstanceAbuse'],
    IntensiveOutpatient: ['MentalHealth', 'SubstanceAbuse'],
  };
  it('lists every recommendation of the spec', () => expect([...MAIN_RECOMMENDATIONS].sort()).toEqual(Object.keys(SPEC).sort()));
  it.each(Object.entries(SPEC))('%s allows %j', (r, criteria) => expect([...criteriaForRecommendation(r)]).toEqual(criteria));
  it('allows nothing for no or an unknown recommendation', () => {
    expect(criteriaForRecommendation(null)).toEqual([]);
    expect(criteriaForRecommendation('Nope')).toEqual([]);
    expect(Object.keys(CRITERIA_BY_RECOMMENDATION).length).toBe(4);
  });
});

describe('close (spec 01 §5)', () => {
  const FACILITY_OUTCOMES = [
    'Transferred_MentalHealthInpatient',
    'Transferred_SubstanceAbuseResidential',
    'Transferred_MedicalUnit',
    'Transferred_DetoxUnit',
    'Transferred_MedPsychCenter',
    'Transferred_CrisisCenter',
    'Discharged_MentalHealthOutpatient_Facility',
    'Discharged_SubstanceAbuseOutpatient_Facility',
    'Discharged_IntensiveOutpatient_MentalHealth',
    'Discharged_IntensiveOutpatient_SubstanceAbuse',
    'Discharged_PartialHospitalization',
  ];

  it('knows the eleven outcomes that need a facility', () => expect([...OUTCOMES_NEEDING_FACILITY].sort()).toEqual([...FACILITY_OUTCOMES].sort()));

  it.each(FACILITY_OUTCOMES)('%s needs a referring division', (o) => {
    expect(closeProblems({ outcomeRequired: true, caseOutcomeType: o })).toEqual({ referringDivisionId: 'required' });
    expect(closeProblems({ outcomeRequired: true, caseOutcomeType: o, referringDivisionId: 7 })).toEqual({});
  });

  it.each(CASE_OUTCOMES.filter((o) => !FACILITY_OUTCOMES.includes(o) && !o.endsWith('_Other')))('%s needs neither facility nor note', (o) => {
    expect(closeProblems({ outcomeRequired: true, caseOutcomeType: o })).toEqual({});
  });

  it.each(['Transferred_Other', 'Discharged_Other'])('%s needs a note and no facility', (o) => {
    expect(closeProblems({ outcomeRequired: true, caseOutcomeType: o })).toEqual({ note: 'required' });
    expect(closeProblems({ outcomeRequired: true, caseOutcomeType: o, note: 'Moved to family' })).toEqual({});
  });

  it('requires an outcome unless closing without one', () => {
    expect(closeProblems({ outcomeRequired: true })).toEqual({ caseOutcomeType: 'required' });
    expect(closeProblems({ outcomeRequired: false })).toEqual({});
  });
});

describe('reopen target', () => {
  it('returns to the status before closing', () => {
    expect(statusToReopen('LocatingServices_ContactingServiceOrganization', false)).toBe('LocatingServices_ContactingServiceOrganization');
    expect(statusToReopen('OnHold_Other', false)).toBe('OnHold_Other');
    expect(statusToReopen('RequestSentToProvider_ProviderNotified', true)).toBe('RequestSentToProvider_ProviderNotified');
  });
  it('goes back to documentation review when the provider stage ended or nothing is known', () => {
    expect(statusToReopen('ProviderWorkingRequest_AssessmentInProgress', false)).toBe('PendingAssignment_DocumentationReview');
    expect(statusToReopen('RequestSentToProvider_ProviderAcknowledged', false)).toBe('PendingAssignment_DocumentationReview');
    expect(statusToReopen(null, false)).toBe('PendingAssignment_DocumentationReview');
    expect(statusToReopen('Closed', false)).toBe('PendingAssignment_DocumentationReview');
  });
});
