import { isCalendarDate, type ChannelCatalog, MAX_JSON_DEPTH } from '@racedata/core';
import { dayNumber } from '../store/day-number';
import type { StagedEvents } from '../store/staged-events';
import { CanonicalJson, matchAt } from './canonical-json';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const ZERO = 0x30;
const NINE = 0x39;

const ascii = (text: string) => Buffer.from(text, 'latin1');
const CHANNEL = ascii('{"channel":"');
const DATE = ascii('","date":"');
const TRACK_ID = ascii(',"trackId":');
const RACE_NR = ascii(',"raceNr":');
const START_NR = ascii(',"startNr":');
const PAYLOAD = ascii(',"payload":{');

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

  constructor(catalog: ChannelCatalog) {
    this.durable = new Set(catalog.names('durable'));
  }

  /** Stages the line and returns true, or returns false having changed nothing. */
  stage(line: Buffer, into: StagedEvents): boolean {
    let i = matchAt(line, 0, CHANNEL);
    if (i < 0) return false;
    const channelEnd = plainTextEnd(line, i);
    if (channelEnd < 0) return false;
    const channel = line.toString('latin1', i, channelEnd);
    if (!this.durable.has(channel)) return false;
    i = matchAt(line, channelEnd, DATE);
    if (i < 0 || line[i + 10] !== QUOTE) return false;
    const date = line.toString('latin1', i, i + 10);
    if (!isCalendarDate(date)) return false;
    i += 11;
    const trackId = idAfter(line, i, TRACK_ID);
    if (trackId.end > 0) i = trackId.end;
    const raceNr = idAfter(line, i, RACE_NR);
    if (raceNr.end > 0) i = raceNr.end;
    const startNr = idAfter(line, i, START_NR);
    if (startNr.end > 0) i = startNr.end;
    if (trackId.end === -1 || raceNr.end === -1 || startNr.end === -1) return false;
    i = matchAt(line, i, PAYLOAD);
    if (i < 0) return false;
    // The line's object is one level; its payload may nest the rest.
    const end = this.json.valueEnd(line, i - 1, MAX_JSON_DEPTH - 1);
    if (end < 0 || end !== line.length - 1 || line[end] !== 0x7d) return false;
    into.addJson(channel, dayNumber(date), trackId.value, raceNr.value, startNr.value, line, 0, end);
    return true;
  }
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
