import { digitCount, writePadded, writeUint } from './ascii-digits';
import { plainIsoTime, writeIsoTime } from './iso-time';

const CREATED_KEY = ',"created_at":"';
const ID_KEY = '","eventId":';
/** Room for the longest safe integer. */
const MAX_DIGITS = 16;

/**
 * The end of an event's JSON, `,"created_at":"<ISO time>","eventId":<id>},` (the comma is the
 * page's separator), kept as one piece of bytes and rewritten in place from one event to the
 * next: along a page the ids count up by one (a digit or two change) and neighbours mostly share
 * their created_at (the same millisecond of a seed, or the same day), so the piece costs one
 * native copy per event and a few byte stores.
 */
export class TailPiece {
  private bytes = new Uint8Array(0);
  /** The piece with and without its trailing comma: views made when the length changes. */
  withComma = this.bytes;
  withoutComma = this.bytes;
  private created = Number.NaN;
  private createdDay = Number.NaN;
  private createdSecond = Number.NaN;
  private isoLength = 0;
  private id = -1;
  private idAt = 0;
  private digits = 0;
  /** The smallest id with more digits than `id`. */
  private nextPower = 0;

  /** The byte length of the piece of an event, its comma included. */
  static byteLength(created: number, eventId: number): number {
    return CREATED_KEY.length + isoLength(created) + ID_KEY.length + digitCount(eventId) + 2;
  }

  /** Sets the piece to this event's; read withComma / withoutComma next. */
  set(created: number, eventId: number): void {
    if (created !== this.created) this.setCreated(created);
    if (eventId === this.id + 1 && eventId !== this.nextPower) {
      this.countUp();
    } else {
      this.setId(eventId);
    }
  }

  private setCreated(created: number): void {
    const length = isoLength(created);
    if (length !== this.isoLength) this.layout(length, this.digits === 0 ? 1 : this.digits);
    const at = CREATED_KEY.length;
    if (!plainIsoTime(created)) {
      this.bytes.set(Buffer.from(new Date(created).toISOString(), 'latin1'), at);
      this.createdDay = Number.NaN;
      this.createdSecond = Number.NaN;
    } else {
      const ms = Math.floor(created);
      const second = ms - (ms % 1000);
      if (second === this.createdSecond) {
        writePadded(this.bytes, at + 20, ms - second, 3);
      } else {
        this.createdDay = writeIsoTime(this.bytes, at, ms, this.createdDay);
        this.createdSecond = second;
      }
    }
    this.created = created;
  }

  private setId(eventId: number): void {
    const digits = digitCount(eventId);
    if (digits !== this.digits) this.layout(this.isoLength, digits);
    writeUint(this.bytes, this.idAt, eventId);
    this.id = eventId;
    this.nextPower = 10 ** digits;
  }

  // The id's digits as a counter: a run of nines at the end turns to zeros and carries.
  private countUp(): void {
    const bytes = this.bytes;
    let p = this.idAt + this.digits - 1;
    while (bytes[p] === 0x39) bytes[p--] = 0x30;
    bytes[p] = (bytes[p] as number) + 1;
    this.id++;
  }

  // A new buffer for an ISO time and an id of these lengths; the values are written after.
  private layout(isoLength: number, digits: number): void {
    const old = this.bytes;
    const oldIso = this.isoLength;
    this.isoLength = isoLength;
    this.digits = digits;
    this.idAt = CREATED_KEY.length + isoLength + ID_KEY.length;
    const size = this.idAt + digits + 2;
    this.bytes = new Uint8Array(Math.max(size, this.idAt + MAX_DIGITS + 2));
    this.bytes.set(Buffer.from(CREATED_KEY, 'latin1'), 0);
    if (oldIso === isoLength)
      this.bytes.set(old.subarray(CREATED_KEY.length, CREATED_KEY.length + isoLength), CREATED_KEY.length);
    else {
      this.created = Number.NaN;
      this.createdDay = Number.NaN;
      this.createdSecond = Number.NaN;
    }
    this.bytes.set(Buffer.from(ID_KEY, 'latin1'), CREATED_KEY.length + isoLength);
    this.bytes[size - 2] = 0x7d; // }
    this.bytes[size - 1] = 0x2c; // ,
    this.withComma = this.bytes.subarray(0, size);
    this.withoutComma = this.bytes.subarray(0, size - 1);
    this.id = -1;
  }
}

function isoLength(created: number): number {
  return plainIsoTime(created) ? 24 : new Date(created).toISOString().length;
}
