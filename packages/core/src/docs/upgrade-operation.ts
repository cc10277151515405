import type { Parameter, Response } from './openapi-types';

const header = (name: string, description: string): Parameter => ({
  name,
  in: 'header',
  required: false,
  description,
  schema: { type: 'string' },
});

/** The request headers of a WebSocket opening handshake (RFC 6455 4.1). */
export const UPGRADE_HEADERS: readonly Parameter[] = [
  header('Upgrade', '`websocket`; without it the request is a plain GET, which no route answers (404)'),
  header('Connection', '`Upgrade`'),
  header('Sec-WebSocket-Key', 'A base64 16-byte nonce'),
  header('Sec-WebSocket-Version', '13 (or 8)'),
];

/** 101: the connection is now a WebSocket; what flows on it is in /_sim/asyncapi.json. */
export function switchingProtocols(extraHeaders: Response['headers'] = {}): Response {
  return {
    description: 'Switched to WebSocket; the messages on the connection are in GET /_sim/asyncapi.json',
    headers: {
      Upgrade: { required: true, schema: { const: 'websocket' } },
      Connection: { required: true, schema: { const: 'Upgrade' } },
      'Sec-WebSocket-Accept': { required: true, schema: { type: 'string' } },
      ...extraHeaders,
    },
  };
}

/** The `ws` library's own refusal of a malformed handshake: a short text/html reason. */
export const BAD_HANDSHAKE: Response = {
  description:
    'Malformed handshake: missing or invalid Upgrade, Sec-WebSocket-Key or Sec-WebSocket-Version ' +
    '(then with `Sec-WebSocket-Version: 13, 8`), or a malformed Sec-WebSocket-Protocol',
  content: { 'text/html': { schema: { type: 'string', minLength: 1 } } },
};
