import fc from 'fast-check';
import { isCalendarDate, isoDate } from '@racedata/core';

describe('isCalendarDate', () => {
  test.each([
    '2026-01-01',
    '2026-12-31',
    '2026-02-28',
    '2024-02-29',
    '2000-02-29',
    '2026-04-30',
    '1999-01-31',
    '9999-12-31',
  ])('accepts the real date %s', (text) => {
    expect(isCalendarDate(text)).toBe(true);
  });

  test.each([
    ['2026-02-29', 'not a leap year'],
    ['1900-02-29', 'century, not a leap year'],
    ['2026-02-30', 'February has no 30th'],
    ['2026-04-31', 'April has 30 days'],
    ['2026-00-10', 'month 0'],
    ['2026-13-01', 'month 13'],
    ['2026-01-00', 'day 0'],
    ['2026-01-32', 'day 32'],
    ['2026-1-01', 'one-digit month'],
    ['2026-01-1', 'one-digit day'],
    ['26-01-01', 'two-digit year'],
    ['2026/01/01', 'slashes'],
    ['20260101', 'no separators'],
    ['2026-01-01T00:00:00Z', 'a timestamp'],
    [' 2026-01-01', 'leading space'],
    ['2026-01-01 ', 'trailing space'],
    ['', 'empty'],
    ['yyyy-mm-dd', 'letters'],
  ])('refuses %j (%s)', (text) => {
    expect(isCalendarDate(text)).toBe(false);
  });

  // Date.UTC maps years 0..99 to 1900..1999; a real date in those years must still be accepted.
  // 0001-01-01 is what .NET clients send for DateTime.MinValue.
  test.each(['0001-01-01', '0099-12-31', '0050-06-15'])(
    'accepts the real date %s in years below 100',
    (text) => {
      expect(isCalendarDate(text)).toBe(true);
    },
  );
});

// The calendar as JavaScript's Date keeps it: the date must survive a round trip unchanged.
function dateRoundTrips(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

test('isCalendarDate agrees with a round trip through Date for any ten characters of that shape', () => {
  const digit = fc.constantFrom(...'0123456789');
  const twoDigits = fc.tuple(digit, digit).map(([a, b]) => a + b);
  const text = fc.oneof(
    fc
      .tuple(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 0, max: 14 }),
        fc.integer({ min: 0, max: 33 }),
      )
      .map(
        ([y, m, d]) =>
          `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`,
      ),
    fc
      .tuple(
        twoDigits,
        twoDigits,
        fc.constantFrom('-', '/', 'x'),
        twoDigits,
        fc.constantFrom('-', ' '),
        twoDigits,
      )
      .map(([a, b, s1, m, s2, d]) => `${a}${b}${s1}${m}${s2}${d}`),
    fc.string({ minLength: 10, maxLength: 10 }),
  );
  fc.assert(
    fc.property(text, (t) => isCalendarDate(t) === dateRoundTrips(t)),
    { numRuns: 5000 },
  );
});

describe('isoDate', () => {
  test('formats the UTC date of an instant as YYYY-MM-DD', () => {
    expect(isoDate(Date.UTC(2026, 0, 1))).toBe('2026-01-01');
    expect(isoDate(Date.UTC(2024, 1, 29, 12))).toBe('2024-02-29');
  });

  test('uses UTC, not local time, at both edges of the day', () => {
    expect(isoDate(Date.UTC(2026, 5, 15, 0, 0, 0, 0))).toBe('2026-06-15');
    expect(isoDate(Date.UTC(2026, 5, 15, 23, 59, 59, 999))).toBe('2026-06-15');
    expect(isoDate(Date.UTC(2026, 5, 16, 0, 0, 0, 0))).toBe('2026-06-16');
  });

  test('works before the epoch', () => {
    expect(isoDate(-1)).toBe('1969-12-31');
    expect(isoDate(0)).toBe('1970-01-01');
  });

  test('its output is always a calendar date', () => {
    for (let day = 0; day < 800; day += 7) {
      expect(isCalendarDate(isoDate(Date.UTC(2025, 0, 1) + day * 86_400_000))).toBe(true);
    }
  });
});
