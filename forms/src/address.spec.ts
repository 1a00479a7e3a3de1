import { splitApartment, ZIP_LOOKUP_PATTERN } from './address';

describe('splitApartment', () => {
  it.each([
    ['100 Main St Apt 4B', '100 Main St', '4B'],
    ['100 Main St, Apt. 4B', '100 Main St', '4B'],
    ['100 Main St Apartment 12', '100 Main St', '12'],
    ['4200 N Armenia Ave Unit 3', '4200 N Armenia Ave', '3'],
    ['1 Harbor Way Suite 200', '1 Harbor Way', '200'],
    ['1 Harbor Way, Ste. 200', '1 Harbor Way', '200'],
    ['12 Bayshore Blvd #5', '12 Bayshore Blvd', '5'],
    ['12 Bayshore Blvd # 5A', '12 Bayshore Blvd', '5A'],
    ['12 Bayshore Blvd Apt #7', '12 Bayshore Blvd', '7'],
    ['12 Bayshore Blvd apt 7-C', '12 Bayshore Blvd', '7-C'],
    ['Apt 4, 100 Main St', '100 Main St', '4'],
    ['  100   Main St   APT   9 ', '100 Main St', '9'],
  ])('splits %p', (line, streetLine, apartmentNumber) => {
    expect(splitApartment(line)).toEqual({ streetLine, apartmentNumber });
  });

  it.each([
    ['100 Main St', '100 Main St'],
    ['1 Unity Blvd', '1 Unity Blvd'],
    ['500 Suiter Rd', '500 Suiter Rd'],
    ['Apt 4', 'Apt 4'],
    ['# 12', '# 12'],
    ['', ''],
  ])('leaves %p without an apartment', (line, streetLine) => {
    expect(splitApartment(line)).toEqual({ streetLine, apartmentNumber: null });
  });

  it('treats null and undefined as empty', () => {
    expect(splitApartment(null)).toEqual({ streetLine: '', apartmentNumber: null });
    expect(splitApartment(undefined)).toEqual({ streetLine: '', apartmentNumber: null });
  });
});

describe('ZIP_LOOKUP_PATTERN', () => {
  it('takes 5 digits with an optional +4', () => {
    expect(ZIP_LOOKUP_PATTERN.exec('33606')?.[1]).toBe('33606');
    expect(ZIP_LOOKUP_PATTERN.exec('33606-1234')?.[1]).toBe('33606');
    expect(ZIP_LOOKUP_PATTERN.test('3360')).toBe(false);
    expect(ZIP_LOOKUP_PATTERN.test('987654')).toBe(false);
    expect(ZIP_LOOKUP_PATTERN.test('abcde')).toBe(false);
  });
});
