import { SimError } from '@racedata/core';

/** The JSON simulator's error catalog; core errors keep their own codes and statuses. */
export const jsonSimErrors = {
  NOT_FOUND: { status: 404 },
  MALFORMED_JSON: { status: 400 },
  JSON_TOO_DEEP: { status: 400 },
  PAYLOAD_TOO_LARGE: { status: 413 },
  UNSUPPORTED_CHARSET: { status: 415 },
  INVALID_PARAMETER: { status: 400 },
  INVALID_MESSAGE: { status: 400 },
  CHANNEL_NOT_SUBSCRIBED: { status: 400 },
  INTERNAL: { status: 500 },
} as const;

export type JsonSimErrorCode = keyof typeof jsonSimErrors;

export function jsonSimError(code: JsonSimErrorCode, message: string): SimError {
  return new SimError(code, message, jsonSimErrors[code].status);
}
