import { SimError } from '@racedata/core';

/**
 * The legacy simulator's error catalog. Core errors (TOKEN_*, CREDENTIALS_INVALID,
 * VALIDATION_FAILED, UNKNOWN_CHANNEL) keep their own codes and statuses; error-middleware.ts is
 * the one place any of them becomes a response.
 */
export const legacySimErrors = {
  NOT_FOUND: { status: 404 },
  METHOD_NOT_ALLOWED: { status: 405 },
  MALFORMED_JSON: { status: 400 },
  BAD_REQUEST: { status: 400 },
  EMPTY_BODY: { status: 400 },
  INVALID_XML: { status: 400 },
  XML_DOCTYPE_FORBIDDEN: { status: 400 },
  PAYLOAD_TOO_LARGE: { status: 413 },
  UNSUPPORTED_CHARSET: { status: 415 },
  SHUTTING_DOWN: { status: 503 },
  INTERNAL: { status: 500 },
} as const;

export type LegacySimErrorCode = keyof typeof legacySimErrors;

export function legacySimError(code: LegacySimErrorCode, message: string): SimError {
  return new SimError(code, message, legacySimErrors[code].status);
}
