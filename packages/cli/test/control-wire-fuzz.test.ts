import net from 'node:net';
import fc from 'fast-check';
import { healthCheck, startSimProcess, type SimProcess } from '@racedata/test-support/sim-process';

// The control plane and its console stream at the socket level, each simulator as its own
// process: requests cut short, trickled a few bytes at a time, split heads, pipelined pairs,
// garbage, hang-ups mid-body and mid-stream. Whatever arrives, the process stays up and quick,
// answers what it was sent completely with a well-formed status below 500, applies nothing it
// did not receive whole, and logs nothing for a client that went away.

const HEALTHY_MS = 1000;

/** Valid bodies of the routes that change state; a cut-short copy must change nothing. */
const POSTS: ReadonlyArray<readonly [string, string]> = [
  ['/_sim/faults', '{"match":{"path":"/nowhere"},"action":{"type":"status","status":503}}'],
  ['/_sim/reset', '{"events":true,"queues":true,"journal":true,"faults":true}'],
  ['/_sim/clock/advance', '{"ms":1000}'],
  ['/_sim/sandboxes', '{"longPollTimeoutMs":1000}'],
  ['/_sim/replay', '{"action":"pause"}'],
  ['/_sim/tokens/expire', '{"user":"testuser"}'],
  ['/_sim/connections/close', '{"code":3000}'],
];
const JSON_SEED: readonly [string, string] = [
  '/_sim/events',
  '{"channel":"RaceDayTrot","date":"2026-11-22","payload":{"n":1}}\n',
];

type Mode = 'cut-hangup' | 'cut-close' | 'trickle' | 'split-head' | 'pipelined';

interface WireCase {
  readonly mode: Mode;
  readonly route: readonly [string, string];
  /** Where the body is cut (cut modes), or the trickle's chunk size. */
  readonly at: number;
  readonly gapMs: number;
}

