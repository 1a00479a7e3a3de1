import { normalizeInput } from '../normalize';
import { validate, type SchemaName } from '../validation';
import { OUTCOME_ERROR_KEY, caseCreateProblems, formatSsn, isValidSsn, medicalInformationProblems, normalizeMedicalInformation, problemsToFieldErrors } from './schemas';

const v = (name: SchemaName, data: unknown) => validate(name, normalizeInput(data));
/** [field, key] of every error, sorted. */
const fk = (name: SchemaName, data: unknown) => v(name, data).map((e) => [e.field, e.key]).sort();
const iso = (offsetMs = 0) => new Date(Date.now() + offsetMs).toISOString();
const TOMORROW = (() => {
  const d = new Date();
  d.setDate(d.getDate() + 2);
  return d.toISOString().slice(0, 10);
})();

const address = () => ({ streetLine: '1 Main St', apartmentNumber: null, city: 'Tampa', state: 'FL', county: 'Hillsborough', zipCode: '33602' });
const patient = (o: Record<string, unknown> = {}) => ({
  firstName: 'John',
  lastName: 'Doe',
  dateOfBirth: '1980-04-02',
  gender: 'Male',
  phone: '(813) 555-0100',
  isVeteran: false,
  homeless: false,
  address: address(),
  ...o,
});
const insurance = (o: Record<string, unknown> = {}) => ({
  payerId: 3,
  insuranceId: 'ABC123',
  groupId: null,
  relationToInsured: 'Self',
  responsibleParty: { firstName: 'John', lastName: 'Doe', contactPhoneNumber: '8135550100', dateOfBirth: '1980-04-02', role: 'Self' },
  verified: true,
  patientPhone: null,
  ...o,
});

describe('casePatientSearch', () => {
  const ok = { firstName: 'John', lastName: 'Doe', dateOfBirth: '1980-04-02' };
  it('accepts a search', () => expect(v('casePatientSearch', { ...ok, patientEpicId: ' E1 ' })).toEqual([]));
  it('requires the names and date of birth', () =>
    expect(fk('casePatientSearch', { firstName: ' ', lastName: null })).toEqual([
      ['dateOfBirth', 'required'],
      ['firstName', 'required'],
      ['lastName', 'required'],
    ]));
  it.each([
    ['1901-12-31', 'minDate'],
    [TOMORROW, 'future'],
    ['1980-13-01', 'format'],
    ['04/02/1980', 'format'],
  ])('refuses date of birth %s (%s)', (dob, key) => expect(fk('casePatientSearch', { ...ok, dateOfBirth: dob })).toEqual([['dateOfBirth', key]]));
  it('accepts 1902-01-01', () => expect(v('casePatientSearch', { ...ok, dateOfBirth: '1902-01-01' })).toEqual([]));
  it('limits names to 255 characters', () => expect(fk('casePatientSearch', { ...ok, lastName: 'x'.repeat(256) })).toEqual([['lastName', 'maxLength']]));
});

describe('patient', () => {
  it('accepts a patient, with the record fields sent back', () => {
    expect(v('patient', patient({ id: 5, referenceNumber: '00005', tags: [] }))).toEqual([]);
  });
  it('requires names, date of birth, gender and address', () =>
    expect(fk('patient', { firstName: '', isVeteran: false })).toEqual([
      ['address', 'required'],
      ['dateOfBirth', 'required'],
      ['firstName', 'required'],
      ['gender', 'required'],
      ['lastName', 'required'],
    ]));
  it('requires the address parts except the apartment', () =>
    expect(fk('patient', patient({ address: { apartmentNumber: '2B' } }))).toEqual([
      ['address.city', 'required'],
      ['address.county', 'required'],
      ['address.state', 'required'],
      ['address.streetLine', 'required'],
      ['address.zipCode', 'required'],
    ]));
  it('checks enums, zip, state and phones', () =>
    expect(
      fk('patient', patient({ gender: 'Other', phone: '123', outpatientProviderPhone: 'abc', address: { ...address(), state: 'XX', zipCode: '1234' } })),
    ).toEqual([
      ['address.state', 'enum'],
      ['address.zipCode', 'pattern'],
      ['gender', 'enum'],
      ['outpatientProviderPhone', 'format'],
      ['phone', 'format'],
    ]));
  it('accepts zip+4 and a blank phone', () => expect(v('patient', patient({ phone: '  ', address: { ...address(), zipCode: '33602-1234' } }))).toEqual([]));
  it('refuses unknown fields', () => expect(fk('patient', patient({ foo: 1 }))).toEqual([['foo', 'additionalProperties']]));
  it('refuses a date of birth in the future or too early', () => {
    expect(fk('patient', patient({ dateOfBirth: TOMORROW }))).toEqual([['dateOfBirth', 'future']]);
    expect(fk('patient', patient({ dateOfBirth: '1900-01-01' }))).toEqual([['dateOfBirth', 'minDate']]);
  });
  it('requires a valid ssn for veterans only', () => {
    expect(fk('patient', patient({ isVeteran: true }))).toEqual([['ssn', 'required']]);
    expect(fk('patient', patient({ isVeteran: true, ssn: '000-12-3456' }))).toEqual([['ssn', 'ssnInvalid']]);
    expect(v('patient', patient({ isVeteran: true, ssn: '123-45-6789' }))).toEqual([]);
    expect(v('patient', patient({ isVeteran: false, ssn: 'whatever' }))).toEqual([]);
  });
});

