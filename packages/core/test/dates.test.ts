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
