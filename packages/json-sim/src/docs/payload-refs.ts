import type { JsonSchema } from '@racedata/core';
import { PAYLOAD_SCHEMAS } from '@racedata/race-day';

/**
 * An event payload as the documents describe it: one of the channels' payload schemas (their
 * components `Payload<Channel>`, also served at GET /_sim/schemas/{channel}), or any object, since
 * POST /api/message takes any payload unless STRICT_PAYLOADS is on.
 */
export function payloadOf(channels: readonly string[], prefix: string): JsonSchema {
  const known = channels.filter((c) => Object.hasOwn(PAYLOAD_SCHEMAS, c));
  return {
    description:
      'Channel-specific event data. The race-day model gives each channel a payload schema (GET /_sim/schemas/{channel}); ' +
      'with STRICT_PAYLOADS=true POST /api/message refuses a payload that breaks its channel’s schema.',
    anyOf: [
      ...known.map((c) => ({ $ref: `${prefix}Payload${c}` })),
      { type: 'object', description: 'Any other object' },
    ],
  };
}
