import { errorFactory } from '@racedata/core';

/**
 * The recorder package's error codes. `status` is what core's catalog shape asks for; nothing
 * here answers HTTP, so it only groups bad input (400) apart from failures (500).
 */
export const recorderErrors = {
  /** --anonymise/--redact/--name-field values that cannot work (an empty salt, a path to a required field). */
  ANONYMISE_OPTIONS_INVALID: { status: 400 },
  /** A legacy line whose XML cannot be walked: anonymising it could miss a name, so it is not passed on. */
  ANONYMISE_XML_MALFORMED: { status: 400 },
  /** Nesting deeper than any race-data message has; walking it could exhaust the stack. */
  ANONYMISE_TOO_DEEP: { status: 400 },
  /** `racedata-sim anonymise IN OUT`: a missing or broken IN, or an OUT that would overwrite IN. */
  ANONYMISE_INPUT_INVALID: { status: 400 },
} as const;

export type RecorderErrorCode = keyof typeof recorderErrors;

export const recorderError = errorFactory(recorderErrors);
