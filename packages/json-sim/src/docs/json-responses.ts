import { jsonContent, schemaRef, type Response } from '@racedata/core';

const fail = (description: string): Response => ({ description, content: jsonContent(schemaRef('Fail')) });

/** The JSON simulator's error answers, `{status:'fail', message}` (http/error-response.ts). */
export const JSON_RESPONSES = {
  JsonBadRequest: fail('Invalid input; the message names the parameter or field'),
  JsonUnauthorized: fail(
    'No authorization header, not `Bearer <token>`, an unknown token, or an expired JWT (jwt token mode)',
  ),
  JsonTooLarge: fail('The body exceeds MAX_BODY_BYTES (or a posted event exceeds EVENT_STORE_MAX_BYTES)'),
  JsonUnsupportedCharset: fail(
    'The content type names a charset other than UTF-8/16/32, or the Content-Encoding is not gzip, deflate or br',
  ),
  JsonNotFound: fail('No route: here, a plain GET without the WebSocket upgrade headers'),
} satisfies Record<string, Response>;

/** Answers of the routes that read a JSON body (json-body.ts and the body budget). */
export const JSON_BODY_ERRORS = {
  '400': { $ref: '#/components/responses/JsonBadRequest' },
  '413': { $ref: '#/components/responses/JsonTooLarge' },
  '415': { $ref: '#/components/responses/JsonUnsupportedCharset' },
  '503': { $ref: '#/components/responses/BodiesInFlight' },
} as const;
