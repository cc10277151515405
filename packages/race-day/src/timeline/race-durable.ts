import type { Meeting, Race } from '../model/types';
import { localIso } from '../time/stockholm';
import { calledOffAt, resultAt, runs } from '../derive/race-times';
import { postPositions } from '../derive/post-positions';
import { dayMessage, type DayMessage } from './messages';
import { startListPayload } from './programme';
import { resultPayload } from './result-payload';

/**
 * A race's programme messages: its start list in the morning and a new revision whenever a
 * scratching, a driver change or a surface change alters it; one Scratchings message per
 * scratched start. Nothing after the race is called off.
 */
export function raceProgrammeMessages(meeting: Meeting, race: Race): DayMessage[] {
  const base = { sport: meeting.sport, date: meeting.date, trackId: meeting.trackId, raceNr: race.raceNr };
  const off = calledOffAt(meeting, race) ?? Number.POSITIVE_INFINITY;
  const out: DayMessage[] = [];
  const listAt = meeting.programmeAt + 30_000 + race.raceNr * 5_000;
  out.push(dayMessage(base, listAt, 'StartList', startListPayload(meeting, race, listAt, 1)));
  const scratched = race.starters
    .filter((s) => s.scratched)
    .sort((a, b) => a.scratched!.at - b.scratched!.at || a.startNr - b.startNr);
  const revisions = new Set<number>([
    ...scratched.map((s) => s.scratched!.at),
    ...race.starters.flatMap((s) => (s.driverChange ? [s.driverChange.at] : [])),
    ...(race.surfaceChange ? [race.surfaceChange.at] : []),
  ]);
  for (const s of scratched) {
    const at = s.scratched!.at;
    const posts = postPositions(race, at);
    out.push(
      dayMessage(
        base,
        at,
        'Scratchings',
        {
          startNr: s.startNr,
          horse: s.horse,
          reason: s.scratched!.reason,
          scratchedAt: localIso(at),
          afterParade: s.scratched!.afterParade,
          ...(s.scratched!.stable && { stable: s.scratched!.stable }),
          postPositions: race.starters
            .filter((o) => !(o.scratched && o.scratched.at <= at))
            .map((o) => ({ startNr: o.startNr, postPosition: posts.get(o.startNr)! })),
        },
        s.startNr,
      ),
    );
  }
  [...revisions]
    .filter((t) => t > listAt)
    .sort((a, b) => a - b)
    .forEach((t, i) => out.push(dayMessage(base, t, 'StartList', startListPayload(meeting, race, t, i + 2))));
  // Stable order: by time, then Scratchings before the start list revision that follows it.
  return out.filter((m) => m.at < off).sort((a, b) => a.at - b.at);
}

/** A race's result: the preliminary one and each revision of it; none for a race that does not run. */
export function raceResultMessages(meeting: Meeting, race: Race): DayMessage[] {
  if (!runs(meeting, race)) return [];
  const base = { sport: meeting.sport, date: meeting.date, trackId: meeting.trackId, raceNr: race.raceNr };
  return [
    dayMessage(base, resultAt(race), 'Result', resultPayload(meeting, race, resultAt(race))),
    ...race.resultChanges.map((change) =>
      dayMessage(base, change.at, 'Result', resultPayload(meeting, race, change.at)),
    ),
  ];
}
