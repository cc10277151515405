import type WebSocket from 'ws';
import { post, postJson, postLegacy, type HttpResult } from '../harness/http';
import { AUTH, TOKEN, jsonDurableMessage, jsonTransientMessage, legacyMessage } from '../harness/payloads';
import { monoMs } from '../harness/proc';
import { PollClients } from './polls';
import { closeAll, connectBare, connectEventStream, connectMany, connectStomp } from './ws';

/**
 * The clients every delivery measure drives (latency, fan-out, control-plane cost), held by the
 * client processes (client-worker.ts), each kind with the post that reaches every one of them.
 * A delivery is stamped on arrival (monoMs, the clock every process shares), before any parsing;
 * `n` is how many messages it carries (a page of events may carry several).
 */
export type ClientKind =
  'event-stream' | 'stomp' | 'bare-ws' | 'json-polls' | 'legacy-listens' | 'bare-polls';

export interface SetSpec {
  readonly kind: ClientKind;
  readonly port: number;
  readonly count: number;
  /** JSON polls: the store's last eventId when they start. */
  readonly from?: number;
  /** Legacy listens: users bench-(first+1)... (a set split over client processes). */
  readonly first?: number;
}

export type OnDelivery = (client: number, n: number, at: number, body: Buffer) => void;

export interface ClientSet {
  readonly count: number;
  /** Connects every client (or starts every poll); `onLost` hears of a client that failed. */
  connect(onDelivery: OnDelivery, onLost: (why: string) => void): Promise<void>;
  /** Clients waiting for the next message as far as the client side can tell (polls: requests sent). */
  waiting(): number;
  close(): void;
}

/** 'M': of the frames a STOMP server sends (CONNECTED, RECEIPT, ERROR, MESSAGE) only MESSAGE. */
const STOMP_MESSAGE = 0x4d;

function wsSet(
  count: number,
  open: () => Promise<WebSocket>,
  isDelivery?: (data: Buffer) => boolean,
): ClientSet {
  let sockets: WebSocket[] = [];
  return {
    count,
    async connect(onDelivery, onLost) {
      sockets = await connectMany(count, open);
      sockets.forEach((ws, i) => {
        // Kept to a time stamp and a check of one byte: a client process takes 50,000 deliveries a second.
        ws.on('message', (data: Buffer) => {
          const at = monoMs();
          if (!isDelivery || isDelivery(data)) onDelivery(i, 1, at, data);
        });
        ws.on('close', () => onLost('a client was disconnected'));
      });
    },
    waiting: () => count,
    close: () => closeAll(sockets),
  };
}

interface Page {
  readonly data: { readonly events: ReadonlyArray<{ readonly eventId: number }> };
}

/** Long-poll clients, each re-polling as soon as an answer arrives. */
function pollSet(spec: SetSpec): ClientSet {
  const { kind, port, count } = spec;
  const lastIds = new Float64Array(count).fill(spec.from ?? 0);
  const events = (id: number) => `/customerapi/events?lastEventId=${id}`;
  const initial =
    kind === 'json-polls' ? events(spec.from ?? 0) : kind === 'legacy-listens' ? LISTEN : '/poll';
  let clients: PollClients | undefined;
  return {
    count,
    connect(onDelivery, onLost) {
      clients = new PollClients({
        port,
        count,
        // Legacy listens: one user each (bench-1..N), so one Durable post to `id` fills N queues.
        headers: (i) =>
          kind === 'legacy-listens'
            ? { authorization: `Bearer bench-token-${i + 1 + (spec.first ?? 0)}` }
            : AUTH,
        initialPath: initial,
        nextPath: (_body, current, i) => (kind === 'json-polls' ? events(lastIds[i] as number) : current),
        onResponse: (status, body, at, i) => {
          if (status !== 200) return onLost(`a poll was answered ${status}`);
          let n = 1;
          if (kind === 'json-polls') {
            const page = (JSON.parse(body.toString('utf8')) as Page).data.events;
            lastIds[i] = page.at(-1)?.eventId ?? (lastIds[i] as number);
            n = page.length;
          }
          onDelivery(i, n, at, body);
        },
      });
      clients.start();
      return Promise.resolve();
    },
    waiting: () => clients?.written ?? 0,
    close: () => clients?.stop(),
  };
}

const LISTEN = '/customerapi/channels/listen';

/** The clients of `spec`, not yet connected. */
export function openSet(spec: SetSpec): ClientSet {
  switch (spec.kind) {
    case 'event-stream':
      return wsSet(spec.count, () => connectEventStream(spec.port, TOKEN));
    case 'stomp':
      // One byte, not a decoded string: MESSAGE frames are the deliveries.
      return wsSet(
        spec.count,
        () => connectStomp(spec.port, TOKEN),
        (data) => data[0] === STOMP_MESSAGE,
      );
    case 'bare-ws':
      return wsSet(spec.count, () => connectBare(spec.port));
    default:
      return pollSet(spec);
  }
}

/** The post that reaches every client of a set: message `seq`, or for a bare baseline `body`. */
export function poster(spec: SetSpec, body?: Buffer): (seq: number) => Promise<HttpResult> {
  const { kind, port } = spec;
  if (kind === 'bare-ws' || kind === 'bare-polls') {
    if (!body) throw new Error(`${kind}: a bare baseline is posted the bytes our clients received`);
    return () => post(port, '/publish', body);
  }
  if (kind === 'event-stream') return (seq) => postJson(port, jsonTransientMessage(seq));
  if (kind === 'json-polls') return (seq) => postJson(port, jsonDurableMessage(seq));
  return (seq) => postLegacy(port, kind === 'stomp' ? 'NonDurable' : 'Durable', legacyMessage(seq));
}
