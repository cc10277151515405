import { Backoff, pause } from './backoff';
import type { TransportContext } from './transport-context';
import type { Transport } from './transports';

/**
 * Polls that come back empty faster than this were not held: the upstream is not long-polling
 * (or a proxy answers for it), and asking again at once would be a hot loop.
 */
export const UNHELD_EMPTY_MS = 1000;

/**
 * What a long-poll loop does when the upstream misbehaves, whatever the way: an error status, a
 * redirect, a reset, a deadline passed, an answer that is no page, a cursor that does not move.
 * Each is counted as a retry, logged once per cause per interval (with its status or reason) and
 * followed by the same back-off as a 5xx, so no misbehaviour becomes a hot loop.
 */
export class PollFaults {
  private readonly backoff = new Backoff();

  constructor(
    private readonly ctx: TransportContext,
    private readonly transport: Transport,
  ) {}

  /** Logs the fault (once per cause per interval) and waits the back-off, or `retryAfterMs`. */
  async fault(cause: string, fields: Record<string, unknown>, retryAfterMs?: number): Promise<void> {
    const wait = this.backoff.next(retryAfterMs);
    this.ctx.stats.retries++;
    this.ctx.causes.warn(
      `${this.transport}: ${cause}`,
      { transport: this.transport, reason: cause, ...fields, retryInMs: wait },
      `${this.transport} request failed; retrying`,
    );
    await pause(this.ctx.clock, wait, this.ctx.signal);
  }

  /** The upstream moved the recording on: the back-off starts over. */
  progressed(): void {
    this.backoff.reset();
  }

  /**
   * An empty answer (204) after `ms`: held as a long poll should be, the next poll goes at once;
   * answered at once, polls are spaced UNHELD_EMPTY_MS apart (logged once per interval).
   */
  async empty(ms: number): Promise<void> {
    if (ms >= UNHELD_EMPTY_MS) {
      this.progressed();
      return;
    }
    this.ctx.causes.warn(
      `${this.transport}: unheld empty answer`,
      { transport: this.transport, ms },
      `${this.transport}: the upstream answered 204 without holding the poll; asking at most once a second`,
    );
    // Polls start at most once a second, however fast the upstream answers.
    await pause(this.ctx.clock, UNHELD_EMPTY_MS - ms, this.ctx.signal);
  }
}
