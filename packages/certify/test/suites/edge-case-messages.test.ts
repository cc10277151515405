/**
 * What survives-edge-cases sends: for any date, each case's messages are ones the race day the
 * race-day package generates for that date sends (the same objects, so the same JSON and XML),
 * and they show the case on the kind of delivery each suite gets.
 */
import { dayTimeline, localInstant, type DayMessage } from '@racedata/race-day';
import {
  CERTIFIED_EDGE_CASES,
  edgeCaseDay,
  edgeCaseMessages,
  type EdgeCaseMessages,
} from '../../src/suites/edge-cases/race-day-cases';

/** Dates across a year (a weekday, a Sunday, midsummer, winter, a DST change). */
const DATES = ['2026-01-07', '2026-03-29', '2026-06-19', '2026-10-25', '2026-12-27'];

const payload = (m: DayMessage) => m.payload as Record<string, unknown>;
const byId = (cases: readonly EdgeCaseMessages[], id: string) => {
  const found = cases.find((c) => c.id === id);
  if (!found) throw new Error(`no ${id} among ${cases.map((c) => c.id).join(', ')}`);
  return found.messages;
};

describe.each(DATES)('the edge cases certify sends on %s', (date) => {
  const noon = localInstant(date, 12 * 60);
  const day = dayTimeline(edgeCaseDay(date)).map((m) => JSON.stringify(m));
  const durable = edgeCaseMessages(noon, 'durable');
  const live = edgeCaseMessages(noon, 'transient');

  it('are messages of the day generated for that date, each on the delivery asked for', () => {
    expect(durable.map((c) => c.id)).toEqual([...CERTIFIED_EDGE_CASES]);
    expect(live.map((c) => c.id)).toEqual(['dead-heat', 'late-scratching', 'false-start']);
    for (const [cases, durableChannel] of [
      [durable, true],
      [live, false],
    ] as const) {
      for (const edge of cases) {
        expect(edge.messages.length).toBeGreaterThan(0);
        for (const m of edge.messages) {
          expect(day).toContain(JSON.stringify(m));
          expect(['RaceDay', 'StartList', 'Scratchings', 'Result'].includes(m.channel)).toBe(durableChannel);
          expect(m.date).toBe(date);
        }
      }
    }
  });

  it('show each case on the long poll', () => {
    const [deadHeat] = byId(durable, 'dead-heat');
    const places = (payload(deadHeat!).placings as Array<{ place: number }>).map((p) => p.place);
    expect(payload(deadHeat!).deadHeat).toBe(true);
    expect(new Set(places).size).toBeLessThan(places.length);

    const [preliminary, corrected] = byId(durable, 'result-correction');
    expect([preliminary, corrected].map((m) => [m!.channel, payload(m!).revision])).toEqual([
      ['Result', 1],
      ['Result', 2],
    ]);
    expect(payload(corrected!).status).toBe('corrected');

    const [programme] = byId(durable, 'cancelled-race');
    const races = payload(programme!).races as Array<{ status: string }>;
    expect(programme!.channel).toBe('RaceDay');
    expect(races.map((r) => r.status)).toContain('cancelled');

    const [scratching, startList] = byId(durable, 'late-scratching');
    expect(scratching!.channel).toBe('Scratchings');
    expect(payload(scratching!).afterParade).toBe(true);
    expect(startList!.channel).toBe('StartList');
    expect(startList!.at).toBe(scratching!.at);

    expect(byId(durable, 'false-start').map((m) => m.channel)).toEqual(['Result']);
  });

  it('show each case on the live channels', () => {
    const [line] = byId(live, 'dead-heat');
    const behind = (payload(line!).positions as Array<{ behindSeconds: number }>).map((p) => p.behindSeconds);
    expect(line!.channel).toBe('Last500Meters');
    expect(payload(line!).metersToGo).toBe(0);
    expect(new Set(behind).size).toBeLessThan(behind.length);

    const ticks = byId(live, 'false-start').map((m) => payload(m));
    const zero = ticks.findIndex((t) => t.secondsToStart === 0);
    expect(zero).toBeGreaterThan(0);
    expect(ticks[zero]!.recalls).toBe(0);
    expect(ticks[zero + 1]).toMatchObject({ recalls: 1 });
    expect(ticks[zero + 1]!.secondsToStart as number).toBeGreaterThan(0);

    const scratched = live.find((c) => c.id === 'late-scratching')!;
    const [split] = scratched.messages;
    const starts = (payload(split!).positions as Array<{ startNr: number }>).map((p) => p.startNr);
    expect(split!.channel).toBe('SplitTimes');
    expect(scratched.placement.startNr).toEqual(expect.any(Number));
    expect(starts).not.toContain(scratched.placement.startNr);
  });
});
