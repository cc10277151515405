import type { Logger } from './logger';
import { subscribes } from './subscription';
import type { User } from './users';

/** A client of the hub: whose channels it sees, and where its messages go. */
export interface HubSubscriber<M> {
  readonly user: User;
  /** Returns false when the message could not be handed over (the socket is closing). */
  deliver(message: M, channel: string | null): boolean | void;
}

/**
 * Fan-out of transient data to connected clients, each seeing only its user's channels.
 * Nothing is stored: a message published with no subscriber is gone.
 */
export class TransientHub<M> {
  private readonly subscribers = new Set<HubSubscriber<M>>();

  /**
   * `onDelivered` is told once per message of the subscribers that took it, in delivery order
   * (the control plane's journal records them in one go); `dropped` says whether a delivery is
   * swallowed instead (a drop fault rule).
   */
  constructor(
    private readonly logger?: Logger,
    private readonly onDelivered?: (users: readonly User[], channel: string | null, message: M) => void,
    private readonly dropped?: (user: User, channel: string | null, message: M) => boolean,
  ) {}

  get size(): number {
    return this.subscribers.size;
  }

  subscribe(user: User, deliver: (message: M, channel: string | null) => boolean | void): () => void {
    return this.join({ user, deliver });
  }

  /**
   * Adds a connection that is its own subscriber. At a fan-out to a thousand connections, each
   * object a delivery touches is a cache miss; a connection handed the message directly spares
   * the record and the closure that subscribe() puts between them.
   */
  join(subscriber: HubSubscriber<M>): () => void {
    this.subscribers.add(subscriber);
    return () => {
      this.subscribers.delete(subscriber);
    };
  }

  /** Delivers to every matching subscriber; returns how many received it. */
  publish(channel: string | null, message: M): number {
    const recipients: User[] = [];
    for (const subscriber of this.subscribers) {
      if (!subscribes(subscriber.user, channel)) continue;
      if (this.dropped?.(subscriber.user, channel, message)) continue;
      try {
        if (subscriber.deliver(message, channel) !== false) recipients.push(subscriber.user);
      } catch (err) {
        // One broken connection must not stop delivery to the others.
        this.logger?.warn({ err, user: subscriber.user.key }, 'transient delivery failed');
      }
    }
    if (recipients.length > 0) this.onDelivered?.(recipients, channel, message);
    return recipients.length;
  }
}
