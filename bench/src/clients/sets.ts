import http from 'node:http';
import WebSocket from 'ws';
import { post, type HttpResult } from '../harness/http';
import { TOKEN, jsonDurableMessage, jsonTransientMessage, postJson, postLegacy } from '../harness/payloads';
import { monoMs } from '../harness/processes';

/**
 * The clients of every delivery measure (latency, fan-out, control-plane cost: held by the client
 * processes, client-worker.ts), of the soak and of the abuse run, each kind with the post that
 * reaches every one of them. A delivery is stamped on arrival (monoMs, the clock every process
 * shares), before any parsing; `n` is how many messages it carries (a page of events may carry several).
 */
export type ClientKind =
  'event-stream' | 'stomp' | 'bare-ws' | 'json-polls' | 'legacy-listens' | 'bare-polls';

export interface SetSpec {
  readonly kind: ClientKind;
  readonly port: number;
  readonly count: number;
  /** Client i is the user of tokens[i % length] (default: every client the built-in testuser). */
  readonly tokens?: readonly string[];
  /**
   * Polls (in-process only, a function): ms after which client i hangs up its poll unless an
   * answer has begun (undefined: it waits); it then polls again on a new connection.
   */
  readonly hangUpAfter?: (client: number) => number | undefined;
  /**
   * 'reset' (default) destroys the socket at once, dropping even an answer on its way (which no
   * server can tell from one that was read); 'close' ends its side (FIN) and reads what was sent.
   */
  readonly hangUpStyle?: 'close' | 'reset';
}

export type OnDelivery = (client: number, n: number, at: number, body: Buffer) => void;

export interface ClientSet {
  readonly count: number;
  /** Connects every client (or starts every poll); `onLost` hears of a client that failed. */
  connect(onDelivery: OnDelivery, onLost: (why: string) => void): Promise<void>;
  /** Clients waiting for the next message as far as the client side can tell (polls: requests sent). */
  waiting(): number;
  /** Polls: those hung up (hangUpAfter), failed requests and the last failure. */
  readonly polls: { hangUps: number; errors: number; lastError?: string };
  close(): void;
}

/**
 * A hang-up this many ms or less after the request destroys the socket whatever the style: a
 * client that gives up right after sending, whose FIN reaches the server before the answer
 * leaves it (the hang-up a server can least easily tell from a read answer).
 */
export const EARLY_HANG_UP_MS = 20;
/** 'M': of the frames a STOMP server sends (CONNECTED, RECEIPT, ERROR, MESSAGE) only MESSAGE. */
const STOMP_MESSAGE = 0x4d;
export const DISCONNECTED = 'a client was disconnected';

const tokenOf = (spec: SetSpec, i: number) => spec.tokens?.[i % spec.tokens.length] ?? TOKEN;

/**
 * Every harness client: no compression (the servers under test send plain frames) and no UTF-8
 * check of text frames. The harness receives every delivery of every side; the check would cost
 * it only on text frames, so a side sending text would pay a load-generator cost the other may not.
 */
const CLIENT_OPTIONS = { perMessageDeflate: false, skipUTF8Validation: true } as const;

function opened(ws: WebSocket): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
  });
}

function nextText(ws: WebSocket): Promise<string> {
  return new Promise((resolve) => ws.once('message', (data: WebSocket.RawData) => resolve(String(data))));
}

/** A JSON event-stream client: Connection, then the token, then Authenticated. */
async function connectEventStream(port: number, token: string): Promise<WebSocket> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/customerapi/event-stream`, CLIENT_OPTIONS);
  const first = nextText(ws);
  await opened(ws);
  await first;
  const auth = nextText(ws);
  ws.send(token);
  const reply = await auth;
  if (!reply.includes('"Authenticated"')) throw new Error(`event-stream authentication failed: ${reply}`);
  return ws;
}

const STOMP_DESTINATION = '/api/v1/channels/user/topic/publish';

/** A STOMP 1.2 subscriber: token on the upgrade, no heart-beats, SUBSCRIBE confirmed by RECEIPT. */
async function connectStomp(port: number, token: string): Promise<WebSocket> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/api/v1/channels/connect`, ['v12.stomp'], {
    ...CLIENT_OPTIONS,
    headers: { authorization: `Bearer ${token}` },
  });
  await opened(ws);
  const connected = nextText(ws);
  ws.send('CONNECT\naccept-version:1.2\nhost:127.0.0.1\nheart-beat:0,0\n\n\0');
  const reply = await connected;
  if (!reply.startsWith('CONNECTED')) throw new Error(`STOMP CONNECT refused: ${reply}`);
  const receipt = nextText(ws);
  ws.send(`SUBSCRIBE\nid:sub-0\ndestination:${STOMP_DESTINATION}\nack:auto\nreceipt:r-0\n\n\0`);
  const confirmed = await receipt;
  if (!confirmed.startsWith('RECEIPT')) throw new Error(`STOMP SUBSCRIBE refused: ${confirmed}`);
  return ws;
}