describe('ssn pattern (spec 01 §5)', () => {
  it.each([
    ['123-45-6789', true],
    ['001-01-0001', true],
    ['665-99-9999', true],
    ['667-01-0001', true],
    ['899-01-0001', true],
    ['000-45-6789', false],
    ['666-45-6789', false],
    ['900-45-6789', false],
    ['999-45-6789', false],
    ['123-00-6789', false],
    ['123-45-0000', false],
    ['123456789', false],
    ['123-45-678', false],
    ['1234-5-6789', false],
    ['abc-de-fghi', false],
    [' 123-45-6789', false],
  ])('%s → %s', (ssn, ok) => expect(isValidSsn(ssn)).toBe(ok));

  it.each([
    ['1', '1'],
    ['1234', '123-4'],
    ['123456', '123-45-6'],
    ['123456789', '123-45-6789'],
    ['123-45-67891', '123-45-6789'],
    ['12a3', '123'],
  ])('formats %s as %s while it is typed', (typed, shown) => expect(formatSsn(typed)).toBe(shown));
});

describe('insurance', () => {
  it('accepts an insurance', () => expect(v('insurance', insurance())).toEqual([]));
  it('requires payer and insurance id', () =>
    expect(fk('insurance', { groupId: 'G' })).toEqual([
      ['insuranceId', 'required'],
      ['payerId', 'required'],
    ]));
  it('checks enums, phones, texts and the responsible date of birth', () =>
    expect(
      fk(
        'insurance',
        insurance({
          payerId: 'x',
          groupId: 'g'.repeat(256),
          relationToInsured: 'Cousin',
          patientPhone: '12',
          responsibleParty: { firstName: 'x'.repeat(256), contactPhoneNumber: '1', dateOfBirth: TOMORROW, role: 'Boss' },
        }),
      ),
    ).toEqual([
      ['groupId', 'maxLength'],
      ['patientPhone', 'format'],
      ['payerId', 'type'],
      ['relationToInsured', 'enum'],
      ['responsibleParty.contactPhoneNumber', 'format'],
      ['responsibleParty.dateOfBirth', 'future'],
      ['responsibleParty.firstName', 'maxLength'],
      ['responsibleParty.role', 'enum'],
    ]));
  it('order and uninsured', () => {
    expect(v('insuranceOrder', { ids: [3, 1, 2] })).toEqual([]);
    expect(fk('insuranceOrder', { ids: [1, 1] })).toEqual([['ids', 'uniqueItems']]);
    expect(fk('insuranceOrder', { ids: [1, 2, 3, 4] })).toEqual([['ids', 'maxItems']]);
    expect(v('insuranceUninsured', { uninsured: true })).toEqual([]);
    expect(fk('insuranceUninsured', {})).toEqual([['uninsured', 'required']]);
    expect(fk('insuranceUninsured', { uninsured: 'yes' })).toEqual([['uninsured', 'type']]);
  });
});

