import { dayString, layoutDays, type StoreLayout } from '../harness/payloads';
import { count } from '../harness/rows';

/** The reads of read-throughput (and control-plane-cost) over a store filled with payloads.storedEvent. */
export interface ReadScenario {
  readonly label: string;
  /** A path per request, walking the pages; `sample` is one representative page. */
  paths(lastEventId: number): { next: () => string; sample: string };
}

/** Pages after lastEventId 1..span, the start points spread over them; `sample` is one in the middle. */
function walk(path: (lastEventId: number) => string, span: number) {
  let i = 0;
  return { next: () => path(((i++ * 7919) % span) + 1), sample: path(Math.floor(span / 2)) };
}

const firstIdOfDay = (day: number, layout: StoreLayout) => Math.ceil((day * layout.count) / layout.days) + 1;

export const PAGING = (events: number): ReadScenario => ({
  label: `GET /customerapi/events?lastEventId=..&limit=100 over ${count(events)} stored events`,
  // Start points spread over the whole log; each page is full (far enough from the end).
  paths: (last) => walk((id) => `/customerapi/events?lastEventId=${id}&limit=100`, Math.max(1, last - 1000)),
});

export const FILTERED = (events: number): ReadScenario => ({
  label: `GET /customerapi/filtered-events?channel&startDate&endDate over ${count(events)} stored events`,
  paths: () => {
    const layout = { count: events, days: layoutDays(events) };
    const width = layout.days >= 40 ? 10 : Math.max(1, Math.floor(layout.days / 3));
    const from = Math.floor(layout.days * 0.4);
    const to = from + width - 1;
    const query = `channel=RaceDayTrot&startDate=${dayString(from)}&endDate=${dayString(to)}&limit=100`;
    const low = firstIdOfDay(from, layout);
    // Leave room for a full page of RaceDayTrot (1 event in 8) before the range ends.
    const span = Math.max(1, firstIdOfDay(to + 1, layout) - low - 1000);
    let i = 0;
    return {
      next: () => `/customerapi/filtered-events?${query}&lastEventId=${low + ((i++ * 7919) % span)}`,
      sample: `/customerapi/filtered-events?${query}&lastEventId=${low + Math.floor(span / 2)}`,
    };
  },
});

/**
 * trackId + raceNr + startNr over the whole date range, a combination no stored event has:
 * trackId 900 is every 20th event (eventId divisible by 20, so raceNr 1), RaceDayTrot every 8th,
 * and startNr 2 would need an odd eventId. The simulator answers 204 after looking at the range.
 */
export const NO_MATCH = (events: number): ReadScenario => {
  const days = layoutDays(events);
  const path =
    `/customerapi/filtered-events?channel=RaceDayTrot&startDate=${dayString(0)}&endDate=${dayString(days - 1)}` +
    '&trackId=900&raceNr=1&startNr=2&limit=100';
  return {
    label: `GET /customerapi/filtered-events?channel&startDate&endDate&trackId&raceNr&startNr matching nothing (whole date range) over ${count(events)} stored events`,
    paths: () => ({ next: () => path, sample: path }),
  };
};

/**
 * trackId + raceNr over the whole date range, no channel: one event in 20 matches (trackId 901
 * is eventId 1 mod 20, which makes raceNr 2), so each page is full and the read scans about 20
 * events a hit. Walks the store like PAGING.
 */
export const SELECTIVE = (events: number): ReadScenario => {
  const query = `startDate=${dayString(0)}&endDate=${dayString(layoutDays(events) - 1)}&trackId=901&raceNr=2&limit=100`;
  return {
    label: `GET /customerapi/filtered-events?startDate&endDate&trackId&raceNr (1 event in 20 matches, whole date range) over ${count(events)} stored events`,
    paths: (last) =>
      walk((id) => `/customerapi/filtered-events?${query}&lastEventId=${id}`, Math.max(1, last - 2000 * 20)),
  };
};
