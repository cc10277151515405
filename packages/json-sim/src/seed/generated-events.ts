import { isoDate } from '@racedata/core';
import type { PreparedEvent } from '../store/types';

const DAY_MS = 86_400_000;
/** Race days a generated store spans: about 2,000 events a day, at most a year. */
const EVENTS_PER_DAY = 2000;

/**
 * `count` realistic durable events for `racedata-sim json --seed N`: start-list entries (about
 * 400 bytes of JSON each) spread evenly over the given channels, over race days ending `today`
 * (oldest first), 20 tracks, races 1-10 and starts 1-12, in time order as a real store fills.
 * Handed out in chunks, so a million are never all held at once.
 */
export function* generatedEvents(
  count: number,
  channels: readonly string[],
  today: number,
  chunk = 500,
): Generator<PreparedEvent[]> {
  const days = Math.max(1, Math.min(365, Math.ceil(count / EVENTS_PER_DAY)));
  const firstDay = today - (days - 1) * DAY_MS;
  const dates = Array.from({ length: days }, (_, d) => isoDate(firstDay + d * DAY_MS));
  for (let from = 0; from < count; from += chunk) {
    const events: PreparedEvent[] = [];
    for (let i = from; i < Math.min(count, from + chunk); i++) {
      events.push(
        startListEntry(
          i,
          channels[i % channels.length] as string,
          dates[Math.floor((i * days) / count)] as string,
        ),
      );
    }
    yield events;
  }
}

function startListEntry(i: number, channel: string, date: string): PreparedEvent {
  const trackId = 900 + (i % 20);
  const raceNr = (i % 10) + 1;
  const startNr = (i % 12) + 1;
  // Plain ASCII built as JSON.stringify would write it: no object made per event.
  const payloadJson =
    `{"raceNr":${raceNr},"startNr":${startNr},"postPosition":${startNr},"distance":${2140 + (i % 3) * 500},` +
    `"horse":{"id":${100_000 + (i % 50_000)},"name":"Horse ${i % 50_000}","age":${3 + (i % 9)}},` +
    `"driver":{"id":${5000 + (i % 700)},"name":"Driver ${i % 700}"},` +
    `"trainer":{"id":${8000 + (i % 900)},"name":"Trainer ${i % 900}"},` +
    `"shoes":{"front":${i % 2 === 0},"back":${i % 3 === 0}},"odds":${((i % 400) + 11) / 10},"scratched":false}`;
  return { channel, date, trackId, raceNr, startNr, payloadJson };
}
