import type WebSocket from 'ws';
import { PollClients } from '../lib/poll-clients';
import { closeAll, connectEventStream, connectMany, connectStomp } from '../lib/ws-clients';
import type { EventLogLedger, ReceiptLedger } from './ledger';
import { seqOfPayloadKey, seqOfXml, soakXml } from './messages';
import type { SoakUser } from './users';

/** Client i belongs to user i mod n: the clients are spread evenly over the users. */
export const roundRobin = (users: number) => (client: number) => client % users;

const bearer = (user: SoakUser) => ({ authorization: `Bearer ${user.token}` });

/** Answers that were neither data nor an empty long poll (401, 500, unparsable bodies). */
export interface OddAnswers {
  count: number;
  last?: string;
}

interface LegacyPollersOptions {
  readonly port: number;
  readonly count: number;
  readonly users: readonly SoakUser[];
  readonly ledger: ReceiptLedger;
  readonly hangUpShare: number;
  readonly hangUpStyle: 'close' | 'reset';
  readonly longPollTimeoutMs: number;
  /** Whether hang-ups are still on (the final drain switches them off). */
  readonly hangingUp: () => boolean;
  readonly odd: OddAnswers;
}

/** Hang-ups this soon after sending destroy the socket (PollClients' destroyWithinMs). */
const EARLY_HANG_UP_MS = 20;

/** Whether client i is one of the `share` of clients that hang up (spread evenly over the indices). */
function hangsUp(i: number, share: number): boolean {
  return Math.floor((i + 1) * share) > Math.floor(i * share);
}

/**
 * Legacy long-pollers of GET /customerapi/channels/listen. The hang-up share abandon half of
 * their polls and poll again at once: half of those at a random moment before the long-poll
 * timeout, half 0-20 ms after sending (destroying the socket before any byte of the answer).
 */
export function legacyPollers(options: LegacyPollersOptions): PollClients {
  const userOf = roundRobin(options.users.length);
  const { ledger, odd } = options;
  return new PollClients({
    port: options.port,
    count: options.count,
    headers: (i) => bearer(options.users[userOf(i)] as SoakUser),
    initialPath: '/customerapi/channels/listen',
    nextPath: (_body, current) => current,
    hangUpStyle: options.hangUpStyle,
    destroyWithinMs: EARLY_HANG_UP_MS,
    hangUpAfter: (i) =>
      options.hangingUp() && hangsUp(i, options.hangUpShare) && Math.random() < 0.5
        ? Math.random() * (Math.random() < 0.5 ? EARLY_HANG_UP_MS : options.longPollTimeoutMs)
        : undefined,
    onResponse: (status, body, at, client) => {
      if (status === 204) return;
      let xml: unknown;
      try {
        xml = status === 200 ? JSON.parse(body.toString('utf8')) : undefined;
      } catch {
        xml = undefined;
      }
      if (typeof xml !== 'string') {
        odd.count++;
        odd.last = `legacy listen ${status}: ${body.toString('utf8').slice(0, 200)}`;
        return;
      }
      const seq = seqOfXml(xml);
      const target = ledger.posts.target[seq];
      ledger.record(userOf(client), seq, at, target !== undefined && xml === soakXml('Durable', seq, target));
    },
  });
}

interface StoredEventBody {
  eventId?: unknown;
  channel?: unknown;
  payload?: { seq?: unknown };
}

