import { Backoff, pause, retryAfterMs } from './backoff';
import { BodyTooLargeError, failureReason, requestSignal, requestText } from './http-client';
import type { TransportContext } from './transport-context';
import { parseEvent, parseEventPage } from './upstream-messages';
import { StoppedError } from './upstream-session';
import { isRecorderError } from './errors';

/** Where the events long poll starts: after an eventId, or at the newest event (interface 4.3 rule 2). */
export type EventCursor = number | 'latest';

const PAGE_LIMIT = 100;

/**
 * GET /customerapi/events, following lastEventId (interface 4.3): every event after the cursor,
 * each written before the cursor moves past it, so a stop, a crash or a failed request never
 * skips one. Started without a cursor it asks for the newest event, which only marks where the
 * recording starts, unless it was created after the recorder started (the poll was held until
 * it came).
 */
export class EventsPoller {
  private cursor: EventCursor;
  private readonly backoff = new Backoff();
  private limit = PAGE_LIMIT;

  constructor(
    private readonly ctx: TransportContext,
    start: EventCursor,
    private readonly startedAt: number,
  ) {
    this.cursor = start;
  }

  get lastEventId(): EventCursor {
    return this.cursor;
  }

  async run(): Promise<void> {
    const { signal } = this.ctx;
    while (!signal.aborted) {
      try {
        await this.pollOnce();
      } catch (err) {
        if (err instanceof StoppedError || signal.aborted) return;
        if (isRecorderError(err)) throw err;
        if (err instanceof BodyTooLargeError) this.limit = 1;
        this.retry(failureReason(err));
        await pause(this.ctx.clock, this.backoff.next(), signal);
      }
    }
  }

  private retry(reason: string, status?: number): void {
    this.ctx.stats.retries++;
    this.ctx.logger.warn({ transport: 'events', reason, status }, 'events request failed; retrying');
  }

  private async pollOnce(): Promise<void> {
    const { session, fetch, signal, clock } = this.ctx;
    const token = await session.token();
    const query = this.cursor === 'latest' ? '' : `?lastEventId=${this.cursor}&limit=${this.limit}`;
    const answer = await requestText(
      fetch,
      `${session.base}/customerapi/events${query}`,
      {
        headers: { authorization: `Bearer ${token}` },
        signal: requestSignal(signal, this.ctx.requestTimeoutMs),
      },
      this.ctx.maxMessageBytes,
    );
    if (answer.status === 200) {
      this.backoff.reset();
      this.limit = PAGE_LIMIT;
      this.take(answer.body);
      return;
    }
    if (answer.status === 204) return;
    if (answer.status === 401) {
      this.ctx.stats.reauthentications++;
      session.refused(token);
      return;
    }
    const wait = this.backoff.next(retryAfterMs(answer.headers.get('retry-after'), clock.now()));
    this.retry(`HTTP ${answer.status}`, answer.status);
    await pause(clock, wait, signal);
  }

  private take(body: string): void {
    const { sink } = this.ctx;
    const page = parseEventPage(body);
    if (!page.ok) {
      sink.malformed('events', page.reason);
      return;
    }
    const at = sink.arrival();
    for (const item of page.value.events) {
      const event = parseEvent(item);
      const eventId = event.eventId;
      if (eventId === undefined) {
        // Without an eventId the cursor cannot pass it; the page's later events still can.
        sink.malformed('events', event.ok ? 'event without eventId' : event.reason);
        continue;
      }
      const first = this.cursor === 'latest';
      if (!first && eventId <= (this.cursor as number)) continue;
      if (!event.ok) sink.malformed('events', event.reason);
      else if (!first || (event.value.createdAt ?? 0) >= this.startedAt) {
        sink.json(
          'events',
          { at, delivery: 'durable', message: event.value.message },
          { eventId, source: this.ctx.session.base },
        );
      }
      this.cursor = eventId;
    }
  }
}
