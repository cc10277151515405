import {
  BAD_HANDSHAKE,
  jsonContent,
  schemaRef,
  switchingProtocols,
  UPGRADE_HEADERS,
  type Operation,
  type OpenApiPart,
} from '@racedata/core';
import { STOMP_PATHS } from '../stomp/stomp-options';
import { responseOf } from './legacy-responses';

function connect(operationId: string, summary: string): Operation {
  return {
    operationId,
    summary,
    description: 'The token goes on this upgrade request; the STOMP CONNECT frame carries no credentials.',
    tags: ['production'],
    security: [{ bearerToken: [] }],
    parameters: [
      ...UPGRADE_HEADERS,
      {
        name: 'Sec-WebSocket-Protocol',
        in: 'header',
        required: false,
        description: 'v12.stomp, v11.stomp or v10.stomp; the first the server knows is chosen',
        schema: { type: 'string' },
      },
    ],
    responses: {
      '101': switchingProtocols({
        'Sec-WebSocket-Protocol': {
          required: false,
          description: 'When the client offered a STOMP subprotocol',
          schema: { enum: ['v12.stomp', 'v11.stomp', 'v10.stomp'] },
        },
      }),
      '400': BAD_HANDSHAKE,
      '401': {
        description: 'No authorization header, not `Bearer <token>`, an unknown token, or an expired JWT',
        content: jsonContent(schemaRef('UpgradeRefused')),
      },
      '404': responseOf('LegacyNotFound'),
      '503': {
        description: 'The simulator is shutting down',
        content: jsonContent(schemaRef('UpgradeRefused')),
      },
    },
  };
}

/** The STOMP-over-WebSocket endpoint's opening handshake, at both of its paths. */
export function stompPaths(): OpenApiPart {
  const [production, vendor] = STOMP_PATHS as [string, string];
  return {
    paths: {
      [production]: { get: connect('stompConnect', 'Open a STOMP-over-WebSocket session') },
      [vendor]: { get: connect('stompConnectVendorPath', "The same at the vendor simulator's /api/v1 path") },
    },
  };
}
