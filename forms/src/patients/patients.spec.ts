import { acceptGridEnabled } from '../placement/calls';
import { matchDivision } from '../placement/matching';
import { acceptsAge, ageInYears, ageOn, ageRangeBirthDates, ageRangesOf, differsFromMajority, duplicateKey, yearsBefore } from './index';

describe('age ranges of the patient directory (spec 01 §3: Child 5-12, Adolescent 13-17, Adult 18 and up, Geriatric 55 and up)', () => {
  const today = '2026-11-25';

  it('puts each edge birthday in the band the spec names', () => {
    // Hand-computed: born on 2014-11-25 is 12 today, born 2013-11-25 is 13 today.
    expect(ageRangesOf('2014-11-26', today)).toEqual(['Child']); // 11, turns 12 tomorrow
    expect(ageRangesOf('2014-11-25', today)).toEqual(['Child']); // 12
    expect(ageRangesOf('2013-11-26', today)).toEqual(['Child']); // 12, turns 13 tomorrow
    expect(ageRangesOf('2013-11-25', today)).toEqual(['Adolescent']); // 13
    expect(ageRangesOf('2008-11-26', today)).toEqual(['Adolescent']); // 17
    expect(ageRangesOf('2008-11-25', today)).toEqual(['Adult']); // 18
    expect(ageRangesOf('1971-11-26', today)).toEqual(['Adult']); // 54
    expect(ageRangesOf('1971-11-25', today)).toEqual(['Adult', 'Geriatric']); // 55
    expect(ageRangesOf('2021-11-26', today)).toEqual([]); // 4
    expect(ageRangesOf('2021-11-25', today)).toEqual(['Child']); // 5
  });

  it('gives the date bounds the API queries with', () => {
    expect(ageRangeBirthDates('Child', today)).toEqual({ bornOnOrBefore: '2021-11-25', bornAfter: '2013-11-25' });
    expect(ageRangeBirthDates('Geriatric', today)).toEqual({ bornOnOrBefore: '1971-11-25', bornAfter: null });
  });

  it('counts whole years; born on 29 February, one turns a year older on 1 March of a common year', () => {
    expect(ageOn('2000-02-29', '2025-02-28')).toBe(24);
    expect(ageOn('2000-02-29', '2025-03-01')).toBe(25);
    expect(ageOn('2000-02-29', '2024-02-29')).toBe(24);
    expect(ageOn('2000-03-01', '2026-02-28')).toBe(25);
    expect(yearsBefore('2024-02-29', 1)).toBe('2023-02-28');
  });
});

describe('merge page', () => {
  it('marks cells that differ from the majority (more than half); without a majority every cell of the column', () => {
    expect(differsFromMajority(['a', 'a', 'b'])).toEqual([false, false, true]);
    expect(differsFromMajority(['a', 'b'])).toEqual([true, true]);
    expect(differsFromMajority(['a', 'a'])).toEqual([false, false]);
    expect(differsFromMajority([null, undefined, 'x'])).toEqual([false, false, true]);
    expect(differsFromMajority(['a', 'a', 'b', 'b'])).toEqual([true, true, true, true]);
  });

  it('groups duplicates by first name, last name and date of birth, ignoring case', () => {
    expect(duplicateKey({ firstName: 'Maria ', lastName: 'LOPEZ', dateOfBirth: '1988-04-12' })).toBe(duplicateKey({ firstName: 'maria', lastName: 'Lopez', dateOfBirth: '1988-04-12' }));
  });
});

describe('one age and one accepted-ages rule for providers, placement and the accept grid (spec 01 §5, 02 §3, §5, 03 §3)', () => {
  it('counts full years on the UTC day', () => {
    const at = new Date(Date.UTC(2024, 5, 15, 12));
    expect(ageInYears('2000-06-15', at)).toBe(24);
    expect(ageInYears('2000-06-16', at)).toBe(23);
    expect(ageInYears('2000-07-01', at)).toBe(23);
    expect(ageInYears('2000-06-15T00:00:00.000Z', at)).toBe(24);
    expect(ageInYears(new Date(Date.UTC(2010, 0, 1)), at)).toBe(14);
    expect(ageInYears('bad', at)).toBeNaN();
  });

  const adults = { allAges: false, adolescent: { isActive: false, from: 13, to: 17 }, adult: { isActive: true, from: 18, to: 64 }, geriatric: { isActive: true, from: 65, to: null } };
  it('accepts all ages or the active bands, inclusive at both ends', () => {
    expect(acceptsAge({ allAges: true }, 8)).toBe(true);
    expect(acceptsAge(adults, 15)).toBe(false);
    expect(acceptsAge(adults, 17)).toBe(false);
    expect(acceptsAge(adults, 18)).toBe(true);
    expect(acceptsAge(adults, 64)).toBe(true);
    expect(acceptsAge(adults, 90)).toBe(true);
  });

  it('sets no limit without a record and refuses no unknown age, for the provider list and the matching alike', () => {
    expect(acceptsAge(null, 30)).toBe(true);
    expect(acceptsAge(undefined, 8)).toBe(true);
    expect(acceptsAge(adults, null)).toBe(true);
    expect(acceptsAge(adults, NaN)).toBe(true);
    const c = { mainRecommendation: 'MentalHealthInpatient', criteria: [], patientGender: 'Female', isVeteran: false, isInvoluntary: false, includeOutOfStateFacilities: false, sourceState: 'IA', sourcePopulatesOutOfState: false };
    const d = { divisionId: 1, facilityId: 1, referringType: 'MentalHealthInpatient', criteria: null, genders: null, veteranOnly: false, state: 'IA', score: 70, isPreferred: false, travelSeconds: 60 };
    for (const [acceptedPatients, age] of [[null, 30], [adults, 15], [adults, 55], [adults, 17]] as const)
      expect(matchDivision({ ...c, patientAge: age }, { ...d, acceptedPatients }, undefined) !== null).toBe(acceptsAge(acceptedPatients, age));
    expect(acceptGridEnabled({ genders: null, acceptedPatients: null }).male).toEqual({ adolescent: true, adult: true, geriatric: true });
  });
});
