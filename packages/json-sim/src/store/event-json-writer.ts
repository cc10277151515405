import type { EventColumns } from './event-columns';
import { HeadPieces } from './head-pieces';
import type { JsonBytesLog } from './json-bytes-log';
import { TailPiece } from './tail-piece';

/**
 * An event's JSON is its envelope around its payload:
 *
 *   A `{"channel":<channel>,"date":"<date>"`        from the channel and day columns
 *   B `,"trackId":T,"raceNr":R,"startNr":S,"payload":` (absent ids left out), the id columns
 *   P the payload's JSON                             the stored bytes
 *   C `,"created_at":"<ISO time>","eventId":`        the created column
 *   D `<eventId>}`                                   the event's position
 *
 * Only P is stored (A and B too for an event whose ids are not plain, see plainIds), so the
 * ~150 bytes of envelope every event carries are not held a million times. A page writes A + B
 * (HeadPieces) and C + D (TailPiece) as two pieces kept here and rewritten in place as little as
 * they change, and copies the payloads of neighbouring events with one native copy per run.
 */
export class EventJsonWriter {
  private readonly heads: HeadPieces;
  private readonly tail = new TailPiece();

  constructor(
    private readonly columns: EventColumns,
    private readonly log: JsonBytesLog,
    channelNames: readonly string[],
  ) {
    this.heads = new HeadPieces(channelNames);
  }

  /** The byte length of the JSON of the event at log position `pos`, plus one for a comma. */
  byteLength(pos: number, eventId: number): number {
    const c = this.columns;
    const row = c.head + pos;
    const size = this.log.byteLength(pos) + TailPiece.byteLength(c.created[row] as number, eventId);
    if (c.headStored[row] === 1) return size;
    return (
      size +
      this.heads.byteLength(
        c.channel[row] as number,
        c.trackId[row] as number,
        c.raceNr[row] as number,
        c.startNr[row] as number,
      )
    );
  }

  /**
   * Writes the JSON of the events at positions first .. first + n - 1 (consecutive eventIds from
   * `firstEventId`, one JsonBytesLog run), each followed by a comma unless `last` is false, into
   * target at `at`; returns the end. When `stagedAt` is given, the run's payloads were copied
   * there (back to back, by copyRun) beforehand: each is moved into place within the target,
   * which needs no view of the slab per event. The staged bytes must lie at or after where their
   * event's payload goes, as they do when staged at the end of what the page has left to write.
   */
  writeRun(
    first: number,
    n: number,
    firstEventId: number,
    target: Uint8Array,
    at: number,
    stagedAt: number,
    last: boolean,
  ): number {
    const c = this.columns;
    const log = this.log;
    const tail = this.tail;
    let staged = stagedAt;
    for (let k = 0; k < n; k++) {
      const pos = first + k;
      const row = c.head + pos;
      if (c.headStored[row] !== 1) {
        const head = this.heads.bytes(
          c.channel[row] as number,
          c.day[row] as number,
          c.trackId[row] as number,
          c.raceNr[row] as number,
          c.startNr[row] as number,
        );
        target.set(head, at);
        at += head.length;
      }
      if (stagedAt < 0) {
        at += log.copyTo(pos, target, at);
      } else {
        const bytes = log.byteLength(pos);
        if (staged !== at) target.copyWithin(at, staged, staged + bytes);
        staged += bytes;
        at += bytes;
      }
      tail.set(c.created[row] as number, firstEventId + k);
      const end = last || k < n - 1 ? tail.withComma : tail.withoutComma;
      target.set(end, at);
      at += end.length;
    }
    return at;
  }
}

/**
 * True when the ids can be written back from the id columns: each absent or a whole number
 * >= 0 (all that POST /api/message and seeding accept). Anything else an in-process caller may
 * pass (null, a fraction, a negative) keeps its envelope head in the stored bytes, written as
 * JSON.stringify writes it.
 */
export function plainIds(trackId: unknown, raceNr: unknown, startNr: unknown): boolean {
  return plainId(trackId) && plainId(raceNr) && plainId(startNr);
}

function plainId(id: unknown): boolean {
  return id === undefined || (typeof id === 'number' && Number.isSafeInteger(id) && id >= 0);
}
