/** Exit code for bad options or an --out directory the recorder must not touch: retrying cannot help. */
export const EXIT_BAD_INPUT = 2;
/** Exit code for an upstream that refuses the recorder for good, or anything else that stops it. */
export const EXIT_FAILED = 1;

/**
 * The recorder's error catalog: every code a recording can end on, with its exit code and its
 * message. No template takes a credential, so no error text can carry one.
 */
export const recorderErrors = {
  OPTIONS_INVALID: { exitCode: EXIT_BAD_INPUT, message: (p: { detail: string }) => p.detail },
  /** --out exists as a file, cannot be created, or cannot be written. */
  OUT_DIR_UNUSABLE: {
    exitCode: EXIT_BAD_INPUT,
    message: (p: { dir: string; detail: string }) => `--out ${p.dir}: ${p.detail}`,
  },
  /** A recording file already in --out holds a line that is not a recording line. */
  RECORDING_BROKEN: {
    exitCode: EXIT_BAD_INPUT,
    message: (p: { where: string; detail: string }) =>
      `${p.where}: ${p.detail} (the recorder appends only to valid recordings; fix or move the file, nothing was changed)`,
  },
  /** Authentication answered 400, 401 or 403: the key and secret will not work however often we try. */
  CREDENTIALS_REFUSED: {
    exitCode: EXIT_FAILED,
    message: (p: { upstream: string; status: number }) =>
      `${p.upstream} refused the key and secret (HTTP ${p.status} from /customerapi/authenticate/subscription)`,
  },
  /** --anonymise/--redact/--name-field values that cannot work (an empty salt, a path to a required field). */
  ANONYMISE_OPTIONS_INVALID: { exitCode: EXIT_BAD_INPUT, message: (p: { detail: string }) => p.detail },
  /** A legacy line whose XML cannot be walked: anonymising it could miss a name, so it is not passed on. */
  ANONYMISE_XML_MALFORMED: { exitCode: EXIT_BAD_INPUT, message: (p: { detail: string }) => p.detail },
  /** Nesting deeper than any race-data message has; walking it could exhaust the stack. */
  ANONYMISE_TOO_DEEP: { exitCode: EXIT_BAD_INPUT, message: (p: { detail: string }) => p.detail },
  /** `racedata-sim anonymise IN OUT`: a missing or broken IN, or an OUT that would overwrite IN. */
  ANONYMISE_INPUT_INVALID: { exitCode: EXIT_BAD_INPUT, message: (p: { detail: string }) => p.detail },
} as const;

type Catalog = typeof recorderErrors;
export type RecorderErrorCode = keyof Catalog;
type ParamsOf<C extends RecorderErrorCode> = Catalog[C] extends { message: (p: infer P) => string }
  ? P
  : never;

export class RecorderError<C extends RecorderErrorCode = RecorderErrorCode> extends Error {
  readonly exitCode: number;

  constructor(
    readonly code: C,
    params: ParamsOf<C>,
    options?: ErrorOptions,
  ) {
    super((recorderErrors[code].message as (p: unknown) => string)(params), options);
    this.name = 'RecorderError';
    this.exitCode = recorderErrors[code].exitCode;
  }
}

export function isRecorderError(err: unknown): err is RecorderError {
  return err instanceof RecorderError;
}

/** The codes whose message is one detail line: raised with recorderError(code, detail). */
type DetailCode = {
  [C in RecorderErrorCode]: ParamsOf<C> extends { detail: string } ? C : never;
}[RecorderErrorCode];

export function recorderError(code: DetailCode, detail: string, options?: ErrorOptions): RecorderError {
  return new RecorderError(code, { detail } as ParamsOf<typeof code>, options);
}