describe('caseCreate', () => {
  const create = (o: Record<string, unknown> = {}) => ({
    patient: patient(),
    sourceFacilityId: 1,
    sourceDivisionId: 2,
    attendingProvider: 'Dr. House',
    contactPhoneNumber: '8135550100',
    notificationSendingMethod: 'SMS',
    requestType: 'Assessment',
    requestNote: 'Please evaluate',
    evaluationProviderId: 9,
    insurances: [insurance()],
    uninsured: false,
    ...o,
  });
  it('accepts a case with a new patient or a patient id', () => {
    expect(v('caseCreate', create())).toEqual([]);
    expect(v('caseCreate', create({ patient: null, patientId: 4 }))).toEqual([]);
  });
  it('requires a patient, the phone, the sending method and the request type', () =>
    expect(fk('caseCreate', { patient: null })).toEqual([
      ['contactPhoneNumber', 'required'],
      ['notificationSendingMethod', 'required'],
      ['patient', 'required'],
      ['requestType', 'required'],
    ]));
  it('checks nested patient and insurance fields', () =>
    expect(fk('caseCreate', create({ patient: patient({ isVeteran: true, ssn: '666-12-1234', dateOfBirth: '1800-01-01' }), insurances: [insurance(), insurance({ insuranceId: null, responsibleParty: { dateOfBirth: '1901-01-01' } })] }))).toEqual([
      ['insurances.1.insuranceId', 'required'],
      ['insurances.1.responsibleParty.dateOfBirth', 'minDate'],
      ['patient.dateOfBirth', 'minDate'],
      ['patient.ssn', 'ssnInvalid'],
    ]));
  it('allows at most 3 insurances and a large note', () => {
    expect(fk('caseCreate', create({ insurances: [insurance(), insurance(), insurance(), insurance()] }))).toEqual([['insurances', 'maxItems']]);
    expect(fk('caseCreate', create({ requestNote: 'x'.repeat(6001) }))).toEqual([['requestNote', 'maxLength']]);
    expect(v('caseCreate', create({ requestNote: 'x'.repeat(6000) }))).toEqual([]);
  });
  it('checks enums and the phone', () =>
    expect(fk('caseCreate', create({ notificationSendingMethod: 'Fax', requestType: 'Surgery', contactPhoneNumber: '555' }))).toEqual([
      ['contactPhoneNumber', 'format'],
      ['notificationSendingMethod', 'enum'],
      ['requestType', 'enum'],
    ]));

  describe('caseCreateProblems', () => {
    it('ITP staff need facility, division and a provider unless placement only', () => {
      expect(caseCreateProblems({ requestType: 'Assessment' }, { isItp: true, ehrIntegrated: false })).toEqual({
        sourceFacilityId: 'required',
        sourceDivisionId: 'required',
        evaluationProviderId: 'required',
      });
      expect(caseCreateProblems({ requestType: 'PlacementOnly', sourceFacilityId: 1, sourceDivisionId: 2 }, { isItp: true, ehrIntegrated: false })).toEqual({});
      expect(caseCreateProblems({ requestType: 'Assessment' }, { isItp: false, ehrIntegrated: false })).toEqual({});
    });
    it('EHR-integrated divisions need the EHR ids, with the spec messages', () => {
      const problems = caseCreateProblems({ requestType: 'Assessment', patientEpicId: ' ' }, { isItp: false, ehrIntegrated: true });
      expect(problems).toEqual({ patientEpicId: 'required', encounterIdentifier: 'required' });
      expect(problemsToFieldErrors(problems)).toEqual([
        { field: 'patientEpicId', key: 'required', message: 'Patient EPIC ID or MRN is required' },
        { field: 'encounterIdentifier', key: 'required', message: 'Patient Encounter ID is required' },
      ]);
      expect(caseCreateProblems({ patientEpicId: 'E1', encounterIdentifier: 'N1' }, { isItp: false, ehrIntegrated: true })).toEqual({});
    });
  });
});

