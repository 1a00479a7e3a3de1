import { normalizeInput } from './normalize';
import { isValidPassword } from './password';
import { validate } from './validation';

const facility = () => ({
  name: 'Bayside Medical Center',
  address: { streetLine: '100 Harbor Way', city: 'Tampa', state: 'FL', zipCode: '33602' },
  geoPosition: { latitude: 27.95, longitude: -82.46 },
  contacts: { phone1: '(813) 555-0100' },
});

const referring = () => ({
  name: 'Adult Inpatient',
  type: 'Referring',
  contacts: { phone1: '8135550101', fax1: '8135550102' },
  referringType: 'MentalHealthInpatient',
  genders: ['Female', 'Male'],
  score: 70,
  veteranOnly: false,
  extendMaximumCallbackTime: false,
  acceptedPatients: { allAges: false, adult: { isActive: true, from: 18, to: 64 } },
});

describe('normalizeInput', () => {
  it('trims text and turns blanks into null at any depth', () => {
    expect(normalizeInput({ a: '  x ', b: '   ', c: [' y', ''], d: { e: '\t' }, f: 3 })).toEqual({
      a: 'x', b: null, c: ['y', null], d: { e: null }, f: 3,
    });
  });
});

describe('password rule (spec 03 §5)', () => {
  it.each([
    ['Abcdefg1', true],
    ['abcdefg1', false],
    ['ABCDEFG1', false],
    ['Abcdefgh', false],
    ['Abc1', false],
    ['A1' + 'a'.repeat(248), true],
    ['A1' + 'a'.repeat(249), false],
  ])('%s → %s', (p, ok) => expect(isValidPassword(p)).toBe(ok));
});

describe('facility schema', () => {
  it('accepts a complete facility', () => expect(validate('facility', facility())).toEqual([]));

  it('names each missing required field', () => {
    const errors = validate('facility', normalizeInput({ ...facility(), name: '  ', address: { state: 'FL' } }));
    expect(errors.map((e) => e.field).sort()).toEqual(['address.city', 'address.streetLine', 'address.zipCode', 'name']);
    expect(errors.every((e) => e.message === 'This field is required')).toBe(true);
  });

  it('limits medium text to 255 characters', () => {
    expect(validate('facility', { ...facility(), name: 'x'.repeat(256) })).toEqual([
      expect.objectContaining({ field: 'name', key: 'maxLength' }),
    ]);
  });

  it('checks zip, state and coordinates', () => {
    const errors = validate('facility', {
      ...facility(),
      address: { ...facility().address, zipCode: '1234', state: 'XX' },
      geoPosition: { latitude: 91, longitude: -181 },
    });
    expect(errors.map((e) => e.field).sort()).toEqual(['address.state', 'address.zipCode', 'geoPosition.latitude', 'geoPosition.longitude']);
  });

  it('accepts zip plus four', () => {
    expect(validate('facility', { ...facility(), address: { ...facility().address, zipCode: '33602-1234' } })).toEqual([]);
  });
});

describe('division rules', () => {
  it('accepts a complete referring division', () => expect(validate('division', referring())).toEqual([]));

  it('requires fax1 for referring divisions only', () => {
    expect(validate('division', { ...referring(), contacts: { phone1: '8135550101' } }).map((e) => e.field)).toEqual(['contacts.fax1']);
    expect(
      validate('division', { name: 'ER', type: 'Source', contacts: { phone1: '8135550101' }, sourceType: 'ErCrisis', requestTypes: ['Assessment'] }),
    ).toEqual([]);
  });

  it('requires source type and request types for source divisions', () => {
    const errors = validate('division', { name: 'ER', type: 'Source', contacts: { phone1: '8135550101' }, requestTypes: [] });
    expect(errors.map((e) => e.field).sort()).toEqual(['requestTypes', 'sourceType']);
  });

  it('requires criteria for Outpatient and IntensiveOutpatient, and only the allowed ones', () => {
    expect(validate('division', { ...referring(), referringType: 'Outpatient' }).map((e) => e.field)).toEqual(['criteria']);
    expect(validate('division', { ...referring(), referringType: 'Outpatient', criteria: ['MentalHealth'] })).toEqual([
      expect.objectContaining({ field: 'criteria', key: 'enum' }),
    ]);
    expect(validate('division', { ...referring(), referringType: 'IntensiveOutpatient', criteria: ['MentalHealth'] })).toEqual([]);
  });

  it('needs at least one accepted-age option, with to at least from', () => {
    expect(validate('division', { ...referring(), acceptedPatients: { allAges: false } })).toEqual([
      expect.objectContaining({ field: 'acceptedPatients', key: 'atLeastOneOptionIsRequired' }),
    ]);
    expect(
      validate('division', { ...referring(), acceptedPatients: { allAges: false, adult: { isActive: true, from: 40, to: 30 } } }),
    ).toEqual([expect.objectContaining({ field: 'acceptedPatients.adult.to', key: 'toBeforeFrom' })]);
    expect(validate('division', { ...referring(), acceptedPatients: { allAges: true } })).toEqual([]);
  });

  it('keeps the score within 0 to 100', () => {
    expect(validate('division', { ...referring(), score: 101 }).map((e) => e.key)).toEqual(['maximum']);
  });
});

describe('change password', () => {
  it('must differ from the current one and be confirmed', () => {
    const errors = validate('changePassword', { currentPassword: 'Abcdefg1', newPassword: 'Abcdefg1', confirmPassword: 'x' });
    expect(errors.map((e) => e.key).sort()).toEqual(['mustDiffer', 'passwordsDoNotMatch']);
  });
});
