import type http from 'node:http';
import type { ChildServer } from './child-server';
import { DeliveryRounds, type FanOutRound } from './fan-out-run';
import { sleep, type HttpResult } from './http-client';
import { PollClients } from './poll-clients';

export interface PollFanOutTarget {
  readonly name: string;
  readonly server: ChildServer;
  readonly clients: number;
  readonly headers?: (i: number) => http.OutgoingHttpHeaders;
  /** GET /customerapi/events?lastEventId=<id> (held until an event after id is stored). */
  readonly pathAfter: (lastEventId: number) => string;
  /** The store's last eventId when the clients start (they wait for what comes after). */
  readonly from: number;
  post(seq: number): Promise<HttpResult>;
}

interface Page {
  readonly data: { readonly events: ReadonlyArray<{ readonly eventId: number }> };
}

/**
 * Long-poll clients of GET /customerapi/events, each re-polling from the last eventId it got, that
 * count per message how many clients have it; a page may carry several messages. Rounds as in
 * FanOutClients: durable messages posted with a bounded window, until every client has each.
 */
export class PollFanOut {
  private readonly rounds: DeliveryRounds;
  private readonly lastIds: Float64Array;
  private readonly clients: PollClients;
  constructor(readonly target: PollFanOutTarget) {
    this.rounds = new DeliveryRounds(target.name, target.clients, (seq) => target.post(seq));
    this.lastIds = new Float64Array(target.clients).fill(target.from);
    this.clients = new PollClients({
      port: target.server.port,
      count: target.clients,
      ...(target.headers && { headers: target.headers }),
      initialPath: target.pathAfter(target.from),
      nextPath: (_body, _current, i) => target.pathAfter(this.lastIds[i] as number),
      onResponse: (status, body, _at, i) => {
        if (status !== 200) {
          this.rounds.failure ??= new Error(`${target.name}: a poll was answered ${status}`);
          return;
        }
        const events = (JSON.parse(body.toString('utf8')) as Page).data.events;
        const last = events[events.length - 1];
        if (last) this.lastIds[i] = last.eventId;
        this.rounds.count(i, events.length);
      },
    });
  }

  /** Starts the polls and waits until the server holds every one. */
  async connect(): Promise<void> {
    this.clients.start();
    const deadline = Date.now() + 20_000;
    while ((await this.target.server.call<number>('waiting')) < this.target.clients) {
      if (Date.now() > deadline) throw new Error(`${this.target.name}: polls were not all held`);
      await sleep(5);
    }
  }

  /** See DeliveryRounds.round. */
  round(ms: number, window: number): Promise<FanOutRound> {
    return this.rounds.round(ms, window);
  }

  close(): void {
    this.rounds.stop();
    this.clients.stop();
  }
}