describe('caseSourceDetails', () => {
  const ok = { sourceFacilityId: 1, sourceDivisionId: 2, contactPhoneNumber: '8135550100', notificationSendingMethod: 'PhoneCall', isInvoluntary: true };
  it('accepts details', () => expect(v('caseSourceDetails', { ...ok, forceUpdate: true, rnCaringForPatient: 'Nurse Joy' })).toEqual([]));
  it('requires facility, division, phone and method', () =>
    expect(fk('caseSourceDetails', {})).toEqual([
      ['contactPhoneNumber', 'required'],
      ['notificationSendingMethod', 'required'],
      ['sourceDivisionId', 'required'],
      ['sourceFacilityId', 'required'],
    ]));
  it('checks texts, ids and phone', () =>
    expect(fk('caseSourceDetails', { ...ok, sourceDivisionId: 0, attendingProvider: 'x'.repeat(256), contactPhoneNumber: 'call me' })).toEqual([
      ['attendingProvider', 'maxLength'],
      ['contactPhoneNumber', 'format'],
      ['sourceDivisionId', 'minimum'],
    ]));
});

describe('caseStatusChange', () => {
  const contacting = 'LocatingServices_ContactingServiceOrganization';
  it('accepts a change', () => {
    expect(v('caseStatusChange', { status: 'OnHold_Other', note: 'Waiting', expectedStatus: 'PendingAssignment_DocumentationReview' })).toEqual([]);
    expect(v('caseStatusChange', { status: contacting, mainRecommendation: 'Outpatient', criteria: ['SubstanceAbuse'], includeOutOfStateFacilities: false })).toEqual([]);
  });
  it('reports the transition rules as field errors', () => {
    expect(fk('caseStatusChange', { status: 'OnHold_Other', note: ' ' })).toEqual([['note', 'required']]);
    expect(fk('caseStatusChange', { status: contacting })).toEqual([
      ['includeOutOfStateFacilities', 'required'],
      ['mainRecommendation', 'required'],
    ]);
    expect(fk('caseStatusChange', { status: contacting, mainRecommendation: 'DeferRecommendationsAtThisTime', includeOutOfStateFacilities: true })).toEqual([
      ['mainRecommendation', 'deferNotAllowed'],
    ]);
    expect(fk('caseStatusChange', { status: contacting, mainRecommendation: 'Outpatient', criteria: ['HighAcuity'], includeOutOfStateFacilities: true })).toEqual([
      ['criteria', 'notAllowed'],
    ]);
  });
  it('checks the enums', () => {
    expect(fk('caseStatusChange', { status: 'Sleeping' })).toEqual([['status', 'enum']]);
    expect(fk('caseStatusChange', {})).toEqual([['status', 'required']]);
    expect(fk('caseStatusChange', { status: 'Closed', criteria: ['Nope'], expectedStatus: 'Nope' })).toEqual([
      ['criteria.0', 'enum'],
      ['expectedStatus', 'enum'],
    ]);
  });
});

describe('caseClose and caseChangeOutcome', () => {
  it('accepts closes', () => {
    expect(v('caseClose', { outcomeRequired: true, caseOutcomeType: 'Transferred_DetoxUnit', referringDivisionId: 4, note: null })).toEqual([]);
    expect(v('caseClose', { outcomeRequired: false })).toEqual([]);
    expect(v('caseClose', { outcomeRequired: true, caseOutcomeType: 'LeftAMA', expectedStatus: 'OnHold_Other' })).toEqual([]);
  });
  it('reports the close rules', () => {
    expect(fk('caseClose', { outcomeRequired: true })).toEqual([['caseOutcomeType', 'required']]);
    expect(fk('caseClose', { outcomeRequired: true, caseOutcomeType: 'Transferred_MedicalUnit' })).toEqual([['referringDivisionId', 'required']]);
    expect(fk('caseClose', { outcomeRequired: true, caseOutcomeType: 'Discharged_Other' })).toEqual([['note', 'required']]);
    expect(fk('caseClose', { caseOutcomeType: 'Gone' })).toEqual([
      ['caseOutcomeType', OUTCOME_ERROR_KEY],
      ['outcomeRequired', 'required'],
    ]);
  });
  it('always needs an outcome when changing it', () => {
    expect(v('caseChangeOutcome', { caseOutcomeType: 'NoServiceProvided' })).toEqual([]);
    expect(fk('caseChangeOutcome', { caseOutcomeType: null })).toEqual([['caseOutcomeType', 'required']]);
    expect(fk('caseChangeOutcome', { caseOutcomeType: 'Transferred_Other', note: '' })).toEqual([['note', 'required']]);
    expect(fk('caseChangeOutcome', { caseOutcomeType: 'Transferred_CrisisCenter' })).toEqual([['referringDivisionId', 'required']]);
    expect(fk('caseChangeOutcome', { caseOutcomeType: 'Transferred_CrisisCenter', referringDivisionId: 'x' })).toEqual([['referringDivisionId', 'type']]);
  });
});