function wsSet(
  spec: SetSpec,
  open: (port: number, token: string) => Promise<WebSocket>,
  isDelivery?: (data: Buffer) => boolean,
): ClientSet {
  const sockets: WebSocket[] = [];
  let closed = false;
  return {
    count: spec.count,
    async connect(onDelivery, onLost) {
      // A batch at a time, so the listen backlog never overflows.
      for (let i = 0; i < spec.count; i += 50) {
        const batch = Array.from({ length: Math.min(50, spec.count - i) }, (_, k) => i + k);
        sockets.push(...(await Promise.all(batch.map((k) => open(spec.port, tokenOf(spec, k))))));
      }
      sockets.forEach((ws, i) => {
        // Kept to a time stamp and a check of one byte: a client process takes 50,000 deliveries a second.
        ws.on('message', (data: Buffer) => {
          const at = monoMs();
          if (!isDelivery || isDelivery(data)) onDelivery(i, 1, at, data);
        });
        ws.on('close', () => closed || onLost(DISCONNECTED));
        ws.on('error', () => undefined);
      });
    },
    waiting: () => spec.count,
    polls: { hangUps: 0, errors: 0 },
    close() {
      closed = true;
      for (const ws of sockets) ws.terminate();
    },
  };
}

type Page = { data: { events: Array<{ eventId: number }> } };

/** Long-poll clients, each polling again as soon as an answer arrives (a 204 is an empty poll). */
function pollSet(spec: SetSpec): ClientSet {
  const { kind, port, count } = spec;
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const requests = new Set<http.ClientRequest>();
  const lastIds = new Float64Array(count);
  const polls: ClientSet['polls'] = { hangUps: 0, errors: 0 };
  const path = (i: number) =>
    kind === 'json-polls'
      ? `/customerapi/events?lastEventId=${lastIds[i]}`
      : kind === 'bare-polls'
        ? '/poll'
        : '/customerapi/channels/listen';
  /** Messages in an answer; a JSON page moves the client's lastEventId on. */
  const carried = (i: number, body: Buffer) => {
    if (kind !== 'json-polls') return 1;
    const events = (JSON.parse(body.toString('utf8')) as Page).data.events;
    lastIds[i] = events.at(-1)?.eventId ?? (lastIds[i] as number);
    return events.length;
  };
  let [written, closed] = [0, false];
  const start = (onDelivery: OnDelivery, onLost: (why: string) => void) => {
    const poll = (i: number): void => {
      if (closed) return;
      const hangUpMs = spec.hangUpAfter?.(i);
      let [sent, hungUp, timer] = [false, false, undefined as NodeJS.Timeout | undefined];
      const settle = () => {
        requests.delete(req);
        if (sent) written--;
        sent = false;
        clearTimeout(timer);
      };
      const headers = { authorization: `Bearer ${tokenOf(spec, i)}` };
      // A poll that will hang up gets a connection of its own, never reused after it.
      const options = {
        host: '127.0.0.1',
        port,
        path: path(i),
        headers,
        agent: hangUpMs === undefined && agent,
      };
      const req = http.request(options, (res) => {
        // An answer has begun: it is read in full, never abandoned half way.
        clearTimeout(timer);
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const at = monoMs();
          settle();
          if (closed) return;
          const body = Buffer.concat(chunks);
          if (res.statusCode === 200) onDelivery(i, carried(i, body), at, body);
          else if (res.statusCode !== 204)
            onLost(`a poll was answered ${res.statusCode}: ${body.toString().slice(0, 200)}`);
          poll(i);
        });
      });
      requests.add(req);
      req.on('finish', () => ((sent = true), written++));
      req.on('error', (err) => {
        settle();
        if (closed) return;
        if (hungUp) return void setImmediate(() => poll(i));
        [polls.errors, polls.lastError] = [polls.errors + 1, err.message];
        setTimeout(() => poll(i), 50);
      });
      if (hangUpMs !== undefined) {
        timer = setTimeout(() => {
          [hungUp, polls.hangUps] = [true, polls.hangUps + 1];
          // 'close': the poll ends when the server answers or closes; 'error' or 'end' polls again.
          const early = hangUpMs <= EARLY_HANG_UP_MS;
          if (early || spec.hangUpStyle !== 'close' || !req.socket) req.destroy();
          else req.socket.end();
        }, hangUpMs);
      }
      req.end();
    };
    for (let i = 0; i < count; i++) poll(i);
  };
  return {
    count,
    connect: (onDelivery, onLost) => Promise.resolve(start(onDelivery, onLost)),
    waiting: () => written,
    polls,
    close() {
      closed = true;
      for (const req of requests) req.destroy();
      agent.destroy();
    },
  };
}

/** The clients of `spec`, not yet connected. */
export function openSet(spec: SetSpec): ClientSet {
  if (spec.kind === 'event-stream') return wsSet(spec, connectEventStream);
  // One byte, not a decoded string: MESSAGE frames are the deliveries.
  if (spec.kind === 'stomp') return wsSet(spec, connectStomp, (data) => data[0] === STOMP_MESSAGE);
  if (spec.kind !== 'bare-ws') return pollSet(spec);
  // A plain WebSocket client of a bare baseline.
  return wsSet(spec, (port) => opened(new WebSocket(`ws://127.0.0.1:${port}/`, CLIENT_OPTIONS)));
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
  return (seq) => postLegacy(port, kind === 'stomp' ? 'NonDurable' : 'Durable', seq);
}
