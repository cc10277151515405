import { integer, objectSchema, type DocsContext, type SimulatorDocs } from '@racedata/core';
import { buildOpenApiDocument } from '@racedata/control';
import { jsonSchemas } from './event-schemas';
import { JSON_RESPONSES } from './json-responses';
import { postPaths } from './post-paths';
import { readPaths } from './read-paths';
import { streamAsyncApi } from './stream-asyncapi';
import { streamPath } from './stream-path';

const DESCRIPTION = `Local stand-in for the JSON generation of the race-data customer API: authentication,
durable events by long poll (/customerapi/events, /customerapi/filtered-events), transient events
over the /customerapi/event-stream WebSocket, and POST /api/message to put messages in.
Errors of these paths are {"status":"fail","message"}; errors of /_sim/* and /metrics also carry a code.`;

/** The JSON simulator's OpenAPI and AsyncAPI documents, for this instance's catalog, users and settings. */
export function jsonSimulatorDocs(ctx: DocsContext): SimulatorDocs {
  const read = readPaths(ctx);
  const post = postPaths(ctx);
  const stream = streamPath();
  return {
    openapi: buildOpenApiDocument({
      ctx,
      title: 'Race-data JSON simulator',
      description: DESCRIPTION,
      own: {
        paths: { ...post.paths, ...read.paths, ...stream.paths },
        components: { schemas: jsonSchemas(ctx), responses: JSON_RESPONSES },
      },
      state: {
        stateFields: {
          store: objectSchema({ events: integer(0), bytes: integer(0), lastEventId: integer(0) }),
        },
        clearedCounts: ['events', 'heldPolls', 'sockets'],
      },
      securitySchemes: {
        bearerToken: {
          type: 'http',
          scheme: 'bearer',
          description: "A user's fixed token (see the README), or a JWT from authenticate in jwt token mode",
        },
      },
    }),
    asyncapi: streamAsyncApi(ctx),
  };
}
