import { integer, objectSchema, type DocsContext, type SimulatorDocs } from '@racedata/core';
import { buildOpenApiDocument } from '@racedata/control';
import { authPaths } from './auth-paths';
import { injectPaths } from './inject-paths';
import { legacySchemas } from './legacy-schemas';
import { LEGACY_RESPONSES } from './legacy-responses';
import { listenPath } from './listen-path';
import { stompAsyncApi } from './stomp-asyncapi';
import { stompPaths } from './stomp-paths';

const DESCRIPTION = `Local stand-in for the legacy generation of the race-data customer API: authentication,
queued XML messages by long poll (/customerapi/channels/listen), transient messages over STOMP on a
WebSocket, and the vendor simulator's injection paths. Errors are {"status":"fail","code","message"}.`;

/** The legacy simulator's OpenAPI and AsyncAPI documents, for this instance's catalog, users and settings. */
export function legacySimulatorDocs(ctx: DocsContext): SimulatorDocs {
  const parts = [authPaths(), listenPath(ctx), injectPaths(), stompPaths()];
  return {
    openapi: buildOpenApiDocument({
      ctx,
      title: 'Race-data legacy simulator',
      description: DESCRIPTION,
      own: {
        paths: Object.assign({}, ...parts.map((part) => part.paths)),
        components: { schemas: legacySchemas(ctx), responses: LEGACY_RESPONSES },
      },
      state: {
        stateFields: { queues: objectSchema({ messages: integer(0), bytes: integer(0) }) },
        clearedCounts: ['queuedMessages', 'heldPolls', 'sockets'],
      },
      securitySchemes: {
        bearerToken: {
          type: 'http',
          scheme: 'bearer',
          description: "A user's fixed token (see the README), or a JWT from authenticate in jwt token mode",
        },
        basicCredentials: { type: 'http', scheme: 'basic', description: 'key:secret' },
      },
    }),
    asyncapi: stompAsyncApi(ctx),
  };
}
