import type { AppendLog } from './append-log';
import type { EventFilter, EventPage, StoredEvent } from './types';

interface Cursor {
  readonly log: AppendLog<StoredEvent>;
  pos: number;
  event: StoredEvent;
  id: number;
}

function matches(event: StoredEvent, filter: EventFilter): boolean {
  return (
    (filter.trackId === undefined || event.trackId === filter.trackId) &&
    (filter.raceNr === undefined || event.raceNr === filter.raceNr) &&
    (filter.startNr === undefined || event.startNr === filter.startNr)
  );
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
 * k-way merge by eventId, stopping at limit + 1 matches to learn hasMore without a count. One
 * cursor per source, advanced in place at the top of the heap: nothing is allocated per event.
 */
export function mergePage(
  sources: AppendLog<StoredEvent>[],
  filter: EventFilter,
  found: StoredEvent[] = [],
): EventPage {
  const heap: Cursor[] = [];
  for (const log of sources) {
    const pos = log.upperBound(filter.afterId);
    const event = log.at(pos);
    if (event) heap.push({ log, pos, event, id: event.eventId });
  }
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(heap, i);
  const events = found;
  let hasMore = false;
  while (heap.length > 0) {
    const top = heap[0] as Cursor;
    if (matches(top.event, filter)) {
      if (events.length === filter.limit) {
        hasMore = true;
        break;
      }
      events.push(top.event);
    }
    const next = top.log.at(++top.pos);
    if (next) {
      top.event = next;
      top.id = next.eventId;
    } else {
      const last = heap.pop() as Cursor;
      if (heap.length === 0) break;
      heap[0] = last;
    }
    siftDown(heap, 0);
  }
  return { events, hasMore };
}

/** How far a scan may walk past the page's size before it hands over to the merge. */
const SCAN_SLACK = 4;

export interface ScanResult {
  /** The page, when the scan finished it. */
  readonly page?: EventPage;
  /** Otherwise: the matches so far, and the eventId the scan stopped after. */
  readonly found: StoredEvent[];
  readonly stoppedAfter: number;
}

/**
 * Reads a page by walking the global log from afterId and keeping the events of the channels.
 * Bounded: where the channels are sparse in this stretch of the log, it stops after a few pages'
 * worth of steps and says where, so the caller finishes with a merge of the channels' own logs.
 */
export function scanPage(
  log: AppendLog<StoredEvent>,
  channels: ReadonlySet<string>,
  filter: EventFilter,
): ScanResult {
  const found: StoredEvent[] = [];
  const budget = SCAN_SLACK * (filter.limit + 1) + 64;
  let pos = log.upperBound(filter.afterId);
  let stoppedAfter = filter.afterId;
  for (let steps = 0; steps < budget; steps++, pos++) {
    const event = log.at(pos);
    if (event === undefined) return { page: { events: found, hasMore: false }, found, stoppedAfter };
    stoppedAfter = event.eventId;
    if (!channels.has(event.channel) || !matches(event, filter)) continue;
    if (found.length === filter.limit) return { page: { events: found, hasMore: true }, found, stoppedAfter };
    found.push(event);
  }
  return { found, stoppedAfter };
}
