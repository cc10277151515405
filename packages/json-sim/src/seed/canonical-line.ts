import { isCalendarDate, type ChannelCatalog, MAX_JSON_DEPTH } from '@racedata/core';
import { dayNumber } from '../store/day-number';
import type { StagedEvents } from '../store/staged-events';
import { ID_KEYS, KEY_OPENINGS, type HeadKey, type IdKey } from '../store/stored-json';
import { CanonicalJson, matchAt } from './canonical-json';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const ZERO = 0x30;
const NINE = 0x39;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

// The key order is the store's own (stored-json.ts), so a line the store would write is copied.
const OPENING = Object.fromEntries(
  Object.entries(KEY_OPENINGS).map(([key, text]) => [key, Buffer.from(text, 'latin1')]),
) as Readonly<Record<HeadKey, Buffer>>;

/**
 * Stages a seed line that is already the JSON the store keeps for its event (less the fields
 * the store assigns): `{"channel":…,"date":…,["trackId":…,]["raceNr":…,]["startNr":…,]"payload":{…}}`
 * in canonical form, as JSON.stringify writes a message object with its keys in that order. Such
 * a line is checked and copied as bytes, with no parse and no serialisation. Any other line, a
 * valid one written differently or a bad one, is left to the ordinary path (false), which parses
 * it, stores the same bytes or names what is wrong.
 */
export class CanonicalLines {
  private readonly json = new CanonicalJson();
  /** The durable channels by name; a seed takes no other. */
  private readonly durable: ReadonlySet<string>;
  /** The ids of the line being staged; one object for all lines. */
  private readonly ids: Record<IdKey, number | undefined> = {
    trackId: undefined,
    raceNr: undefined,
    startNr: undefined,
  };

  constructor(catalog: ChannelCatalog) {
    this.durable = new Set(catalog.names('durable'));
  }

  /** Stages the line and returns true, or returns false having changed nothing. */
  stage(line: Buffer, into: StagedEvents): boolean {
    let i = valueAt(line, 0, OPENING.channel, QUOTE);
    if (i < 0) return false;
    const channelEnd = plainTextEnd(line, i);
    if (channelEnd < 0) return false;
    const channel = line.toString('latin1', i, channelEnd);
    if (!this.durable.has(channel)) return false;
    i = valueAt(line, channelEnd + 1, OPENING.date, QUOTE);
    if (i < 0 || line[i + 10] !== QUOTE) return false;
    const date = line.toString('latin1', i, i + 10);
    if (!isCalendarDate(date)) return false;
    i += 11;
    const ids = this.ids;
    for (const key of ID_KEYS) {
      const id = idAfter(line, i, OPENING[key]);
      if (id.end < 0) return false;
      if (id.end > 0) i = id.end;
      ids[key] = id.value;
    }
    i = valueAt(line, i, OPENING.payload, OPEN_BRACE);
    if (i < 0) return false;
    // The line's object is one level; its payload may nest the rest.
    const end = this.json.valueEnd(line, i - 1, MAX_JSON_DEPTH - 1);
    if (end < 0 || end !== line.length - 1 || line[end] !== CLOSE_BRACE) return false;
    into.addJson(channel, dayNumber(date), ids.trackId, ids.raceNr, ids.startNr, line, 0, end);
    return true;
  }
}

// The index after `opening` and the byte that starts its value (a string's quote, an object's
// brace), or -1 when the line has something else there.
function valueAt(line: Buffer, at: number, opening: Buffer, first: number): number {
  const i = matchAt(line, at, opening);
  return i < 0 || line[i] !== first ? -1 : i + 1;
}

// A channel name needs no escape in JSON: the index of the quote that closes it, or -1.
function plainTextEnd(line: Buffer, from: number): number {
  for (let i = from; i < line.length; i++) {
    const c = line[i] as number;
    if (c === QUOTE) return i > from ? i : -1;
    if (c < 0x20 || c > 0x7e || c === BACKSLASH) return -1;
  }
  return -1;
}

interface Id {
  readonly value: number | undefined;
  /** The index after the id; 0 when the key is not there, -1 when it is but not canonical. */
  readonly end: number;
}

const NO_ID: Id = { value: undefined, end: 0 };
const BAD_ID: Id = { value: undefined, end: -1 };

// A whole number >= 0 of up to 15 digits without a leading zero: what the ordinary path takes
// as an id and writes back the same. Anything else there is for the ordinary path to judge.
function idAfter(line: Buffer, at: number, key: Buffer): Id {
  const from = matchAt(line, at, key);
  if (from < 0) return NO_ID;
  let i = from;
  let value = 0;
  while (i < line.length && (line[i] as number) >= ZERO && (line[i] as number) <= NINE) {
    value = value * 10 + (line[i] as number) - ZERO;
    i++;
  }
  const digits = i - from;
  if (digits === 0 || digits > 15 || (digits > 1 && line[from] === ZERO)) return BAD_ID;
  return { value, end: i };
}