describe('feedback, out-of-state, tags', () => {
  it('feedback rating 1 to 5', () => {
    expect(v('caseFeedback', { rating: 5, note: 'Great', confirmation: true, cantAttest: false })).toEqual([]);
    expect(fk('caseFeedback', { rating: 0 })).toEqual([['rating', 'minimum']]);
    expect(fk('caseFeedback', { rating: 6 })).toEqual([['rating', 'maximum']]);
    expect(fk('caseFeedback', { rating: 2.5 })).toEqual([['rating', 'type']]);
    expect(fk('caseFeedback', { note: 'x' })).toEqual([['rating', 'required']]);
  });
  it('include out of state', () => {
    expect(v('caseIncludeOutOfState', { includeOutOfState: false })).toEqual([]);
    expect(fk('caseIncludeOutOfState', {})).toEqual([['includeOutOfState', 'required']]);
  });
  it('tags', () => {
    expect(v('caseTags', { tagIds: [] })).toEqual([]);
    expect(v('caseTags', { tagIds: [1, 2] })).toEqual([]);
    expect(fk('caseTags', { tagIds: [1, 1] })).toEqual([['tagIds', 'uniqueItems']]);
    expect(fk('caseTags', { tagIds: ['a'] })).toEqual([['tagIds.0', 'type']]);
    expect(fk('caseTags', {})).toEqual([['tagIds', 'required']]);
  });
});

describe('requests', () => {
  it.each(['requestCreate', 'requestUpdate'] as const)('%s', (name) => {
    expect(v(name, { type: 'Assessment', evaluationProviderId: 3, note: 'n', facilityNote: 'f', itpNote: 'i' })).toEqual([]);
    expect(v(name, { type: 'PlacementOnly', evaluationProviderId: null })).toEqual([]);
    expect(fk(name, { note: 'x'.repeat(6001) })).toEqual([
      ['note', 'maxLength'],
      ['type', 'required'],
    ]);
    expect(fk(name, { type: 'Lunch', evaluationProviderId: -1 })).toEqual([
      ['evaluationProviderId', 'minimum'],
      ['type', 'enum'],
    ]);
  });
  it('requestReason', () => {
    expect(v('requestReason', { reason: 'Patient left' })).toEqual([]);
    expect(fk('requestReason', { reason: '  ' })).toEqual([['reason', 'required']]);
    expect(fk('requestReason', { reason: 'x'.repeat(6001) })).toEqual([['reason', 'maxLength']]);
  });
});

describe('vitals', () => {
  it('accepts vitals', () => {
    expect(v('vitals', { submittedOn: iso(-60_000), pulse: 80, bloodPressure: { systolic: 120, diastolic: 80 }, oxygenSaturation: 0.975, bodyTemperature: 98.6, respirationRate: 16 })).toEqual([]);
    expect(v('vitals', { submittedOn: iso(), bloodPressure: { systolic: 120 } })).toEqual([]);
  });
  it('needs at least one measurement', () => {
    expect(v('vitals', { submittedOn: iso(), bloodPressure: {} })).toEqual([
      { field: 'pulse', key: 'atLeastOne', message: 'Enter at least one measurement' },
    ]);
  });
  it('checks the date', () => {
    expect(fk('vitals', { pulse: 1 })).toEqual([['submittedOn', 'required']]);
    expect(fk('vitals', { pulse: 1, submittedOn: iso(24 * 3600_000) })).toEqual([['submittedOn', 'future']]);
    expect(fk('vitals', { pulse: 1, submittedOn: '1901-12-31T12:00:00Z' })).toEqual([['submittedOn', 'minDate']]);
    expect(fk('vitals', { pulse: 1, submittedOn: 'yesterday' })).toEqual([['submittedOn', 'format']]);
  });
  it('checks the measurements', () => {
    expect(
      fk('vitals', { submittedOn: iso(), pulse: 0, bloodPressure: { systolic: 1.5, diastolic: -1 }, oxygenSaturation: 1.01, bodyTemperature: 0, respirationRate: -2 }),
    ).toEqual([
      ['bloodPressure.diastolic', 'minimum'],
      ['bloodPressure.systolic', 'type'],
      ['bodyTemperature', 'exclusiveMinimum'],
      ['oxygenSaturation', 'maximum'],
      ['pulse', 'minimum'],
      ['respirationRate', 'exclusiveMinimum'],
    ]);
    expect(fk('vitals', { submittedOn: iso(), oxygenSaturation: 0 })).toEqual([['oxygenSaturation', 'exclusiveMinimum']]);
    expect(v('vitals', { submittedOn: iso(), oxygenSaturation: 1 })).toEqual([]); // 100 %, sent as a fraction
  });
});

