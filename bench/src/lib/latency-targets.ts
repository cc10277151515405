import type http from 'node:http';
import type WebSocket from 'ws';
import type { ChildServer } from './child-server';
import type { FanOutTarget } from './fan-out-run';
import { sleep, type HttpResult } from './http-client';
import { PollClients } from './poll-clients';
import type { Samples } from './stats';
import { closeAll, connectMany } from './ws-clients';

/** One side of a latency comparison: clients connected, one message at a time delivered to all. */
export interface LatencyTarget {
  readonly name: string;
  setup(): Promise<void>;
  /** Posts one message and resolves once every client has it; latencies go into `samples`. */
  deliverOne(seq: number, samples: Samples | undefined): Promise<void>;
  /** A response or frame as the clients received it (the baseline sends the same bytes). */
  sampleBody(): Buffer | undefined;
  teardown(): void;
}

type Post = (seq: number) => Promise<HttpResult>;

function checked(result: HttpResult, what: string): void {
  if (result.status >= 300) throw new Error(`${what}: HTTP ${result.status} ${result.body.toString('utf8')}`);
}

async function postAndWait(
  delivered: Promise<void>,
  posted: Promise<HttpResult>,
  what: string,
): Promise<void> {
  try {
    checked(await posted, what);
  } catch (err) {
    delivered.catch(() => undefined);
    throw err;
  }
  await delivered;
}

class Delivery {
  private pending = 0;
  private started = 0;
  private samples: Samples | undefined;
  private done: (() => void) | undefined;

  arm(count: number, samples: Samples | undefined): Promise<void> {
    this.pending = count;
    this.samples = samples;
    this.started = performance.now();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`only ${count - this.pending}/${count} delivered`)),
        20_000,
      );
      this.done = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  received(at: number): void {
    if (this.done === undefined) return;
    this.samples?.push(at - this.started);
    if (--this.pending === 0) {
      const done = this.done;
      this.done = undefined;
      done();
    }
  }
}

export interface PollTargetOptions {
  readonly name: string;
  readonly server: ChildServer;
  readonly clients: number;
  readonly headers?: (i: number) => http.OutgoingHttpHeaders;
  readonly initialPath: string;
  readonly nextPath: (body: Buffer, current: string) => string;
  readonly post: Post;
}

/**
 * Long-poll clients. Before each message the harness waits until the server holds every poll
 * (it asks the server process how many it holds), so each side is measured from the same state.
 */
export function pollTarget(options: PollTargetOptions): LatencyTarget {
  const delivery = new Delivery();
  let sample: Buffer | undefined;
  const clients = new PollClients({
    port: options.server.port,
    count: options.clients,
    ...(options.headers && { headers: options.headers }),
    initialPath: options.initialPath,
    nextPath: options.nextPath,
    onResponse: (status, body, at) => {
      if (status !== 200) return;
      sample = body;
      delivery.received(at);
    },
  });
  // A server that cannot count its held polls (-1) is given a moment after the last request is written.
  const allHeld = async () => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const held = await options.server.call<number>('waiting');
      if (held >= options.clients) return;
      if (held < 0 && clients.written >= options.clients) return sleep(1);
      if (Date.now() > deadline) throw new Error(`${options.name}: polls were not all held`);
      await sleep(0);
    }
  };
  return {
    name: options.name,
    setup: async () => {
      clients.start();
      await allHeld();
    },
    deliverOne: async (seq, samples) => {
      await allHeld();
      await postAndWait(delivery.arm(options.clients, samples), options.post(seq), options.name);
    },
    sampleBody: () => sample,
    teardown: () => clients.stop(),
  };
}

export function wsTarget(options: FanOutTarget): LatencyTarget {
  const delivery = new Delivery();
  let sockets: WebSocket[] = [];
  let sample: Buffer | undefined;
  return {
    name: options.name,
    setup: async () => {
      sockets = await connectMany(options.clients, options.connect);
      for (const ws of sockets) {
        ws.on('message', (data: Buffer) => {
          const at = performance.now();
          if (options.isDelivery && !options.isDelivery(data)) return;
          sample = data;
          delivery.received(at);
        });
      }
    },
    deliverOne: (seq, samples) =>
      postAndWait(delivery.arm(options.clients, samples), options.post(seq), options.name),
    sampleBody: () => sample,
    teardown: () => closeAll(sockets),
  };
}
