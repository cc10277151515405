/**
 * What docs/race-days.md says of each edge case beside its example messages: what a consumer
 * must do about it, and which of the example day's messages show it.
 */
import type { DayMessage, EdgeCasePlacement } from '@racedata/race-day';

type Pick = (day: readonly DayMessage[], at: EdgeCasePlacement) => Array<{ m: DayMessage; note: string }>;

const inRace = (day: readonly DayMessage[], at: EdgeCasePlacement) =>
  day.filter((m) => m.trackId === at.trackId && (at.raceNr === undefined || m.raceNr === at.raceNr));
const first = (day: readonly DayMessage[], test: (m: DayMessage) => boolean, note: string) => {
  const m = day.find(test);
  return m ? [{ m, note }] : [];
};
const p = (m: DayMessage) => m.payload as Record<string, unknown>;
const revisionOf = (m: DayMessage) => p(m).revision as number;

export const CONSUMER_NOTES: Record<string, string> = {
  'late-scratching':
    'Drop the start from everything about the race from the scratching on, even though the parade has shown it; take the post positions from the message (or the start list revision that follows), not from the start numbers.',
  'mass-scratching':
    'Expect several Scratchings at the same instant, in several races; each is a start of its own. `stable` names the stable.',
  'driver-change':
    'Take the driver (jockey) from the latest start list revision; `originalDriver` (`originalJockey`) keeps who was named first. The result names who actually drove.',
  monte:
    'Nothing but the race terms says so ("Monté."): the person in `driver` rides. Read the terms if it matters to you.',
  'foreign-horse': 'The horse’s name carries its country, `(US)`: match horses by start number, not by name.',
  'surface-change':
    'A new programme revision and a new start list revision say `surface: dirt`; times are slower.',
  'delayed-start':
    'The countdown jumps up in the middle: `secondsToStart` is the time to the start now expected (`startTime`), not a number that only falls.',
  'false-start':
    'The countdown reaches 0, then starts again from a minute or two (`recalls` counts the recalls). Do not treat the first 0 as the start.',
  'gallop-disqualification':
    'A live PrelDisqualifiedHorses message names the start; it leaves the positions from that point, and the result lists it under `disqualified`, never placed.',
  'non-finisher':
    'The start leaves the positions where it stopped and is listed under `nonFinishers` in the result, never placed.',
  'photo-finish':
    'The result comes minutes later than usual (`photoFinish: true`); do not time out waiting for it.',
  'dead-heat':
    'Two placings share a place (`deadHeat: true`, margin `dött lopp`), the next place stays empty, and they split the prize money of the places they share. Places are not unique keys.',
  'result-correction':
    'A second Result for the race replaces the first (`status: corrected`, a higher `revision`, `correction` says why): keep the latest revision.',
  demotion:
    'A corrected Result moves the start down (`demoted: true` on its placing, `demotions` lists from and to).',
  'disqualification-after-result':
    'A corrected Result drops the start from the placings and lists it under `disqualified` with `afterResult: true`; places below move up.',
  'cancelled-race':
    'A programme revision marks the race `status: cancelled`; no countdown, splits or result will come for it.',
  'cancelled-meeting':
    'A programme revision with `status: cancelled` after the programme went out: nothing more comes for the meeting.',
  'abandoned-meeting':
    'After race N’s result a programme revision says `status: abandoned` and `abandonedAfterRace: N`; the later races are cancelled.',
  'postponed-meeting':
    'A revision says `status: postponed` with `postponedTo`; then the new date’s programme and start lists, dated that day, with new times. Nothing more comes for this date.',
};

