import { Backoff, pause } from './backoff';
import type { TransportContext } from './transport-context';
import { StoppedError } from './upstream-session';

/**
 * A session that got going (authenticated, subscribed) resets the back-off only when it also
 * lasted this long: one that an upstream ends right after accepting it, again and again, is a
 * fault like any other and must not become a reconnect loop.
 */
export const HEALTHY_SESSION_MS = 5000;

/** How one WebSocket session ended: whether it got going, and what the upstream asked us to wait. */
export interface SessionEnd {
  /** Authenticated (event stream) or subscribed (STOMP): the back-off starts over. */
  readonly gotGoing: boolean;
  readonly retryAfter?: number | undefined;
}

/**
 * Runs one session after another until the recording stops, waiting between them with back-off
 * (Retry-After when the upstream gave one). `stop` ends the session in progress when the
 * recording is stopped, so the loop never waits on a socket after that.
 */
export async function keepSessionOpen(
  ctx: TransportContext,
  options: {
    readonly transport: 'stream' | 'stomp';
    readonly closedMessage: string;
    readonly session: () => Promise<SessionEnd>;
    readonly stop: () => void;
  },
): Promise<void> {
  const { signal, clock, logger } = ctx;
  const backoff = new Backoff();
  signal.addEventListener('abort', options.stop, { once: true });
  try {
    while (!signal.aborted) {
      let ended: SessionEnd;
      const began = clock.now();
      try {
        ended = await options.session();
      } catch (err) {
        if (err instanceof StoppedError) return;
        throw err;
      }
      if (signal.aborted) return;
      if (ended.gotGoing && clock.now() - began >= HEALTHY_SESSION_MS) backoff.reset();
      const wait = backoff.next(ended.retryAfter);
      ctx.stats.retries++;
      logger.info({ transport: options.transport, retryInMs: wait }, options.closedMessage);
      await pause(clock, wait, signal);
    }
  } finally {
    signal.removeEventListener('abort', options.stop);
  }
}
