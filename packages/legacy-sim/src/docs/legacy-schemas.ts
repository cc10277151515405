import { integer, objectSchema, type DocsContext, type JsonSchema } from '@racedata/core';
import { EVERY_USER_CHANNEL } from '../legacy-bus';

/** The legacy simulator's request and response bodies. */
export function legacySchemas(ctx: DocsContext): Record<string, JsonSchema> {
  return {
    LegacyError: objectSchema(
      {
        status: { const: 'fail' },
        code: { type: 'string', description: 'Stable error code' },
        message: { type: 'string' },
      },
      undefined,
      { title: 'Legacy simulator error (http/error-middleware.ts)' },
    ),
    UpgradeRefused: objectSchema({ status: { const: 'fail' }, message: { type: 'string' } }, undefined, {
      title: 'A refused WebSocket upgrade, answered before any WebSocket exists',
    }),
    Credentials: {
      type: 'object',
      description: 'Other fields are ignored',
      properties: {
        key: { type: 'string', pattern: '\\S', description: 'Not blank' },
        secret: { type: 'string', pattern: '\\S', description: 'Not blank' },
      },
      required: ['key', 'secret'],
    },
    Authenticated: objectSchema({ status: { const: 'success' } }),
    ListenMessage: {
      type: 'string',
      description: 'One XML document as a JSON string: JSON.parse(body) gives the XML',
    },
    Injected: {
      oneOf: [
        objectSchema({
          status: { const: 'success' },
          data: objectSchema({
            delivery: { const: 'durable' },
            queued: integer(0, undefined, 'Users whose listen queue received it'),
          }),
        }),
        objectSchema({
          status: { const: 'success' },
          data: objectSchema({
            delivery: { const: 'transient' },
            recipients: integer(0, undefined, 'STOMP sessions sent it'),
          }),
        }),
      ],
    },
    ChannelId: {
      enum: [EVERY_USER_CHANNEL, ...ctx.catalog.names()],
      description: `\`${EVERY_USER_CHANNEL}\` (as in the vendor example) reaches every user; a channel name, its subscribers`,
    },
  };
}
