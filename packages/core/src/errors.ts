/**
 * The core error catalog. Every error core raises carries a stable code and the HTTP status a
 * server should answer with; the simulators map these in their single error middleware.
 */
export const coreErrors = {
  CONFIG_INVALID: { status: 500 },
  USERS_INVALID: { status: 500 },
  CHANNELS_INVALID: { status: 500 },
  RECORDING_INVALID: { status: 500 },
  TOKEN_MISSING: { status: 401 },
  TOKEN_INVALID: { status: 401 },
  TOKEN_EXPIRED: { status: 401 },
  CREDENTIALS_INVALID: { status: 401 },
  VALIDATION_FAILED: { status: 400 },
  UNKNOWN_CHANNEL: { status: 400 },
  EVENT_TOO_LARGE: { status: 413 },
} as const;

export type CoreErrorCode = keyof typeof coreErrors;

export class SimError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'SimError';
  }
}

export function coreError(code: CoreErrorCode, message: string): SimError {
  return new SimError(code, message, coreErrors[code].status);
}

export function isSimError(value: unknown): value is SimError {
  return value instanceof SimError;
}