function head(method: string, path: string, body: string, connection = 'close'): string {
  return `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: ${connection}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes `parts` with gaps, then ends or destroys; resolves with every byte the server sent. */
function exchange(
  port: number,
  parts: readonly string[],
  gapMs: number,
  finish: 'end' | 'destroy' | 'wait',
): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let got = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (got += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(got));
    socket.setTimeout(5000, () =>
      reject(new Error(`no answer within 5 s to ${JSON.stringify(parts.join('').slice(0, 120))}`)),
    );
    socket.once('connect', () => {
      void (async () => {
        for (const part of parts) {
          if (socket.destroyed) return;
          socket.write(part);
          if (gapMs > 0) await pause(gapMs);
        }
        if (finish === 'destroy') socket.destroy();
        else if (finish === 'end') socket.end();
      })();
    });
  });
}

/** The status of every response in `raw`, in order. */
function statuses(raw: string): number[] {
  return [...raw.matchAll(/^HTTP\/1\.1 (\d{3}) /gm)].map((m) => Number(m[1]));
}

async function snapshot(base: string): Promise<unknown> {
  const [state, faults, sandboxes] = await Promise.all(
    ['/_sim/state', '/_sim/faults', '/_sim/sandboxes'].map(async (p) => (await fetch(base + p)).json()),
  );
  const s = state as Record<string, unknown>;
  return {
    clockOffsetMs: s.clockOffsetMs,
    store: s.store,
    queues: s.queues,
    journal: s.journal,
    replay: s.replay,
    faults: (faults as { rules: unknown }).rules,
    sandboxes: ((sandboxes as { sandboxes: Array<{ id: string }> }).sandboxes ?? []).map((x) => x.id),
  };
}

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

async function runCase(sim: SimProcess, c: WireCase): Promise<void> {
  const [path, body] = c.route;
  const request = head('POST', path, body) + body;
  const where = `${c.mode} ${path} at ${c.at}`;
  const before = await snapshot(sim.base);
  if (c.mode === 'cut-hangup' || c.mode === 'cut-close') {
    const cut = head('POST', path, body) + body.slice(0, c.at % body.length);
    const raw = await exchange(sim.port, [cut], 0, c.mode === 'cut-hangup' ? 'destroy' : 'end');
    // A body cut short is never applied; a FIN before its end is answered 400 or not at all.
    for (const status of statuses(raw)) expect({ where, status }).toEqual({ where, status: 400 });
    expect(await snapshot(sim.base)).toEqual(before);
    return;
  }
  const parts =
    c.mode === 'trickle'
      ? chunks(request, c.at)
      : c.mode === 'split-head'
        ? [request.slice(0, c.at % request.length), request.slice(c.at % request.length)]
        : [head('POST', path, body, 'keep-alive') + body + head('GET', '/_sim/state', '')];
  const raw = await exchange(sim.port, parts, c.gapMs, 'wait');
  const got = statuses(raw);
  expect({ where, count: got.length > 0, below500: got.every((s) => s < 500) }).toEqual({
    where,
    count: true,
    below500: true,
  });
}

describe.each(['json', 'legacy'] as const)('the %s control plane at the socket level', (kind) => {
  let sim: SimProcess;

  beforeAll(async () => {
    // Requests that stall are cut quickly (408), so a trickled one is the only slow thing here.
    sim = await startSimProcess(kind, [], {
      SANDBOX_MAX: '3',
      HTTP_HEADERS_TIMEOUT_MS: '3000',
      HTTP_REQUEST_TIMEOUT_MS: '3000',
      LOG_LEVEL: 'info',
    });
  });

  afterAll(async () => {
    await sim?.close();
  });

  async function healthy(): Promise<void> {
    const health = await healthCheck(sim.port);
    expect({ alive: sim.alive(), status: health.status, quick: health.ms < HEALTHY_MS }).toEqual({
      alive: true,
      status: 200,
      quick: true,
    });
  }

  it('survives requests cut short, trickled, split and pipelined, applying only whole ones', async () => {
    const routes = kind === 'json' ? [...POSTS, JSON_SEED] : POSTS;
    const wireCase: fc.Arbitrary<WireCase> = fc.record({
      mode: fc.constantFrom<Mode>('cut-hangup', 'cut-close', 'trickle', 'split-head', 'pipelined'),
      route: fc.constantFrom(...routes),
      at: fc.integer({ min: 1, max: 40 }),
      gapMs: fc.integer({ min: 0, max: 3 }),
    });
    await fc.assert(
      fc.asyncProperty(wireCase, async (c) => {
        await runCase(sim, c);
        await healthy();
      }),
      { numRuns: 120, seed: 20261127, endOnFailure: true },
    );
    // A client hanging up mid-body is its own doing: not an error for the log.
    expect(sim.output()).not.toMatch(/unexpected (control-plane|console) error/);
  }, 120_000);

  it('answers garbage on the socket with a 4xx or a close, never a crash', async () => {
    const garbage = fc.oneof(
      fc.uint8Array({ minLength: 1, maxLength: 300 }).map((b) => Buffer.from(b).toString('latin1')),
      fc.constantFrom(
        'GET /_sim/state HTTP/9.9\r\n\r\n',
        'GET /_sim/state\r\n\r\n',
        'POST /_sim/faults HTTP/1.1\r\nContent-Length: -1\r\n\r\n',
        'POST /_sim/faults HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n{}',
        'POST /_sim/faults HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
        'POST /_sim/reset HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n',
        `GET /_sim/${'a'.repeat(70_000)} HTTP/1.1\r\n\r\n`,
        `GET /_sim/state HTTP/1.1\r\nX: ${'b'.repeat(70_000)}\r\n\r\n`,
      ),
    );
    await fc.assert(
      fc.asyncProperty(garbage, async (text) => {
        const raw = await exchange(sim.port, [text], 0, 'end');
        for (const status of statuses(raw)) expect(status).toBeLessThan(500);
        await healthy();
      }),
      { numRuns: 60, seed: 20261128, endOnFailure: true },
    );
  }, 60_000);

  it('serves the console stream to clients that hang up at once, mid-backlog or send junk resume ids', async () => {
    await fetch(`${sim.base}/_sim/clock/advance`, { method: 'POST', body: '{"ms":1}' });
    const client = fc.record({
      afterMs: fc.integer({ min: 0, max: 20 }),
      lastEventId: fc.option(
        fc.oneof(fc.constantFrom('-1', '1e400', '9'.repeat(400), 'NaN', '0x10', ''), fc.nat().map(String)),
        { nil: undefined },
      ),
      since: fc.option(fc.constantFrom('-5', '1e3', 'abc', '%zz', '99999999999999999999'), {
        nil: undefined,
      }),
    });
    await fc.assert(
      fc.asyncProperty(client, async (c) => {
        const query = c.since === undefined ? '' : `?since=${c.since}`;
        const lastId = c.lastEventId === undefined ? '' : `Last-Event-ID: ${c.lastEventId}\r\n`;
        const socket = net.connect(sim.port, '127.0.0.1');
        socket.on('error', () => undefined);
        const first = new Promise<string>((resolve) => {
          socket.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1')));
          socket.once('close', () => resolve(''));
        });
        socket.write(
          `GET /_sim/stream${query} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n${lastId}\r\n`,
        );
        if (c.afterMs > 10) {
          const text = await first;
          expect(text).toMatch(/^HTTP\/1\.1 (200|400) /);
        } else await pause(c.afterMs);
        socket.destroy();
        await healthy();
      }),
      { numRuns: 60, seed: 20261129, endOnFailure: true },
    );
    expect(sim.output()).not.toMatch(/unexpected (control-plane|console) error/);
  }, 60_000);
});
