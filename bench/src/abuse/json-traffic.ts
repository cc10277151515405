import http from 'node:http';
import { httpRequest, sleep } from '../harness/http';
import { postJson } from '../harness/http';
import { eventIdOf, soakJson } from '../soak/messages';
import { check, type Check } from '../types';
import { AUTH } from './types';

/**
 * Ordinary JSON traffic beside an abuse: durable posts at a steady rate and one reader following
 * `lastEventId`, so the journal fills with received and delivered entries and any message the
 * abuse makes the simulator lose shows.
 */
export class JsonTraffic {
  private readonly posted = new Set<number>();
  private readonly read = new Set<number>();
  private refused = 0;
  private failed = 0;
  private lastError = '';
  private running = true;
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  private readonly loops: Array<Promise<void>> = [];
  private readonly inFlight = new Set<Promise<void>>();
  private sent = 0;

  constructor(
    private readonly port: number,
    private readonly postsPerSecond: number,
  ) {
    this.loops.push(this.postLoop(), this.readLoop());
  }

  private async postLoop(): Promise<void> {
    const every = 1000 / this.postsPerSecond;
    const started = performance.now();
    for (let seq = 1; this.running; seq++) {
      this.sent = seq;
      const wait = started + seq * every - performance.now();
      if (wait > 0) await sleep(wait);
      const post = postJson(this.port, soakJson('RaceDayTrot', seq)).then(
        (res) => {
          const id = res.status === 201 ? eventIdOf(res.body) : undefined;
          if (id === undefined) this.refused++;
          else this.posted.add(id);
        },
        (err: Error) => {
          // A reused keep-alive socket the server closed meanwhile: the client's race, not a refusal.
          this.failed++;
          this.lastError = err.message;
        },
      );
      this.inFlight.add(post);
      void post.finally(() => this.inFlight.delete(post));
    }
  }

  private async readLoop(): Promise<void> {
    let last = 0;
    while (!this.postingDone || this.read.size < this.posted.size) {
      const res = await httpRequest({
        port: this.port,
        path: `/customerapi/events?lastEventId=${last}&limit=1000`,
        headers: AUTH,
        agent: this.agent,
        timeoutMs: 30_000,
      }).catch(() => undefined);
      if (res?.status === 200) {
        const events = (
          JSON.parse(res.body.toString('utf8')) as { data: { events: Array<{ eventId: number }> } }
        ).data.events;
        for (const e of events) this.read.add(e.eventId);
        last = events.at(-1)?.eventId ?? last;
      } else if (res?.status !== 204) await sleep(50);
      if (Date.now() > this.deadline) break;
    }
  }

  private deadline = Number.POSITIVE_INFINITY;
  private postingDone = false;

  /** Stops posting, lets the reader catch up for up to `drainMs`, and says what was lost. */
  async stop(drainMs = 30_000): Promise<Check> {
    this.deadline = Date.now() + drainMs;
    this.running = false;
    // Posts still in flight count: the reader goes on until they are read or the drain ends.
    await Promise.all(this.loops[0] ? [this.loops[0]] : []);
    await Promise.all(this.inFlight);
    this.postingDone = true;
    await Promise.all(this.loops);
    this.agent.destroy();
    let lost = 0;
    for (const id of this.posted) if (!this.read.has(id)) lost++;
    return check(
      'messages lost',
      '0',
      `${lost} of ${this.posted.size} posted (${this.sent} sent at ${this.postsPerSecond}/s; ${this.refused} refused; ${this.failed} network errors${this.lastError ? `, last: ${this.lastError}` : ''})`,
      lost === 0 && this.refused === 0,
    );
  }
}
