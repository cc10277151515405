import { EVENT_STREAM_PATH, JSON_CHANNELS } from '@racedata/json-sim';
import WebSocket from 'ws';
import type { ScenarioContext } from '../../types';

interface UserInfo {
  readonly key: string;
  readonly token: string;
  readonly channels: readonly string[];
}

/**
 * A second event-stream session of the certified user that sees the same Data messages as the
 * client: a Data frame is built once per message and written to every subscriber, so its `id`
 * here is the id the client received and is to print. It authenticates with the user's fixed
 * token (GET /_sim/users), so the client's traffic shows no extra authentication; its session
 * does show in the traffic while it is open, and the scenario counts it out.
 */
export class StreamWitness {
  private readonly ids: string[] = [];
  private readonly waiters = new Set<() => void>();

  private constructor(
    private readonly socket: WebSocket,
    readonly channel: string,
  ) {
    socket.on('message', (raw: WebSocket.RawData) => {
      const message = parse(raw) as { type?: string; id?: string; data?: { channel?: string } };
      if (message.type === 'Data' && message.data?.channel === channel && message.id) {
        this.ids.push(message.id);
        for (const wake of [...this.waiters]) wake();
      }
    });
  }

  /** A session on a transient channel of the user's subscription; throws with the reason when there is none. */
  static async open(ctx: ScenarioContext): Promise<StreamWitness> {
    const res = await fetch(`${ctx.base}/_sim/users`, { signal: ctx.signal, redirect: 'manual' });
    if (!res.ok) throw new Error(`GET /_sim/users answered ${res.status}`);
    const { users } = (await res.json()) as { users: UserInfo[] };
    const mine = users.find((u) => u.key === ctx.user.key);
    const channel = JSON_CHANNELS.transient.find((c) => mine?.channels.includes(c));
    if (!channel) throw new Error(`user ${ctx.user.key} has no transient channel`);
    const socket = new WebSocket(`${ctx.wsBase}${EVENT_STREAM_PATH}`);
    const witness = new StreamWitness(socket, channel);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => fail(new Error('the witness session did not authenticate in 5 s')),
        5_000,
      );
      const fail = (err: Error) => {
        clearTimeout(timer);
        socket.terminate();
        reject(err);
      };
      socket.once('error', fail);
      socket.once('close', (code) => fail(new Error(`the witness session closed (${code})`)));
      socket.on('message', (raw: WebSocket.RawData) => {
        const type = (parse(raw) as { type?: string }).type;
        if (type === 'Connection') socket.send(mine?.token ?? '');
        if (type === 'Authenticated') {
          clearTimeout(timer);
          socket.removeAllListeners('close');
          socket.removeAllListeners('error');
          socket.on('error', () => undefined);
          resolve();
        }
      });
    });
    return witness;
  }

  /** The id of the `n`th Data message seen (0-based), waiting up to `timeoutMs` for it. */
  async idOf(n: number, timeoutMs: number): Promise<string | undefined> {
    if (this.ids[n] !== undefined) return this.ids[n];
    await new Promise<void>((resolve) => {
      const done = () => {
        if (this.ids[n] === undefined) return;
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(done);
        resolve();
      }, timeoutMs);
      this.waiters.add(done);
    });
    return this.ids[n];
  }

  /** Resolves once the socket is closed. */
  close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.close(1000, 'certify witness done');
    });
  }
}

/** A frame that is not JSON is nothing the witness waits for (and must not throw in a listener). */
function parse(raw: WebSocket.RawData): Record<string, unknown> {
  try {
    const value = JSON.parse(String(raw)) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