export const EXAMPLE_PICKS: Record<string, Pick> = {
  'late-scratching': (day, at) => {
    const scratching = first(
      inRace(day, at),
      (m) => m.channel === 'Scratchings' && p(m).afterParade === true,
      'The scratching, after the parade:',
    );
    const when = scratching[0]?.m.at;
    return [
      ...scratching,
      ...first(
        inRace(day, at),
        (m) => m.channel === 'StartList' && m.at === when,
        'The start list revision that comes with it (starters cut to the one concerned):',
      ),
    ];
  },
  'mass-scratching': (day, at) => {
    const ms = day.filter(
      (m) => m.trackId === at.trackId && m.channel === 'Scratchings' && p(m).stable !== undefined,
    );
    return ms
      .slice(0, 2)
      .map((m, i) => ({ m, note: i === 0 ? 'Two of the scratchings, at the same instant:' : '' }));
  },
  'driver-change': (day, at) => [
    ...first(
      inRace(day, at),
      (m) => m.channel === 'StartList' && revisionOf(m) > 1 && JSON.stringify(m.payload).includes('original'),
      'The start list revision (starters cut to the one concerned):',
    ),
    ...first(
      inRace(day, at),
      (m) => m.channel === 'Result',
      'The result names who drove (lists cut as above):',
    ),
  ],
  monte: (day, at) => [
    ...first(
      day.filter((m) => m.trackId === at.trackId),
      (m) => m.channel === 'RaceDay',
      'The programme (races cut to two; the race’s terms end in "Monté." in the full list):',
    ),
    ...first(
      day.filter((m) => m.trackId === at.trackId),
      (m) => m.channel === 'StartList' && m.raceNr === at.raceNr,
      'The start list, whose terms end in "Monté.":',
    ),
  ],
  'foreign-horse': (day, at) => [
    ...first(
      inRace(day, at),
      (m) => m.channel === 'StartList',
      'The start list (starters cut to the one concerned):',
    ),
    ...first(
      inRace(day, at),
      (m) => m.channel === 'Last500Meters' && p(m).metersToGo === 0,
      'The last 500 m at the line (positions cut to two):',
    ),
    ...first(
      inRace(day, at),
      (m) => m.channel === 'Result',
      'The result (lists cut to the start concerned, or to two items):',
    ),
  ],
  'surface-change': (day, at) => [
    ...first(
      day.filter((m) => m.trackId === at.trackId),
      (m) => m.channel === 'RaceDay' && revisionOf(m) > 1,
      'The programme revision (races cut to two; the race moved is in the full list):',
    ),
    ...first(
      inRace(day, at),
      (m) => m.channel === 'StartList' && revisionOf(m) > 1 && p(m).surface === 'dirt',
      'The start list revision:',
    ),
  ],
  'delayed-start': (day, at) => {
    const ticks = inRace(day, at).filter((m) => m.channel === 'TimeToStart');
    const i = ticks.findIndex(
      (m, k) => k > 0 && (p(m).secondsToStart as number) > (p(ticks[k - 1]!).secondsToStart as number),
    );
    return [
      { m: ticks[i - 1]!, note: 'The tick before the delay is announced, and the next one:' },
      { m: ticks[i]!, note: '' },
    ];
  },
  'false-start': (day, at) => {
    const ticks = inRace(day, at).filter((m) => m.channel === 'TimeToStart');
    const i = ticks.findIndex((m) => p(m).secondsToStart === 0);
    return [
      { m: ticks[i]!, note: 'The countdown at 0 (the false start), and the next tick after the recall:' },
      { m: ticks[i + 1]!, note: '' },
    ];
  },
  'gallop-disqualification': (day, at) => [
    ...first(
      inRace(day, at),
      (m) => m.channel === 'PrelDisqualifiedHorses' && m.startNr === at.startNr,
      'The live disqualification:',
    ),
    ...first(
      inRace(day, at),
      (m) => m.channel === 'Result',
      'The result lists it under disqualified (lists cut to the start concerned, or to two items):',
    ),
  ],
  'non-finisher': (day, at) =>
    first(
      inRace(day, at),
      (m) => m.channel === 'Result',
      'The result (lists cut to the start concerned, or to two items):',
    ),
  'photo-finish': (day, at) =>
    first(inRace(day, at), (m) => m.channel === 'Result', 'The result, minutes late:'),
  'dead-heat': (day, at) =>
    first(
      inRace(day, at),
      (m) => m.channel === 'Result' && p(m).deadHeat === true,
      'The result (placings cut to the shared place):',
    ),
  'result-correction': (day, at) =>
    first(inRace(day, at), (m) => m.channel === 'Result' && revisionOf(m) === 2, 'The corrected result:'),
  demotion: (day, at) =>
    first(inRace(day, at), (m) => m.channel === 'Result' && revisionOf(m) === 2, 'The corrected result:'),
  'disqualification-after-result': (day, at) =>
    first(inRace(day, at), (m) => m.channel === 'Result' && revisionOf(m) === 2, 'The corrected result:'),
  'cancelled-race': (day, at) =>
    first(
      day.filter((m) => m.trackId === at.trackId),
      (m) => m.channel === 'RaceDay' && revisionOf(m) > 1,
      'The programme revision (races cut to two; the cancelled one is further down in the full list):',
    ),
  'cancelled-meeting': (day, at) =>
    first(
      day.filter((m) => m.trackId === at.trackId),
      (m) => m.channel === 'RaceDay' && p(m).status === 'cancelled',
      'The programme revision:',
    ),
  'abandoned-meeting': (day, at) =>
    first(
      day.filter((m) => m.trackId === at.trackId),
      (m) => m.channel === 'RaceDay' && p(m).status === 'abandoned',
      'The programme revision:',
    ),
  'postponed-meeting': (day, at) => [
    ...first(
      day.filter((m) => m.trackId === at.trackId),
      (m) => m.channel === 'RaceDay' && p(m).status === 'postponed',
      'The programme revision:',
    ),
    ...first(
      day.filter((m) => m.trackId === at.trackId),
      (m) => m.channel === 'RaceDay' && p(m).postponedFrom !== undefined,
      'The new date’s programme (races cut to two):',
    ),
    ...first(
      day.filter((m) => m.trackId === at.trackId),
      (m) => m.channel === 'StartList' && m.date !== day.find((x) => x.trackId === at.trackId)?.date,
      'And a start list for each race, dated the new day (starters cut to two):',
    ),
  ],
};
