import type { ChannelCatalog, Logger } from '@racedata/core';
import {
  deliveryOf,
  legacyXml,
  payloadKeyOf,
  type DayMessage,
  type DaySink,
} from '@racedata/race-day/player';
import type { LegacyBus } from './legacy-bus';

/**
 * The race day into the legacy simulator, through the bus as replay goes. History (the day's
 * durable messages already due) is queued for every subscribed user in time order, as if each
 * had been away since the morning: production queues keep a missed message 24 hours. Live
 * messages go out as they come, journalled with source `race-day`.
 */
export function legacyRaceDaySink(bus: LegacyBus, catalog: ChannelCatalog, logger: Logger): DaySink {
  const missing = new Set<string>();
  const publish = (m: DayMessage, action?: string): void => {
    if (!catalog.has(m.channel)) {
      if (!missing.has(m.channel)) {
        missing.add(m.channel);
        logger.warn(
          { channel: m.channel },
          'race day: the channel catalog has no such channel; its messages are left out',
        );
      }
      return;
    }
    const input = {
      channel: m.channel,
      delivery: deliveryOf(m),
      payloadKey: payloadKeyOf(m),
      xml: legacyXml(m),
    };
    // Written by the renderer, well-formed by construction (its property test parses every document).
    bus.publish(input, 'race-day', true, action);
  };
  return {
    history(messages) {
      for (const m of messages) publish(m);
    },
    live: (m, action) => publish(m, action),
  };
}
