import {
  DOCS_VERSION,
  WS_CLOSE,
  type AsyncApiDocument,
  type AsyncChannel,
  type AsyncOperation,
  type DocsContext,
} from '@racedata/core';
import { PUBLISH_DESTINATIONS, STOMP_PATHS } from '../stomp/stomp-options';
import { stompFrames } from './stomp-frames';

const ref = ($ref: string) => ({ $ref });
const SERVERS = [ref('#/servers/customerapi'), ref('#/servers/vendorPath')];
const session = ref('#/channels/session');
const frame = (name: string) => ref(`#/channels/session/messages/${name}`);

const SESSION_FRAMES = [
  'CONNECT',
  'CONNECTED',
  'SUBSCRIBE',
  'UNSUBSCRIBE',
  'DISCONNECT',
  'IGNORED',
  'SEND',
  'RECEIPT',
  'ERROR',
];

/** Channel names for the destinations: the production one, the vendor's /api/v1 one, Spring's bare one. */
const DESTINATION_CHANNELS = ['publish', 'publishVendorPath', 'publishUser'];

function destinationChannels(): Record<string, AsyncChannel> {
  return Object.fromEntries(
    PUBLISH_DESTINATIONS.map((destination, i) => [
      DESTINATION_CHANNELS[i] ?? `publish${i}`,
      {
        address: destination,
        title: `Destination ${destination}`,
        description: 'SUBSCRIBE here to receive the transient (NonDurable) messages of your subscription',
        servers: SERVERS,
        messages: { MESSAGE: ref('#/components/messages/MESSAGE') },
      },
    ]),
  );
}

function operations(channels: readonly string[]): Record<string, AsyncOperation> {
  const receive = (title: string, name: string, reply?: string[]): AsyncOperation => ({
    action: 'receive',
    channel: session,
    title,
    messages: [frame(name)],
    ...(reply && { reply: { channel: session, messages: reply.map(frame) } }),
  });
  return {
    receiveConnect: receive('Open the session', 'CONNECT', ['CONNECTED', 'ERROR']),
    receiveSubscribe: receive('Subscribe to a destination', 'SUBSCRIBE', ['RECEIPT', 'ERROR']),
    receiveUnsubscribe: receive('Unsubscribe', 'UNSUBSCRIBE', ['RECEIPT', 'ERROR']),
    receiveDisconnect: receive('End the session', 'DISCONNECT', ['RECEIPT']),
    receiveIgnored: receive('Acknowledge or transact (ignored)', 'IGNORED', ['RECEIPT']),
    receiveSend: receive('Send (refused)', 'SEND', ['ERROR']),
    sendError: {
      action: 'send',
      channel: session,
      title: 'Report a protocol error, then close',
      messages: [frame('ERROR')],
    },
    ...Object.fromEntries(
      channels.map((name) => [
        `send${name[0]?.toUpperCase()}${name.slice(1)}`,
        {
          action: 'send',
          channel: ref(`#/channels/${name}`),
          title: 'Deliver a transient message to a subscription of this destination',
          messages: [ref(`#/channels/${name}/messages/MESSAGE`)],
        } satisfies AsyncOperation,
      ]),
    ),
  };
}

/** The STOMP-over-WebSocket endpoint (stomp/) as an AsyncAPI 3.0 document. */
export function stompAsyncApi(ctx: DocsContext): AsyncApiDocument {
  const [production, vendor] = STOMP_PATHS as [string, string];
  const destinations = destinationChannels();
  const server = (pathname: string, title: string) => ({
    host: '{host}',
    protocol: 'ws' as const,
    pathname,
    title,
    description:
      'STOMP 1.0, 1.1 and 1.2 over WebSocket (subprotocols v12.stomp, v11.stomp, v10.stomp); text frames',
    variables: { host: { default: 'localhost:8080', description: 'host:port of the simulator' } },
    security: [ref('#/components/securitySchemes/bearerToken')],
  });
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Race-data legacy simulator: STOMP over WebSocket',
      version: DOCS_VERSION,
      description:
        'Transient ("track signal") data: open the WebSocket with your bearer token, CONNECT, SUBSCRIBE ' +
        'to a publish destination, and receive one MESSAGE per NonDurable injection of your subscription. ' +
        'Clients read the JSON body and its `payload` field (the XML).',
    },
    defaultContentType: 'application/json',
    servers: {
      customerapi: server(production, 'Production path'),
      vendorPath: server(vendor, "The vendor simulator's path"),
    },
    channels: {
      session: {
        address: null,
        title: 'The STOMP session',
        description:
          `Frames on the connection itself. No CONNECT within ${ctx.settings.wsAuthTimeoutMs} ms gets an ERROR. ` +
          'From STOMP 1.1 on, heart-beats (a bare EOL) run as negotiated: the larger of what one side ' +
          'offers and the other wants; silence for twice the promised interval closes the socket.',
        servers: SERVERS,
        messages: Object.fromEntries(
          SESSION_FRAMES.map((name) => [name, ref(`#/components/messages/${name}`)]),
        ),
        'x-close-codes': [
          {
            code: WS_CLOSE.NORMAL,
            when: 'After DISCONNECT; POST /_sim/reset with closeSockets; POST /_sim/connections/close',
          },
          { code: WS_CLOSE.GOING_AWAY, when: 'The simulator shuts down' },
          { code: WS_CLOSE.PROTOCOL_ERROR, when: 'Right after an ERROR frame for a protocol error' },
          {
            code: WS_CLOSE.POLICY_VIOLATION,
            when: `After ERROR "too many sessions" (WS_MAX_SESSIONS_PER_USER ${ctx.settings.wsMaxSessionsPerUser}), or a missed heart-beat`,
          },
          { code: 1009, when: 'A WebSocket message far larger than STOMP_MAX_FRAME_BYTES' },
          { code: 1011, when: 'A disconnect fault rule without a code (POST /_sim/faults)' },
          {
            code: 1006,
            when: 'A client that does not read is cut without a close frame (WS_MAX_BUFFERED_BYTES)',
          },
        ],
      },
      ...destinations,
    },
    operations: operations(Object.keys(destinations)),
    components: {
      messages: stompFrames(ctx),
      securitySchemes: {
        bearerToken: {
          type: 'http',
          scheme: 'bearer',
          description:
            '`authorization: Bearer <token>` on the WebSocket upgrade request; refused with HTTP 401',
        },
      },
    },
  };
}
