import type { BlockArena } from './block-arena';
import { IdList } from './id-list';
import { ABSENT } from './event-columns';

/** Which of trackId (1), raceNr (2), startNr (4) a composite key or a filter covers. */
export const TRACK = 1;
export const RACE = 2;
export const START = 4;

/**
 * The key of one combination of exact ids: the fields in `mask` and their values. Each event is
 * listed under every combination of the ids it has (up to 7), so a filter on any of them finds
 * its list in one lookup: a filter nothing matches costs the same whatever the store holds.
 * Usual ids (trackId < 2048, raceNr and startNr < 256) pack into one small integer, which V8
 * keeps unboxed: no string is made per event and combination; larger ones get a string.
 */
export function idKey(mask: number, trackId: number, raceNr: number, startNr: number): number | string {
  const t = mask & TRACK ? trackId : 0;
  const r = mask & RACE ? raceNr : 0;
  const s = mask & START ? startNr : 0;
  if (t < 2048 && r < 256 && s < 256) return ((t * 256 + r) * 256 + s) * 8 + mask;
  return `${mask}:${t}:${r}:${s}`;
}

/** The mask of the ids an event has (ABSENT ones left out). */
export function presentMask(trackId: number, raceNr: number, startNr: number): number {
  return (trackId !== ABSENT ? TRACK : 0) | (raceNr !== ABSENT ? RACE : 0) | (startNr !== ABSENT ? START : 0);
}

/** One channel's events: all of them, by date, and by every combination of exact ids. */
export class ChannelIndex {
  readonly all: IdList;
  /** Sorted dayNumber()s held, so a date range selects its buckets without touching other days. */
  readonly days: number[] = [];
  readonly byDay = new Map<number, IdList>();
  readonly byIds = new Map<number | string, IdList>();

  /** `arena`: the store's, where the lists' full blocks come from. */
  constructor(
    readonly id: number,
    private readonly arena: BlockArena,
  ) {
    this.all = this.list();
  }

  private list(): IdList {
    return new IdList(undefined, undefined, this.arena);
  }

  add(eventId: number, day: number, trackId: number, raceNr: number, startNr: number): void {
    this.all.push(eventId);
    let bucket = this.byDay.get(day);
    if (!bucket) {
      bucket = this.list();
      this.byDay.set(day, bucket);
      this.days.splice(lowerBound(this.days, day), 0, day);
    }
    bucket.push(eventId);
    const present = presentMask(trackId, raceNr, startNr);
    for (let mask = 1; mask <= 7; mask++) {
      if ((mask & present) !== mask) continue;
      const key = idKey(mask, trackId, raceNr, startNr);
      let list = this.byIds.get(key);
      if (!list) {
        list = this.list();
        this.byIds.set(key, list);
      }
      list.push(eventId);
    }
  }

  /** Drops the channel's oldest event (the store's oldest): the head of each of its lists. */
  dropOldest(day: number, trackId: number, raceNr: number, startNr: number): void {
    this.all.shift();
    const bucket = this.byDay.get(day);
    bucket?.shift();
    if (bucket && bucket.length === 0) {
      this.byDay.delete(day);
      this.days.splice(lowerBound(this.days, day), 1);
    }
    const present = presentMask(trackId, raceNr, startNr);
    for (let mask = 1; mask <= 7; mask++) {
      if ((mask & present) !== mask) continue;
      const key = idKey(mask, trackId, raceNr, startNr);
      const list = this.byIds.get(key);
      list?.shift();
      // Keys come and go with the data: an emptied list is not kept.
      if (list && list.length === 0) this.byIds.delete(key);
    }
  }
}

export function lowerBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
