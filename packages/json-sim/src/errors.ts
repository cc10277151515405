import { errorFactory } from '@racedata/core';

/**
 * The JSON simulator's own error codes. Codes both simulators raise (NOT_FOUND, MALFORMED_JSON,
 * PAYLOAD_TOO_LARGE, UNSUPPORTED_CHARSET, INTERNAL) and core's own come from core's catalog.
 */
export const jsonSimErrors = {
  JSON_TOO_DEEP: { status: 400 },
  INVALID_PARAMETER: { status: 400 },
  INVALID_MESSAGE: { status: 400 },
  CHANNEL_NOT_SUBSCRIBED: { status: 400 },
} as const;

export type JsonSimErrorCode = keyof typeof jsonSimErrors;

export const jsonSimError = errorFactory(jsonSimErrors);
