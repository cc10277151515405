import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Clock, SimulatorSettings, User } from '@racedata/core';
import type { ChannelBus } from '../channel-bus';
import type { PollHold, PollWaiter, WaitOutcome } from '../store/long-poll';
import type { EventPage } from '../store/types';
import { nonNegativeInteger, pageLimit, type Query } from './query-params';
import { sendPage } from './event-page';
import { userOf } from './require-user';

export interface EventsRouteDeps {
  bus: ChannelBus;
  clock: Clock;
  settings: Pick<SimulatorSettings, 'longPollTimeoutMs' | 'eventsDefaultLimit' | 'eventsMaxLimit'>;
}

/** The validated query of GET /customerapi/events. */
export interface EventsQuery {
  /** Undefined: the latest event of the subscription. */
  readonly afterId: number | undefined;
  readonly limit: number;
}

/** Hands an error that happened after validation (while answering) to the error handling. */
export type Fail = (err: unknown, req: IncomingMessage, res: ServerResponse) => void;

/**
 * One request that found nothing yet: held in the bus's long-poll hub until new durable data in
 * the caller's subscription, the deadline, shutdown, or the client leaving. One object and one
 * 'close' listener per held poll; no promise, AbortController or closure per wait.
 */
class HeldPoll implements PollWaiter {
  private hold: PollHold | undefined;

  constructor(
    private readonly endpoint: EventsEndpoint,
    private readonly user: User,
    private readonly query: EventsQuery,
    private readonly deadline: number,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly fail: Fail,
  ) {}

  /** Waits for what is left of the deadline; false when there is nothing left to wait. */
  start(): boolean {
    const { bus, clock } = this.endpoint.deps;
    const left = this.deadline - clock.now();
    if (left <= 0) return false;
    this.hold = bus.polls.hold(this, left);
    if (this.hold === undefined) return false;
    this.res.on('close', this.onClose);
    return true;
  }

  get userKey(): string {
    return this.user.key;
  }

  accepts(channel: string): boolean {
    return this.user.channels.has(channel);
  }

  settled(outcome: WaitOutcome): void {
    this.hold = undefined;
    this.res.off('close', this.onClose);
    if (outcome === 'aborted') return;
    try {
      let page: EventPage = { ids: [], hasMore: false };
      if (outcome === 'notified') {
        page = this.endpoint.read(this.user, this.query);
        // A wake-up can bring nothing new for this caller (lastEventId ahead of the log).
        if (page.ids.length === 0 && this.start()) return;
      }
      sendPage(this.res, this.endpoint.deps.bus.store, page);
      this.endpoint.deps.bus.delivered(this.user, 'events', page.ids);
    } catch (err) {
      this.fail(err, this.req, this.res);
    }
  }

  // The client went away before the answer: stop waiting.
  private readonly onClose = (): void => {
    if (!this.res.writableFinished) this.hold?.cancel();
  };
}

/**
 * GET /customerapi/events (interface 4.3): the page is answered at once when the subscription
 * has matching data, else held until new durable data in the subscription or the timeout.
 * Shared by the express route and the direct read path (read-path.ts).
 */
export class EventsEndpoint {
  // The catalog and the users are fixed for the simulator's life: one channel list per user.
  private readonly durableByUser = new WeakMap<User, string[]>();

  constructor(readonly deps: EventsRouteDeps) {}

  /** Validates the query; throws the 400 SimError the route answers with. */
  parse(query: Query): EventsQuery {
    return {
      afterId: nonNegativeInteger(query, 'lastEventId'),
      limit: pageLimit(query, this.deps.settings),
    };
  }

  read(user: User, query: EventsQuery): EventPage {
    const { store } = this.deps.bus;
    const channels = this.durableChannels(user);
    if (query.afterId === undefined) {
      const latest = store.latestId(channels);
      return { ids: latest === undefined ? [] : [latest], hasMore: false };
    }
    return store.query({ channels, afterId: query.afterId, limit: query.limit });
  }

  /** Answers with the page, or holds the request when there is nothing yet. */
  serve(req: IncomingMessage, res: ServerResponse, user: User, query: EventsQuery, fail: Fail): void {
    const { bus, clock, settings } = this.deps;
    const page = this.read(user, query);
    if (page.ids.length === 0) {
      const deadline = clock.now() + settings.longPollTimeoutMs;
      if (new HeldPoll(this, user, query, deadline, req, res, fail).start()) return;
    }
    sendPage(res, bus.store, page);
    bus.delivered(user, 'events', page.ids);
  }

  private durableChannels(user: User): string[] {
    let channels = this.durableByUser.get(user);
    if (!channels) {
      channels = this.deps.bus.catalog.names('durable').filter((name) => user.channels.has(name));
      this.durableByUser.set(user, channels);
    }
    return channels;
  }
}

export function eventsRoute(endpoint: EventsEndpoint): RequestHandler {
  return (req, res, next) => {
    // Express parses the query string again on every access to req.query: read it once.
    endpoint.serve(req, res, userOf(res), endpoint.parse(req.query), (err) => next(err));
  };
}
