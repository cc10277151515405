import {
  type DocsContext,
  integer,
  journalSources,
  journalTransports,
  type JsonSchema,
  objectSchema,
  schemaRef,
  sessionTransports,
} from '@racedata/core';

const SEQ = integer(1, undefined, 'Never reused, not even across a reset');
const TIME: JsonSchema = {
  type: 'string',
  format: 'date-time',
  description: "On the simulator's clock (moved by POST /_sim/clock/advance)",
};
const MESSAGE_REF = {
  eventId: integer(1, undefined, 'JSON simulator: the durable event'),
  payloadKey: { type: 'string', description: 'Legacy simulator: the payloadKey of the injection' },
} as const satisfies Record<string, JsonSchema>;

/** The journal's entry kinds (journal.ts), with this simulator's transports. */
export function journalSchemas(ctx: DocsContext): Record<string, JsonSchema> {
  return {
    ReceivedEntry: objectSchema(
      {
        seq: SEQ,
        time: TIME,
        kind: { const: 'received' },
        source: { enum: journalSources(ctx.description) },
        channel: { type: 'string' },
        durable: { type: 'boolean' },
        ...MESSAGE_REF,
        action: {
          type: 'string',
          description: 'Source race-day: the action (POST /_sim/race-day/actions) that made the message',
        },
      },
      ['seq', 'time', 'kind', 'source', 'channel', 'durable'],
      { description: 'A message the simulator took in: over one of its transports, or from the replay' },
    ),
    DeliveredEntry: objectSchema(
      {
        seq: SEQ,
        time: TIME,
        kind: { const: 'delivered' },
        user: { type: 'string' },
        transport: { enum: journalTransports(ctx.description) },
        channel: { type: 'string' },
        status: integer(100, 599, 'The HTTP status of the poll or page; 101 for a WebSocket message'),
        ...MESSAGE_REF,
      },
      ['seq', 'time', 'kind', 'user', 'transport', 'channel', 'status'],
      { description: "A message handed to one user's client" },
    ),
    ClosedEntry: objectSchema(
      {
        seq: SEQ,
        time: TIME,
        kind: { const: 'closed' },
        user: { type: 'string' },
        transport: { enum: sessionTransports(ctx.description) },
        code: integer(
          1000,
          4999,
          'The close code seen on the wire (1005: none given, 1006: cut without one)',
        ),
      },
      undefined,
      { description: "A user's WebSocket or STOMP session ended" },
    ),
    JournalEntry: {
      oneOf: [schemaRef('ReceivedEntry'), schemaRef('DeliveredEntry'), schemaRef('ClosedEntry')],
    },
    JournalPage: objectSchema({
      entries: { type: 'array', items: schemaRef('JournalEntry'), description: 'Oldest first' },
      nextSince: integer(0, undefined, 'The `since` that continues after this page'),
    }),
  };
}
