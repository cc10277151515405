import type { RequestHandler } from 'express';
import { quoteShort, type SimulatorSettings, type User } from '@racedata/core';
import type { ChannelBus } from '../channel-bus';
import type { EventPage } from '../store/types';
import { jsonSimError } from '../errors';
import { calendarDate, nonNegativeInteger, optionalString, pageLimit, type Query } from './query-params';
import { sendPage } from './event-page';
import { userOf } from './require-user';

export interface FilteredEventsDeps {
  bus: ChannelBus;
  settings: Pick<SimulatorSettings, 'eventsDefaultLimit' | 'eventsMaxLimit'>;
}

/**
 * GET /customerapi/filtered-events (interface 4.4): never held; 204 when nothing matches.
 * Validates the query (throwing the 400 SimError the route answers with) and reads the page;
 * shared by the express route and the direct read path (read-path.ts).
 */
export function filteredPage({ bus, settings }: FilteredEventsDeps, query: Query, user: User): EventPage {
  const channel = optionalString(query, 'channel');
  if (channel !== undefined && !user.channels.has(channel)) {
    const known = bus.catalog.has(channel) ? 'is not in your subscription' : 'is not a known channel';
    throw jsonSimError('CHANNEL_NOT_SUBSCRIBED', `channel ${quoteShort(channel)} ${known}`);
  }
  const startDate = calendarDate(query, 'startDate');
  const endDate = calendarDate(query, 'endDate');
  if (startDate !== undefined && endDate !== undefined && startDate > endDate) {
    throw jsonSimError(
      'INVALID_PARAMETER',
      `startDate (${startDate}) must not be after endDate (${endDate})`,
    );
  }
  return bus.store.query({
    channels: channel !== undefined ? [channel] : [...user.channels],
    afterId: nonNegativeInteger(query, 'lastEventId') ?? 0,
    limit: pageLimit(query, settings),
    startDate,
    endDate,
    trackId: nonNegativeInteger(query, 'trackId'),
    raceNr: nonNegativeInteger(query, 'raceNr'),
    startNr: nonNegativeInteger(query, 'startNr'),
  });
}

export function filteredEventsRoute(deps: FilteredEventsDeps): RequestHandler {
  return (req, res) => {
    // Express parses the query string again on every access to req.query: read it once.
    const user = userOf(res);
    const page = filteredPage(deps, req.query, user);
    sendPage(res, deps.bus.store, page);
    deps.bus.delivered(user, 'filtered-events', page.ids);
  };
}
