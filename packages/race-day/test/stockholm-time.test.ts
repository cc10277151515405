import fc from 'fast-check';
import {
  addDays,
  isRealDate,
  localDateOf,
  localInstant,
  localIso,
  localMinutesOf,
  offsetAt,
  weekday,
} from '@racedata/race-day';

const intlOffset = (ms: number): number => {
  const text = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Stockholm', timeZoneName: 'longOffset' })
    .formatToParts(new Date(ms))
    .find((p) => p.type === 'timeZoneName')!.value; // GMT+02:00
  return Number(text.slice(4, 6)) * 3_600_000;
};

describe('Swedish local time', () => {
  it('has the offset Intl gives Europe/Stockholm at any instant from 1996 to 2099', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1996, 0, 1), max: Date.UTC(2099, 11, 31) }), (ms) => {
        expect(offsetAt(ms)).toBe(intlOffset(ms));
      }),
      { numRuns: 2000 },
    );
  });

  it('changes at 01:00 UTC on the last Sundays of March and October', () => {
    expect(offsetAt(Date.UTC(2026, 2, 29, 0, 59, 59))).toBe(3_600_000);
    expect(offsetAt(Date.UTC(2026, 2, 29, 1, 0, 0))).toBe(7_200_000);
    expect(offsetAt(Date.UTC(2026, 9, 25, 0, 59, 59))).toBe(7_200_000);
    expect(offsetAt(Date.UTC(2026, 9, 25, 1, 0, 0))).toBe(3_600_000);
  });

  it('reads a wall time back as the same wall time on every date, the change days included', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 9_500, max: 40_000 }),
        fc.integer({ min: 4 * 60, max: 23 * 60 + 59 }),
        (day, minutes) => {
          const date = addDays('1970-01-01', day);
          const at = localInstant(date, minutes);
          expect(localDateOf(at)).toBe(date);
          expect(localMinutesOf(at)).toBe(minutes);
          expect(localIso(at).slice(0, 10)).toBe(date);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('prints local time with its offset', () => {
    expect(localIso(localInstant('2024-05-11', 14 * 60 + 45))).toBe('2024-05-11T14:45:00+02:00');
    expect(localIso(localInstant('2026-01-15', 12 * 60))).toBe('2026-01-15T12:00:00+01:00');
    // The spring change day: 12:00 is already summer time.
    expect(localIso(localInstant('2026-03-29', 12 * 60))).toBe('2026-03-29T12:00:00+02:00');
  });

  it('knows real dates and weekdays', () => {
    expect(isRealDate('2026-02-30')).toBe(false);
    expect(isRealDate('2024-02-29')).toBe(true);
    expect(isRealDate('2026-13-01')).toBe(false);
    expect(isRealDate('26-01-01')).toBe(false);
    expect(weekday('2024-05-11')).toBe(6);
  });
});
