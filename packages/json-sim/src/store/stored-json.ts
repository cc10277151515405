import type { EventInput } from '@racedata/core';
import type { PreparedEvent } from './types';

/**
 * What one stored event is counted as against the store's byte budget: its UTF-8 JSON (kept
 * once, packed in slabs; no parsed copy is kept) plus a fixed overhead for its row of filter
 * columns (usually 10 bytes), its place in the byte log's ring (4), its separator byte, and its
 * entries in the id lists (4 bytes each in up to 9 lists: the channel, the day and each
 * combination of exact ids). Measured on 1,000,000 start-list events seeded over HTTP (`npm run
 * bench -- --only=memory/seeded`): under 100 bytes of RSS beyond the JSON each; 200 keeps the
 * budget on the safe side, and covers the one slab (at most an eighth of the budget) a log may
 * hold beyond it while its oldest texts are dropped.
 */
export function storedEventCost(jsonBytes: number): number {
  return jsonBytes + PER_EVENT_OVERHEAD;
}
export const PER_EVENT_OVERHEAD = 200;

/**
 * Room a staged event leaves after its JSON in the chunk it is staged in, so the store can add
 * what it assigns in place (json-bytes-log.ts adoptAssigned): `,"created_at":"` (15), the widest
 * ISO date (27, a six-digit year), `","eventId":` (13), up to 16 digits, the closing brace and the
 * separator: 73, rounded up.
 */
export const ASSIGNED_ROOM = 80;

/** The half-serialised form of an event: what append() and bulk seeding store. */
export function prepareEvent(input: EventInput): PreparedEvent {
  // Throws for a payload JSON cannot hold (too deep, circular, a BigInt): before any change.
  const payloadJson = JSON.stringify(input.payload);
  if (payloadJson === undefined) throw new TypeError('the payload has no JSON form');
  return {
    channel: input.channel,
    date: input.date,
    trackId: input.trackId,
    raceNr: input.raceNr,
    startNr: input.startNr,
    payloadJson,
  };
}

/** The optional ids of an event, in the order its stored JSON has them. */
export const ID_KEYS = ['trackId', 'raceNr', 'startNr'] as const;
export type IdKey = (typeof ID_KEYS)[number];

/**
 * The keys of an event's stored JSON up to the fields the store assigns, in the order they are
 * written: the order JSON.stringify gives a posted message, so the seed's canonical lines
 * (seed/canonical-line.ts), which are read in this order, are copied as they are.
 */
export const HEAD_KEYS = ['channel', 'date', ...ID_KEYS, 'payload'] as const;
export type HeadKey = (typeof HEAD_KEYS)[number];

/** What stands before each key's value: `{"channel":` for the first key, `,"date":` and so on after it. */
export const KEY_OPENINGS = Object.freeze(
  Object.fromEntries(HEAD_KEYS.map((key, i) => [key, `${i === 0 ? '{' : ','}${JSON.stringify(key)}:`])),
) as Readonly<Record<HeadKey, string>>;

/**
 * The stored JSON of an event up to the fields the store assigns: `{"channel":…,"date":…,
 * ["trackId":…,]["raceNr":…,]["startNr":…,]"payload":{…}` (no closing brace). What bulk seeding
 * stages, and the start of eventJson().
 */
export function eventJsonHead(p: PreparedEvent): string {
  const open = KEY_OPENINGS;
  let text = `${open.channel}${JSON.stringify(p.channel)}${open.date}${JSON.stringify(p.date)}`;
  for (const key of ID_KEYS) {
    const id = p[key];
    if (typeof id === 'number') text += `${open[key]}${id}`;
  }
  return `${text}${open.payload}${p.payloadJson}`;
}

/**
 * The stored JSON of an event: byte for byte JSON.stringify of the StoredEvent object (keys
 * channel, date, trackId?, raceNr?, startNr?, payload, created_at, eventId), built around the
 * payload's JSON so the payload is serialised once.
 */
export function eventJson(p: PreparedEvent, createdAt: string, eventId: number): string {
  return `${eventJsonHead(p)},"created_at":"${createdAt}","eventId":${eventId}}`;
}
