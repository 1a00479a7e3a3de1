import {
  BULK_RESULTS,
  CALL_RESULTS,
  acceptGridEnabled,
  alternateResult,
  callLogProblems,
  callbackFor,
  canUndoCall,
  divisionFacts,
  isWillNotAcceptWithEmptyCallback,
  defaultFollowUpMinutes,
  followUpOptions,
  isBulkHold,
  needsCallbackTime,
  spokeWithRequired,
} from './calls';

describe('call results (spec 02 §4)', () => {
  it('has the default follow-up of the table for every result', () => {
    const expected: Record<string, number | null> = {
      GrantedAccess: 120,
      IntakePacketToBeCompleted: 60,
      FaxedInformation: 60,
      LeftVoicemail: 60,
      WaitingToHearBack: 30,
      RequestedClarifyingInfo: 30,
      NoAnswer: 15,
      WaitingList: 240,
    };
    for (const r of CALL_RESULTS) expect([r, defaultFollowUpMinutes(r)]).toEqual([r, expected[r] ?? null]);
  });

  it('needs a callback time for NoBedsAvailable, NoSecureBeds and CallBack only', () => {
    expect(CALL_RESULTS.filter(needsCallbackTime)).toEqual(['CallBack', 'NoBedsAvailable', 'NoSecureBeds']);
  });

  it('sets the callback from the default when none is given, keeps a given one', () => {
    const now = new Date('2026-01-01T10:00:00Z');
    expect(callbackFor('NoAnswer', null, now)?.toISOString()).toBe('2026-01-01T10:15:00.000Z');
    expect(callbackFor('WillNotAccept', null, now)).toBeNull();
    const given = new Date('2026-01-01T13:00:00Z');
    expect(callbackFor('GrantedAccess', given, now)).toBe(given);
  });

  it('offers 48 h and 68 h only when every selected division allows the extension', () => {
    expect(followUpOptions(false)).not.toEqual(expect.arrayContaining([48 * 60]));
    expect(followUpOptions(false)).not.toContain(68 * 60);
    expect(followUpOptions(true)).toEqual(expect.arrayContaining([48 * 60, 68 * 60]));
    expect(followUpOptions(false)[0]).toBe(15);
    expect(followUpOptions(false).at(-1)).toBe(24 * 60);
  });

  it('holds the division only for bulk NoBedsAvailable, NoSecureBeds and CallBack', () => {
    expect(BULK_RESULTS.filter((r) => isBulkHold(r, true))).toEqual(['NoBedsAvailable', 'NoSecureBeds', 'CallBack']);
    expect(isBulkHold('NoBedsAvailable', false)).toBe(false);
  });

  it('offers LeftVoicemail as the alternate of NoAnswer and never CourtesyCall', () => {
    expect(alternateResult('NoAnswer')).toBe('LeftVoicemail');
    for (const r of CALL_RESULTS) expect(alternateResult(r)).not.toBe('CourtesyCall');
  });

  it('requires spokeWith unless every result is NoAnswer or LeftVoicemail', () => {
    expect(spokeWithRequired(['NoAnswer', 'LeftVoicemail'])).toBe(false);
    expect(spokeWithRequired(['NoAnswer', 'GrantedAccess'])).toBe(true);
  });
});

describe('undo (spec 02 §4 "Undo a call")', () => {
  const call = { result: 'NoAnswer', undone: false, isClaimed: false };
  it('is offered while contacting or waiting for confirmation, for an unclaimed, not undone call with a result', () => {
    expect(canUndoCall('LocatingServices_ContactingServiceOrganization', call)).toBe(true);
    expect(canUndoCall('ServicesLocated_WaitingForConfirmation', call)).toBe(true);
    expect(canUndoCall('RecommendationReview_WaitingOnDecision', call)).toBe(false);
    expect(canUndoCall('Closed', call)).toBe(false);
    expect(canUndoCall('LocatingServices_ContactingServiceOrganization', { ...call, isClaimed: true })).toBe(false);
    expect(canUndoCall('LocatingServices_ContactingServiceOrganization', { ...call, undone: true })).toBe(false);
    expect(canUndoCall('LocatingServices_ContactingServiceOrganization', { ...call, result: null as unknown as string })).toBe(false);
  });
});

