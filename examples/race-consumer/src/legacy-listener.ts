import { authenticate, realWait, retryAfterMs, type Credentials, type Wait } from './auth';

export interface LegacyListenerOptions extends Credentials {
  /** Called with each XML document, one at a time, before the next request goes out. */
  readonly onXml: (xml: string) => void | Promise<void>;
  readonly wait?: Wait;
}

/**
 * The legacy long poll, GET /customerapi/channels/listen: one XML document per 200 (a JSON
 * string holding the XML), 204 when the hold time passed, then at once the next request. A
 * message is only taken off the server's queue once its answer was delivered, so killing this
 * loop mid-poll loses nothing: the next loop gets the message.
 */
export class LegacyListener {
  readonly stats = { messages: 0, reauthentications: 0, retries: 0 };
  private token: string | undefined;
  private running: Promise<void> | undefined;
  private readonly abort = new AbortController();
  private stopped = false;

  constructor(private readonly options: LegacyListenerOptions) {}

  start(): void {
    this.running ??= this.loop();
  }

  /** Aborts a poll in flight (the process being killed looks the same to the server). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    await this.running;
  }

  private async loop(): Promise<void> {
    const wait = this.options.wait ?? realWait;
    while (!this.stopped) {
      try {
        await this.listenOnce(wait);
      } catch {
        if (this.stopped) return;
        this.stats.retries++;
        await wait(1000);
      }
    }
  }

  private async listenOnce(wait: Wait): Promise<void> {
    const { baseUrl, key, secret } = this.options;
    this.token ??= await authenticate(baseUrl, key, secret);
    const res = await fetch(`${baseUrl}/customerapi/channels/listen`, {
      headers: { authorization: `Bearer ${this.token}` },
      signal: this.abort.signal,
    });
    if (res.status === 200) {
      const xml = JSON.parse(await res.text()) as string;
      await this.options.onXml(xml);
      this.stats.messages++;
      return;
    }
    await res.arrayBuffer();
    if (res.status === 204) return;
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
    throw new Error(`GET /customerapi/channels/listen answered ${res.status}`);
  }
}
