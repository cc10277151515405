import { errorFactory, type ErrorSpec } from '@racedata/core';

/**
 * The control plane's error catalog: the codes only /_sim/* raises (who may reach it, and the
 * limits on what a client may hold open). Codes shared with the simulators' own routes
 * (NOT_FOUND, VALIDATION_FAILED, MALFORMED_JSON...) stay in core's catalog.
 */
export const controlErrors = {
  CONTROL_UNAUTHORIZED: { status: 401 },
  CONTROL_HOST_REFUSED: { status: 403 },
  CONTROL_ORIGIN_REFUSED: { status: 403 },
  SANDBOX_LIMIT: { status: 429 },
  JOURNAL_WAITERS_LIMIT: { status: 429 },
  CONSOLE_STREAMS_LIMIT: { status: 429 },
  FAULT_RULES_LIMIT: { status: 429 },
} as const satisfies Record<string, ErrorSpec>;

export type ControlErrorCode = keyof typeof controlErrors;

export const controlPlaneError = errorFactory(controlErrors);
