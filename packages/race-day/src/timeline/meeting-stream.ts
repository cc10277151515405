import type { Meeting } from '../model/types';
import { localIso } from '../time/stockholm';
import { calledOffAt } from '../derive/race-times';
import { dayMessage, type DayMessage } from './messages';
import { raceEntry, startListPayload } from './programme';

type Payload = Record<string, unknown>;

function status(meeting: Meeting, t: number): string {
  if (meeting.cancelled && meeting.cancelled.at <= t) return 'cancelled';
  if (meeting.postponed && meeting.postponed.at <= t) return 'postponed';
  if (meeting.abandoned && meeting.abandoned.at <= t) return 'abandoned';
  return 'scheduled';
}

/** The programme as of `t`. */
function programme(meeting: Meeting, t: number, revision: number): Payload {
  const state = status(meeting, t);
  const p = meeting.postponed;
  const a = meeting.abandoned;
  const c = meeting.cancelled;
  return {
    track: meeting.track,
    sport: meeting.sport,
    meetingType: meeting.kind,
    firstStart: localIso(meeting.races[0]!.scheduledStart),
    status: state,
    revision,
    ...(state === 'cancelled' && c && { reason: c.reason }),
    ...(state === 'postponed' &&
      p && { reason: p.reason, postponedTo: { date: p.toDate, firstStart: localIso(p.starts[0]!) } }),
    ...(state === 'abandoned' && a && { reason: a.reason, abandonedAfterRace: a.afterRace }),
    races: meeting.races.map((race) => {
      const off = calledOffAt(meeting, race);
      return raceEntry(race, race.scheduledStart, off !== undefined && off <= t);
    }),
  };
}

/**
 * A meeting's own messages: its programme in the morning, a new revision of it whenever a race
 * or the meeting is called off or a race changes surface; a postponement also sends the new
 * date's programme and start lists, dated that day.
 */
export function meetingMessages(meeting: Meeting): DayMessage[] {
  const base = { sport: meeting.sport, date: meeting.date, trackId: meeting.trackId };
  const changes = new Set<number>();
  for (const race of meeting.races) {
    if (race.cancelled) changes.add(race.cancelled.at);
    if (race.surfaceChange) changes.add(race.surfaceChange.at);
  }
  const whole = meeting.cancelled?.at ?? meeting.postponed?.at;
  if (whole !== undefined) changes.add(whole);
  if (meeting.abandoned) changes.add(meeting.abandoned.at);
  const times = [...changes]
    .filter((t) => t > meeting.programmeAt && (whole === undefined || t <= whole))
    .sort((a, b) => a - b);
  const out: DayMessage[] = [
    dayMessage(base, meeting.programmeAt, 'RaceDay', programme(meeting, meeting.programmeAt, 1)),
  ];
  times.forEach((t, i) => out.push(dayMessage(base, t, 'RaceDay', programme(meeting, t, i + 2))));
  const p = meeting.postponed;
  if (p) {
    const moved = { sport: meeting.sport, date: p.toDate, trackId: meeting.trackId };
    out.push(
      dayMessage(moved, p.at, 'RaceDay', {
        ...programme({ ...meeting, postponed: undefined }, p.at, 1),
        firstStart: localIso(p.starts[0]!),
        postponedFrom: meeting.date,
        races: meeting.races.map((race, i) => raceEntry(race, p.starts[i]!, false)),
      }),
    );
    meeting.races.forEach((race, i) =>
      out.push(
        dayMessage(
          { ...moved, raceNr: race.raceNr },
          p.at,
          'StartList',
          startListPayload(meeting, race, p.at, 1, p.starts[i]!),
        ),
      ),
    );
  }
  return out;
}
