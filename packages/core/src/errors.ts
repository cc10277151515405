/** What a catalog says about one code: the HTTP status a server answers it with. */
export interface ErrorSpec {
  readonly status: number;
}

/**
 * The core error catalog. Every error core raises carries a stable code and the HTTP status a
 * server should answer with; the simulators map these in their single error middleware. The
 * codes both simulators' HTTP layers raise live here too, so each is defined once; a
 * simulator's own catalog holds only its own codes.
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
  UNSUPPORTED_MEDIA_TYPE: { status: 415 },
  VALIDATION_FAILED: { status: 400 },
  UNKNOWN_CHANNEL: { status: 400 },
  EVENT_TOO_LARGE: { status: 413 },
  NOT_FOUND: { status: 404 },
  MALFORMED_JSON: { status: 400 },
  PAYLOAD_TOO_LARGE: { status: 413 },
  REPLAY_STATE: { status: 409 },
  UNSUPPORTED_CHARSET: { status: 415 },
  INTERNAL: { status: 500 },
} as const satisfies Record<string, ErrorSpec>;

export type CoreErrorCode = keyof typeof coreErrors;

export class SimError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'SimError';
  }
}

/**
 * The raise function of one catalog: a code outside it does not compile, and the status always
 * comes from the table. Pass `{ cause }` when wrapping another error so it is not lost.
 */
export function errorFactory<Code extends string>(
  catalog: Readonly<Record<Code, ErrorSpec>>,
): (code: Code, message: string, options?: ErrorOptions) => SimError {
  return (code, message, options) => new SimError(code, message, catalog[code].status, options);
}

export const coreError = errorFactory(coreErrors);

export function isSimError(value: unknown): value is SimError {
  return value instanceof SimError;
}

/**
 * The SimError a server answers an error with: the error itself, what `translate` makes of it
 * (a body parser's refusal, say), or else INTERNAL. An error that is none of these is a bug:
 * `onUnexpected` is told (to log it), and the client learns nothing of it.
 */
export function toSimError(
  err: unknown,
  translate: (err: unknown) => SimError | undefined,
  onUnexpected: (err: unknown) => void,
): SimError {
  if (isSimError(err)) return err;
  const translated = translate(err);
  if (translated) return translated;
  onUnexpected(err);
  return coreError('INTERNAL', 'unexpected error', { cause: err });
}
