import fc from 'fast-check';
import {
  EDGE_CASES,
  EDGE_CASE_IDS,
  generateDay,
  parseEdgeCasesOption,
  type RaceDayPlan,
} from '@racedata/race-day';
import { dateArb, dayOf, RUNS, seedArb } from './day-fixtures';

const ids = (plan: RaceDayPlan) => plan.edgeCases.map((e) => e.id).sort();

describe('edge-case placement', () => {
  it('all places every case at least once, the same way for the same seed', () => {
    fc.assert(
      fc.property(dateArb, seedArb, (date, seed) => {
        const { plan } = dayOf(date, seed, 'all');
        // A day whose gallop races were all on dirt had no turf race to move: the one case `all` leaves out.
        const turf = plan.meetings.some(
          (m) => m.sport === 'gallop' && m.races.some((r) => r.surface === 'turf' || r.surfaceChange),
        );
        const expected = EDGE_CASE_IDS.filter((id) => turf || id !== 'surface-change');
        expect(new Set(ids(plan))).toEqual(new Set(expected));
        const again = generateDay({ date, seed, meetings: 'auto', edgeCases: { mode: 'all' } });
        expect(JSON.stringify(again)).toBe(JSON.stringify(plan));
      }),
      RUNS,
    );
  });

  it.each([
    ['2020-01-01', 3552105048, 'a delayed start that runs past the next start, before abandoned-meeting'],
    [
      '2020-01-01',
      2936758323,
      'a photo finish whose result comes after the next start, before abandoned-meeting',
    ],
    ['2021-05-04', 2667849728, 'every race taken before cancelled-race'],
    ['2020-05-27', 3977849856, 'every race taken before cancelled-race'],
    ['2025-12-26', 3102548119, 'a dead heat in a race left with two finishers'],
    ['2028-01-29', 1557278208, 'a gallop meeting on dirt only: no turf for surface-change'],
    ['2020-01-01', 1331712973, 'surface-change moved the only turf race to dirt: the case is there'],
  ])('all on %s, seed %d (%s; days fast-check or a scan once found refused)', (date, seed) => {
    const { plan } = dayOf(date, seed, 'all');
    const turf = plan.meetings.some(
      (m) => m.sport === 'gallop' && m.races.some((r) => r.surface === 'turf' || r.surfaceChange),
    );
    expect(new Set(ids(plan))).toEqual(
      new Set(EDGE_CASE_IDS.filter((id) => turf || id !== 'surface-change')),
    );
  });

  it('none places none, and leaves no trace of one in the plan', () => {
    fc.assert(
      fc.property(dateArb, seedArb, (date, seed) => {
        const { plan } = dayOf(date, seed, 'none');
        expect(plan.edgeCases).toEqual([]);
        for (const meeting of plan.meetings) {
          expect(meeting.cancelled ?? meeting.abandoned ?? meeting.postponed).toBeUndefined();
          for (const race of meeting.races) {
            expect(race.startChanges).toEqual([]);
            expect(race.resultChanges).toEqual([]);
            expect(race.cancelled ?? race.photoFinish ?? race.surfaceChange ?? race.monte).toBeUndefined();
            for (const s of race.starters) {
              expect(s.driverChange ?? s.disqualified ?? s.nonFinisher ?? s.country).toBeUndefined();
              expect(s.scratched?.afterParade ?? false).toBe(false);
            }
          }
        }
      }),
      RUNS,
    );
  });

  it('a list places exactly those cases, repeats included', () => {
    const race = EDGE_CASES.filter((d) => d.level === 'race' && !d.sport && !d.slot).map((d) => d.id);
    fc.assert(
      fc.property(
        dateArb,
        seedArb,
        fc.array(fc.constantFrom(...race), { minLength: 1, maxLength: 6 }),
        (date, seed, list) => {
          const plan = generateDay({
            date,
            seed,
            meetings: { trot: 2, gallop: 1 },
            edgeCases: parseEdgeCasesOption(list.join(',')),
          });
          expect(ids(plan)).toEqual([...list].sort());
        },
      ),
      RUNS,
    );
  });

  it('id@trackId:raceNr places the case in that race', () => {
    fc.assert(
      fc.property(
        dateArb,
        seedArb,
        fc.constantFrom(
          ...EDGE_CASES.filter((d) => d.level === 'race' && d.sport !== 'gallop').map((d) => d.id),
        ),
        (date, seed, id) => {
          const base = generateDay({
            date,
            seed,
            meetings: { trot: 2, gallop: 0 },
            edgeCases: { mode: 'none' },
          });
          const meeting = base.meetings[1]!;
          const raceNr = 1 + (seed % meeting.races.length);
          const plan = generateDay({
            date,
            seed,
            meetings: { trot: 2, gallop: 0 },
            edgeCases: parseEdgeCasesOption(`${id}@${meeting.trackId}:${raceNr}`),
          });
          expect(plan.edgeCases).toEqual([expect.objectContaining({ id, trackId: meeting.trackId, raceNr })]);
        },
      ),
      RUNS,
    );
  });

  it('places a meeting-level case on the meeting asked for', () => {
    const base = generateDay({
      date: '2026-07-05',
      seed: 3,
      meetings: { trot: 2, gallop: 1 },
      edgeCases: { mode: 'none' },
    });
    const [a, b] = base.meetings.filter((m) => m.sport === 'trot');
    const plan = generateDay({
      date: '2026-07-05',
      seed: 3,
      meetings: { trot: 2, gallop: 1 },
      edgeCases: parseEdgeCasesOption(`cancelled-meeting@${a!.trackId},abandoned-meeting@${b!.trackId}:2`),
    });
    expect(plan.meetings.find((m) => m.trackId === a!.trackId)!.cancelled).toBeDefined();
    expect(plan.meetings.find((m) => m.trackId === b!.trackId)!.abandoned?.afterRace).toBe(2);
  });

  it('by default places a realistic few', () => {
    const counts = ['2026-04-01', '2026-04-02', '2026-04-03', '2026-04-04', '2026-04-05'].map(
      (date) => dayOf(date, 11).plan.edgeCases.length,
    );
    for (const n of counts) {
      expect(n).toBeGreaterThanOrEqual(1);
      expect(n).toBeLessThanOrEqual(30);
    }
  });
});
