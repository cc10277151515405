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
  /** --anonymise or --redact in a build without packages/recorder/src/anonymise. */
  ANONYMISER_UNAVAILABLE: {
    exitCode: EXIT_BAD_INPUT,
    message: (_p: Record<string, never>) => '--anonymise and --redact are not available in this build',
  },
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
