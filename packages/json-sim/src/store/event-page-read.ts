import { stored, type EventColumns } from './event-columns';
import type { IdList } from './id-list';

/** What a page read checks of each candidate, besides its channel (given by the source read). */
export interface RowFilter {
  readonly afterId: number;
  readonly limit: number;
  /** Inclusive dayNumber() bounds; -Infinity / Infinity when open. */
  readonly fromDay: number;
  readonly toDay: number;
  /** Wanted ids, or undefined when not filtered on. */
  readonly trackId: number | undefined;
  readonly raceNr: number | undefined;
  readonly startNr: number | undefined;
}

/** The ids of a page and whether more matches follow. */
export interface IdPage {
  readonly ids: number[];
  readonly hasMore: boolean;
}

/** The columns and where eventId `firstId` sits in them: an id's row is `base + id`. */
export interface Rows {
  readonly columns: EventColumns;
  readonly base: number;
}

function matches(rows: Rows, id: number, f: RowFilter): boolean {
  const c = rows.columns;
  const at = rows.base + id;
  const day = c.day[at] as number;
  return (
    day >= f.fromDay &&
    day <= f.toDay &&
    (f.trackId === undefined || c.trackId[at] === stored(f.trackId)) &&
    (f.raceNr === undefined || c.raceNr[at] === stored(f.raceNr)) &&
    (f.startNr === undefined || c.startNr[at] === stored(f.startNr))
  );
}

interface Cursor {
  readonly list: IdList;
  pos: number;
  id: number;
}

/** Restores the heap order below `i` (a min-heap of cursors by the eventId they point at). */
function siftDown(heap: Cursor[], i: number): void {
  const n = heap.length;
  const item = heap[i] as Cursor;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= n) break;
    const r = l + 1;
    const child = r < n && (heap[r] as Cursor).id < (heap[l] as Cursor).id ? r : l;
    if ((heap[child] as Cursor).id >= item.id) break;
    heap[i] = heap[child] as Cursor;
    i = child;
  }
  heap[i] = item;
}

/**
 * k-way merge of id lists by eventId, stopping at limit + 1 matches to learn hasMore without a
 * count. One cursor per source, advanced in place at the top of the heap; the candidates are
 * checked in the typed-array columns, so nothing is allocated or dereferenced per event.
 */
export function mergePage(
  sources: readonly IdList[],
  rows: Rows,
  f: RowFilter,
  found: number[] = [],
): IdPage {
  if (sources.length === 1) return walkList(sources[0] as IdList, rows, f, found);
  const heap: Cursor[] = [];
  for (const list of sources) {
    const pos = list.upperBound(f.afterId);
    if (pos < list.length) heap.push({ list, pos, id: list.at(pos) });
  }
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(heap, i);
  let hasMore = false;
  while (heap.length > 0) {
    const top = heap[0] as Cursor;
    if (matches(rows, top.id, f)) {
      if (found.length === f.limit) {
        hasMore = true;
        break;
      }
      found.push(top.id);
    }
    if (++top.pos < top.list.length) {
      top.id = top.list.at(top.pos);
    } else {
      const last = heap.pop() as Cursor;
      if (heap.length === 0) break;
      heap[0] = last;
    }
    siftDown(heap, 0);
  }
  return { ids: found, hasMore };
}

// One source needs no heap.
function walkList(list: IdList, rows: Rows, f: RowFilter, found: number[]): IdPage {
  for (let pos = list.upperBound(f.afterId); pos < list.length; pos++) {
    const id = list.at(pos);
    if (!matches(rows, id, f)) continue;
    if (found.length === f.limit) return { ids: found, hasMore: true };
    found.push(id);
  }
  return { ids: found, hasMore: false };
}

/** How far a scan may walk past the page's size before it hands over to the merge. */
const SCAN_SLACK = 4;

export interface ScanResult {
  /** The page, when the scan finished it. */
  readonly page?: IdPage;
  /** Otherwise: the matches so far, and the eventId the scan stopped after. */
  readonly found: number[];
  readonly stoppedAfter: number;
}

/**
 * Reads a page by walking the log's rows from afterId and keeping those of the wanted channels
 * (`wanted[channel] === 1`). Bounded: where the channels are sparse in this stretch of the log,
 * it stops after a few pages' worth of steps and says where, so the caller finishes with a merge
 * of the channels' own id lists.
 */
export function scanPage(
  rows: Rows,
  firstId: number,
  lastId: number,
  wanted: Uint8Array,
  f: RowFilter,
): ScanResult {
  const found: number[] = [];
  const channel = rows.columns.channel;
  const budget = SCAN_SLACK * (f.limit + 1) + 64;
  let id = Math.max(f.afterId + 1, firstId);
  const end = Math.min(lastId, id + budget - 1);
  for (; id <= end; id++) {
    if (wanted[channel[rows.base + id] as number] !== 1 || !matches(rows, id, f)) continue;
    if (found.length === f.limit) return { page: { ids: found, hasMore: true }, found, stoppedAfter: id };
    found.push(id);
  }
  if (id > lastId) return { page: { ids: found, hasMore: false }, found, stoppedAfter: lastId };
  return { found, stoppedAfter: id - 1 };
}
