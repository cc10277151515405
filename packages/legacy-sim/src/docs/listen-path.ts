import {
  jsonContent,
  schemaRef,
  type HttpMethod,
  type Operation,
  type PathItem,
  type DocsContext,
  type OpenApiPart,
} from '@racedata/core';
import { legacyError, responseOf } from './legacy-responses';

const NO_STORE = { 'Cache-Control': { required: true, schema: { const: 'no-store' } } };

/** Every other method is refused before it can take a message (app.ts onlyGet). */
const REFUSED_METHODS: readonly Exclude<HttpMethod, 'get' | 'trace'>[] = [
  'head',
  'post',
  'put',
  'delete',
  'patch',
  'options',
];

function refused(method: (typeof REFUSED_METHODS)[number]): Operation {
  return {
    operationId: `listen${method[0]?.toUpperCase()}${method.slice(1)}`,
    summary: `${method.toUpperCase()} is refused: only GET takes a message`,
    tags: ['production'],
    security: [{}],
    responses: {
      '405': {
        description: 'Method not allowed',
        headers: { Allow: { required: true, schema: { const: 'GET' } } },
        // A HEAD answer has no body on the wire.
        ...(method !== 'head' && { content: jsonContent(legacyError(['METHOD_NOT_ALLOWED'])) }),
      },
    },
  };
}

/** GET /customerapi/channels/listen (interface 4.2): one queued XML message per request. */
export function listenPath(ctx: DocsContext): OpenApiPart {
  const item: PathItem = {
    get: {
      operationId: 'listen',
      summary: 'The next queued XML message of your subscription (long poll)',
      description:
        'Answered at once when a message is queued, else held until one arrives or ' +
        `${ctx.settings.longPollTimeoutMs} ms pass (LONG_POLL_TIMEOUT_MS). A message leaves the queue ` +
        'only once the client read the answer; queued messages are kept for LEGACY_QUEUE_RETENTION_MS.',
      tags: ['production'],
      security: [{ bearerToken: [] }],
      responses: {
        '200': {
          description: 'One message',
          headers: NO_STORE,
          content: jsonContent(schemaRef('ListenMessage')),
        },
        '204': {
          description: 'No message within the long-poll wait (or a reset or shutdown)',
          headers: NO_STORE,
        },
        '401': responseOf('LegacyBadToken'),
      },
    },
    ...Object.fromEntries(REFUSED_METHODS.map((method) => [method, refused(method)])),
  };
  return { paths: { '/customerapi/channels/listen': item } };
}
