import http from 'node:http';
import { seededRandom } from '../../../test-support/seeded-random';

export interface StormOptions {
  base: string;
  token: string;
  messages: number;
  pollers: number;
  /**
   * Each rude poll hangs up a random 0 to this many ms after it was sent, while the simulator
   * answers that fast; the window widens while polls keep dying unanswered (see abortWindow).
   */
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

/**
 * Injects one document over the storm's keep-alive agent. A fresh connection per injection would
 * queue behind the pollers' connections in the listen socket's accept queue (its SYN retried after
 * 1, 3 and 7 s once that queue is full), and the storm would measure the backlog, not delivery.
 */
function inject(base: string, n: number, agent: http.Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = `<m id="${n}"/>`;
    const req = http.request(`${base}/customerapi/channel/id/Durable?payloadKey=k${n}`, {
      method: 'POST',
      agent,
      headers: { 'content-type': 'text/xml', 'content-length': Buffer.byteLength(body) },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.end(body);
  });
}

/** Opens the injector's connections before any poller connects, so none waits in the backlog. */
async function openInjector(base: string, sockets: number): Promise<http.Agent> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  const health = () =>
    new Promise<void>((resolve, reject) => {
      http
        .get(`${base}/health`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve());
        })
        .on('error', reject);
    });
  await Promise.all(Array.from({ length: sockets }, health));
  return agent;
}

/**
 * Hang-ups test something only near the moment the simulator answers. On a loaded machine, or
 * with many pollers in the simulator's own process, that moment comes later than a fixed 20 ms:
 * every poll then dies before it is read, the accept queue fills with connections already gone,
 * and no hang-up meets a delivery. So each poller widens its window by a quarter after a poll that
 * died unanswered and narrows it by a fifth (never below the floor) after an answered one, which
 * keeps about half its polls answered and the rest hanging up around the answer's time.
 */
function abortWindow(floorMs: number): { ms: number; learn(answered: boolean): void } {
  const capMs = 2_000;
  return {
    ms: floorMs,
    learn(answered) {
      this.ms = answered ? Math.max(floorMs, this.ms * 0.8) : Math.min(capMs, this.ms * 1.25);
    },
  };
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
    const window = abortWindow(options.maxAbortMs);
    while (injecting || after-- > 0) {
      // Once injection ends, answers are 204s at the long-poll limit: nothing left to learn from.
      const learning = injecting;
      const result = await poll(
        options.base,
        options.token,
        random() * (learning ? window.ms : options.maxAbortMs),
      );
      closings.push(result.closed);
      if (learning) window.learn(result.body !== undefined);
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
  const burst = options.burst ?? 1;
  const injector = await openInjector(options.base, burst);
  const rudeLoops = Array.from({ length: options.pollers }, rude);
  const honestLoops = Array.from({ length: options.honestPollers ?? 0 }, honest);
  try {
    for (let first = 1; first <= options.messages; first += burst) {
      const last = Math.min(options.messages, first + burst - 1);
      const answers = [];
      for (let n = first; n <= last; n++) answers.push(inject(options.base, n, injector));
      for (const [i, status] of (await Promise.all(answers)).entries())
        if (status !== 200) throw new Error(`injection ${first + i} answered ${status}`);
    }
  } finally {
    // A failed injection (or a test that timed out and closed the simulator) must stop the
    // pollers too: left spinning against a closed port they fill the heap until the worker dies.
    injecting = false;
    injector.destroy();
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
