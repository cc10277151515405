import type { JournalEntry, JournalQuery } from './control-types';

/**
 * The codes the test kit raises itself, for answers that carry none of their own, with what each
 * means. A simulator's own codes (VALIDATION_FAILED, CONTROL_UNAUTHORIZED, NOT_FOUND,
 * SANDBOX_LIMIT...) pass through unchanged in ControlError.code, so a test can match on exactly
 * what the server said.
 */
export const testkitErrors = {
  // The JSON simulator's customer endpoints answer {"status":"fail","message"} without a code, as
  // the real interface does; a proxy in front of a container may answer HTML.
  HTTP_ERROR: 'an error status whose body names no code (status and message are kept)',
  UNEXPECTED_RESPONSE: 'a success status whose body is not the JSON the route promises',
  UNREACHABLE: 'no answer at all: connection refused or reset, unknown host (status 0)',
  REQUEST_TIMEOUT: "no answer within the client's request timeout (status 0)",
  // The control token would go along to wherever it points, so no redirect is ever followed.
  REDIRECT_REFUSED: 'a 3xx answer: the kit follows no redirect (status and Location are kept)',
  JOURNAL_WAIT_TIMEOUT: 'GET /_sim/journal/wait answered 408: fewer matching entries than asked for in time',
} as const;

export type TestkitErrorCode = keyof typeof testkitErrors;

/** A code from a simulator's answer, or one of the kit's own. */
export type ControlErrorCode = TestkitErrorCode | (string & {});

/** Where a failed request went, for messages and for tests that want to know. */
export interface RequestTarget {
  readonly method: string;
  readonly url: string;
}

/**
 * A request to a simulator failed. `status` is the HTTP status (0 when there was no answer),
 * `code` the server's code or one of testkitErrors, `message` the server's message when it sent
 * one. `body` is the raw answer, cut to 2000 characters.
 */
export class ControlError extends Error {
  constructor(
    readonly status: number,
    readonly code: ControlErrorCode,
    message: string,
    readonly target: RequestTarget,
    readonly body?: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'ControlError';
  }
}

/**
 * waitFor() gave up: the simulator answered 408 because fewer than `count` entries matched
 * within `timeoutMs`. `entries` is what did match, so the failure shows what happened instead.
 */
export class JournalWaitTimeoutError extends ControlError {
  constructor(
    target: RequestTarget,
    readonly filter: JournalQuery,
    readonly count: number,
    readonly timeoutMs: number,
    readonly entries: JournalEntry[],
    readonly nextSince: number,
  ) {
    super(
      408,
      'JOURNAL_WAIT_TIMEOUT',
      `waited ${timeoutMs} ms for ${count} journal entr${count === 1 ? 'y' : 'ies'} matching ` +
        `${JSON.stringify(filter)}; ${entries.length} matched: ${JSON.stringify(entries).slice(0, 1500)}`,
      target,
    );
    this.name = 'JournalWaitTimeoutError';
  }
}

const BODY_KEPT = 2000;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The ControlError for an error answer: the server's `{"status":"fail","code","message"}` as
 * sent; a JSON body without a code (the JSON simulator's customer endpoints) keeps its message
 * under HTTP_ERROR; anything else (HTML from a proxy, an empty body) is described by status.
 */
export function errorFromAnswer(target: RequestTarget, status: number, statusText: string, text: string) {
  const body = text.slice(0, BODY_KEPT);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (isRecord(parsed) && typeof parsed.message === 'string') {
    const code = typeof parsed.code === 'string' ? parsed.code : 'HTTP_ERROR';
    return new ControlError(status, code, parsed.message, target, body);
  }
  const excerpt = text.trim().replace(/\s+/g, ' ').slice(0, 200);
  const what = `${target.method} ${target.url} answered ${status}${statusText ? ` ${statusText}` : ''}`;
  return new ControlError(status, 'HTTP_ERROR', excerpt ? `${what}: ${excerpt}` : what, target, body);
}

/** A success answer the client cannot read as the JSON it expected. */
export function unexpectedAnswer(target: RequestTarget, status: number, text: string, cause?: unknown) {
  return new ControlError(
    status,
    'UNEXPECTED_RESPONSE',
    `${target.method} ${target.url} answered ${status} with a body that is not the expected JSON: ${text.slice(0, 200)}`,
    target,
    text.slice(0, BODY_KEPT),
    cause === undefined ? undefined : { cause },
  );
}

/** fetch() threw: no answer (refused, reset, unknown host) or the client's timeout fired. */
export function errorFromFailure(target: RequestTarget, err: unknown, timeoutMs: number): ControlError {
  const name = (err as { name?: string }).name;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new ControlError(
      0,
      'REQUEST_TIMEOUT',
      `${target.method} ${target.url}: no answer within ${timeoutMs} ms`,
      target,
      undefined,
      { cause: err },
    );
  }
  // undici puts the socket error (ECONNREFUSED, ENOTFOUND...) in `cause`.
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const why = cause?.code ?? cause?.message ?? (err as Error).message;
  return new ControlError(0, 'UNREACHABLE', `${target.method} ${target.url}: ${why}`, target, undefined, {
    cause: err,
  });
}
