/**
 * The race-day model's invariants over a timeline and the plan it came from: what a generated
 * day keeps (day-invariants.test.ts) and what any sequence of allowed actions keeps
 * (action-invariants.test.ts). Each throws naming what broke.
 */
import { deliveryOf, localDateOf, localMinutesOf, type DayMessage } from '@racedata/race-day';
import type { RaceDayPlan } from '@racedata/race-day';
import { raceKey, startNrsOf } from './day-fixtures';

type Starter = { startNr: number; status: string; horse: string };

/** The start list of each race as first published, by race. */
function startLists(timeline: readonly DayMessage[]): Map<string, Starter[]> {
  const lists = new Map<string, Starter[]>();
  for (const m of timeline) {
    if (m.channel === 'StartList' && !lists.has(raceKey(m))) {
      lists.set(raceKey(m), (m.payload as { starters: Starter[] }).starters);
    }
  }
  return lists;
}

export type Invariant = (timeline: readonly DayMessage[], plan: RaceDayPlan) => void;

/** The invariants by what they say. */
export const INVARIANTS: ReadonlyArray<readonly [string, Invariant]> = [
  [
    'names in splits, last 500 m, live disqualifications and results only starts of the start list',
    (timeline) => {
      const lists = startLists(timeline);
      for (const m of timeline) {
        const known = new Set((lists.get(raceKey(m)) ?? []).map((s) => s.startNr));
        for (const startNr of startNrsOf(m)) {
          if (!known.has(startNr)) throw new Error(`${m.channel} ${raceKey(m)} names start ${startNr}`);
        }
      }
    },
  ],
  [
    'never shows a scratched horse after its scratching',
    (timeline) => {
      const scratchedAt = new Map<string, number>();
      for (const m of timeline) {
        if (m.channel === 'Scratchings') scratchedAt.set(`${raceKey(m)}#${m.startNr}`, m.at);
        for (const startNr of startNrsOf(m)) {
          const at = scratchedAt.get(`${raceKey(m)}#${startNr}`);
          if (at !== undefined && m.at >= at)
            throw new Error(`${m.channel} ${raceKey(m)} shows scratched ${startNr}`);
        }
      }
    },
  ],
  [
    'never places a disqualified horse',
    (timeline) => {
      const disqualified = new Map<string, Set<number>>();
      for (const m of timeline) {
        const key = raceKey(m);
        if (m.channel === 'PrelDisqualifiedHorses')
          disqualified.set(key, new Set([...(disqualified.get(key) ?? []), m.startNr!]));
        if (m.channel !== 'Result') continue;
        const p = m.payload as {
          placings: Array<{ startNr: number }>;
          disqualified: Array<{ startNr: number }>;
        };
        const out = new Set([...(disqualified.get(key) ?? []), ...p.disqualified.map((d) => d.startNr)]);
        for (const d of p.disqualified) out.add(d.startNr);
        const placed = p.placings.filter((x) => out.has(x.startNr));
        if (placed.length > 0)
          throw new Error(`${key} places disqualified ${placed.map((x) => x.startNr).join(',')}`);
        disqualified.set(key, out);
      }
    },
  ],
  [
    'counts places 1..n, a dead heat sharing one and leaving the next empty',
    (timeline) => {
      for (const m of timeline.filter((x) => x.channel === 'Result')) {
        const places = (m.payload as { placings: Array<{ place: number }> }).placings.map((p) => p.place);
        places.forEach((place, i) => {
          const ahead = places.filter((p) => p < place).length;
          if (place !== ahead + 1 || (i > 0 && place < places[i - 1]!)) {
            throw new Error(`${raceKey(m)} places ${places.join(',')}`);
          }
        });
        const shared = places.some((p, i) => places.indexOf(p) !== i);
        if (shared !== (m.payload as { deadHeat: boolean }).deadHeat)
          throw new Error(`${raceKey(m)} deadHeat flag`);
      }
    },
  ],
  [
    'runs each countdown to 0 at the actual start, again only after a false start',
    (timeline, plan) => {
      const ticks = new Map<string, DayMessage[]>();
      for (const m of timeline.filter((x) => x.channel === 'TimeToStart'))
        ticks.set(raceKey(m), [...(ticks.get(raceKey(m)) ?? []), m]);
      for (const meeting of plan.meetings) {
        for (const race of meeting.races) {
          const mine = ticks.get(`${meeting.date}/${meeting.trackId}/${race.raceNr}`) ?? [];
          const recalls = race.startChanges.filter((c) => c.kind === 'recall').length;
          const zeros = mine.filter((m) => (m.payload as { secondsToStart: number }).secondsToStart === 0);
          const ran =
            mine.length > 0 && race.cancelled === undefined && !meeting.cancelled && !meeting.postponed;
          if (!ran) continue;
          const last = mine.at(-1)!;
          const start = race.startChanges.at(-1)?.start ?? race.plannedStart;
          const abandoned = meeting.abandoned;
          if (abandoned && race.raceNr > abandoned.afterRace) {
            // Never run: its countdown stops when the meeting is abandoned, a false start before
            // that leaving its zero (the recall's new start never comes).
            if (mine.some((m) => m.at > abandoned.at))
              throw new Error(`${meeting.trackId}/${race.raceNr}: countdown after the meeting was abandoned`);
            continue;
          }
          if (zeros.length === 0) continue; // stopped at 22:00
          if (last.at !== start || (last.payload as { secondsToStart: number }).secondsToStart !== 0) {
            throw new Error(
              `${meeting.trackId}/${race.raceNr}: last tick ${last.at} is not the start ${start}`,
            );
          }
          if (zeros.length !== recalls + 1)
            throw new Error(`${meeting.trackId}/${race.raceNr}: ${zeros.length} zeros, ${recalls} recalls`);
          mine.slice(1).forEach((m, i) => {
            const s = (m.payload as { secondsToStart: number }).secondsToStart;
            const before = (mine[i]!.payload as { secondsToStart: number }).secondsToStart;
            const announced = race.startChanges.some((c) => c.at > mine[i]!.at && c.at <= m.at);
            if (s >= before && !announced)
              throw new Error(`${meeting.trackId}/${race.raceNr}: countdown went up without an announcement`);
            if (
              before === 0 &&
              !race.startChanges.some((c) => c.kind === 'recall' && c.at <= m.at && c.at > mine[i]!.at)
            ) {
              throw new Error(
                `${meeting.trackId}/${race.raceNr}: countdown ran again after 0 without a recall`,
              );
            }
          });
        }
      }
    },
  ],
  [
    'sends nothing live from 22:00 local',
    (timeline) => {
      for (const m of timeline) {
        if (deliveryOf(m) !== 'transient') continue;
        if (localDateOf(m.at) !== m.date || localMinutesOf(m.at) >= 22 * 60) {
          throw new Error(`${m.channel} ${raceKey(m)} at ${new Date(m.at).toISOString()}`);
        }
      }
    },
  ],
  [
    'publishes each result after its finish, and keeps the timeline in time order',
    (timeline) => {
      const finish = new Map<string, number>();
      timeline.forEach((m, i) => {
        if (i > 0 && m.at < timeline[i - 1]!.at) throw new Error('out of time order');
        if (m.channel === 'Last500Meters' && (m.payload as { metersToGo: number }).metersToGo === 0)
          finish.set(raceKey(m), m.at);
        if (m.channel === 'Result') {
          const f = finish.get(raceKey(m));
          if (f === undefined || m.at <= f) throw new Error(`${raceKey(m)}: result at ${m.at}, finish ${f}`);
        }
      });
    },
  ],
];
