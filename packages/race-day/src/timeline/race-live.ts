import type { Meeting, Race } from '../model/types';
import { localInstant, localIso } from '../time/stockholm';
import {
  actualStart,
  calledOffAt,
  countdownFrom,
  expectedStartAt,
  finishAt,
  runnersOf,
} from '../derive/race-times';
import { fieldAt, timeAt } from '../derive/running';
import { kmTime, round } from '../derive/format';
import { riderOf } from '../derive/result';
import { dayMessage, type DayMessage } from './messages';

const SECOND = 1000;

/** Nothing transient is sent from 22:00 local (the vendor's guide). */
export const quietFrom = (date: string): number => localInstant(date, 22 * 60);

/**
 * How much of the countdowns a timeline carries. By default all of them (from the parade
 * countdown's start, every second); the bundled recordings keep only the last minutes so the
 * package stays small.
 */
export interface TimelineOptions {
  readonly countdowns?: { readonly startSeconds: number; readonly paradeSeconds: number };
}

/** The bounds of a race's live messages, known without building them. */
export function liveWindow(race: Race): { from: number; to: number } {
  return { from: countdownFrom(race), to: finishAt(race) };
}

interface Tick {
  readonly at: number;
  readonly target: number;
  readonly recalls: number;
  readonly seconds: number;
}

/**
 * The start countdown's ticks: every second down to the start known at the time. A delay makes
 * it jump up; a recall lets it reach 0 at the false start, then run again to the restart. A change
 * announced between two ticks (an action taken at the simulator's now) gets a tick of its own at
 * once, its seconds rounded up, so the countdown jumps when the change is made.
 */
function countdownTicks(race: Race, from: number): Tick[] {
  const segments: Array<{ from: number; to: number; target: number; recalls: number; announced: boolean }> =
    [];
  let start = from;
  let target = race.plannedStart;
  let recalls = 0;
  let announced = false;
  for (const change of race.startChanges) {
    if (change.at > start) segments.push({ from: start, to: change.at, target, recalls, announced });
    announced = change.at > from;
    start = Math.max(start, change.at);
    target = change.start;
    if (change.kind === 'recall') recalls += 1;
  }
  segments.push({ from: start, to: target + 1, target, recalls, announced });
  const ticks: Tick[] = [];
  for (const seg of segments) {
    // Ticks fall on whole seconds before the target, so the last one is exactly 0.
    const first = seg.target - Math.floor((seg.target - seg.from) / SECOND) * SECOND;
    if (seg.announced && first > seg.from && seg.from < seg.to && seg.from <= seg.target) {
      const seconds = Math.ceil((seg.target - seg.from) / SECOND);
      ticks.push({ at: seg.from, target: seg.target, recalls: seg.recalls, seconds });
    }
    for (let at = first; at < seg.to && at <= seg.target; at += SECOND) {
      ticks.push({
        at,
        target: seg.target,
        recalls: seg.recalls,
        seconds: Math.round((seg.target - at) / SECOND),
      });
    }
  }
  return ticks;
}

/**
 * A race's live messages: the parade countdown (trot) and the start countdown from five minutes
 * before the parade, split times every 500 m (trot) or 400 m (gallop), live disqualifications,
 * the last 500 m every 100 m. Stopped where the race is called off and at 22:00.
 */
export function raceLiveMessages(meeting: Meeting, race: Race, options: TimelineOptions = {}): DayMessage[] {
  const trot = meeting.sport === 'trot';
  const base = { sport: meeting.sport, date: meeting.date, trackId: meeting.trackId, raceNr: race.raceNr };
  const out: DayMessage[] = [];
  const from = countdownFrom(race);
  const calledOff = calledOffAt(meeting, race);
  if (calledOff !== undefined && calledOff <= from) return out;
  const parade = localIso(race.paradeAt);
  const scheduled = localIso(race.scheduledStart);
  const ticks = countdownTicks(race, from);
  if (trot) {
    const first = Math.min(
      (race.paradeAt - from) / SECOND,
      options.countdowns?.paradeSeconds ?? Number.POSITIVE_INFINITY,
    );
    for (let k = first; k >= 0; k--) {
      const at = race.paradeAt - k * SECOND;
      const target = expectedStartAt(race, at);
      out.push(
        dayMessage(base, at, 'TimeToDef', {
          secondsToParade: k,
          paradeTime: parade,
          secondsToStart: Math.round((target - at) / SECOND),
          startTime: localIso(target),
        }),
      );
    }
  }
  const last = (options.countdowns?.startSeconds ?? Number.POSITIVE_INFINITY) * SECOND;
  for (const tick of ticks) {
    if (tick.target - tick.at > last) continue;
    out.push(
      dayMessage(base, tick.at, 'TimeToStart', {
        secondsToStart: tick.seconds,
        startTime: localIso(tick.target),
        scheduledStartTime: scheduled,
        secondsToParade: Math.max(0, Math.round((race.paradeAt - tick.at) / SECOND)),
        recalls: tick.recalls,
      }),
    );
  }
  const start = actualStart(race);
  const step = trot ? 500 : 400;
  const splitAt = (d: number) => fieldAt(race, d);
  for (let d = step; d < race.distance; d += step) {
    const { leaderSeconds, positions } = splitAt(d);
    if (positions.length === 0) continue;
    const timing = trot
      ? { kmTime: kmTime(leaderSeconds, d, race.startMethod) }
      : { sectionalSeconds: round(leaderSeconds - (d === step ? 0 : splitAt(d - step).leaderSeconds), 2) };
    out.push(
      dayMessage(base, start + Math.round(leaderSeconds * SECOND), 'SplitTimes', {
        distance: d,
        metersToGo: race.distance - d,
        elapsedSeconds: round(leaderSeconds, 1),
        ...timing,
        positions: positions.map((p) => ({
          position: p.position,
          startNr: p.starter.startNr,
          behindSeconds: p.behindSeconds,
        })),
      }),
    );
  }
  for (const s of runnersOf(race).filter((x) => x.disqualified)) {
    const dq = s.disqualified!;
    const at = start + Math.round(timeAt(s, race, dq.atMeters) * SECOND) + dq.announceAfterMs;
    const payload = {
      startNr: s.startNr,
      horse: s.horse,
      [trot ? 'driver' : 'jockey']: riderOf(s),
      distance: dq.atMeters,
      reason: dq.reason,
    };
    out.push(dayMessage(base, at, 'PrelDisqualifiedHorses', payload, s.startNr));
  }
  for (let toGo = 500; toGo >= 0; toGo -= 100) {
    const { leaderSeconds, positions } = fieldAt(race, race.distance - toGo);
    if (positions.length === 0) continue;
    out.push(
      dayMessage(base, start + Math.round(leaderSeconds * SECOND), 'Last500Meters', {
        metersToGo: toGo,
        positions: positions.map((p) => ({
          position: p.position,
          startNr: p.starter.startNr,
          horse: p.starter.horse,
          behindSeconds: p.behindSeconds,
        })),
      }),
    );
  }
  const off = calledOffAt(meeting, race);
  const end = Math.min(
    off !== undefined && off < start ? off : Number.POSITIVE_INFINITY,
    quietFrom(meeting.date),
  );
  // In the order the running makes them; what a finish-now hurried goes out at once, in that order.
  const ordered = out.sort((a, b) => a.at - b.at);
  const hurriedAt = race.finishNow?.at;
  const played =
    hurriedAt === undefined ? ordered : ordered.map((m) => (m.at > hurriedAt ? { ...m, at: hurriedAt } : m));
  return played.filter((m) => m.at < end);
}
