import type { EventInput } from '@racedata/core';

/** A durable event as stored and served: the input plus the fields the server assigns. */
export interface StoredEvent extends EventInput {
  readonly eventId: number;
  readonly created_at: string;
}

export interface EventPage {
  readonly events: StoredEvent[];
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
