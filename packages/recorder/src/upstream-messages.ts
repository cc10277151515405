import { jsonTextDepthExceeds, MAX_JSON_DEPTH } from '@racedata/core';

/**
 * What the upstream sends, turned into the body of POST /api/message (JSON) or an XML document
 * (legacy), or into the reason it cannot be: malformed data is reported and skipped, never written.
 */
export type Parsed<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

/**
 * A message may nest as deep as POST /api/message accepts (MAX_JSON_DEPTH); checked before
 * parsing, because writing a deeper one (serialising it again) recurses once per level.
 */
function tooDeep(text: string, envelope: number): boolean {
  return jsonTextDepthExceeds(text, MAX_JSON_DEPTH + envelope);
}

const DEEP = `nests deeper than ${MAX_JSON_DEPTH} levels`;

const MESSAGE_FIELDS = ['channel', 'date', 'trackId', 'raceNr', 'startNr', 'payload'] as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The message fields of an event or a Data message, in the order POST /api/message takes them. */
function messageOf(value: Record<string, unknown>): Parsed<Record<string, unknown>> {
  if (typeof value.channel !== 'string') return { ok: false, reason: 'no channel' };
  if (!isObject(value.payload)) return { ok: false, reason: 'payload is not an object' };
  const message: Record<string, unknown> = {};
  for (const field of MESSAGE_FIELDS) if (value[field] !== undefined) message[field] = value[field];
  return { ok: true, value: message };
}

export interface UpstreamEvent {
  readonly eventId: number;
  readonly createdAt: number | undefined;
  readonly message: Record<string, unknown>;
}

/** The event page of /customerapi/events (interface 2.6): its events, each parsed on its own. */
export function parseEventPage(body: string): Parsed<{ events: unknown[]; hasMore: boolean }> {
  // The page, data and events around each event.
  if (tooDeep(body, 3)) return { ok: false, reason: `event page ${DEEP}` };
  let page: unknown;
  try {
    page = JSON.parse(body);
  } catch {
    return { ok: false, reason: 'event page is not JSON' };
  }
  if (
    !isObject(page) ||
    page.status !== 'success' ||
    !isObject(page.data) ||
    !Array.isArray(page.data.events)
  ) {
    return { ok: false, reason: 'event page without status "success" and data.events' };
  }
  return { ok: true, value: { events: page.data.events, hasMore: page.data.hasMore === true } };
}

/** One event of a page (interface 2.5); its eventId is needed even when the rest is malformed. */
export function parseEvent(value: unknown): Parsed<UpstreamEvent> & { readonly eventId?: number } {
  if (!isObject(value)) return { ok: false, reason: 'event is not an object' };
  const eventId = value.eventId;
  if (typeof eventId !== 'number' || !Number.isSafeInteger(eventId) || eventId < 1) {
    return { ok: false, reason: 'event without a whole-number eventId' };
  }
  const message = messageOf(value);
  if (!message.ok) return { ...message, eventId };
  const created = typeof value.created_at === 'string' ? Date.parse(value.created_at) : Number.NaN;
  return {
    ok: true,
    eventId,
    value: { eventId, createdAt: Number.isNaN(created) ? undefined : created, message: message.value },
  };
}

export type StreamFrame =
  | { readonly type: 'Data'; readonly message: Record<string, unknown> }
  | { readonly type: 'Authenticated' | 'AuthenticationError' | 'Connection' | 'Ping' | 'other' };

/** A message of /customerapi/event-stream (interface 2.7). */
export function parseStreamFrame(text: string): Parsed<StreamFrame> {
  // The frame around the Data message.
  if (tooDeep(text, 1)) return { ok: false, reason: `event-stream message ${DEEP}` };
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'event-stream message is not JSON' };
  }
  if (!isObject(frame) || typeof frame.type !== 'string') {
    return { ok: false, reason: 'event-stream message without a type' };
  }
  if (frame.type !== 'Data') {
    const known = ['Authenticated', 'AuthenticationError', 'Connection', 'Ping'].includes(frame.type);
    return { ok: true, value: { type: (known ? frame.type : 'other') as 'other' } };
  }
  if (!isObject(frame.data)) return { ok: false, reason: 'Data message without a data object' };
  const message = messageOf(frame.data);
  return message.ok ? { ok: true, value: { type: 'Data', message: message.value } } : message;
}

/** The listen answer: a JSON string holding one XML document (interface 4.2, decisions). */
export function parseListenBody(body: string): Parsed<string> {
  let xml: unknown;
  try {
    xml = JSON.parse(body);
  } catch {
    return { ok: false, reason: 'listen answer is not a JSON string' };
  }
  if (typeof xml !== 'string' || !xml.trim().startsWith('<')) {
    return { ok: false, reason: 'listen answer does not hold an XML document' };
  }
  return { ok: true, value: xml };
}

export interface TrackSignal {
  readonly channel: string;
  readonly payloadKey: string;
  readonly xml: string;
}

/** A STOMP MESSAGE body: `{"channel", "payloadKey", "payload": "<xml…>", "timestamp"}` (decisions). */
export function parseTrackSignal(body: string): Parsed<TrackSignal> {
  if (tooDeep(body, 0)) return { ok: false, reason: `STOMP message body ${DEEP}` };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { ok: false, reason: 'STOMP message body is not JSON' };
  }
  if (!isObject(value) || typeof value.payload !== 'string' || !value.payload.trim().startsWith('<')) {
    return { ok: false, reason: 'STOMP message without an XML payload' };
  }
  if (typeof value.channel !== 'string') return { ok: false, reason: 'STOMP message without a channel' };
  const payloadKey = typeof value.payloadKey === 'string' ? value.payloadKey : '';
  return { ok: true, value: { channel: value.channel, payloadKey, xml: value.payload } };
}
