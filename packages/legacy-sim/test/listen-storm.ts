import http from 'node:http';
import { seededRandom } from '../../../test-support/seeded-random';

export interface StormOptions {
  base: string;
  token: string;
  messages: number;
  pollers: number;
  maxAbortMs: number;
  seed: number;
  /** Polls each rude poller makes after the last injection (bounds the storm). */
  pollsAfterInjection?: number;
  /** Pollers on keep-alive connections that read every answer, beside the rude ones. */
  honestPollers?: number;
  /** Messages injected at once; the next burst waits for the answers of this one. */
  burst?: number;
}

export interface StormResult {
  /** Messages no completed response carried. */
  lost: number;
  /** Messages more than one completed response carried. */
  duplicates: number;
  /** Responses whose client hung up before 'end'. */
  aborted: number;
  /** Messages the hanging-up pollers received in full before their deadline. */
  rudeReceived: number;
  /** Messages received by the polite drain after the storm. */
  drained: number;
}

interface Poll {
  /** The XML, or null for 204; undefined when the client hung up first. */
  body: string | null | undefined;
  /** Resolves once the client's socket is closed, so nothing of this poll is left in flight. */
  closed: Promise<void>;
}

function poll(base: string, token: string, abortAfterMs?: number, agent?: http.Agent): Promise<Poll> {
  return new Promise((resolve) => {
    const url = new URL(`${base}/customerapi/channels/listen`);
    let closedResolve: () => void = () => undefined;
    const closed = new Promise<void>((r) => (closedResolve = r));
    let settled = false;
    const settle = (body: string | null | undefined) => {
      if (settled) return;
      settled = true;
      resolve({ body, closed });
    };
    const req = http.get(url, { headers: { authorization: `Bearer ${token}` }, agent: agent ?? false });
    // A kept-alive socket outlives the poll: its poll is over once the answer ends.
    if (agent) closedResolve();
    else req.on('socket', (socket) => socket.once('close', () => closedResolve()));
    req.on('error', () => settle(undefined));
    req.on('close', () => settle(undefined));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', () => settle(undefined));
      res.on('end', () => {
        if (res.statusCode === 204) settle(null);
        else if (res.statusCode === 200) settle(JSON.parse(Buffer.concat(chunks).toString('utf8')) as string);
        else settle(undefined);
      });
    });
    if (abortAfterMs !== undefined) setTimeout(() => req.destroy(), abortAfterMs);
  });
}

function inject(base: string, n: number): Promise<Response> {
  return fetch(`${base}/customerapi/channel/id/Durable?payloadKey=k${n}`, {
    method: 'POST',
    headers: { 'content-type': 'text/xml' },
    body: `<m id="${n}"/>`,
  });
}

/**
 * Injects `messages` documents while `pollers` clients poll and hang up after a random delay,
 * then drains politely until a 204. Counts only responses whose 'end' fired.
 */
export async function stormLegacyListen(options: StormOptions): Promise<StormResult> {
  const random = seededRandom(options.seed);
  const received = new Map<number, number>();
  const closings: Promise<void>[] = [];
  let aborted = 0;
  let rudeReceived = 0;
  const record = (body: string | null | undefined) => {
    if (typeof body !== 'string') {
      if (body === undefined) aborted += 1;
      return;
    }
    const id = Number(/id="(\d+)"/.exec(body)?.[1]);
    received.set(id, (received.get(id) ?? 0) + 1);
  };
  let injecting = true;
  const rude = async () => {
    let after = options.pollsAfterInjection ?? 20;
    while (injecting || after-- > 0) {
      const result = await poll(options.base, options.token, random() * options.maxAbortMs);
      closings.push(result.closed);
      if (typeof result.body === 'string') rudeReceived += 1;
      record(result.body);
    }
  };
  const agents: http.Agent[] = [];
  const honest = async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    agents.push(agent);
    while (injecting) record((await poll(options.base, options.token, undefined, agent)).body);
  };
  const rudeLoops = Array.from({ length: options.pollers }, rude);
  const honestLoops = Array.from({ length: options.honestPollers ?? 0 }, honest);
  const burst = options.burst ?? 1;
  try {
    for (let first = 1; first <= options.messages; first += burst) {
      const last = Math.min(options.messages, first + burst - 1);
      const answers = [];
      for (let n = first; n <= last; n++) answers.push(inject(options.base, n));
      for (const [i, res] of (await Promise.all(answers)).entries())
        if (res.status !== 200) throw new Error(`injection ${first + i} answered ${res.status}`);
    }
  } finally {
    // A failed injection (or a test that timed out and closed the simulator) must stop the
    // pollers too: left spinning against a closed port they fill the heap until the worker dies.
    injecting = false;
  }
  await Promise.all(rudeLoops);
  await Promise.all(honestLoops);
  for (const agent of agents) agent.destroy();
  await Promise.all(closings);
  let drained = 0;
  for (let i = 0; i < options.messages * 2 + 10; i++) {
    const result = await poll(options.base, options.token);
    await result.closed;
    if (result.body === null) break;
    if (typeof result.body === 'string') drained += 1;
    record(result.body);
  }
  let lost = 0;
  let duplicates = 0;
  for (let n = 1; n <= options.messages; n++) {
    const times = received.get(n) ?? 0;
    if (times === 0) lost += 1;
    if (times > 1) duplicates += times - 1;
  }
  return { lost, duplicates, aborted, rudeReceived, drained };
}