/** JSON pollers of GET /customerapi/events, each following the lastEventId of its last page. */
export function jsonPollers(
  port: number,
  count: number,
  users: readonly SoakUser[],
  ledger: EventLogLedger,
  odd: OddAnswers,
): PollClients {
  const userOf = roundRobin(users.length);
  const next = new Float64Array(count);
  const pathFrom = (id: number) => `/customerapi/events?lastEventId=${id}&limit=500`;
  return new PollClients({
    port,
    count,
    headers: (i) => bearer(users[userOf(i)] as SoakUser),
    initialPath: pathFrom(0),
    nextPath: (_body, _current, client) => pathFrom(next[client] as number),
    onResponse: (status, body, at, client) => {
      if (status === 204) return;
      let events: StoredEventBody[] | undefined;
      try {
        const page = JSON.parse(body.toString('utf8')) as { data?: { events?: StoredEventBody[] } };
        events = status === 200 ? page.data?.events : undefined;
      } catch {
        events = undefined;
      }
      if (!Array.isArray(events)) {
        odd.count++;
        odd.last = `JSON events ${status}: ${body.toString('utf8').slice(0, 200)}`;
        return;
      }
      for (const event of events) {
        const eventId = Number(event.eventId);
        ledger.record(client, eventId, String(event.channel), Number(event.payload?.seq), at);
        if (eventId > (next[client] as number)) next[client] = eventId;
      }
    },
  });
}

/** Connected WebSocket clients of one kind, each handing the text it receives to `onText`. */
async function socketClients(
  count: number,
  connect: (i: number) => Promise<WebSocket>,
  ledger: ReceiptLedger,
  onText: (client: number, text: string, at: number) => void,
): Promise<{ close(): void }> {
  const sockets = await connectMany(count, connect);
  let closing = false;
  sockets.forEach((ws, i) => {
    ws.on('message', (data: WebSocket.RawData) => onText(i, String(data), performance.now()));
    ws.on('close', () => {
      if (!closing) ledger.disconnects++;
    });
    ws.on('error', () => undefined);
  });
  return {
    close() {
      closing = true;
      closeAll(sockets);
    },
  };
}

const tokenOf = (users: readonly SoakUser[], client: number) =>
  (users[roundRobin(users.length)(client)] as SoakUser).token;

/** JSON event-stream clients; Data messages carry the posted channel and payload. */
export function eventStreamClients(
  port: number,
  count: number,
  users: readonly SoakUser[],
  ledger: ReceiptLedger,
  odd: OddAnswers,
): Promise<{ close(): void }> {
  return socketClients(
    count,
    (i) => connectEventStream(port, tokenOf(users, i)),
    ledger,
    (client, text, at) => {
      let message: { type?: string; data?: { channel?: unknown; payload?: { seq?: unknown } } };
      try {
        message = JSON.parse(text) as typeof message;
      } catch {
        odd.count++;
        odd.last = `event-stream: ${text.slice(0, 200)}`;
        return;
      }
      if (message.type !== 'Data') return;
      const seq = Number(message.data?.payload?.seq);
      ledger.record(client, seq, at, ledger.posts.target[seq] === message.data?.channel);
    },
  );
}

/** Legacy STOMP subscribers; a MESSAGE body is JSON {channel, payloadKey, payload, timestamp}. */
export function stompClients(
  port: number,
  count: number,
  users: readonly SoakUser[],
  ledger: ReceiptLedger,
  odd: OddAnswers,
): Promise<{ close(): void }> {
  return socketClients(
    count,
    (i) => connectStomp(port, tokenOf(users, i)),
    ledger,
    (client, text, at) => {
      for (const frame of text.split('\0')) {
        const start = frame.indexOf('MESSAGE\n');
        if (start < 0) continue;
        const bodyAt = frame.indexOf('\n\n', start);
        let body: { channel?: unknown; payloadKey?: unknown; payload?: unknown };
        try {
          body = JSON.parse(frame.slice(bodyAt + 2)) as typeof body;
        } catch {
          odd.count++;
          odd.last = `STOMP: ${frame.slice(0, 200)}`;
          continue;
        }
        const seq = seqOfPayloadKey(body.payloadKey);
        const target = ledger.posts.target[seq];
        const matches =
          target !== undefined &&
          body.channel === target &&
          body.payload === soakXml('NonDurable', seq, target);
        ledger.record(client, seq, at, matches);
      }
    },
  );
}
