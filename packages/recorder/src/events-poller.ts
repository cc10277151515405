import { retryAfterMs } from './backoff';
import { BodyTooLargeError, failureReason, requestText } from './http-client';
import { pollLimits, type TransportContext } from './transport-context';
import { parseEvent, parseEventPage } from './upstream-messages';
import { PollFaults } from './upstream-faults';
import { StoppedError } from './upstream-session';
import { isRecorderError } from './errors';

/** Where the events long poll starts: after an eventId, or at the newest event (interface 4.3 rule 2). */
export type EventCursor = number | 'latest';

const PAGE_LIMIT = 100;

/** What one page did to the cursor: the back-off starts over only when it moved. */
type PageOutcome =
  { readonly moved: true } | { readonly moved: false; readonly cause: string; readonly detail: string };

/**
 * GET /customerapi/events, following lastEventId (interface 4.3): every event after the cursor,
 * each written before the cursor moves past it, so a stop, a crash or a failed request never
 * skips one. Started without a cursor it asks for the newest event, which only marks where the
 * recording starts, unless it was created after the recorder started (the poll was held until
 * it came).
 *
 * Everything but a page that moves the cursor, or a held 204, is an upstream fault waited out
 * with back-off (upstream-faults.ts): an error status, a redirect, a page that is not a page, a
 * page whose eventIds are not after the cursor (hasMore or not), a 401 right after authenticating.
 */
export class EventsPoller {
  private cursor: EventCursor;
  private readonly faults: PollFaults;
  private limit = PAGE_LIMIT;
  /** A 401 since the last answer that moved anything: another one waits before authenticating again. */
  private refusedSinceProgress = false;

  constructor(
    private readonly ctx: TransportContext,
    start: EventCursor,
    private readonly startedAt: number,
  ) {
    this.cursor = start;
    this.faults = new PollFaults(ctx, 'events');
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
        await this.faults.fault(failureReason(err), {});
      }
    }
  }

  private async pollOnce(): Promise<void> {
    const { session, fetch, clock } = this.ctx;
    const token = await session.token();
    const query = this.cursor === 'latest' ? '' : `?lastEventId=${this.cursor}&limit=${this.limit}`;
    const answer = await requestText(
      fetch,
      `${session.base}/customerapi/events${query}`,
      { headers: { authorization: `Bearer ${token}` } },
      pollLimits(this.ctx),
    );
    if (answer.status === 200) {
      const outcome = this.take(answer.body);
      if (outcome.moved) {
        this.limit = PAGE_LIMIT;
        this.refusedSinceProgress = false;
        this.faults.progressed();
        return;
      }
      await this.faults.fault(outcome.cause, { lastEventId: this.cursor, detail: outcome.detail });
      return;
    }
    if (answer.status === 204) {
      await this.faults.empty(answer.ms);
      return;
    }
    if (answer.status === 401) {
      this.ctx.stats.reauthentications++;
      session.refused(token);
      if (this.refusedSinceProgress)
        await this.faults.fault('HTTP 401 again right after authenticating', { status: 401 });
      this.refusedSinceProgress = true;
      return;
    }
    const retryAfter = retryAfterMs(answer.headers.get('retry-after'), clock.now());
    await this.faults.fault(`HTTP ${answer.status}`, { status: answer.status }, retryAfter);
  }

  private take(body: string): PageOutcome {
    const { sink } = this.ctx;
    const page = parseEventPage(body);
    if (!page.ok) {
      sink.malformed('events', page.reason, false);
      return { moved: false, cause: 'malformed event page', detail: page.reason };
    }
    const at = sink.arrival();
    const before = this.cursor;
    let behind = 0;
    for (const item of page.value.events) {
      const event = parseEvent(item);
      const eventId = event.eventId;
      if (eventId === undefined) {
        // Without an eventId the cursor cannot pass it; the page's later events still can.
        sink.malformed('events', event.ok ? 'event without eventId' : event.reason);
        continue;
      }
      const first = this.cursor === 'latest';
      if (!first && eventId <= (this.cursor as number)) {
        behind++;
        continue;
      }
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
    if (behind > 0) {
      this.ctx.causes.warn(
        'events: eventIds not after lastEventId',
        { transport: 'events', lastEventId: before, skipped: behind },
        'events: the upstream sent eventIds at or before lastEventId (going backwards); they were skipped',
      );
    }
    if (this.cursor !== before) return { moved: true };
    const count = page.value.events.length;
    if (count === 0) {
      return {
        moved: false,
        cause: page.value.hasMore ? 'hasMore with no events' : 'empty event page',
        detail: page.value.hasMore
          ? 'the page says hasMore but holds no event after lastEventId'
          : 'a 200 with no events (a long poll answers 204 when nothing came)',
      };
    }
    return {
      moved: false,
      cause: 'lastEventId does not advance',
      detail: `none of the page's ${count} events is after lastEventId ${String(before)}${page.value.hasMore ? ' although it says hasMore' : ''}; the same page is not asked for again at once`,
    };
  }
}
