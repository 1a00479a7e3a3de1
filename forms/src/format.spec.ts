import { formatDateTimeIn } from './format';

describe('formatDateTimeIn (spec 03 §9: MM/dd/yyyy hh:mm AM, in the reader’s time zone)', () => {
  it('shows the wall-clock time of the zone, summer time included', () => {
    expect(formatDateTimeIn('2026-11-25T18:05:00Z', 'America/New_York')).toBe('11/25/2026 01:05 PM');
    expect(formatDateTimeIn('2026-07-01T00:30:00Z', 'America/Los_Angeles')).toBe('06/30/2026 05:30 PM');
    expect(formatDateTimeIn(new Date('2026-11-25T00:00:00Z'), 'UTC')).toBe('11/25/2026 12:00 AM');
  });
});
