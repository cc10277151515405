import type { RecordedMessage } from './recording-types';

const ATTRIBUTE = (name: string) => new RegExp(`\\b${name}="([^"]*)"`);
const DATE = ATTRIBUTE('date');
const TRACK = ATTRIBUTE('trackId');
const RACE = ATTRIBUTE('raceNr');

/**
 * The race a recorded message belongs to, as `2024-05-11 track 901 race 3`; undefined for a
 * message about no single race (a race-day programme). Legacy documents carry the same fields
 * as attributes of their root element (recordings/README.md).
 */
export function raceOf(message: RecordedMessage): string | undefined {
  let date: string | undefined;
  let track: string | undefined;
  let race: string | undefined;
  if (message.kind === 'json') {
    const event = message.message;
    date = event.date;
    track = event.trackId === undefined ? undefined : String(event.trackId);
    race = event.raceNr === undefined ? undefined : String(event.raceNr);
  } else {
    // Only the root element's attributes: the first tag's.
    const root = /<(?!\?)[^>]*>/.exec(message.xml)?.[0] ?? '';
    date = DATE.exec(root)?.[1];
    track = TRACK.exec(root)?.[1];
    race = RACE.exec(root)?.[1];
  }
  if (race === undefined) return undefined;
  return `${date ?? '?'} track ${track ?? '?'} race ${race}`;
}
