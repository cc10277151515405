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
            "channel's schema (GET /_sim/schemas/{channel}) is a 400 naming the JSON path of each problem.",
          tags: ['simulator'],
          security: [{}],
          requestBody: { required: true, content: jsonContent(schemaRef('MessageInput')) },
          responses: {
            '201': {
              description: 'Stored as a durable event',
              content: jsonContent(schemaRef('DurableAccepted')),
            },
            '202': {
              description: 'Sent to the authenticated event-stream sessions subscribed to the channel',
              content: jsonContent(schemaRef('TransientAccepted')),
            },
            ...JSON_BODY_ERRORS,
          },
        },
      },
    },
  };
}
