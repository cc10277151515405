import { BAD_HANDSHAKE, switchingProtocols, UPGRADE_HEADERS, type OpenApiPart } from '@racedata/core';

/** GET /customerapi/event-stream: the WebSocket opening handshake (interface 4.5). */
export function streamPath(): OpenApiPart {
  return {
    paths: {
      '/customerapi/event-stream': {
        get: {
          operationId: 'openEventStream',
          summary: 'Open the transient-channel WebSocket; authentication happens on it (first message)',
          tags: ['production'],
          security: [{}],
          parameters: UPGRADE_HEADERS,
          responses: {
            '101': switchingProtocols(),
            '400': BAD_HANDSHAKE,
            '404': { $ref: '#/components/responses/JsonNotFound' },
            '503': {
              description: 'The simulator is shutting down (the `ws` library answers)',
              content: { 'text/html': { schema: { type: 'string' } } },
            },
          },
        },
      },
    },
  };
}