describe('notes', () => {
  it('progress note', () => {
    expect(v('progressNote', { note: 'Seen', submittedOn: iso() })).toEqual([]);
    expect(fk('progressNote', { note: ' ' })).toEqual([
      ['note', 'required'],
      ['submittedOn', 'required'],
    ]);
    expect(fk('progressNote', { note: 'x', submittedOn: iso(3600_000) })).toEqual([['submittedOn', 'future']]);
    expect(fk('progressNote', { note: 'x'.repeat(6001), submittedOn: '1900-05-05T00:00:00Z' })).toEqual([
      ['note', 'maxLength'],
      ['submittedOn', 'minDate'],
    ]);
  });
  it('case note', () => {
    expect(v('caseNote', { note: 'Called family' })).toEqual([]);
    expect(v('caseNote', { id: 3, note: 'Edited', reason: 'typo', hidden: false })).toEqual([]);
    expect(fk('caseNote', { note: null })).toEqual([['note', 'required']]);
    expect(fk('caseNote', { note: 'x'.repeat(6001) })).toEqual([['note', 'maxLength']]);
  });
  it('case note hidden', () => {
    expect(v('caseNoteHidden', { hidden: true })).toEqual([]);
    expect(fk('caseNoteHidden', {})).toEqual([['hidden', 'required']]);
    expect(fk('caseNoteHidden', { hidden: 1 })).toEqual([['hidden', 'type']]);
  });
});

