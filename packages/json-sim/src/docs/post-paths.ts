import { jsonContent, schemaRef, type DocsContext, type Operation, type OpenApiPart } from '@racedata/core';
import { JSON_BODY_ERRORS } from './json-responses';

function authenticate(operationId: string, summary: string): Operation {
  return {
    operationId,
    summary,
    description:
      'The body is read as JSON whatever its content type (`curl -d` sends form encoding by default).',
    tags: ['production'],
    security: [{}],
    requestBody: { required: true, content: jsonContent(schemaRef('Credentials')) },
    responses: {
      '200': {
        description: 'Authenticated; the token is in the authorization header',
        headers: {
          authorization: {
            required: true,
            description: 'Bearer and the fixed token of the user, or a JWT in jwt token mode',
            schema: { type: 'string', pattern: '^Bearer \\S+$' },
          },
        },
        content: jsonContent(schemaRef('Authenticated')),
      },
      ...JSON_BODY_ERRORS,
      '401': { $ref: '#/components/responses/JsonUnauthorized', description: 'Wrong key or secret' },
    },
  };
}

const users =
  'comma-separated user keys (at most 20, then `+N more`; a key outside printable ASCII percent-encoded)';

/** Who a post can reach, told in headers of the simulator's own (http/post-audience.ts). */
const AUDIENCE_HEADERS = {
  'x-racedata-subscribers': {
    required: true,
    description: `The users whose subscription includes the channel: ${users}; empty when none does.`,
    schema: { type: 'string' },
  },
  'x-racedata-connected-subscribers': {
    required: true,
    description:
      `Those of them connected now: an open /event-stream session, or (durable channels) an /events long ` +
      `poll held now that the message answers; ${users}.`,
    schema: { type: 'string' },
  },
  'x-racedata-notice': {
    required: false,
    description:
      'Only when no subscribed user is connected now: says so in a sentence (the message reached nobody on a ' +
      'transient channel; the event waits for the next read on a durable one). The same sentence is logged at ' +
      'warn, once per channel.',
    schema: { type: 'string' },
  },
} as const;

/** POST /customerapi/authenticate/subscription[/] (interface 4.1) and POST /api/message (4.6). */
export function postPaths(ctx: DocsContext): OpenApiPart {
  const durable = ctx.catalog.names('durable').join(', ');
  return {
    paths: {
      '/customerapi/authenticate/subscription': {
        post: authenticate('authenticate', 'Trade a key and secret for a bearer token'),
      },
      // The vendor's example posts with a trailing slash; both spellings are served.
      '/customerapi/authenticate/subscription/': {
        post: authenticate('authenticateTrailingSlash', 'The same, spelt as in the vendor example'),
      },
      '/api/message': {
        post: {
          operationId: 'postMessage',
          summary: 'Put a message in: stored on a durable channel, broadcast once on a transient one',
          description:
            `Durable channels: ${durable}. The body is read as JSON whatever its content type. Any payload ` +
            "is taken, as the vendor's simulator takes it; with STRICT_PAYLOADS=true one that breaks its " +
            "channel's schema (GET /_sim/schemas/{channel}) is a 400 naming the JSON path of each problem. " +
            "The body is the vendor's; the x-racedata-* headers say which users the channel reaches and " +
            'whether any of them is connected now.',
          tags: ['simulator'],
          security: [{}],
          requestBody: { required: true, content: jsonContent(schemaRef('MessageInput')) },
          responses: {
            '201': {
              description: 'Stored as a durable event',
              headers: AUDIENCE_HEADERS,
              content: jsonContent(schemaRef('DurableAccepted')),
            },
            '202': {
              description: 'Sent to the authenticated event-stream sessions subscribed to the channel',
              headers: AUDIENCE_HEADERS,
              content: jsonContent(schemaRef('TransientAccepted')),
            },
            ...JSON_BODY_ERRORS,
          },
        },
      },
    },
  };
}
