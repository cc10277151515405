import { digitCount, writePadded } from './ascii-digits';
import { ABSENT } from './event-columns';
import { idKey, presentMask, RACE, START, TRACK } from './channel-index';

/** One head: its bytes and the dayNumber its date digits show. */
interface Head {
  readonly bytes: Uint8Array;
  day: number;
}

/** Kinds of head kept per channel at most; more (ids from many tracks and races) start over. */
const MAX_PER_CHANNEL = 4096;

/**
 * The start of an event's JSON up to its payload,
 * `{"channel":<channel>,"date":"<date>","trackId":T,"raceNr":R,"startNr":S,"payload":`
 * (absent ids left out), as pieces of bytes kept by channel and ids: a channel's events share a
 * few dozen combinations of ids, so a page writes each head with one native copy. A head's date
 * digits are rewritten in place when an event of another day needs it.
 */
export class HeadPieces {
  private readonly byChannel: Map<number | string, Head>[] = [];
  /** Byte length of `{"channel":<channel>,"date":"YYYY-MM-DD"` by channel number. */
  private readonly starts: number[] = [];

  constructor(private readonly channelNames: readonly string[]) {}

  /** The byte length of the head of an event with these columns. */
  byteLength(channel: number, trackId: number, raceNr: number, startNr: number): number {
    let size = (this.starts[channel] ?? this.start(channel)) + PAYLOAD_KEY;
    if (trackId !== ABSENT) size += TRACK_KEY + digitCount(trackId);
    if (raceNr !== ABSENT) size += RACE_KEY + digitCount(raceNr);
    if (startNr !== ABSENT) size += START_KEY + digitCount(startNr);
    return size;
  }

  /** The head of an event with these columns (the bytes are the piece's own: copy, don't keep). */
  bytes(channel: number, day: number, trackId: number, raceNr: number, startNr: number): Uint8Array {
    const heads = this.byChannel[channel] ?? this.channel(channel);
    const mask = presentMask(trackId, raceNr, startNr);
    const key = idKey(mask, trackId, raceNr, startNr);
    let head = heads.get(key);
    if (head === undefined) {
      if (heads.size >= MAX_PER_CHANNEL) heads.clear();
      let text = `{"channel":${JSON.stringify(this.channelNames[channel])},"date":"0000-00-00"`;
      if (mask & TRACK) text += `,"trackId":${trackId}`;
      if (mask & RACE) text += `,"raceNr":${raceNr}`;
      if (mask & START) text += `,"startNr":${startNr}`;
      head = { bytes: Uint8Array.from(Buffer.from(`${text},"payload":`, 'utf8')), day: -1 };
      heads.set(key, head);
    }
    if (head.day !== day) {
      const at = (this.starts[channel] as number) - 11;
      writePadded(head.bytes, at, Math.floor(day / 10000), 4);
      writePadded(head.bytes, at + 5, Math.floor(day / 100) % 100, 2);
      writePadded(head.bytes, at + 8, day % 100, 2);
      head.day = day;
    }
    return head.bytes;
  }

  private channel(channel: number): Map<number | string, Head> {
    const heads = new Map<number | string, Head>();
    this.byChannel[channel] = heads;
    this.start(channel);
    return heads;
  }

  private start(channel: number): number {
    const name = JSON.stringify(this.channelNames[channel]);
    const size = Buffer.byteLength(`{"channel":${name},"date":"0000-00-00"`, 'utf8');
    this.starts[channel] = size;
    return size;
  }
}

const PAYLOAD_KEY = ',"payload":'.length;
const TRACK_KEY = ',"trackId":'.length;
const RACE_KEY = ',"raceNr":'.length;
const START_KEY = ',"startNr":'.length;
