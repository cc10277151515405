import fc from 'fast-check';
import {
  actualStart,
  addDays,
  dayOfYear,
  localMinutesOf,
  postPositions,
  runnersOf,
  scratch,
  TRACKS,
  weekday,
  generateDay,
} from '@racedata/race-day';
import { dateArb, dayOf, RUNS, seedArb } from './day-fixtures';

describe('a generated day follows the public facts of Swedish racing', () => {
  it('lays 1-4 trot meetings on a date and gallop only in season, on real tracks', () => {
    fc.assert(
      fc.property(dateArb, seedArb, (date, seed) => {
        const { plan } = dayOf(date, seed, 'default');
        const trot = plan.meetings.filter((m) => m.sport === 'trot');
        const gallop = plan.meetings.filter((m) => m.sport === 'gallop');
        expect(trot.length).toBeGreaterThanOrEqual(1);
        expect(trot.length).toBeLessThanOrEqual(4);
        expect(gallop.length).toBeLessThanOrEqual(1);
        if (gallop.length > 0) {
          expect(dayOfYear(date)).toBeGreaterThanOrEqual(105);
          expect(dayOfYear(date)).toBeLessThanOrEqual(349);
        }
        for (const m of plan.meetings) {
          expect(TRACKS.find((t) => t.id === m.trackId)?.name).toBe(m.track);
          const first = localMinutesOf(m.races[0]!.scheduledStart);
          if (m.sport === 'gallop') expect(first).toBeGreaterThanOrEqual(11 * 60 + 50);
          if (m.kind === 'lunch') expect(first).toBeLessThanOrEqual(13 * 60 + 45 + 50);
          if (m.kind === 'afternoon') expect(weekday(date)).toBe(6);
          expect(m.races.length).toBeGreaterThanOrEqual(m.sport === 'trot' ? 7 : 6);
          expect(m.races.length).toBeLessThanOrEqual(m.sport === 'trot' ? 11 : 9);
          m.races.slice(1).forEach((race, i) => {
            const gap = (race.scheduledStart - m.races[i]!.scheduledStart) / 60_000;
            expect(gap).toBeGreaterThanOrEqual(20);
            expect(gap).toBeLessThanOrEqual(m.sport === 'trot' ? 25 : 30);
          });
          for (const race of m.races) {
            expect(localMinutesOf(race.scheduledStart)).toBeLessThan(22 * 60);
            const delay = (race.plannedStart - race.scheduledStart) / 1000;
            expect(delay).toBeGreaterThanOrEqual(0);
            expect(delay).toBeLessThanOrEqual(6 * 60 + 16);
          }
        }
      }),
      RUNS,
    );
  });

  it('draws trot fields of 6-15 (autostart 12 at most) and gallop fields of 5-14, with km times and weights in range', () => {
    fc.assert(
      fc.property(dateArb, seedArb, (date, seed) => {
        const { plan } = dayOf(date, seed, 'none');
        for (const m of plan.meetings) {
          for (const race of m.races) {
            const n = race.starters.length;
            if (m.sport === 'gallop') {
              expect(n).toBeGreaterThanOrEqual(5);
              expect(n).toBeLessThanOrEqual(14);
              expect(race.distance).toBeGreaterThanOrEqual(1000);
              expect(race.distance).toBeLessThanOrEqual(3000);
              for (const s of race.starters) expect(s.weightKg).toBeGreaterThanOrEqual(52);
              const secondsPerKm =
                Math.min(...race.starters.map((s) => s.finishSeconds)) / (race.distance / 1000);
              expect(secondsPerKm).toBeGreaterThan(55);
              expect(secondsPerKm).toBeLessThan(66);
            } else {
              expect(n).toBeGreaterThanOrEqual(6);
              expect(n).toBeLessThanOrEqual(race.startMethod === 'auto' ? 12 : 15);
              expect([1609, 1640, 2140, 2640, 3140]).toContain(race.distance);
              const perKm = Math.min(
                ...race.starters.map(
                  (s) => s.finishSeconds / ((race.distance + (s.handicapMeters ?? 0)) / 1000),
                ),
              );
              const [low, high] = race.breed === 'coldblood' ? [80, 100] : [69, 82];
              expect(perKm).toBeGreaterThanOrEqual(low);
              expect(perKm).toBeLessThanOrEqual(high);
              if (race.startMethod === 'volte')
                for (const s of race.starters) expect([0, 20, 40]).toContain(s.handicapMeters);
            }
          }
        }
      }),
      RUNS,
    );
  });

  it('scratches about 7 % of starts, 2-15 % over a week', () => {
    let starts = 0;
    let scratched = 0;
    for (let i = 0; i < 7; i++) {
      const { plan } = dayOf(addDays('2026-09-07', i), 99, 'none');
      for (const race of plan.meetings.flatMap((m) => m.races)) {
        starts += race.starters.length;
        scratched += race.starters.filter((s) => s.scratched).length;
      }
    }
    expect(scratched / starts).toBeGreaterThan(0.02);
    expect(scratched / starts).toBeLessThan(0.15);
  });

  it('moves the posts outside a scratched front-row horse in one; the second row keeps its posts', () => {
    // The first seed whose day has an autostart of ten or more with nobody scratched yet.
    const found = Array.from({ length: 50 }, (_, seed) =>
      generateDay({
        date: '2026-05-13',
        seed,
        meetings: { trot: 1, gallop: 0 },
        edgeCases: { mode: 'none' },
      }),
    )
      .map((plan) => ({
        plan,
        race: plan.meetings[0]!.races.find(
          (r) =>
            r.startMethod === 'auto' && runnersOf(r).length >= 10 && r.starters.every((s) => !s.scratched),
        ),
      }))
      .find((x) => x.race !== undefined)!;
    const { plan } = found;
    const race = found.race!;
    const meeting = plan.meetings[0]!;
    const at = race.paradeAt - 60 * 60_000;
    const after = scratch(plan, { trackId: meeting.trackId, raceNr: race.raceNr, startNr: 3 }, at, 'sick');
    const moved = postPositions(
      after.meetings[0]!.races.find((r) => r.raceNr === race.raceNr)!,
      at,
    );
    expect([1, 2, 4, 5, 6, 7, 8, 9, 10].map((n) => moved.get(n))).toEqual([1, 2, 3, 4, 5, 6, 7, 9, 10]);
    expect(actualStart(race)).toBeGreaterThan(race.scheduledStart - 1);
  });
});
