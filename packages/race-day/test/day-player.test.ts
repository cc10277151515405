import fc from 'fast-check';
import { ManualClock } from '@racedata/core';
import {
  countdownFrom,
  dayTimeline,
  deliveryOf,
  DayPlayer,
  localInstant,
  nextRaceCountdown,
  NEXT_RACE_LEAD_MS,
  RaceDay,
  resultAt,
  scratch,
  runnersOf,
  runs,
  type DayMessage,
  type PlayRequest,
} from '@racedata/race-day';
import { dateArb, seedArb } from './day-fixtures';

const request = (over: Partial<PlayRequest> = {}): PlayRequest => ({
  day: { date: '2026-05-13', seed: 42, meetings: 'auto', edgeCases: { mode: 'all' } },
  speed: 1,
  at: { kind: 'now' },
  ...over,
});

interface Recorder {
  readonly history: DayMessage[];
  readonly times: number[];
  readonly live: Array<{ m: DayMessage; clock: number }>;
}

function setUp(startLocal: string, over: Partial<PlayRequest> = {}) {
  const [h, m] = startLocal.split(':').map(Number);
  const clock = new ManualClock(localInstant('2026-05-13', h! * 60 + m!));
  const day = new RaceDay();
  const seen: Recorder = { history: [], times: [], live: [] };
  const player = new DayPlayer({
    day,
    clock,
    sink: {
      history: (messages, times) => {
        seen.history.push(...messages);
        seen.times.push(...times);
      },
      live: (message) => seen.live.push({ m: message, clock: clock.now() }),
    },
  });
  const playing = day.start(request(over), clock.now());
  return { clock, day, player, seen, playing, timeline: dayTimeline(playing.plan) };
}

