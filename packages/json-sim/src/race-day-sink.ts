import type { ChannelCatalog, Logger } from '@racedata/core';
import { jsonEvent, jsonChannelOf, type DayMessage, type DaySink } from '@racedata/race-day/player';
import type { ChannelBus } from './channel-bus';

/**
 * The race day into the JSON simulator, through the bus as replay goes: history stored with the
 * times it would have been created (eventIds ascending with them), live messages published as
 * they come, journalled with source `race-day`. A channel the catalog lacks (a CHANNELS_FILE)
 * is left out, said once.
 */
export function jsonRaceDaySink(bus: ChannelBus, catalog: ChannelCatalog, logger: Logger): DaySink {
  const missing = new Set<string>();
  const known = (m: DayMessage): boolean => {
    const channel = jsonChannelOf(m);
    if (catalog.has(channel)) return true;
    if (!missing.has(channel)) {
      missing.add(channel);
      logger.warn(
        { channel },
        'race day: the channel catalog has no such channel; its messages are left out',
      );
    }
    return false;
  };
  return {
    history(messages, clockTimes) {
      messages.forEach((m, i) => {
        if (known(m)) bus.publish(jsonEvent(m), 'race-day', clockTimes[i]);
      });
    },
    live(m, action) {
      if (known(m)) bus.publish(jsonEvent(m), 'race-day', undefined, action);
    },
  };
}
