import { coreError, type ChannelCatalog, type Clock, type EventInput, type User } from '@racedata/core';
import { type Journal, type JournalSource, type JournalTransport } from '@racedata/control';
import { EventStore } from './store/event-store';
import { LongPollHub } from './store/long-poll';
import type { StagedEvents } from './store/staged-events';
import type { StoredEvent } from './store/types';

export type PublishResult =
  | { readonly delivery: 'durable'; readonly event: StoredEvent }
  | { readonly delivery: 'transient'; readonly recipients: number };

/** Where transient messages go: the event-stream sessions, which build the wire message once. */
export interface TransientFanOut {
  /** Delivers to every subscribed session; returns how many received it. */
  broadcast(input: EventInput): number;
}

export interface ChannelBusOptions {
  catalog: ChannelCatalog;
  clock: Clock;
  maxEvents: number;
  /** The store's memory budget (EVENT_STORE_MAX_BYTES); unlimited when not given. */
  maxBytes?: number;
  transient: TransientFanOut;
  /** The control plane's delivery journal: every message received, every page delivered. */
  journal?: Journal;
}

/**
 * The single path every message takes, whoever sent it (HTTP injection or replay): the
 * catalog decides durable (stored, wakes long polls) or transient (broadcast once).
 */
export class ChannelBus {
  readonly store: EventStore;
  readonly polls: LongPollHub;

  constructor(private readonly options: ChannelBusOptions) {
    this.store = new EventStore({
      maxEvents: options.maxEvents,
      maxBytes: options.maxBytes,
      clock: options.clock,
    });
    this.polls = new LongPollHub(options.clock);
  }

  get catalog(): ChannelCatalog {
    return this.options.catalog;
  }

  /**
   * `createdAt` dates a stored event (a race day's history); it defaults to now. `action` names
   * the race-day action that made it, for the journal.
   */
  publish(
    input: EventInput,
    source: JournalSource = 'post',
    createdAt?: number,
    action?: string,
  ): PublishResult {
    const kind = this.options.catalog.kindOf(input.channel);
    if (kind === undefined) {
      throw coreError(
        'UNKNOWN_CHANNEL',
        `unknown channel "${input.channel}"; known channels: ${this.options.catalog.names().join(', ')}`,
      );
    }
    if (kind === 'durable') {
      const { event, json } = this.store.appendJson(input, createdAt);
      // The stored JSON is the event's JSON.stringify: the journal keeps it as it is.
      this.options.journal?.received(
        {
          source,
          channel: event.channel,
          durable: true,
          eventId: event.eventId,
          ...(action !== undefined && { action }),
        },
        json,
      );
      this.polls.notify(event.channel);
      return { delivery: 'durable', event };
    }
    this.options.journal?.received(
      { source, channel: input.channel, durable: false, ...(action !== undefined && { action }) },
      input,
    );
    return { delivery: 'transient', recipients: this.options.transient.broadcast(input) };
  }

  /**
   * Bulk seeding (POST /_sim/events, --seed): stores checked events all or nothing and wakes
   * the long polls of their channels. Set-up, not traffic: nothing is journalled per event.
   */
  seed(events: StagedEvents): { firstEventId: number; lastEventId: number } | undefined {
    const ids = this.store.appendStaged(events);
    for (const channel of events.channelNames) this.polls.notify(channel);
    return ids;
  }

  /** Journals the events of a page written to the user (a 200; an empty page is no delivery). */
  delivered(user: User, transport: JournalTransport, ids: readonly number[]): void {
    const journal = this.options.journal;
    if (!journal) return;
    journal.deliveredPage(user.key, transport, 200, ids, this.channelOf);
  }

  private readonly channelOf = (eventId: number): string => this.store.channelOf(eventId);

  close(): void {
    this.polls.close();
  }
}
