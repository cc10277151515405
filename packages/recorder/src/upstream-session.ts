import type { Clock, Logger } from '@racedata/core';
import { Backoff, pause, retryAfterMs } from './backoff';
import { RecorderError } from './errors';
import type { CauseLog } from './cause-log';
import { failureReason, RedirectRefusedError, requestText, type FetchFn } from './http-client';
import type { SecretGuard } from './secret-guard';

export interface Credentials {
  readonly key: string;
  readonly secret: string;
}

export interface SessionDeps {
  readonly fetch: FetchFn;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly guard: SecretGuard;
  readonly causes: CauseLog;
  readonly signal: AbortSignal;
  /** The deadline of one request (the recorder's, derived from the long-poll limit). */
  readonly requestTimeoutMs: number;
}

/** Authentication is no long poll: it gets this long at most, or less when requests get less. */
const AUTH_TIMEOUT_MS = 30_000;
const AUTH_BODY_MAX = 64 * 1024;

/** Thrown by token() once the recorder is stopping: the caller just ends its loop. */
export class StoppedError extends Error {
  constructor() {
    super('recorder stopping');
    this.name = 'StoppedError';
  }
}

/**
 * The bearer token for one upstream (interface 4.1, 5): authenticated once and shared by its
 * transports; after a 401 the transport hands the token back and the next caller gets a fresh
 * one. A 5xx, a redirect (never followed: the secret goes to the URL it was given, and nowhere
 * else), a deadline passed or a network failure is retried with back-off; 400, 401 or 403 means
 * the key and secret will never work, which ends the recording.
 */
export class UpstreamSession {
  private current: Promise<string> | undefined;
  private readonly backoff = new Backoff(500, 60_000);
  authentications = 0;

  constructor(
    /** The base URL, e.g. https://api.example (paths start with /customerapi). */
    readonly base: string,
    readonly name: string,
    private readonly credentials: Credentials,
    private readonly deps: SessionDeps,
  ) {
    deps.guard.add(credentials.key, 'key');
    deps.guard.add(credentials.secret, 'secret');
    deps.guard.add(`${credentials.key}:${credentials.secret}`, 'key:secret');
  }

  token(): Promise<string> {
    this.current ??= this.authenticate().catch((err: unknown) => {
      this.current = undefined;
      throw err;
    });
    return this.current;
  }

  /** The upstream refused `token` (401, an AuthenticationError): the next token() authenticates anew. */
  refused(token: string): void {
    void this.current?.then((current) => {
      if (current === token) this.current = undefined;
    });
  }

  private async authenticate(): Promise<string> {
    const { fetch, clock, logger, guard, signal, causes } = this.deps;
    const limits = {
      maxBytes: AUTH_BODY_MAX,
      deadlineMs: Math.min(AUTH_TIMEOUT_MS, this.deps.requestTimeoutMs),
      clock,
      signal,
    };
    for (;;) {
      if (signal.aborted) throw new StoppedError();
      let wait: number;
      try {
        const answer = await requestText(
          fetch,
          `${this.base}/customerapi/authenticate/subscription`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json' },
            body: JSON.stringify({ key: this.credentials.key, secret: this.credentials.secret }),
          },
          limits,
        );
        if (answer.status === 200) {
          const token = /^Bearer\s+(\S+)\s*$/i.exec(answer.headers.get('authorization') ?? '')?.[1];
          if (token) {
            guard.add(token, 'token');
            this.authentications++;
            this.backoff.reset();
            logger.info({ upstream: this.name }, 'authenticated');
            return token;
          }
          wait = this.backoff.next();
          causes.warn(
            `${this.name}: authentication without a token`,
            { upstream: this.name, retryInMs: wait },
            'authentication answered 200 without a bearer token; retrying',
          );
        } else if (answer.status === 400 || answer.status === 401 || answer.status === 403) {
          throw new RecorderError('CREDENTIALS_REFUSED', { upstream: this.base, status: answer.status });
        } else {
          wait = this.backoff.next(retryAfterMs(answer.headers.get('retry-after'), clock.now()));
          causes.warn(
            `${this.name}: authentication HTTP ${answer.status}`,
            { upstream: this.name, status: answer.status, retryInMs: wait },
            'authentication failed; retrying',
          );
        }
      } catch (err) {
        if (err instanceof RecorderError) throw err;
        if (signal.aborted) throw new StoppedError();
        wait = this.backoff.next();
        const reason = failureReason(err);
        const status = err instanceof RedirectRefusedError ? { status: err.status, target: err.target } : {};
        causes.warn(
          `${this.name}: authentication ${reason}`,
          { upstream: this.name, reason, ...status, retryInMs: wait },
          'authentication failed; retrying',
        );
      }
      await pause(clock, wait, signal);
    }
  }
}
