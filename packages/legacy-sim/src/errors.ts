import { errorFactory } from '@racedata/core';

/**
 * The legacy simulator's own error codes. Codes both simulators raise (NOT_FOUND,
 * MALFORMED_JSON, PAYLOAD_TOO_LARGE, UNSUPPORTED_CHARSET, INTERNAL) and core's own (TOKEN_*,
 * CREDENTIALS_INVALID, VALIDATION_FAILED, UNKNOWN_CHANNEL) come from core's catalog;
 * error-middleware.ts is the one place any of them becomes an HTTP response.
 */
export const legacySimErrors = {
  METHOD_NOT_ALLOWED: { status: 405 },
  BAD_REQUEST: { status: 400 },
  EMPTY_BODY: { status: 400 },
  INVALID_XML: { status: 400 },
  XML_DOCTYPE_FORBIDDEN: { status: 400 },
  SHUTTING_DOWN: { status: 503 },
} as const;

export type LegacySimErrorCode = keyof typeof legacySimErrors;

export const legacySimError = errorFactory(legacySimErrors);
