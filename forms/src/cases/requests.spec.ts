import { UserType, REQUEST_TYPES } from '../enums';
import { ACTIVE_REQUEST_STATUSES, REQUEST_STATUSES } from './enums';
import { availableRequestTypes, canCancelRequest, canEditRequest } from './requests';

const ITP = [UserType.ItpAdmin, UserType.ItpUser];
const FACILITY = [UserType.FacilityAdmin, UserType.FacilityUser];
const types = (userType: string, allowPlacementOnly = false, completedRequestTypes: string[] = []) =>
  availableRequestTypes({ userType, allowPlacementOnly, completedRequestTypes });

describe('request type options (spec 01 §5)', () => {
  it.each(ITP)('FileReview and ASAMAssessment are offered to %s', (u) => {
    expect(types(u)).toEqual(expect.arrayContaining(['FileReview', 'ASAMAssessment']));
  });
  it.each([...FACILITY, UserType.ItpProvider, UserType.GroupUser])('FileReview and ASAMAssessment are not offered to %s', (u) => {
    expect(types(u, true, REQUEST_TYPES as unknown as string[])).not.toEqual(expect.arrayContaining(['FileReview']));
    expect(types(u, true, REQUEST_TYPES as unknown as string[])).not.toContain('ASAMAssessment');
  });

  it('PlacementOnly only when the facility allows placement-only cases', () => {
    expect(types(UserType.ItpUser, false)).not.toContain('PlacementOnly');
    expect(types(UserType.ItpUser, true)).toContain('PlacementOnly');
    expect(types(UserType.FacilityUser, true)).toContain('PlacementOnly');
  });

  it('Reassessment and TelepsychiatryFollowUp are excluded for facility users', () => {
    for (const u of FACILITY) {
      const t = types(u, false, ['Assessment', 'TelepsychUrgentCrisisEvaluation']);
      expect(t).not.toContain('Reassessment');
      expect(t).not.toContain('TelepsychiatryFollowUp');
    }
  });

  it('Reassessment and TelepsychiatryFollowUp are excluded when placement-only is allowed', () => {
    const t = types(UserType.ItpAdmin, true, ['Assessment', 'TelepsychPsychiatryConsult']);
    expect(t).not.toContain('Reassessment');
    expect(t).not.toContain('TelepsychiatryFollowUp');
  });

  it.each([
    [[], false],
    [['FileReview', 'TelepsychUrgentCrisisEvaluation'], false],
    [['Assessment'], true],
    [['PhoneConsultation'], true],
  ])('Reassessment after completed %j → %s', (completed, offered) => {
    expect(types(UserType.ItpUser, false, completed).includes('Reassessment')).toBe(offered);
  });

  it.each([
    [[], false],
    [['Assessment', 'PhoneConsultation'], false],
    [['TelepsychUrgentCrisisEvaluation'], true],
    [['TelepsychPsychiatryConsult'], true],
  ])('TelepsychiatryFollowUp after completed %j → %s', (completed, offered) => {
    expect(types(UserType.ItpUser, false, completed).includes('TelepsychiatryFollowUp')).toBe(offered);
  });

  it('offers the plain types to everyone, in enum order', () => {
    expect(types(UserType.FacilityUser)).toEqual(['PhoneConsultation', 'Assessment', 'TelepsychUrgentCrisisEvaluation', 'TelepsychPsychiatryConsult']);
    expect(types(UserType.ItpAdmin, false, ['Assessment', 'TelepsychPsychiatryConsult'])).toEqual(
      REQUEST_TYPES.filter((t) => t !== 'PlacementOnly'),
    );
  });
});

describe('edit and cancel requests by role (spec 01 §4)', () => {
  const req = (status: string, type = 'Assessment', evaluationStarted = false) => ({ status, type, evaluationStarted });

  it.each(ITP)('%s edits New, Pending, OnHold and InProgress before the evaluation started', (u) => {
    for (const s of REQUEST_STATUSES) expect(canEditRequest(u, req(s))).toBe(['New', 'Pending', 'OnHold', 'InProgress'].includes(s));
    expect(canEditRequest(u, req('InProgress', 'Assessment', true))).toBe(false);
    expect(canEditRequest(u, req('Pending', 'FileReview'))).toBe(true);
  });

  it.each(ITP)('%s cancels any active request', (u) => {
    for (const s of REQUEST_STATUSES) {
      expect(canCancelRequest(u, req(s))).toBe(ACTIVE_REQUEST_STATUSES.includes(s as never));
      expect(canCancelRequest(u, req(s, 'FileReview', true))).toBe(ACTIVE_REQUEST_STATUSES.includes(s as never));
    }
  });

  it.each(FACILITY)('%s edits like partner staff except FileReview', (u) => {
    for (const s of REQUEST_STATUSES) {
      expect(canEditRequest(u, req(s))).toBe(['New', 'Pending', 'OnHold', 'InProgress'].includes(s));
      expect(canEditRequest(u, req(s, 'FileReview'))).toBe(false);
    }
    expect(canEditRequest(u, req('InProgress', 'Assessment', true))).toBe(false);
  });

  it.each(FACILITY)('%s cancels only New, Pending or OnHold requests that are not FileReview', (u) => {
    for (const s of REQUEST_STATUSES) {
      expect(canCancelRequest(u, req(s))).toBe(['New', 'Pending', 'OnHold'].includes(s));
      expect(canCancelRequest(u, req(s, 'FileReview'))).toBe(false);
    }
  });

  it.each([UserType.ItpProvider, UserType.GroupUser])('%s neither edits nor cancels', (u) => {
    for (const s of REQUEST_STATUSES) {
      expect(canEditRequest(u, req(s))).toBe(false);
      expect(canCancelRequest(u, req(s))).toBe(false);
    }
  });
});
