import {
  DOCS_VERSION,
  objectSchema,
  WS_CLOSE,
  type AsyncApiDocument,
  type AsyncMessage,
  type DocsContext,
  type JsonSchema,
  MAX_JSON_DEPTH,
} from '@racedata/core';
import { payloadSchemaComponents } from '@racedata/control';
import { EVENT_STREAM_PATH, MAX_CLIENT_FRAME } from '../ws/event-stream';
import { payloadOf } from './payload-refs';

// Draft-07 compatible schemas: AsyncAPI payloads are read as draft-07 (AsyncAPI Schema).
const ENVELOPE = {
  timestamp: { type: 'string', format: 'date-time' },
  id: { type: 'string', format: 'uuid' },
} as const satisfies Record<string, JsonSchema>;

function serverMessage(type: string, extra: Record<string, JsonSchema>, description: string): AsyncMessage {
  return {
    name: type,
    title: type,
    description,
    contentType: 'application/json',
    payload: objectSchema({ type: { const: type }, ...ENVELOPE, ...extra }),
  };
}

const WHOLE: JsonSchema = { type: 'integer', minimum: 0 };

function messages(ctx: DocsContext): Record<string, AsyncMessage> {
  const deadline = ctx.settings.wsAuthTimeoutMs;
  return {
    Connection: serverMessage(
      'Connection',
      { message: { type: 'string' } },
      `Sent on connect: the token is awaited within ${deadline} ms (WS_AUTH_TIMEOUT_MS)`,
    ),
    Token: {
      name: 'Token',
      title: 'Token (raw)',
      description:
        'The first client message: the raw token or `Bearer <token>`, or that string JSON-quoted. ' +
        'Later client messages are read and ignored.',
      contentType: 'text/plain',
      payload: { type: 'string', pattern: '^\\s*(Bearer\\s+)?\\S+\\s*$' },
    },
    TokenObject: {
      name: 'TokenObject',
      title: 'Token (JSON)',
      description: `The first client message as JSON {"token"} or {"authorization": "Bearer ..."}, nested at most ${MAX_JSON_DEPTH} deep`,
      contentType: 'application/json',
      payload: {
        type: 'object',
        anyOf: [
          { required: ['token'], properties: { token: { type: 'string' } } },
          { required: ['authorization'], properties: { authorization: { type: 'string' } } },
          { required: ['Authorization'], properties: { Authorization: { type: 'string' } } },
        ],
      },
    },
    Authenticated: serverMessage(
      'Authenticated',
      { message: { type: 'string', pattern: '^Authenticated as ' } },
      'The token was accepted; Data and Ping follow',
    ),
    AuthenticationError: serverMessage(
      'AuthenticationError',
      {
        message: {
          type: 'string',
          description: 'Invalid token; No token received within ...; Too many sessions for this user (...)',
        },
      },
      `The token is invalid, did not arrive within ${deadline} ms, or the user has WS_MAX_SESSIONS_PER_USER ` +
        `(${ctx.settings.wsMaxSessionsPerUser}) sessions open; the server then closes with ${WS_CLOSE.POLICY_VIOLATION}`,
    ),
    Data: serverMessage(
      'Data',
      {
        data: objectSchema(
          {
            channel: { enum: ctx.catalog.names('transient') },
            date: { type: 'string', format: 'date' },
            trackId: WHOLE,
            raceNr: WHOLE,
            startNr: WHOLE,
            payload: payloadOf(ctx.catalog.names('transient'), '#/components/schemas/'),
          },
          ['channel', 'date', 'payload'],
        ),
      },
      'A transient-channel event of your subscription (POST /api/message or the replay); sent once, never stored',
    ),
    Ping: serverMessage(
      'Ping',
      {},
      `Every ${ctx.settings.wsPingIntervalMs} ms after authentication (WS_PING_INTERVAL_MS); ignore it`,
    ),
  };
}

const ref = (path: string) => ({ $ref: path });
const msg = (name: string) => ref(`#/channels/eventStream/messages/${name}`);
const channel = ref('#/channels/eventStream');

/** The event-stream WebSocket (interface 3, 4.5; ws/event-stream.ts) as an AsyncAPI 3.0 document. */
export function streamAsyncApi(ctx: DocsContext): AsyncApiDocument {
  const all = messages(ctx);
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Race-data JSON simulator: event stream',
      version: DOCS_VERSION,
      description:
        'Transient channels over WebSocket: connect, send the token first, then receive Data for your ' +
        'subscription and Pings. Nothing is replayed after a reconnect.',
    },
    defaultContentType: 'application/json',
    servers: {
      simulator: {
        host: '{host}',
        protocol: 'ws',
        description: 'The simulator serving this document',
        variables: { host: { default: 'localhost:3000', description: 'host:port of the simulator' } },
      },
    },
    channels: {
      eventStream: {
        address: EVENT_STREAM_PATH,
        title: 'Event stream',
        description:
          'One connection per client. Messages are text frames of JSON, except the raw-token form of ' +
          `the first client message. A client frame over ${MAX_CLIENT_FRAME} bytes closes the connection with 1009.`,
        messages: Object.fromEntries(
          Object.keys(all).map((name) => [name, ref(`#/components/messages/${name}`)]),
        ),
        bindings: { ws: { method: 'GET', bindingVersion: '0.1.0' } },
        'x-close-codes': [
          {
            code: WS_CLOSE.NORMAL,
            when: 'POST /_sim/reset with closeSockets, or POST /_sim/connections/close',
          },
          { code: WS_CLOSE.GOING_AWAY, when: 'The simulator shuts down' },
          { code: WS_CLOSE.POLICY_VIOLATION, when: 'Right after an AuthenticationError' },
          { code: 1009, when: `A client frame larger than ${MAX_CLIENT_FRAME} bytes` },
          { code: 1011, when: 'A disconnect fault rule without a code (POST /_sim/faults)' },
          {
            code: 1006,
            when: 'A client that does not read is cut without a close frame (WS_MAX_BUFFERED_BYTES)',
          },
        ],
      },
    },
    operations: {
      sendConnection: {
        action: 'send',
        channel,
        title: 'Greet a new connection',
        messages: [msg('Connection')],
      },
      receiveToken: {
        action: 'receive',
        channel,
        title: 'Authenticate with the first message',
        messages: [msg('Token'), msg('TokenObject')],
        reply: { channel, messages: [msg('Authenticated'), msg('AuthenticationError')] },
      },
      sendAuthenticationError: {
        action: 'send',
        channel,
        title: 'Refuse the connection',
        description: 'Also sent when no token arrives in time',
        messages: [msg('AuthenticationError')],
      },
      sendData: { action: 'send', channel, title: 'Deliver a transient event', messages: [msg('Data')] },
      sendPing: { action: 'send', channel, title: 'Keep the connection alive', messages: [msg('Ping')] },
    },
    components: {
      messages: all,
      // The transient channels' payload schemas (draft-07 compatible; also at GET /_sim/schemas/{channel}).
      schemas: Object.fromEntries(
        Object.entries(payloadSchemaComponents()).filter(([name]) =>
          ctx.catalog.names('transient').includes(name.slice('Payload'.length)),
        ),
      ),
    },
  };
}