describe('medicalInformation', () => {
  const full = () => ({
    mainRecommendation: 'MentalHealthInpatient',
    recommendationCriteria: ['HighAcuity'],
    recommendationNote: null,
    admissionPrecipitatingFactorsNotes: 'Overdose',
    primaryDiagnosisId: 10,
    secondaryDiagnosisIds: [11, 12],
    homicidalOrSuicidalIdeations: true,
    hallucinations: { exist: true, type: 'Auditory' },
    violentBehavior: 'Past',
    currentLivingSituationType: 'Home',
    currentLivingSituationNote: 'With mother',
    criminalCharges: { exist: false, note: null },
    legalStatus: { type: 'InvoluntaryPsychiatricHold', legalGuardianName: null, relationshipToPatient: null, holdEnd: iso(86_400_000) },
    jailPriorToArrivingOrInCustody: { exist: true, note: 'County jail' },
    alcoholInSystem: { exist: true, bal: 0.8 },
    assistiveDevices: { exist: false, note: null },
    activeDetox: false,
    acuteConditions: 'None',
    medicationsGivenInEr: 'Lorazepam 2 mg',
    homeMedications: 'Sertraline 50 mg',
    ambulatory: true,
    covid19: false,
    incontinent: false,
    crisisTeamNotes: 'Calm',
    medicalPsychHistory: 'Depression',
    drugsInSystem: [{ drug: 'THC', useCase: 'Unprescribed' }, { drug: 'Opiates', useCase: null }],
  });
  it('accepts every field, and an empty draft', () => {
    expect(v('medicalInformation', full())).toEqual([]);
    expect(v('medicalInformation', {})).toEqual([]);
    expect(v('medicalInformation', { ...full(), primaryDiagnosis: { code: 'F32' }, secondaryDiagnoses: [] })).toEqual([]);
  });
  it('checks the enumerations', () => {
    expect(
      fk('medicalInformation', {
        mainRecommendation: 'Spa',
        hallucinations: { exist: true, type: 'Smell' },
        violentBehavior: 'Often',
        currentLivingSituationType: 'Boat',
        legalStatus: { type: 'Free' },
        drugsInSystem: [{ drug: 'Coffee', useCase: 'Daily' }],
      }),
    ).toEqual([
      ['currentLivingSituationType', 'enum'],
      ['drugsInSystem.0.drug', 'enum'],
      ['drugsInSystem.0.useCase', 'enum'],
      ['hallucinations.type', 'enum'],
      ['legalStatus.type', 'enum'],
      ['mainRecommendation', 'enum'],
      ['violentBehavior', 'enum'],
    ]);
  });
  it('requires a drug per entry', () => expect(fk('medicalInformation', { drugsInSystem: [{ useCase: 'Unknown' }] })).toEqual([['drugsInSystem.0.drug', 'required']]));
  it('limits blood alcohol to more than 0 and at most 900 % (sent as a fraction, 9)', () => {
    expect(v('medicalInformation', { alcoholInSystem: { exist: true, bal: 9 } })).toEqual([]);
    expect(fk('medicalInformation', { alcoholInSystem: { exist: true, bal: 9.001 } })).toEqual([['alcoholInSystem.bal', 'maximum']]);
    expect(fk('medicalInformation', { alcoholInSystem: { exist: true, bal: 0 } })).toEqual([['alcoholInSystem.bal', 'exclusiveMinimum']]);
  });
  it('limits texts', () =>
    expect(fk('medicalInformation', { crisisTeamNotes: 'x'.repeat(6001), legalStatus: { type: 'LegalGuardian', legalGuardianName: 'x'.repeat(256) } })).toEqual([
      ['crisisTeamNotes', 'maxLength'],
      ['legalStatus.legalGuardianName', 'maxLength'],
    ]));
  it('allows only the criteria of the recommendation', () => {
    expect(fk('medicalInformation', { mainRecommendation: 'IntensiveOutpatient', recommendationCriteria: ['HighAcuity'] })).toEqual([['recommendationCriteria', 'notAllowed']]);
    expect(fk('medicalInformation', { recommendationCriteria: ['MentalHealth'] })).toEqual([['recommendationCriteria', 'notAllowed']]);
    expect(v('medicalInformation', { mainRecommendation: 'IntensiveOutpatient', recommendationCriteria: ['MentalHealth', 'SubstanceAbuse'] })).toEqual([]);
  });
  it('requires a note for Defer', () => {
    expect(fk('medicalInformation', { mainRecommendation: 'DeferRecommendationsAtThisTime' })).toEqual([['recommendationNote', 'required']]);
    expect(v('medicalInformation', { mainRecommendation: 'DeferRecommendationsAtThisTime', recommendationNote: 'Labs pending' })).toEqual([]);
  });
  it('requires the recommendation only while contacting or waiting for confirmation', () => {
    for (const caseStatus of ['LocatingServices_ContactingServiceOrganization', 'ServicesLocated_WaitingForConfirmation'])
      expect(medicalInformationProblems({ mainRecommendation: null }, { caseStatus })).toEqual({ mainRecommendation: 'required' });
    for (const caseStatus of ['PendingAssignment_DocumentationReview', 'RecommendationReview_WaitingOnDecision', 'OnHold_Other', 'Closed'])
      expect(medicalInformationProblems({ mainRecommendation: null }, { caseStatus })).toEqual({});
    expect(medicalInformationProblems({ mainRecommendation: 'DetoxUnit' }, { caseStatus: 'LocatingServices_ContactingServiceOrganization' })).toEqual({});
  });

  describe('dependent clearing', () => {
    const legal = (type: string) => ({ type, legalGuardianName: 'Ann', relationshipToPatient: 'Aunt', holdEnd: '2024-01-01T00:00:00Z' });
    it('keeps guardian fields only for LegalGuardian', () => {
      expect(normalizeMedicalInformation({ legalStatus: legal('LegalGuardian') as any }).legalStatus).toEqual({
        type: 'LegalGuardian',
        legalGuardianName: 'Ann',
        relationshipToPatient: 'Aunt',
        holdEnd: null,
      });
    });
    it('keeps hold end only for InvoluntaryPsychiatricHold', () => {
      expect(normalizeMedicalInformation({ legalStatus: legal('InvoluntaryPsychiatricHold') as any }).legalStatus).toEqual({
        type: 'InvoluntaryPsychiatricHold',
        legalGuardianName: null,
        relationshipToPatient: null,
        holdEnd: '2024-01-01T00:00:00Z',
      });
    });
    it.each(['Voluntary', 'InvoluntaryMentalHealthCommitment', 'PowerOfAttorney', null])('clears all three for %s', (type) => {
      expect(normalizeMedicalInformation({ legalStatus: legal(type as any) as any }).legalStatus).toEqual({
        type,
        legalGuardianName: null,
        relationshipToPatient: null,
        holdEnd: null,
      });
    });
    it('a yes/no that is not yes clears its note, type or level', () => {
      const input = {
        hallucinations: { exist: false, type: 'Visual' as const },
        criminalCharges: { exist: false, note: 'theft' },
        jailPriorToArrivingOrInCustody: { exist: null, note: 'x' },
        assistiveDevices: { exist: false, note: 'cane' },
        alcoholInSystem: { exist: false, bal: 80 },
        crisisTeamNotes: 'kept',
      };
      const out = normalizeMedicalInformation(input);
      expect(out).toEqual({
        hallucinations: { exist: false, type: null },
        criminalCharges: { exist: false, note: null },
        jailPriorToArrivingOrInCustody: { exist: null, note: null },
        assistiveDevices: { exist: false, note: null },
        alcoholInSystem: { exist: false, bal: null },
        crisisTeamNotes: 'kept',
      });
      expect(input.criminalCharges.note).toBe('theft');
    });
    it('keeps the dependants of a yes', () => {
      const input = { hallucinations: { exist: true, type: 'Visual' as const }, assistiveDevices: { exist: true, note: 'cane' }, alcoholInSystem: { exist: true, bal: 80 } };
      expect(normalizeMedicalInformation(input)).toEqual(input);
    });
  });
});

