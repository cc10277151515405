import { jsonContent, type JsonSchema, type Response } from '@racedata/core';

/** `{status:'fail', code, message}` with one of these codes. */
export function legacyError(codes: readonly string[]): JsonSchema {
  return { $ref: '#/components/schemas/LegacyError', properties: { code: { enum: codes } } };
}

const error = (description: string, codes: readonly string[]): Response => ({
  description,
  content: jsonContent(legacyError(codes)),
});

/** The legacy simulator's error answers (http/error-middleware.ts). */
export const LEGACY_RESPONSES = {
  LegacyTooLarge: error('The body exceeds MAX_BODY_BYTES (a durable message: LEGACY_QUEUE_MAX_BYTES)', [
    'PAYLOAD_TOO_LARGE',
  ]),
  LegacyUnsupportedCharset: error(
    'The content type (or XML declaration) names an unknown charset, or the Content-Encoding is not gzip, deflate or br',
    ['UNSUPPORTED_CHARSET'],
  ),
  LegacyBadToken: error(
    'No authorization header, not `Bearer <token>`, an unknown token, or an expired JWT',
    ['TOKEN_MISSING', 'TOKEN_INVALID', 'TOKEN_EXPIRED'],
  ),
  LegacyNotFound: error('No route: here, a plain GET without the WebSocket upgrade headers', ['NOT_FOUND']),
} satisfies Record<string, Response>;

export const responseOf = (name: keyof typeof LEGACY_RESPONSES | 'BodiesInFlight') => ({
  $ref: `#/components/responses/${name}`,
});
