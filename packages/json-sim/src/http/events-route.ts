import type { Request, RequestHandler, Response } from 'express';
import type { ChannelBus, Clock, EventPage, SimulatorSettings } from '@racedata/core';
import { nonNegativeInteger, pageLimit } from './query-params';
import { sendPage } from './event-page';
import { userOf } from './require-user';

export interface EventsRouteDeps {
  bus: ChannelBus<unknown>;
  clock: Clock;
  settings: Pick<SimulatorSettings, 'longPollTimeoutMs' | 'eventsDefaultLimit' | 'eventsMaxLimit'>;
}

/** An AbortSignal that fires when the client goes away before the response is written. */
export function clientGone(req: Request, res: Response): AbortSignal {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  req.on('aborted', () => controller.abort());
  return controller.signal;
}

/**
 * GET /customerapi/events (interface 4.3): the page is answered at once when the subscription
 * has matching data, else held until new durable data in the subscription or the timeout.
 */
export function eventsRoute({ bus, clock, settings }: EventsRouteDeps): RequestHandler {
  return async (req, res) => {
    const user = userOf(res);
    const afterId = nonNegativeInteger(req.query, 'lastEventId');
    const limit = pageLimit(req.query, settings);
    const channels = bus.catalog.names('durable').filter((name) => user.channels.has(name));
    const read = (): EventPage => {
      if (afterId === undefined) {
        const latest = bus.store.latest(channels);
        return { events: latest ? [latest] : [], hasMore: false };
      }
      return bus.store.query({ channels, afterId, limit });
    };

    let page = read();
    const deadline = clock.now() + settings.longPollTimeoutMs;
    const signal = clientGone(req, res);
    // A wake-up can bring nothing new for this caller (lastEventId ahead of the log), so wait again.
    while (page.events.length === 0) {
      const left = deadline - clock.now();
      if (left <= 0) break;
      const outcome = await bus.polls.wait((channel) => user.channels.has(channel), left, signal);
      if (outcome === 'aborted') return;
      if (outcome !== 'notified') break;
      page = read();
    }
    sendPage(res, page);
  };
}