describe('files, export, list filter', () => {
  it('patient file meta', () => {
    expect(v('patientFileMeta', { title: 'Labs', note: null })).toEqual([]);
    expect(fk('patientFileMeta', { title: ' ', note: 'x'.repeat(6001) })).toEqual([
      ['note', 'maxLength'],
      ['title', 'required'],
    ]);
    expect(fk('patientFileMeta', { title: 'x'.repeat(256) })).toEqual([['title', 'maxLength']]);
  });
  it('PDF export needs at least one checkbox', () => {
    expect(v('casePdfExport', { includeCaseNotes: true })).toEqual([]);
    expect(v('casePdfExport', { includePatientFiles: true, fileIds: [1, 2] })).toEqual([]);
    const none = [{ field: 'includeEvaluations', key: 'atLeastOneCheckbox', message: 'Please check at least one checkbox' }];
    expect(v('casePdfExport', {})).toEqual(none);
    expect(v('casePdfExport', { includeEvaluations: false, includeCaseNotes: false, includePatientFiles: false, fileIds: [3] })).toEqual(none);
    expect(fk('casePdfExport', { includeEvaluations: true, fileIds: [0] })).toEqual([['fileIds.0', 'minimum']]);
  });
  it('case list filter', () => {
    expect(
      v('caseListFilter', {
        status: ['OnHold_Other', 'Closed'],
        mainRecommendation: ['Outpatient'],
        search: 'doe',
        except: ['Closed'],
        onlyWaitingForConfirmation: true,
        providerCases: false,
        showAll: true,
        activeForHours: 99,
      }),
    ).toEqual([]);
    expect(fk('caseListFilter', { status: ['Nope'], mainRecommendation: ['Nope'], activeForHours: 100, except: 'Closed' })).toEqual([
      ['activeForHours', 'maximum'],
      ['except', 'type'],
      ['mainRecommendation.0', 'enum'],
      ['status.0', 'enum'],
    ]);
    expect(fk('caseListFilter', { activeForHours: 0 })).toEqual([['activeForHours', 'minimum']]);
    expect(fk('caseListFilter', { activeForHours: 1.5 })).toEqual([['activeForHours', 'type']]);
  });
});
