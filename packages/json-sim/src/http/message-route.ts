import type { RequestHandler } from 'express';
import type { Logger } from '@racedata/core';
import type { ChannelBus } from '../channel-bus';
import { checkPayloadSchema, parseMessageInput } from '../message-input';
import { joinEventJson } from './event-json';
import { sendJson } from './event-page';
import type { PostAudience } from './post-audience';

const DURABLE_HEAD = '{"status":"success","data":{"delivery":"durable","event":';

/**
 * POST /api/message: the simulator's injection endpoint (no authentication). Any payload is taken,
 * as the vendor's simulator takes it; with `strict` (STRICT_PAYLOADS) one that breaks its
 * channel's schema is a 400 naming where. The body is the vendor's; who the post reaches is
 * said in headers of the simulator's own (post-audience.ts).
 */
export function messageRoute(
  bus: ChannelBus,
  logger: Logger,
  audience: PostAudience,
  strict = false,
): RequestHandler {
  return (req, res) => {
    const input = parseMessageInput(req.body, bus.catalog);
    if (strict) checkPayloadSchema(input);
    const kind = bus.catalog.kindOf(input.channel);
    if (kind) audience.tell(res, input.channel, kind);
    const result = bus.publish(input);
    if (result.delivery === 'durable') {
      logger.debug({ channel: input.channel, eventId: result.event.eventId }, 'durable message stored');
      // Copied from the bytes the store cached: a large payload is not turned into strings again.
      const { eventId } = result.event;
      const body = bus.store.holds(eventId)
        ? joinEventJson(bus.store, [eventId], DURABLE_HEAD, '}}')
        : `${DURABLE_HEAD}${JSON.stringify(result.event)}}}`;
      sendJson(res, 201, body);
    } else {
      logger.debug({ channel: input.channel, recipients: result.recipients }, 'transient message sent');
      res
        .status(202)
        .json({ status: 'success', data: { delivery: 'transient', recipients: result.recipients } });
    }
  };
}
