import type { Rng } from '../random';
import type { RaceDayPlan } from '../model/types';
import { localInstant } from '../time/stockholm';
import { scratch } from '../ops/starter-ops';
import { runnersOf } from '../derive/race-times';

const MINUTE = 60_000;
export const SCRATCH_REASONS = [
  'sick',
  'lame',
  'veterinary decision',
  "trainer's decision",
  'injured',
  'fever',
];

/**
 * The day's ordinary scratchings, about 7 % of starts (2-15 % from day to day): most called in
 * on the morning line and published by 10:30, some later in the day, all before the parade
 * countdown. After the parade is an edge case (late-scratching).
 */
export function ordinaryScratchings(plan: RaceDayPlan, r: Rng): RaceDayPlan {
  const rate = r.float(0.03, 0.11);
  let out = plan;
  for (const meeting of plan.meetings) {
    const morningFrom = Math.max(meeting.programmeAt + 10 * MINUTE, localInstant(meeting.date, 7 * 60 + 55));
    const morningTo = localInstant(meeting.date, 10 * 60 + 30);
    for (const race of meeting.races) {
      let left = runnersOf(race).length;
      for (const s of race.starters) {
        if (!r.chance(rate) || left <= 5) continue;
        const latest = race.paradeAt - 25 * MINUTE;
        const morning = r.chance(0.8);
        const from = morning ? morningFrom : Math.min(morningTo, latest);
        const to = morning ? Math.min(morningTo, latest) : latest;
        const at = Math.round((from + r.next() * Math.max(0, to - from)) / 1000) * 1000;
        out = scratch(
          out,
          { trackId: meeting.trackId, raceNr: race.raceNr, startNr: s.startNr },
          at,
          r.pick(SCRATCH_REASONS),
        );
        left -= 1;
      }
    }
  }
  return out;
}
