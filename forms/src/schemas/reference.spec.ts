import { normalizeInput } from '../normalize';
import { validate } from '../validation';
import { payerFullAddress, payerLookupEntries } from './reference';

const group = (o: Record<string, unknown> = {}) =>
  normalizeInput({
    name: ' North ',
    isActive: true,
    mfaEnabled: false,
    states: ['FL'],
    counties: [],
    facilities: [1, 2],
    excludedFacilities: [3],
    placementFacilities: [],
    ...o,
  });

describe('reference data schemas (spec 03 §5)', () => {
  it('accepts a group and refuses a facility both included and excluded', () => {
    expect(validate('groupOrganization', group())).toEqual([]);
    expect(validate('groupOrganization', group({ excludedFacilities: [2] }))).toEqual([
      expect.objectContaining({ field: 'excludedFacilities', key: 'alsoIncluded' }),
    ]);
  });

  it('requires non-empty states and facilities of a group', () => {
    const fields = validate('groupOrganization', group({ states: [], facilities: [] })).map((e) => e.field);
    expect(fields.sort()).toEqual(['facilities', 'states']);
  });

  it('says "Plan Name is required" for the insurance lookup without a plan name', () => {
    expect(validate('payerInsuranceQuery', normalizeInput({ planName: '  ' }))).toEqual([
      { field: 'planName', key: 'required', message: 'Plan Name is required' },
    ]);
    expect(validate('payerInsuranceQuery', { planName: 'Gold' })).toEqual([]);
  });

  it('requires both type lists of a billing code', () => {
    const errors = validate('billingCode', { code: 'A', description: 'B', sourceDivisionTypes: [], requestTypes: [] });
    expect(errors.map((e) => [e.field, e.key])).toEqual([
      ['sourceDivisionTypes', 'required'],
      ['requestTypes', 'required'],
    ]);
  });

  it("formats a payer's full address", () => {
    expect(payerFullAddress({ streetLine: '1 Main St', city: 'Tampa', state: 'FL', zipCode: '33602' })).toBe('1 Main St, Tampa, FL 33602');
    expect(payerFullAddress({ city: null })).toBeNull();
    expect(payerFullAddress(null)).toBeNull();
  });
});

describe('payer look-up entries (spec 02 §3: first two addresses, the rest in a tooltip)', () => {
  it('keeps each payer and plan once, with its distinct addresses split after the second', () => {
    const rec = (street: string) => ({ payerId: 1, payerName: 'Humana', planName: 'Gold', memberId: null, insuranceAddress: street, insuranceCity: 'Louisville', insuranceState: 'KY', insuranceZipCode: '40202', insurancePhoneNumber: null });
    expect(payerLookupEntries([rec('1 A St'), rec('2 B St'), rec('1 A St'), rec('3 C St')])).toEqual([
      { payerId: 1, payerName: 'Humana', planName: 'Gold', shown: ['1 A St, Louisville, KY 40202', '2 B St, Louisville, KY 40202'], more: ['3 C St, Louisville, KY 40202'] },
    ]);
  });
});
