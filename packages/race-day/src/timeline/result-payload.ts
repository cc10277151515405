import type { Meeting, Race } from '../model/types';
import { localIso } from '../time/stockholm';
import { actualStart, finishersOf, runnersOf } from '../derive/race-times';
import { finishStanding, placesOf, prizesOf, resultState, riderOf } from '../derive/result';
import { kmTime, marginLengths, marginWords, raceTime, round } from '../derive/format';
import { postPositions } from '../derive/post-positions';
import { riderField } from './programme';

type Payload = Record<string, unknown>;

/** Seconds behind the runner that crossed the line just ahead: margins come from the finish itself. */
function behindAhead(race: Race): Map<number, number> {
  const out = new Map<number, number>();
  const order = finishStanding(race).flat();
  const time = new Map(finishersOf(race).map((s) => [s.startNr, s.finishSeconds]));
  order.forEach((startNr, i) => {
    if (i > 0) out.set(startNr, round(time.get(startNr)! - time.get(order[i - 1]!)!, 2));
  });
  return out;
}

/** The result as published at `t`: the preliminary one, or the latest revision of it. */
export function resultPayload(meeting: Meeting, race: Race, t: number): Payload {
  const trot = meeting.sport === 'trot';
  const rider = riderField(meeting);
  const state = resultState(race, t);
  const places = placesOf(state.standing);
  const prizes = prizesOf(state.standing, race.firstPrizeSek);
  const behind = behindAhead(race);
  const shared = new Set(state.standing.filter((g) => g.length > 1).flat());
  const posts = postPositions(race, actualStart(race));
  const byNr = new Map(race.starters.map((s) => [s.startNr, s]));
  const demoted = new Set(state.demotions.map((d) => d.startNr));
  const winner = Math.min(...finishersOf(race).map((s) => s.finishSeconds));
  const change = state.change;
  return {
    name: race.name,
    distance: race.distance,
    ...(race.startMethod && { startMethod: race.startMethod }),
    surface: race.surface,
    scheduledStartTime: localIso(race.scheduledStart),
    startTime: localIso(actualStart(race)),
    status: state.revision === 1 ? 'preliminary' : 'corrected',
    revision: state.revision,
    ...(change && {
      correction: { kind: change.kind, reason: change.reason, replacesRevision: state.revision - 1 },
    }),
    photoFinish: race.photoFinish === true,
    deadHeat: shared.size > 0,
    placings: state.standing.flat().map((startNr) => {
      const s = byNr.get(startNr)!;
      const own = race.distance + (s.handicapMeters ?? 0);
      const gap = behind.get(startNr);
      return {
        place: places.get(startNr)!,
        startNr,
        postPosition: posts.get(startNr)!,
        horse: s.horse,
        [rider]: riderOf(s),
        trainer: s.trainer,
        ...(trot
          ? { kmTime: kmTime(s.finishSeconds, own, race.startMethod) }
          : { time: raceTime(s.finishSeconds), marginLengths: gap === undefined ? 0 : marginLengths(gap) }),
        ...(gap !== undefined && {
          margin: shared.has(startNr) && gap === 0 ? 'dött lopp' : marginWords(gap),
        }),
        ...(s.handicapMeters !== undefined && { distance: own }),
        odds: s.odds,
        ...(prizes.has(startNr) && { prizeSek: prizes.get(startNr)! }),
        ...(demoted.has(startNr) && { demoted: true }),
      };
    }),
    winnerSeconds: round(winner, 2),
    disqualified: [
      ...runnersOf(race)
        .filter((s) => s.disqualified)
        .map((s) => ({
          startNr: s.startNr,
          horse: s.horse,
          reason: s.disqualified!.reason,
          atMeters: s.disqualified!.atMeters,
        })),
      ...state.disqualifiedAfter.map((d) => ({
        startNr: d.startNr,
        horse: byNr.get(d.startNr)!.horse,
        reason: d.reason,
        afterResult: true,
      })),
    ],
    nonFinishers: runnersOf(race)
      .filter((s) => s.nonFinisher)
      .map((s) => ({
        startNr: s.startNr,
        horse: s.horse,
        reason: s.nonFinisher!.reason,
        atMeters: s.nonFinisher!.atMeters,
      })),
    demotions: state.demotions.map((d) => ({ ...d })),
    scratched: race.starters
      .filter((s) => s.scratched)
      .map((s) => ({ startNr: s.startNr, horse: s.horse, reason: s.scratched!.reason })),
  };
}
