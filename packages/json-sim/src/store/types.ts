import type { EventInput } from '@racedata/core';

/** A durable event as stored and served: the input plus the fields the server assigns. */
export interface StoredEvent extends EventInput {
  readonly eventId: number;
  readonly created_at: string;
}

/**
 * A page of a read: the eventIds, oldest first. The events stay in the store as their JSON
 * bytes; a caller copies those (joinEventJson) or, rarely, asks the store for the objects.
 */
export interface EventPage {
  readonly ids: readonly number[];
  readonly hasMore: boolean;
}

export interface EventFilter {
  /** Channels to consider (already cut to the caller's subscription). */
  readonly channels: readonly string[];
  readonly afterId: number;
  readonly limit: number;
  readonly startDate?: string | undefined;
  readonly endDate?: string | undefined;
  readonly trackId?: number | undefined;
  readonly raceNr?: number | undefined;
  readonly startNr?: number | undefined;
}

/**
 * An event checked and half serialised, ready to store: its filter fields and its payload's
 * JSON text. What bulk seeding holds per event until the whole request is known to be good.
 */
export interface PreparedEvent {
  readonly channel: string;
  readonly date: string;
  readonly trackId?: number | undefined;
  readonly raceNr?: number | undefined;
  readonly startNr?: number | undefined;
  /** JSON.stringify(payload). */
  readonly payloadJson: string;
}
