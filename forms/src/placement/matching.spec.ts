import { compareCandidates, estimateTravelSeconds, matchDivision, type MatchCase, type MatchDivision } from './matching';

const kase: MatchCase = {
  mainRecommendation: 'MentalHealthInpatient',
  criteria: [],
  patientAge: 40,
  patientGender: 'Male',
  isVeteran: false,
  isInvoluntary: false,
  includeOutOfStateFacilities: false,
  sourceState: 'FL',
  sourcePopulatesOutOfState: false,
};
const division = (over: Partial<MatchDivision> = {}): MatchDivision => ({
  divisionId: 1,
  facilityId: 1,
  referringType: 'MentalHealthInpatient',
  criteria: null,
  genders: null,
  veteranOnly: false,
  acceptedPatients: { allAges: true },
  state: 'FL',
  score: 70,
  isPreferred: false,
  travelSeconds: 3600,
  ...over,
});

describe('matching (issue 5 "Finding facilities")', () => {
  it('needs the referring type of the main recommendation; Defer places nowhere', () => {
    expect(matchDivision(kase, division(), undefined)).not.toBeNull();
    expect(matchDivision(kase, division({ referringType: 'DetoxUnit' }), undefined)).toBeNull();
    expect(matchDivision({ ...kase, mainRecommendation: 'DeferRecommendationsAtThisTime' }, division(), undefined)).toBeNull();
  });
  it('needs the division to offer the case criteria', () => {
    const c = { ...kase, mainRecommendation: 'Outpatient', criteria: ['MentalHealthTherapy'] };
    expect(matchDivision(c, division({ referringType: 'Outpatient', criteria: ['SubstanceAbuse'] }), undefined)).toBeNull();
    expect(matchDivision(c, division({ referringType: 'Outpatient', criteria: ['MentalHealthTherapy', 'SubstanceAbuse'] }), undefined)).toContain('Offers MentalHealthTherapy');
  });
  it('checks age bands, genders (transgender by identity) and veteran-only divisions', () => {
    const adults = { allAges: false, adult: { isActive: true, from: 18, to: 64 } };
    expect(matchDivision({ ...kase, patientAge: 16 }, division({ acceptedPatients: adults }), undefined)).toBeNull();
    expect(matchDivision(kase, division({ acceptedPatients: adults }), undefined)).not.toBeNull();
    expect(matchDivision(kase, division({ genders: ['Female'] }), undefined)).toBeNull();
    expect(matchDivision({ ...kase, patientGender: 'Transgender_Female' }, division({ genders: ['Female'] }), undefined)).not.toBeNull();
    expect(matchDivision(kase, division({ veteranOnly: true }), undefined)).toBeNull();
    expect(matchDivision({ ...kase, isVeteran: true }, division({ veteranOnly: true }), undefined)).toContain('Veterans division');
  });
  it('applies the state restrictions and the involuntary out-of-state choice', () => {
    const ga = division({ state: 'GA', travelSeconds: 5 * 3600 });
    expect(matchDivision(kase, ga, undefined)).toContain('Out of state (GA)');
    expect(matchDivision(kase, ga, { type: 'DoNotPopulateFacilities', travelTimeSeconds: null })).toBeNull();
    expect(matchDivision(kase, ga, { type: 'OnlyPopulateFacilitiesWithinTravelTime', travelTimeSeconds: 4 * 3600 })).toBeNull();
    expect(matchDivision(kase, ga, { type: 'OnlyPopulateFacilitiesWithinTravelTime', travelTimeSeconds: 6 * 3600 })).not.toBeNull();
    const involuntary = { ...kase, isInvoluntary: true };
    expect(matchDivision(involuntary, ga, undefined)).toBeNull();
    expect(matchDivision({ ...involuntary, sourcePopulatesOutOfState: true }, ga, undefined)).toBeNull();
    expect(matchDivision({ ...involuntary, sourcePopulatesOutOfState: true, includeOutOfStateFacilities: true }, ga, undefined)).not.toBeNull();
  });
  it('ranks preferred facilities first, then score, then travel time', () => {
    const list = [
      division({ divisionId: 1, score: 90, travelSeconds: 9000 }),
      division({ divisionId: 2, score: 60, isPreferred: true }),
      division({ divisionId: 3, score: 90, travelSeconds: 1000 }),
    ].sort(compareCandidates);
    expect(list.map((d) => d.divisionId)).toEqual([2, 3, 1]);
  });
  it('estimates travel time from the straight-line distance', () => {
    const tampa = { latitude: 27.9377, longitude: -82.4589 };
    const jacksonville = { latitude: 30.2869, longitude: -81.5866 };
    const hours = estimateTravelSeconds(tampa, jacksonville) / 3600;
    expect(hours).toBeGreaterThan(3.5);
    expect(hours).toBeLessThan(5.5);
  });
});
