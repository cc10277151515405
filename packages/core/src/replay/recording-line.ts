import { isCalendarDate } from '../dates';
import { jsonTextDepthExceeds, MAX_JSON_DEPTH } from '../json-depth';
import type { EventInput } from '../event-input';
import type {
  RecordedJsonMessage,
  RecordedLegacyMessage,
  RecordedMessageOf,
  RecordingKind,
} from './recording-types';

export type LineResult<M> =
  { readonly ok: true; readonly message: M } | { readonly ok: false; readonly error: string };

// A zone is required: a recording made in Sweden and replayed in a UTC container must keep its gaps.
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

const LEGACY_FIELDS = ['at', 'delivery', 'channel', 'payloadKey', 'xml'];
const JSON_FIELDS = ['at', 'delivery', 'channel', 'date', 'trackId', 'raceNr', 'startNr', 'payload'];

class LineError extends Error {}

function fail(why: string): never {
  throw new LineError(why);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readAt(value: unknown): number {
  if (typeof value !== 'string' || !ISO_INSTANT.test(value) || !isCalendarDate(value.slice(0, 10))) {
    fail(`"at" must be an ISO 8601 timestamp with a zone, e.g. "2024-05-11T12:00:00.000Z"`);
  }
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) fail(`"at" is not a valid timestamp: ${value}`);
  return ms;
}

function readDelivery(value: unknown): 'durable' | 'transient' {
  if (value !== 'durable' && value !== 'transient') fail(`"delivery" must be "durable" or "transient"`);
  return value;
}

function readName(record: Record<string, unknown>, field: string): string {
  const value = record[field];
  if (typeof value !== 'string' || !/^[A-Za-z0-9_.-]{1,100}$/.test(value)) {
    fail(`"${field}" must be a name of letters, digits, "_", "." or "-" (1 to 100 characters)`);
  }
  return value;
}

function readOptionalInt(record: Record<string, unknown>, field: string): number | undefined {
  const value = record[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    fail(`"${field}" must be a whole number >= 0 when present`);
  }
  return value;
}

function checkFields(record: Record<string, unknown>, allowed: string[], kind: RecordingKind): void {
  const unknown = Object.keys(record).filter((key) => !allowed.includes(key));
  if (unknown.length === 0) return;
  const other = kind === 'json' ? 'xml' : 'payload';
  const hint = unknown.includes(other) ? ` (a ${kind === 'json' ? 'legacy' : 'JSON'} recording line?)` : '';
  fail(`unknown field(s) ${unknown.map((k) => `"${k}"`).join(', ')}${hint}`);
}

function legacyLine(record: Record<string, unknown>, source: string): RecordedLegacyMessage {
  checkFields(record, LEGACY_FIELDS, 'legacy');
  const at = readAt(record.at);
  const delivery = readDelivery(record.delivery);
  const channel = readName(record, 'channel');
  const payloadKey = record.payloadKey;
  if (typeof payloadKey !== 'string' || payloadKey.length > 500) {
    fail(`"payloadKey" must be a string (at most 500 characters)`);
  }
  const xml = record.xml;
  if (typeof xml !== 'string' || xml.trim() === '') fail(`"xml" must be a non-empty string`);
  const trimmed = xml.trim();
  // A full XML parse is the simulator's job (it answers 400); this catches obvious non-XML early.
  if (!trimmed.startsWith('<') || !trimmed.endsWith('>')) fail(`"xml" does not look like an XML document`);
  return { kind: 'legacy', at, delivery, channel, payloadKey, xml, source };
}

function jsonLine(record: Record<string, unknown>, source: string): RecordedJsonMessage {
  checkFields(record, JSON_FIELDS, 'json');
  const at = readAt(record.at);
  const delivery = readDelivery(record.delivery);
  const channel = readName(record, 'channel');
  const date = record.date;
  if (typeof date !== 'string' || !isCalendarDate(date))
    fail(`"date" must be a real date written YYYY-MM-DD`);
  const trackId = readOptionalInt(record, 'trackId');
  const raceNr = readOptionalInt(record, 'raceNr');
  const startNr = readOptionalInt(record, 'startNr');
  const payload = record.payload;
  if (!isObject(payload)) fail(`"payload" must be a JSON object`);
  const message: EventInput = {
    channel,
    date,
    ...(trackId === undefined ? {} : { trackId }),
    ...(raceNr === undefined ? {} : { raceNr }),
    ...(startNr === undefined ? {} : { startNr }),
    payload,
  };
  return { kind: 'json', at, delivery, message, source };
}

/** Parses and validates one non-blank line of a recording file. */
export function parseRecordingLine<K extends RecordingKind>(
  kind: K,
  text: string,
  source: string,
): LineResult<RecordedMessageOf<K>> {
  // Checked before parsing: every reader of a line (the replay, the anonymiser) recurses per level.
  if (jsonTextDepthExceeds(text, MAX_JSON_DEPTH)) {
    return {
      ok: false,
      error: `nests deeper than ${MAX_JSON_DEPTH} levels (the simulators refuse such a message)`,
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `not valid JSON (${(err as Error).message})` };
  }
  if (!isObject(value)) return { ok: false, error: 'a line must hold one JSON object' };
  try {
    const message = kind === 'legacy' ? legacyLine(value, source) : jsonLine(value, source);
    return { ok: true, message: message as RecordedMessageOf<K> };
  } catch (err) {
    if (err instanceof LineError) return { ok: false, error: err.message };
    throw err;
  }
}
