/** Helpers shared by the EventStore tests. */
import type { EventInput } from '@racedata/core';
import { dayText } from '../../src/store/day-number';
import type { EventStore } from '../../src/store/event-store';
import type { EventFilter, StoredEvent } from '../../src/store/types';

export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function input(channel: string, date = '2026-01-01', extra: Partial<EventInput> = {}): EventInput {
  return { channel, date, payload: { n: Math.random() }, ...extra };
}

export function filter(channels: string[], extra: Partial<EventFilter> = {}): EventFilter {
  return { channels, afterId: 0, limit: 1_000_000, ...extra };
}

export const ids = (events: readonly StoredEvent[]) => events.map((e) => e.eventId);

/** The reference answer: a plain scan of everything that should still be stored. */
export function naive(all: readonly StoredEvent[], f: EventFilter): { ids: number[]; hasMore: boolean } {
  const hits = all.filter(
    (e) =>
      f.channels.includes(e.channel) &&
      e.eventId > f.afterId &&
      (f.startDate === undefined || e.date >= f.startDate) &&
      (f.endDate === undefined || e.date <= f.endDate) &&
      (f.trackId === undefined || e.trackId === f.trackId) &&
      (f.raceNr === undefined || e.raceNr === f.raceNr) &&
      (f.startNr === undefined || e.startNr === f.startNr),
  );
  return { ids: hits.slice(0, f.limit).map((e) => e.eventId), hasMore: hits.length > f.limit };
}

/** A page of a query with its events as objects, as the tests compare them. */
export function read(store: EventStore, f: EventFilter): { events: StoredEvent[]; hasMore: boolean } {
  const page = store.query(f);
  const events = store.events(page.ids);
  expect(events.map((e) => e.eventId)).toEqual(page.ids);
  return { events, hasMore: page.hasMore };
}

/** Reads the private (channel, date) index; there is no public view of it. */
export function datesOf(store: EventStore, channel: string): string[] | undefined {
  const internals = store as unknown as {
    channels: Map<string, { days: number[]; byDay: Map<number, unknown> }>;
  };
  const index = internals.channels.get(channel);
  if (!index) return undefined;
  expect([...index.byDay.keys()].sort((a, b) => a - b)).toEqual(index.days);
  return index.days.map(dayText);
}
