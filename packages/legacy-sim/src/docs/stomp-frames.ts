import {
  objectSchema,
  type AsyncMessage,
  type DocsContext,
  type JsonSchema,
  SUPPORTED_VERSIONS,
} from '@racedata/core';

// Draft-07 compatible schemas: AsyncAPI reads payloads and headers as draft-07 (AsyncAPI Schema).
const TEXT: JsonSchema = { type: 'string' };
const LENGTH: JsonSchema = { type: 'string', pattern: '^\\d+$', description: 'Body size in UTF-8 bytes' };
const HEART_BEAT: JsonSchema = {
  type: 'string',
  pattern: '^\\d+,\\d+$',
  description: 'cx,cy in milliseconds',
};

/** Client frames may carry any header; the ones read are named. */
function clientHeaders(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: { type: 'string' } };
}

function frame(
  command: string,
  description: string,
  parts: Omit<AsyncMessage, 'name' | 'title'>,
): AsyncMessage {
  return { name: command, title: command, description, ...parts };
}

/** The `message` header of every ERROR frame the server sends (stomp-session.ts, stomp-subscriptions.ts). */
export const ERROR_MESSAGES = [
  'connect timeout',
  'not connected',
  'unsupported version',
  'invalid heart-beat',
  'already connected',
  'malformed frame',
  'frame too large',
  'internal error',
  'unknown command',
  'SEND is not supported',
  'missing destination',
  'missing id',
  'duplicate subscription',
  'too many subscriptions',
  'too many sessions',
] as const;

/** The STOMP frames of a session, as AsyncAPI messages: headers, and the body as payload. */
export function stompFrames(ctx: DocsContext): Record<string, AsyncMessage> {
  const receipt = { receipt: { ...TEXT, description: 'Answered with a RECEIPT frame' } };
  return {
    CONNECT: frame('CONNECT', 'The first frame (STOMP is accepted too); no credentials needed', {
      headers: clientHeaders({
        'accept-version': { ...TEXT, description: 'Comma-separated; absent means 1.0' },
        'heart-beat': HEART_BEAT,
        host: { ...TEXT, description: 'Ignored' },
      }),
    }),
    CONNECTED: frame('CONNECTED', 'The session is open', {
      headers: objectSchema({
        version: { enum: SUPPORTED_VERSIONS },
        'heart-beat': { ...HEART_BEAT, description: 'What the server offers; 0,0 for STOMP 1.0' },
        server: TEXT,
        session: { type: 'string', pattern: '^s\\d+$' },
        'user-name': { enum: ctx.users.users.map((u) => u.key) },
      }),
    }),
    SUBSCRIBE: frame(
      'SUBSCRIBE',
      'Deliver MESSAGE frames of a destination; other destinations are accepted but stay silent',
      {
        headers: clientHeaders(
          {
            id: { ...TEXT, description: 'Required from STOMP 1.1 on' },
            destination: TEXT,
            ack: { ...TEXT, description: 'Ignored: every subscription is auto-ack' },
            ...receipt,
          },
          ['destination'],
        ),
      },
    ),
    UNSUBSCRIBE: frame('UNSUBSCRIBE', 'Stop a subscription (STOMP 1.0 may name it by destination)', {
      headers: clientHeaders({ id: TEXT, destination: TEXT, ...receipt }),
    }),
    DISCONNECT: frame('DISCONNECT', 'End the session; the server closes the socket with 1000', {
      headers: clientHeaders(receipt),
    }),
    IGNORED: frame('ACK', 'ACK, NACK, BEGIN, COMMIT and ABORT are accepted and ignored', {
      headers: clientHeaders(receipt),
    }),
    SEND: frame(
      'SEND',
      'Refused with ERROR "SEND is not supported": post to /customerapi/channel/{channelId}/NonDurable',
      {
        headers: clientHeaders({ destination: TEXT }),
      },
    ),
    RECEIPT: frame('RECEIPT', 'Confirms a client frame that had a receipt header', {
      headers: objectSchema({ 'receipt-id': TEXT }),
    }),
    ERROR: frame('ERROR', 'A protocol error or a refusal; the server closes the socket right after it', {
      contentType: 'text/plain',
      headers: objectSchema(
        {
          message: { enum: ERROR_MESSAGES },
          version: { const: SUPPORTED_VERSIONS.join(','), description: 'Only with "unsupported version"' },
          'receipt-id': { ...TEXT, description: 'When the offending frame had a receipt header' },
          'content-type': { const: 'text/plain' },
          'content-length': LENGTH,
        },
        ['message', 'content-type', 'content-length'],
      ),
      payload: { type: 'string', description: 'What went wrong, in words' },
    }),
    MESSAGE: frame('MESSAGE', 'A NonDurable injection (or replayed transient message) of your subscription', {
      contentType: 'application/json',
      headers: objectSchema(
        {
          subscription: {
            ...TEXT,
            description: 'The SUBSCRIBE id; absent for a STOMP 1.0 subscription without one',
          },
          'message-id': { type: 'string', pattern: '^s\\d+-\\d+$' },
          destination: TEXT,
          'content-type': { const: 'application/json' },
          'content-length': LENGTH,
        },
        ['message-id', 'destination', 'content-type', 'content-length'],
      ),
      payload: objectSchema({
        channel: { ...TEXT, description: '`id` or the channel named in the injection' },
        payloadKey: { type: ['string', 'null'], description: 'null when the injection named none' },
        payload: { ...TEXT, description: 'The XML document' },
        timestamp: { type: 'string', format: 'date-time' },
      }),
    }),
  };
}