describe('a race day played on a clock', () => {
  it('stores what is already due as history, durable only, with the times it was sent', () => {
    const { seen, clock, timeline } = setUp('14:00');
    const due = timeline.filter((m) => m.at <= clock.now());
    expect(seen.history).toEqual(due.filter((m) => deliveryOf(m) === 'durable'));
    expect(seen.times).toEqual(seen.history.map((m) => m.at));
    expect(seen.history.length).toBeGreaterThan(20);
    expect(seen.live).toEqual([]);
  });

  it('plays every later message at its time, in the timeline order', () => {
    const { seen, clock, timeline } = setUp('14:00');
    const from = clock.now();
    clock.advance(45 * 60_000);
    const expected = timeline.filter((m) => m.at > from && m.at <= clock.now());
    expect(seen.live.map((x) => x.m)).toEqual(expected);
    for (const { m, clock: at } of seen.live) expect(at).toBe(m.at);
    expect(expected.some((m) => deliveryOf(m) === 'transient')).toBe(true);
  });

  it('plays everything an advance passes in one go, in order', () => {
    const { seen, clock, timeline } = setUp('11:00');
    const from = clock.now();
    clock.advance(3 * 3_600_000);
    expect(seen.live.map((x) => x.m)).toEqual(timeline.filter((m) => m.at > from && m.at <= clock.now()));
  });

  it('at speed 60 plays an hour of the day in a minute of the clock', () => {
    const { seen, clock, timeline, playing } = setUp('14:00', { speed: 60 });
    clock.advance(60_000);
    const played = timeline.filter((m) => m.at > playing.anchorDay && m.at <= playing.anchorDay + 3_600_000);
    expect(seen.live.map((x) => x.m)).toEqual(played);
  });

  it('starts the day at HH:MM whatever the clock says, and plays a past date at today’s times of day', () => {
    const at = setUp('03:00', { at: { kind: 'clock', minutes: 12 * 60 } });
    expect(at.playing.anchorDay).toBe(localInstant('2026-05-13', 12 * 60));
    const past = setUp('14:00', {
      day: { date: '2024-05-11', seed: 1, meetings: 'auto', edgeCases: { mode: 'none' } },
    });
    expect(past.playing.anchorDay).toBe(localInstant('2024-05-11', 14 * 60));
  });

  it('stops, and restarts a new day from its history', () => {
    const { day, seen, clock, player } = setUp('14:00');
    day.stop();
    const count = seen.live.length;
    clock.advance(30 * 60_000);
    expect(seen.live.length).toBe(count);
    expect(player.dayNow()).toBeUndefined();
    seen.history.length = 0;
    day.start(
      request({ day: { date: '2026-05-13', seed: 43, meetings: 'auto', edgeCases: { mode: 'none' } } }),
      clock.now(),
    );
    expect(seen.history.length).toBeGreaterThan(0);
  });

  it('a replan with the same plan repeats nothing and drops nothing', () => {
    const { day, seen, clock, timeline, playing } = setUp('13:00');
    const from = clock.now();
    for (let i = 0; i < 20; i++) {
      clock.advance(97_000);
      day.change(playing.plan, clock.now());
    }
    expect(seen.live.map((x) => x.m)).toEqual(timeline.filter((m) => m.at > from && m.at <= clock.now()));
  });

  it('a scratching made now plays its messages now, and the horse is gone from what follows', () => {
    const { day, seen, clock, playing } = setUp('09:00', {
      day: { date: '2026-05-13', seed: 42, meetings: { trot: 1, gallop: 0 }, edgeCases: { mode: 'none' } },
    });
    const meeting = playing.plan.meetings[0]!;
    const race = meeting.races.at(-1)!;
    const startNr = runnersOf(race)[0]!.startNr;
    const now = clock.now();
    day.change(
      scratch(playing.plan, { trackId: meeting.trackId, raceNr: race.raceNr, startNr }, now, 'sick'),
      now,
    );
    clock.advance(0);
    const scratching = seen.live.find((x) => x.m.channel === 'Scratchings');
    expect(scratching?.m).toMatchObject({ at: now, raceNr: race.raceNr, startNr });
    clock.advance(resultAt(race) - now + 1000);
    const later = seen.live.filter(
      (x) => x.m.raceNr === race.raceNr && ['SplitTimes', 'Last500Meters', 'Result'].includes(x.m.channel),
    );
    expect(later.length).toBeGreaterThan(5);
    for (const { m } of later) {
      const named = m.payload as {
        positions?: Array<{ startNr: number }>;
        placings?: Array<{ startNr: number }>;
      };
      expect([...(named.positions ?? []), ...(named.placings ?? [])].map((p) => p.startNr)).not.toContain(
        startNr,
      );
    }
  });

  it('two simulators on one day play the same messages', () => {
    const { day, clock, seen } = setUp('15:00');
    const other: DayMessage[] = [];
    new DayPlayer({ day, clock, sink: { history: () => undefined, live: (m) => other.push(m) } });
    const before = seen.live.length;
    clock.advance(20 * 60_000);
    expect(other).toEqual(seen.live.slice(before).map((x) => x.m));
  });

  it('next-race sets the day just before a trot race, so at speed 12 a whole race is seen within 3 minutes at any hour', () => {
    fc.assert(
      fc.property(dateArb, seedArb, fc.integer({ min: 0, max: 24 * 60 - 1 }), (date, seed, minute) => {
        const clock = new ManualClock(localInstant(date, minute));
        const day = new RaceDay();
        const playing = day.start(
          {
            day: { date, seed, meetings: 'auto', edgeCases: { mode: 'default' } },
            speed: 12,
            at: { kind: 'next-race' },
          },
          clock.now(),
        );
        const from = nextRaceCountdown(playing.plan, playing.anchorDay);
        const running = playing.plan.meetings.flatMap((m) =>
          m.races.filter((r) => runs(m, r)).map((r) => ({ m, r })),
        );
        // A day every meeting of which is called off (about one in two thousand) has no race to show.
        if (from === undefined) return expect(running).toEqual([]);
        const at = running.filter(({ r }) => countdownFrom(r) === from);
        const { m: meeting, r: race } = at.find(({ m }) => m.sport === 'trot') ?? at[0]!;
        expect(meeting.sport === 'trot' || running.every(({ m }) => m.sport === 'gallop')).toBe(true);
        expect(from - playing.anchorDay).toBe(NEXT_RACE_LEAD_MS);
        // From the start of play to the race's result, in clock time.
        expect((resultAt(race) - playing.anchorDay) / playing.speed).toBeLessThanOrEqual(180_000);
      }),
      { numRuns: 300 },
    );
  });
});
