import { contactLines, formatPhone, isAcceptedPhone, setInternationalPhones, toStoredPhone } from './phone';

describe('phones (spec 03 §5)', () => {
  afterEach(() => setInternationalPhones(false));

  it.each(['(813) 555-0100', '8135550100', '+18135550100', '1 813 555 0100', '813.555.0100', '+1 (555) 123-4567'])('accepts the US number %s and stores it in E.164', (v) => {
    expect(isAcceptedPhone(v)).toBe(true);
    expect(toStoredPhone(v)).toMatch(/^\+1\d{10}$/);
  });

  it.each(['123', '813555010', '81355501000', '(813) 555-0100 ext 4', '1-800-FLOWERS', '+44 20 7946 095'])('refuses %s', (v) => {
    expect(isAcceptedPhone(v, true)).toBe(false);
  });

  it('accepts an international number only when the setting is on', () => {
    expect(isAcceptedPhone('+44 20 7946 0958')).toBe(false);
    setInternationalPhones(true);
    expect(isAcceptedPhone('+44 20 7946 0958')).toBe(true);
    expect(toStoredPhone('+44 20 7946 0958')).toBe('+442079460958');
  });

  it('shows North American numbers as (XXX) XXX-XXXX and others in international format', () => {
    expect(formatPhone('+18135550100')).toBe('(813) 555-0100');
    expect(formatPhone('8135550100')).toBe('(813) 555-0100');
    expect(formatPhone('+442079460958')).toBe('+44 20 7946 0958');
    expect(formatPhone('not a phone')).toBe('not a phone');
    expect(formatPhone(null)).toBe('');
  });
});

describe('contact lines of the call log (spec 02 §3 division contacts with extensions)', () => {
  it('shows each phone and fax with its extension, phones first, and never an extension as a number', () => {
    expect(contactLines({ fax1: '+19045550103', phone1: '+19045550102', phone1Ext: '12', phone2: '+19045550110', fax1Ext: '7' })).toEqual([
      { label: 'Phone', value: '(904) 555-0102 ext. 12' },
      { label: 'Phone', value: '(904) 555-0110' },
      { label: 'Fax', value: '(904) 555-0103 ext. 7' },
    ]);
    expect(contactLines(null)).toEqual([]);
  });
});
