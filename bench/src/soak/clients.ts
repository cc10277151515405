import type WebSocket from 'ws';
import { EARLY_HANG_UP_MS, PollClients } from '../clients/polls';
import { closeAll, connectEventStream, connectMany, connectStomp } from '../clients/ws';
import { monoMs } from '../harness/proc';
import type { SoakConfig } from './config';
import type { ReceiptLedger } from './ledger';
import { seqOfPayloadKey, seqOfXml, soakXml } from './messages';
import type { SoakUser } from './users';

/** Answers that were neither data nor an empty long poll (401, 500, unparsable bodies). */
export interface OddAnswers {
  count: number;
  last?: string;
}

const noteOdd = (odd: OddAnswers, what: string, text: string) => {
  odd.count++;
  odd.last = `${what}: ${text.slice(0, 200)}`;
};

/** A JSON document, or undefined for a text that is not one. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Who receives: the users the clients belong to, the ledger of their receipts, what was odd. */
export interface Receivers {
  readonly users: readonly SoakUser[];
  readonly ledger: ReceiptLedger;
  readonly odd: OddAnswers;
}

/** Client i belongs to user i mod n: the clients are spread evenly over the users. */
const bearer = (users: readonly SoakUser[], i: number) => ({
  authorization: `Bearer ${(users[i % users.length] as SoakUser).token}`,
});

/**
 * Legacy long-pollers of GET /customerapi/channels/listen. The hang-up share (spread evenly over
 * the clients) abandon half of their polls and poll again at once: half of those at a random
 * moment before the long-poll timeout, half 0-20 ms after sending (before any byte of the answer).
 */
export function legacyPollers(
  port: number,
  config: SoakConfig,
  { users, ledger, odd }: Receivers,
  hangingUp: () => boolean,
): PollClients {
  const hangsUp = (i: number) =>
    Math.floor((i + 1) * config.hangUpShare) > Math.floor(i * config.hangUpShare);
  return new PollClients({
    ...{ port, count: config.clients.legacyPollers, headers: (i) => bearer(users, i) },
    ...{ initialPath: '/customerapi/channels/listen', nextPath: (_body, current) => current },
    hangUpStyle: config.hangUpStyle,
    hangUpAfter: (i) =>
      hangingUp() && hangsUp(i) && Math.random() < 0.5
        ? Math.random() * (Math.random() < 0.5 ? EARLY_HANG_UP_MS : config.longPollTimeoutMs)
        : undefined,
    onResponse: (status, body, at, client) => {
      if (status === 204) return;
      const xml = status === 200 ? parsed(body.toString()) : undefined;
      if (typeof xml !== 'string') return noteOdd(odd, `legacy listen ${status}`, body.toString());
      const seq = seqOfXml(xml);
      const target = ledger.posts.target[seq];
      ledger.record(
        client % users.length,
        seq,
        at,
        target !== undefined && xml === soakXml('Durable', seq, target),
      );
    },
  });
}

type StoredEvent = { eventId?: unknown; channel?: unknown; payload?: { seq?: unknown } };

/** JSON pollers of GET /customerapi/events, each following the lastEventId of its last page. */
export function jsonPollers(port: number, count: number, { users, ledger, odd }: Receivers): PollClients {
  const next = new Float64Array(count);
  const pathFrom = (id: number) => `/customerapi/events?lastEventId=${id}&limit=500`;
  return new PollClients({
    ...{ port, count, headers: (i) => bearer(users, i), initialPath: pathFrom(0) },
    nextPath: (_body, _current, client) => pathFrom(next[client] as number),
    onResponse: (status, body, at, client) => {
      if (status === 204) return;
      const page = parsed(body.toString()) as { data?: { events?: StoredEvent[] } } | undefined;
      const events = status === 200 ? page?.data?.events : undefined;
      if (!Array.isArray(events)) return noteOdd(odd, `JSON events ${status}`, body.toString());
      for (const event of events) {
        const [eventId, seq] = [Number(event.eventId), Number(event.payload?.seq)];
        const first = ledger.record(client, seq, at, ledger.posts.target[seq] === event.channel);
        if (eventId > (next[client] as number)) next[client] = eventId;
        else if (first) ledger.outOfOrder++;
      }
    },
  });
}

/** Receipts of the posted messages in one text a WebSocket client received: [seq, content matches]. */
type Reader = (text: string, ledger: ReceiptLedger, odd: OddAnswers) => Array<[number, boolean]>;

/** JSON event-stream Data messages carry the posted channel and payload. */
const readEventStream: Reader = (text, ledger, odd) => {
  const message = parsed(text) as {
    type?: string;
    data?: { channel?: unknown; payload?: { seq?: unknown } };
  };
  if (message === undefined) noteOdd(odd, 'event-stream', text);
  if (message?.type !== 'Data') return [];
  const seq = Number(message.data?.payload?.seq);
  return [[seq, ledger.posts.target[seq] === message.data?.channel]];
};

/** A legacy STOMP MESSAGE body is JSON {channel, payloadKey, payload, timestamp}. */
const readStomp: Reader = (text, ledger, odd) =>
  text.split('\0').flatMap((frame): Array<[number, boolean]> => {
    const start = frame.indexOf('MESSAGE\n');
    if (start < 0) return [];
    const body = parsed(frame.slice(frame.indexOf('\n\n', start) + 2)) as Record<string, unknown> | undefined;
    if (body === undefined) return (noteOdd(odd, 'STOMP', frame), []);
    const seq = seqOfPayloadKey(body.payloadKey);
    const target = ledger.posts.target[seq];
    return [
      [
        seq,
        target !== undefined &&
          body.channel === target &&
          body.payload === soakXml('NonDurable', seq, target),
      ],
    ];
  });

/** Legacy STOMP subscribers or JSON event-stream clients, spread over the users, closed together. */
export async function streamClients(
  kind: 'stomp' | 'event-stream',
  port: number,
  count: number,
  { users, ledger, odd }: Receivers,
): Promise<() => void> {
  const [connect, read] =
    kind === 'stomp' ? [connectStomp, readStomp] : [connectEventStream, readEventStream];
  const sockets = await connectMany(count, (i) => connect(port, (users[i % users.length] as SoakUser).token));
  let closing = false;
  sockets.forEach((ws, i) => {
    ws.on('message', (data: WebSocket.RawData) => {
      const at = monoMs();
      for (const [seq, matches] of read(String(data), ledger, odd)) ledger.record(i, seq, at, matches);
    });
    ws.on('close', () => closing || ledger.disconnects++);
    ws.on('error', () => undefined);
  });
  return () => {
    closing = true;
    closeAll(sockets);
  };
}
