import { NOTIFICATION_TYPES } from './types';
import { NOTIFICATION_RECIPIENTS, recipientsOf } from './recipients';
import { UNKNOWN_NOTIFICATION_TEXT, badgeText, notificationText } from './text';

describe('notification texts', () => {
  it('gives every known type its own sentence naming the patient, and an unknown type the unknown message', () => {
    for (const type of NOTIFICATION_TYPES.filter((t) => t !== 'Unspecified')) {
      const text = notificationText({ type, payload: { PatientName: 'Pat Doe', Reason: 'r', CallbackAt: '2026-11-25T10:30:00Z' } });
      expect(text).toContain('Pat Doe');
      expect(text).not.toBe(UNKNOWN_NOTIFICATION_TEXT);
    }
    expect(notificationText({ type: 'SomethingNew', payload: { PatientName: 'Pat Doe' } })).toBe(UNKNOWN_NOTIFICATION_TEXT);
    expect(notificationText({ type: 'Unspecified', payload: {} })).toBe(UNKNOWN_NOTIFICATION_TEXT);
    expect(notificationText({ type: 'CaseClosed', payload: null })).toBe('The case of a patient was closed.');
  });

  it('caps the badge at 99+', () => {
    expect([badgeText(1), badgeText(99), badgeText(100), badgeText(120)]).toEqual(['1', '99', '99+', '99+']);
  });
});

describe('recipient table', () => {
  it('has a row for every type', () => {
    expect(Object.keys(NOTIFICATION_RECIPIENTS).sort()).toEqual([...NOTIFICATION_TYPES].sort());
  });

  it('tells the other side of the case: ITP hears of the facility, the facility of ITP; a system event as ITP', () => {
    expect(recipientsOf('CaseNoteAdded', 'Facility_User')).toEqual(['itp', 'provider']);
    expect(recipientsOf('CaseNoteAdded', 'IntegratedTelehealthPartners_User')).toEqual(['sourceDivision', 'provider']);
    expect(recipientsOf('CaseNoteAdded', 'IntegratedTelehealthPartners_Provider')).toEqual(['sourceDivision', 'provider']);
    expect(recipientsOf('CaseNoteAdded', null)).toEqual(['sourceDivision', 'provider']);
    expect(recipientsOf('RequestCreated', 'Facility_User')).toEqual(['itp']);
  });
});