describe('call log validation (spec 02 §5)', () => {
  const now = new Date('2026-01-01T10:00:00Z');
  const opts = { now, allowExtended: () => false };
  it('needs a selection, a result per row and spokeWith when someone answered', () => {
    expect(callLogProblems([], opts)).toEqual({ calls: 'selectPatient' });
    expect(callLogProblems([{ placementTaskId: 1, result: null }], opts)).toEqual({ 'calls.0.result': 'required', 'calls.0.spokeWith': 'required' });
    expect(callLogProblems([{ placementTaskId: 1, result: 'NoAnswer' }], opts)).toEqual({});
  });
  it('needs a future callback for callback results, within the longest follow-up', () => {
    expect(callLogProblems([{ placementTaskId: 1, result: 'CallBack', spokeWith: 'A' }], opts)).toEqual({ 'calls.0.callbackAt': 'required' });
    expect(callLogProblems([{ placementTaskId: 1, result: 'CallBack', spokeWith: 'A', callbackAt: '2026-01-01T09:00:00Z' }], opts)).toEqual({ 'calls.0.callbackAt': 'past' });
    expect(callLogProblems([{ placementTaskId: 1, result: 'CallBack', spokeWith: 'A', callbackAt: '2026-01-03T10:00:00Z' }], opts)).toEqual({ 'calls.0.callbackAt': 'tooLate' });
    expect(callLogProblems([{ placementTaskId: 1, result: 'CallBack', spokeWith: 'A', callbackAt: '2026-01-03T10:00:00Z' }], { now, allowExtended: () => true })).toEqual({});
  });
  it('takes in a bulk change only the results the bulk modal offers', () => {
    expect(callLogProblems([{ placementTaskId: 1, result: 'WillNotAccept', spokeWith: 'A' }], { ...opts, bulk: true })).toEqual({ 'calls.0.result': 'notBulk' });
    expect(callLogProblems([{ placementTaskId: 1, result: 'WaitingToHearBack', spokeWith: 'A' }], { ...opts, bulk: true })).toEqual({});
    expect(callLogProblems([{ placementTaskId: 1, result: 'WillNotAccept', spokeWith: 'A' }], opts)).toEqual({});
  });
  it('refuses ticked accept-grid cells the division cannot take', () => {
    const enabled = acceptGridEnabled({ genders: ['Female'], acceptedPatients: { allAges: true } });
    const accept = { male: { adolescent: false, adult: true, geriatric: false }, female: { adolescent: false, adult: true, geriatric: false } };
    expect(callLogProblems([{ placementTaskId: 1, result: 'GrantedAccess', spokeWith: 'A', accept }], { ...opts, acceptEnabled: () => enabled })).toEqual({ 'calls.0.accept.male.adult': 'notAccepted' });
  });
});

describe('accept grid (spec 02 §5)', () => {
  it('disables the cells of ages and genders the division does not accept', () => {
    const grid = acceptGridEnabled({ genders: ['Female'], acceptedPatients: { allAges: false, adolescent: { isActive: false }, adult: { isActive: true }, geriatric: { isActive: true } } });
    expect(grid).toEqual({ male: { adolescent: false, adult: false, geriatric: false }, female: { adolescent: false, adult: true, geriatric: true } });
    expect(acceptGridEnabled({ genders: null, acceptedPatients: { allAges: true } }).male.adolescent).toBe(true);
  });
});

describe('the claimed division in the call log (spec 02 §3)', () => {
  it('names its ages, genders and flags', () => {
    expect(
      divisionFacts({
        genders: ['Female'],
        acceptedPatients: { allAges: false, adolescent: { isActive: false }, adult: { isActive: true, from: 18, to: 64 }, geriatric: { isActive: true, from: 55, to: 110 } },
        veteranOnly: true,
        extendMaximumCallbackTime: true,
      }),
    ).toEqual(['Adult 18–64', 'Geriatric 55–110', 'Female', 'Veterans only', 'Callbacks up to 68 h']);
    expect(divisionFacts({ acceptedPatients: { allAges: true } })).toEqual(['All ages', 'Any gender']);
  });
  it('leaves WillNotAccept tasks out only while they have no callback', () => {
    expect(isWillNotAcceptWithEmptyCallback('WillNotAccept', null)).toBe(true);
    expect(isWillNotAcceptWithEmptyCallback('WillNotAccept', '2026-01-01T10:00:00Z')).toBe(false);
    expect(isWillNotAcceptWithEmptyCallback('NoAnswer', null)).toBe(false);
  });
});
