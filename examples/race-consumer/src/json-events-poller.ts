import { authenticate, realWait, retryAfterMs, type Credentials, type Wait } from './auth';

export interface RaceEvent {
  readonly eventId: number;
  readonly channel: string;
  readonly date: string;
  readonly trackId?: number;
  readonly raceNr?: number;
  readonly startNr?: number;
  readonly payload: unknown;
  readonly created_at: string;
}

export interface JsonEventsPollerOptions extends Credentials {
  /** Called with each page, in eventId order; the poller moves on only after it resolves. */
  readonly onEvents: (events: readonly RaceEvent[]) => void | Promise<void>;
  /** Where to resume: the last eventId this consumer has handled (0: everything kept). */
  readonly lastEventId?: number;
  readonly limit?: number;
  readonly wait?: Wait;
}

/**
 * Reads the durable channels with GET /customerapi/events, a long poll. The mistakes it avoids:
 * it always sends the last eventId it has *handled* (never one it only received), so a 503, a
 * dropped connection or a restart resumes exactly where it stopped; it waits as long as
 * Retry-After says; and on a 401 it authenticates again instead of giving up.
 */
export class JsonEventsPoller {
  lastEventId: number;
  /** What happened, for logs and tests. */
  readonly stats = { pages: 0, retries: 0, reauthentications: 0 };
  private token: string | undefined;
  private running: Promise<void> | undefined;
  private abort = new AbortController();
  private stopped = false;

  constructor(private readonly options: JsonEventsPollerOptions) {
    this.lastEventId = options.lastEventId ?? 0;
  }

  start(): void {
    this.running ??= this.loop();
  }

  /** Stops after the current request (aborted if it is still held open). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    await this.running;
  }

  private async loop(): Promise<void> {
    const wait = this.options.wait ?? realWait;
    while (!this.stopped) {
      try {
        await this.pollOnce(wait);
      } catch (err) {
        if (this.stopped) return;
        // A reset connection or a refused one: the same request again after a pause.
        this.stats.retries++;
        await wait(1000);
        void err;
      }
    }
  }

  private async pollOnce(wait: Wait): Promise<void> {
    const { baseUrl, key, secret, limit = 100 } = this.options;
    this.token ??= await authenticate(baseUrl, key, secret);
    const res = await fetch(`${baseUrl}/customerapi/events?lastEventId=${this.lastEventId}&limit=${limit}`, {
      headers: { authorization: `Bearer ${this.token}` },
      signal: this.abort.signal,
    });
    if (res.status === 200) {
      const body = (await res.json()) as { data: { events: RaceEvent[] } };
      const events = body.data.events;
      await this.options.onEvents(events);
      const last = events[events.length - 1];
      if (last) this.lastEventId = last.eventId;
      this.stats.pages++;
      return;
    }
    await res.arrayBuffer();
    if (res.status === 204) return; // nothing new within the long-poll time: ask again at once
    if (res.status === 401) {
      this.token = undefined;
      this.stats.reauthentications++;
      return;
    }
    if (res.status === 429 || res.status >= 500) {
      this.stats.retries++;
      await wait(retryAfterMs(res.headers.get('retry-after'), 1000));
      return;
    }
    throw new Error(`GET /customerapi/events answered ${res.status}`);
  }
}
