/** A Server-Sent Events client for tests: fetch with a streamed body, parsed into events. */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

export class SseClient {
  readonly events: SseEvent[] = [];
  private waiters: Array<() => void> = [];
  private buffer = '';
  private ended = false;

  private constructor(
    readonly response: Response,
    private readonly controller: AbortController,
  ) {}

  /** Opens the stream; resolves with the response once the headers are in. */
  static async open(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
    const controller = new AbortController();
    const res = await fetch(url, { headers, signal: controller.signal });
    const client = new SseClient(res, controller);
    if (res.body) void client.pump(res.body);
    return client;
  }

  /** The first event (from the start) matching, waiting for it up to timeoutMs. */
  async next(match: (e: SseEvent) => boolean, timeoutMs = 5000, from = 0): Promise<SseEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.slice(from).find(match);
      if (found) return found;
      if (this.ended) throw new Error('stream ended before a matching event');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no matching event in time');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Entries (event `entry`) parsed. */
  entries(): Array<Record<string, unknown>> {
    return this.events
      .filter((e) => e.event === 'entry')
      .map((e) => JSON.parse(e.data) as Record<string, unknown>);
  }

  close(): void {
    this.controller.abort();
  }

  private async pump(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        this.buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = this.buffer.indexOf('\n\n')) >= 0) {
          this.parse(this.buffer.slice(0, end));
          this.buffer = this.buffer.slice(end + 2);
        }
        this.wake();
      }
    } catch {
      // Aborted by close(), or the server went away.
    }
    this.ended = true;
    this.wake();
  }

  private parse(block: string): void {
    const event: SseEvent = { event: 'message', data: '' };
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':') || line === '') continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event.event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id') event.id = value;
    }
    if (data.length === 0) return;
    event.data = data.join('\n');
    this.events.push(event);
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
