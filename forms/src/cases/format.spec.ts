import { capitalizeName, caseReference, durationTwoUnits, patientReference, recencyClass } from './format';

describe('case formats (spec 01 §9)', () => {
  it('references', () => {
    expect(caseReference(123)).toBe('#000123');
    expect(caseReference(1234567)).toBe('#1234567');
    expect(patientReference(12)).toBe('00012');
  });

  it.each([
    ['  john  ', 'John'],
    ['mary ann', 'Mary Ann'],
    ["o'neil-smith", "O'Neil-Smith"],
    ['McDonald', 'McDonald'],
    ['élodie', 'Élodie'],
  ])('capitalizeName(%j) = %j', (input, out) => expect(capitalizeName(input)).toBe(out));
  it('keeps null', () => expect(capitalizeName(null)).toBeNull());

  const s = 1000, m = 60 * s, h = 60 * m, d = 24 * h;
  it.each([
    [2 * d + 3 * h + 4 * m, '2d 3h'],
    [5 * h + 12 * m + 30 * s, '5h 12m'],
    [45 * s, '45s'],
    [2 * d + 5 * m, '2d 5m'],
    [3 * m, '3m'],
    [0, '0s'],
    [-5, '0s'],
    [999, '0s'],
    [31 * d, '1mo 13h'],
    [40 * d + 5 * h, '1mo 9d'],
    [400 * d, '1y 1mo'],
    [2 * 365.2425 * d + 3 * h, '2y 3h'],
  ])('durationTwoUnits(%d) = %s', (ms, out) => expect(durationTwoUnits(ms)).toBe(out));

  it('recency classes', () => {
    const now = new Date(2024, 5, 15, 9, 0);
    expect(recencyClass(new Date(2024, 5, 15, 0, 1), now)).toBe('today');
    expect(recencyClass(new Date(2024, 5, 14, 23, 59), now)).toBe('yesterday');
    expect(recencyClass(new Date(2024, 5, 1), now)).toBe('within90');
    expect(recencyClass(new Date(2024, 2, 17), now)).toBe('within90');
    expect(recencyClass(new Date(2024, 2, 16), now)).toBe('over90');
    expect(recencyClass(new Date(2023, 11, 18), now)).toBe('over90');
    expect(recencyClass(new Date(2023, 11, 17), now)).toBe('over180');
  });

  it("recency counts calendar days in the viewer's time zone", () => {
    // 01:30 UTC on June 15 is 21:30 on June 14 in New York.
    const now = Date.parse('2024-06-15T01:30:00Z');
    const evening = Date.parse('2024-06-14T23:00:00Z'); // 19:00 in New York, the same day there
    expect(recencyClass(evening, now, 'America/New_York')).toBe('today');
    expect(recencyClass(evening, now, 'UTC')).toBe('yesterday');
    expect(recencyClass(Date.parse('2024-06-14T03:00:00Z'), now, 'America/New_York')).toBe('yesterday'); // 23:00 on June 13 there
  });
});
