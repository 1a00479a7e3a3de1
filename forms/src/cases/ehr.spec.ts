import { deliveriesAfterEvaluation, ehrClaimRetryRules, ehrDifferences, evaluationFormOptional, parseCaseReference, syncsOutcome } from './ehr';

describe('what a case owes the EHR (forms/src/cases/ehr.ts)', () => {
  const base = { requestType: 'Assessment', ehrIntegrated: true, hasEhrIds: true, hasEvaluation: true, formSkipped: false, billedToEhr: false };
  it('uploads the document of an assessment or reassessment, and bills what the facility bills to the EHR', () => {
    expect(deliveriesAfterEvaluation(base)).toEqual(['EvaluationDocument']);
    expect(deliveriesAfterEvaluation({ ...base, requestType: 'Reassessment', billedToEhr: true })).toEqual(['EvaluationDocument', 'Claim']);
    expect(deliveriesAfterEvaluation({ ...base, requestType: 'PhoneConsultation', billedToEhr: true })).toEqual(['Claim']);
  });
  it('sends nothing without an integrated facility, both ids or an evaluation; no document when the form was skipped', () => {
    expect(deliveriesAfterEvaluation({ ...base, ehrIntegrated: false, billedToEhr: true })).toEqual([]);
    expect(deliveriesAfterEvaluation({ ...base, hasEhrIds: false })).toEqual([]);
    expect(deliveriesAfterEvaluation({ ...base, hasEvaluation: false })).toEqual([]);
    expect(deliveriesAfterEvaluation({ ...base, formSkipped: true, billedToEhr: true })).toEqual(['Claim']);
    expect(syncsOutcome({ ehrIntegrated: true, hasEhrIds: false })).toBe(false);
  });
  it('lets assessment-like requests of a division documenting in the EHR skip the questionnaire', () => {
    expect(evaluationFormOptional({ requestType: 'TelepsychiatryFollowUp', documentInEhr: true })).toBe(true);
    expect(evaluationFormOptional({ requestType: 'FileReview', documentInEhr: true })).toBe(false);
    expect(evaluationFormOptional({ requestType: 'Assessment', documentInEhr: false })).toBe(false);
  });
  it('reads case reference numbers as people type them, and names the ones it cannot read', () => {
    expect(['#000123', '000123', ' 123 ', '# 42'].map(parseCaseReference)).toEqual([123, 123, 123, 42]);
    expect(['', '#', 'abc', '0', '-5', '12a'].map(parseCaseReference)).toEqual([null, null, null, null, null, null]);
    expect(ehrClaimRetryRules({ referenceNumbers: ['#000001', 'x1'] })).toEqual([
      { field: 'referenceNumbers.1', key: 'invalid', message: "'x1' is not a case reference number" },
    ]);
  });
});

describe('ehrDifferences', () => {
  const platform = { firstName: 'Jordan', lastName: 'Rivera', dateOfBirth: '1990-06-15', phone: '+18135551234' };
  it('sees no difference in case, the country code or a blank on the EHR side', () => {
    expect(ehrDifferences(platform, { firstName: 'JORDAN', lastName: 'rivera', dateOfBirth: '1990-06-15', phone: '(813) 555-1234' })).toEqual([]);
    expect(ehrDifferences(platform, { firstName: null, lastName: null, dateOfBirth: null, phone: null })).toEqual([]);
  });
  it('names each field the EHR has otherwise, with both values', () => {
    expect(ehrDifferences(platform, { firstName: 'Jordan', lastName: 'Rivera-Cruz', dateOfBirth: '1990-06-16', phone: '(813) 555-9999' })).toEqual([
      { field: 'lastName', label: 'Last name', platform: 'Rivera', ehr: 'Rivera-Cruz' },
      { field: 'dateOfBirth', label: 'Date of birth', platform: '1990-06-15', ehr: '1990-06-16' },
      { field: 'phone', label: 'Phone', platform: '+18135551234', ehr: '(813) 555-9999' },
    ]);
  });
});
