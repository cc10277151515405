import type { RequestHandler } from 'express';
import type { ChannelBus, SimulatorSettings } from '@racedata/core';
import { jsonSimError } from '../errors';
import { calendarDate, nonNegativeInteger, optionalString, pageLimit } from './query-params';
import { sendPage } from './event-page';
import { userOf } from './require-user';

export interface FilteredEventsDeps {
  bus: ChannelBus<unknown>;
  settings: Pick<SimulatorSettings, 'eventsDefaultLimit' | 'eventsMaxLimit'>;
}

/** GET /customerapi/filtered-events (interface 4.4): never held; 204 when nothing matches. */
export function filteredEventsRoute({ bus, settings }: FilteredEventsDeps): RequestHandler {
  return (req, res) => {
    const user = userOf(res);
    const channel = optionalString(req.query, 'channel');
    if (channel !== undefined && !user.channels.has(channel)) {
      const known = bus.catalog.has(channel) ? 'is not in your subscription' : 'is not a known channel';
      throw jsonSimError('CHANNEL_NOT_SUBSCRIBED', `channel "${channel}" ${known}`);
    }
    const startDate = calendarDate(req.query, 'startDate');
    const endDate = calendarDate(req.query, 'endDate');
    if (startDate !== undefined && endDate !== undefined && startDate > endDate) {
      throw jsonSimError(
        'INVALID_PARAMETER',
        `startDate (${startDate}) must not be after endDate (${endDate})`,
      );
    }
    const filter = {
      channels: channel !== undefined ? [channel] : [...user.channels],
      afterId: nonNegativeInteger(req.query, 'lastEventId') ?? 0,
      limit: pageLimit(req.query, settings),
      startDate,
      endDate,
      trackId: nonNegativeInteger(req.query, 'trackId'),
      raceNr: nonNegativeInteger(req.query, 'raceNr'),
      startNr: nonNegativeInteger(req.query, 'startNr'),
    };
    sendPage(res, bus.store.query(filter));
  };
}
