import type { ChannelCatalog } from './channel-catalog';
import type { Clock } from './clock';
import { coreError } from './errors';
import { EventStore, type EventInput, type StoredEvent } from './event-store';
import type { Logger } from './logger';
import { LongPollHub } from './long-poll';
import { TransientHub } from './transient-hub';

export type PublishResult =
  | { readonly delivery: 'durable'; readonly event: StoredEvent }
  | { readonly delivery: 'transient'; readonly recipients: number };

export interface ChannelBusOptions<M> {
  catalog: ChannelCatalog;
  clock: Clock;
  maxEvents: number;
  /** The store's memory budget (EVENT_STORE_MAX_BYTES); unlimited when not given. */
  maxBytes?: number;
  logger?: Logger;
  /** Builds the wire message for a transient event once, shared by every recipient. */
  transientMessage: (input: EventInput) => M;
}

/**
 * The single path every message takes, whoever sent it (HTTP injection or replay): the
 * catalog decides durable (stored, wakes long polls) or transient (broadcast once).
 */
export class ChannelBus<M> {
  readonly store: EventStore;
  readonly polls: LongPollHub;
  readonly transient: TransientHub<M>;

  constructor(private readonly options: ChannelBusOptions<M>) {
    this.store = new EventStore({
      maxEvents: options.maxEvents,
      maxBytes: options.maxBytes,
      clock: options.clock,
    });
    this.polls = new LongPollHub(options.clock);
    this.transient = new TransientHub<M>(options.logger);
  }

  get catalog(): ChannelCatalog {
    return this.options.catalog;
  }

  publish(input: EventInput): PublishResult {
    const kind = this.options.catalog.kindOf(input.channel);
    if (kind === undefined) {
      throw coreError(
        'UNKNOWN_CHANNEL',
        `unknown channel "${input.channel}"; known channels: ${this.options.catalog.names().join(', ')}`,
      );
    }
    if (kind === 'durable') {
      const event = this.store.append(input);
      this.polls.notify(event.channel);
      return { delivery: 'durable', event };
    }
    const recipients = this.transient.publish(input.channel, this.options.transientMessage(input));
    return { delivery: 'transient', recipients };
  }

  close(): void {
    this.polls.close();
  }
}
