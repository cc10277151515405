import { TOKENS } from '../../../test-support/users';
import { post } from './http';

/** Message shapes the benchmark sends, sized like the bundled recordings (about 200-400 bytes). */

/** The built-in testuser of both simulators, whose headers every bench client sends. */
export const TOKEN = TOKENS.testuser;
export const AUTH = { authorization: `Bearer ${TOKEN}` };
/** Every durable channel of the JSON catalog; the default user sees the first four. */
const bySport = (sport: string) => ['RaceDay', 'StartList', 'Result'].map((channel) => channel + sport);
const DURABLE_CHANNELS = [...bySport('Trot'), ...bySport('Gallop'), 'ScratchingsTrot', 'ScratchingsGallop'];

export const dayString = (day: number) =>
  new Date(Date.UTC(2025, 0, 1) + day * 86_400_000).toISOString().slice(0, 10);

/** How stored events are laid out: in time order, spread evenly over `days` race days. */
export type StoreLayout = { readonly count: number; readonly days: number };

export const layoutDays = (count: number) => Math.max(1, Math.min(365, Math.ceil(count / 2000)));

/** A fresh object per event, as a parsed request body would be: a start-list entry. */
export function storedEvent(i: number, layout: StoreLayout) {
  const [raceNr, startNr] = [(i % 10) + 1, (i % 12) + 1];
  return {
    channel: DURABLE_CHANNELS[i % DURABLE_CHANNELS.length] as string,
    // In time order, spread evenly over the days.
    date: dayString(Math.min(layout.days - 1, Math.floor(((i - 1) * layout.days) / layout.count))),
    ...{ trackId: 900 + (i % 20), raceNr, startNr },
    payload: {
      ...{ raceNr, startNr, postPosition: startNr, distance: 2140 },
      horse: { id: 100_000 + (i % 50_000), name: `Horse ${i % 50_000}`, age: 3 + (i % 9) },
      driver: { id: 5000 + (i % 700), name: `Driver ${i % 700}` },
      trainer: { id: 8000 + (i % 900), name: `Trainer ${i % 900}` },
      shoes: { front: i % 2 === 0, back: i % 3 === 0 },
      ...{ odds: Math.round(((i % 400) + 11) * 10) / 100, scratched: false },
    },
  };
}

/** Message `seq` of a race day, on a durable channel; its `payload.seq` says which it is. */
export const jsonDurableMessage = (seq: number, channel = 'RaceDayTrot') =>
  JSON.stringify({
    ...{ channel, date: '2025-06-01', trackId: 901 },
    payload: { seq, track: 'Tallmyra', firstStart: '2025-06-01T14:45:00+02:00', races: 8, status: 'ok' },
  });

/** Message `seq` of a countdown, on a transient channel. */
export const jsonTransientMessage = (seq: number, channel = 'TimeToStartTrot') =>
  JSON.stringify({
    ...{ channel, date: '2025-06-01', trackId: 901, raceNr: 3 },
    payload: { seq, secondsToStart: 300 - (seq % 300), startTime: '2025-06-01T15:35:00+02:00' },
  });

/** A legacy document; `tag` (the soak's kind and channel) makes it unlike any other kind's `seq`. */
export const legacyXml = (seq: number, tag = '') =>
  '<?xml version="1.0" encoding="UTF-8"?>' +
  `<TimeToStart${tag && ` tag="${tag}"`} date="2025-06-01" trackId="901" raceNr="3" seq="${seq}">` +
  '<SecondsToStart>300</SecondsToStart><StartTime>2025-06-01T15:35:00+02:00</StartTime></TimeToStart>';

/** The `seq` of a legacy document, or NaN. */
export const seqOfXml = (xml: string) => Number(/seq="(\d+)"/.exec(xml)?.[1] ?? NaN);
/** The `seq` in the payloadKey of postLegacy's message, or NaN. */
export const seqOfKey = (key: unknown) => Number(/^bench-(\d+)$/.exec(String(key))?.[1] ?? NaN);

export const postJson = (port: number, body: string) => post(port, '/api/message', body);

/** POST /customerapi/channel/<channel>/Durable|NonDurable of legacyXml(seq, tag), payloadKey bench-<seq>. */
export type LegacyKind = 'Durable' | 'NonDurable';
export function postLegacy(port: number, kind: LegacyKind, seq: number, channel = 'id', tag = '') {
  const path = `/customerapi/channel/${channel}/${kind}?payloadKey=bench-${seq}`;
  return post(port, path, legacyXml(seq, tag), 'application/xml');
}

/** What a test posts first: a durable message of the simulator's kind (seq makes each one new). */
export const postMessage = (kind: 'json' | 'legacy', port: number, seq: number) =>
  kind === 'json' ? postJson(port, jsonDurableMessage(seq)) : postLegacy(port, 'Durable', seq);
export const POST_NAME = {
  json: 'POST /api/message',
  legacy: 'POST /customerapi/channel/id/Durable',
} as const;
