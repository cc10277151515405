import type { RaceDayPlan } from '../model/types';
import type { StartAt } from '../model/options';
import { localDateOf, localInstant, localMidnight } from '../time/stockholm';
import { countdownFrom, runs } from '../derive/race-times';

/** How long before a race's parade countdown `next-race` sets the day: the first tick comes soon. */
export const NEXT_RACE_LEAD_MS = 30_000;

// Cases that stretch a race beyond its usual length (a delay, a recall, a photo, one called off).
const SLOW = new Set(['delayed-start', 'false-start', 'photo-finish', 'dead-heat', 'cancelled-race']);

/**
 * The first trot race whose parade countdown starts after `timeOfDay` (day time), preferring one
 * no slowing edge case sits in; the day's first such race when none is left.
 */
export function nextRaceCountdown(plan: RaceDayPlan, timeOfDay: number): number | undefined {
  const slow = new Set(plan.edgeCases.filter((e) => SLOW.has(e.id)).map((e) => `${e.trackId}:${e.raceNr}`));
  const candidates = plan.meetings
    .flatMap((m) => m.races.filter((r) => runs(m, r)).map((r) => ({ m, r, from: countdownFrom(r) })))
    .sort((a, b) => a.from - b.from);
  const trot = candidates.filter((c) => c.m.sport === 'trot');
  const pool = trot.length > 0 ? trot : candidates;
  const plain = pool.filter((c) => !slow.has(`${c.m.trackId}:${c.r.raceNr}`));
  const ordered = plain.length > 0 ? plain : pool;
  return (ordered.find((c) => c.from - NEXT_RACE_LEAD_MS >= timeOfDay) ?? ordered[0])?.from;
}

/**
 * The day time that corresponds to the simulator clock's `now` when play starts:
 * - now: the same local time of day on the plan's date (the real moment itself when it is today);
 * - HH:MM: that local time on the plan's date;
 * - next-race: 30 s before the next trot race's parade countdown.
 */
export function anchorDay(plan: RaceDayPlan, at: StartAt, now: number): number {
  const sameTimeOfDay = localMidnight(plan.date) + (now - localMidnight(localDateOf(now)));
  switch (at.kind) {
    case 'now':
      return sameTimeOfDay;
    case 'clock':
      return localInstant(plan.date, at.minutes);
    case 'next-race': {
      const from = nextRaceCountdown(plan, sameTimeOfDay);
      return from === undefined ? sameTimeOfDay : from - NEXT_RACE_LEAD_MS;
    }
  }
}
