import type { Clock, Logger, RecordedMessage } from '@racedata/core';
import { CliError, isCliError } from '../errors';
import { request, sleep, type FetchFn } from './target-http';

export interface PostRequest {
  readonly url: string;
  readonly init: RequestInit;
}

/**
 * The injection request of the simulator the message was recorded for: a legacy message goes to
 * `POST /customerapi/channel/{channel}/{Durable|NonDurable}?payloadKey=`, a JSON one to
 * `POST /api/message`, as a QA user would post it by hand.
 */
export function postRequestFor(target: string, recorded: RecordedMessage): PostRequest {
  if (recorded.kind === 'legacy') {
    const kind = recorded.delivery === 'durable' ? 'Durable' : 'NonDurable';
    const key = encodeURIComponent(recorded.payloadKey);
    return {
      url: `${target}/customerapi/channel/${encodeURIComponent(recorded.channel)}/${kind}?payloadKey=${key}`,
      init: { method: 'POST', headers: { 'content-type': 'application/xml' }, body: recorded.xml },
    };
  }
  return {
    url: `${target}/api/message`,
    init: {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(recorded.message),
    },
  };
}

export interface PosterOptions {
  readonly target: string;
  readonly fetch: FetchFn;
  readonly clock: Clock;
  /** Extra attempts after a network error or 5xx. */
  readonly retries: number;
  /** First pause before a retry; doubles each time, capped at maxBackoffMs. */
  readonly backoffMs?: number;
  readonly maxBackoffMs?: number;
  readonly requestTimeoutMs?: number;
  readonly logger?: Logger;
  readonly signal?: AbortSignal;
}

const detailOf = (body: string) => body.replace(/\s+/g, ' ').trim().slice(0, 200);

/**
 * Returns a deliver function for the replayer: it resolves once the target accepted the
 * message, and rejects with POST_REJECTED on a 4xx or with the last error once retries are spent.
 */
export function createPoster(options: PosterOptions): (recorded: RecordedMessage) => Promise<void> {
  const { target, clock, retries, logger, signal } = options;
  const backoffMs = options.backoffMs ?? 250;
  const maxBackoffMs = options.maxBackoffMs ?? 5000;
  const timeoutMs = options.requestTimeoutMs ?? 10_000;
  return async (recorded) => {
    const { url, init } = postRequestFor(target, recorded);
    for (let attempt = 0; ; attempt++) {
      let reason: string;
      try {
        const answer = await request(options.fetch, url, init, timeoutMs, signal);
        if (answer.status < 300) return;
        if (answer.status >= 400 && answer.status < 500)
          throw new CliError('POST_REJECTED', { status: answer.status, detail: detailOf(answer.body) });
        // A redirect is an error of the target like a 5xx: retried, never followed.
        reason =
          answer.status < 400
            ? `HTTP ${answer.status} to ${answer.location ?? 'nowhere'} (a redirect: not followed)`
            : `HTTP ${answer.status}${answer.body ? `: ${detailOf(answer.body)}` : ''}`;
      } catch (err) {
        if (isCliError(err, 'POST_REJECTED') || isCliError(err, 'REPLAY_ABORTED')) throw err;
        reason = (err as Error).message;
      }
      if (attempt >= retries) {
        throw new Error(`${reason} (gave up after ${attempt + 1} attempt${attempt === 0 ? '' : 's'})`);
      }
      const pause = Math.min(maxBackoffMs, backoffMs * 2 ** attempt);
      logger?.warn({ source: recorded.source, reason, retryInMs: pause }, 'post failed, retrying');
      await sleep(clock, pause, signal);
    }
  };
}
