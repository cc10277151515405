import { integer, objectSchema, schemaRef, type DocsContext, type JsonSchema } from '@racedata/core';
import { payloadOf } from './payload-refs';

/** YYYY-MM-DD; the simulator also refuses dates that do not exist (2026-02-30). */
export const CALENDAR_DATE: JsonSchema = {
  type: 'string',
  format: 'date',
  pattern: '^\\d{4}-\\d{2}-\\d{2}$',
};

const WHOLE = integer(0);

/** The request and response bodies of the JSON simulator's HTTP paths (interface 2.5, 2.6). */
export function jsonSchemas(ctx: DocsContext): Record<string, JsonSchema> {
  return {
    Fail: objectSchema(
      { status: { const: 'fail' }, message: { type: 'string', description: 'What is wrong' } },
      undefined,
      { title: 'JSON simulator error (interface 2.6 with status fail)' },
    ),
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
    Event: objectSchema(
      {
        channel: { type: 'string' },
        date: CALENDAR_DATE,
        trackId: WHOLE,
        raceNr: WHOLE,
        startNr: WHOLE,
        payload: payloadOf(ctx.catalog.names('durable'), '#/components/schemas/'),
        created_at: {
          type: 'string',
          format: 'date-time',
          pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$',
          description: 'UTC with milliseconds',
        },
        eventId: integer(1, undefined, 'Ascending; send the last one received as lastEventId'),
      },
      ['channel', 'date', 'payload', 'created_at', 'eventId'],
    ),
    EventPage: objectSchema({
      status: { const: 'success' },
      data: objectSchema({
        numberOfEvents: WHOLE,
        hasMore: { type: 'boolean', description: 'More events wait: call again with the last eventId' },
        events: { type: 'array', items: schemaRef('Event'), minItems: 1 },
      }),
    }),
    MessageInput: {
      type: 'object',
      description:
        'Other fields are ignored. The catalog decides the delivery: a durable channel is stored ' +
        '(201), a transient one is sent once to the event-stream subscribers (202).',
      properties: {
        channel: { enum: ctx.catalog.names() },
        date: CALENDAR_DATE,
        trackId: { type: ['integer', 'null'], minimum: 0, description: 'null is the same as absent' },
        raceNr: { type: ['integer', 'null'], minimum: 0 },
        startNr: { type: ['integer', 'null'], minimum: 0 },
        payload: payloadOf(ctx.catalog.names(), '#/components/schemas/'),
      },
      required: ['channel', 'date', 'payload'],
    },
    DurableAccepted: objectSchema({
      status: { const: 'success' },
      data: objectSchema({ delivery: { const: 'durable' }, event: schemaRef('Event') }),
    }),
    TransientAccepted: objectSchema({
      status: { const: 'success' },
      data: objectSchema({
        delivery: { const: 'transient' },
        recipients: integer(0, undefined, 'Authenticated event-stream sessions that were sent it'),
      }),
    }),
  };
}
