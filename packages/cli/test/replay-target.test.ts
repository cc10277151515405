import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ManualClock, type RecordedJsonMessage, type RecordedLegacyMessage } from '@racedata/core';
import { waitFor } from '@racedata/test-support';
import { createPoster } from '../src/replay/message-poster';
import { waitForTarget } from '../src/replay/target-health';
import type { FetchFn } from '../src/replay/target-http';

interface Seen {
  method: string;
  url: string;
  contentType: string | undefined;
  body: string;
}

/** A stand-in simulator on port 0 that records posts and answers the first `fail` with `failStatus`. */
async function target(fail = 0, failStatus = 503) {
  const seen: Seen[] = [];
  let failures = fail;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, contentType: req.headers['content-type'], body });
      const status = failures-- > 0 ? failStatus : 201;
      res.writeHead(status, { 'content-type': 'application/json' }).end('{"status":"x","message":"nope"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { url, seen, close };
}

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});
async function started(fail = 0, failStatus = 503) {
  const t = await target(fail, failStatus);
  servers.push(t);
  return t;
}

async function closedPort(): Promise<string> {
  const t = await target();
  await t.close();
  return t.url;
}

const legacyMsg = (delivery: 'durable' | 'transient'): RecordedLegacyMessage => ({
  kind: 'legacy',
  at: 0,
  delivery,
  channel: 'StartList',
  payloadKey: 'StartList-2024-05-11-901 &1',
  xml: '<StartList date="2024-05-11"/>',
  source: 'a.jsonl:1',
});

const jsonMsg: RecordedJsonMessage = {
  kind: 'json',
  at: 0,
  delivery: 'transient',
  message: { channel: 'TimeToStartTrot', date: '2024-05-11', trackId: 901, raceNr: 2, payload: { s: 1 } },
  source: 'b.jsonl:4',
};

describe('replay: posting to the target', () => {
  it('posts legacy XML to the Durable and NonDurable injection endpoints', async () => {
    const t = await started();
    const post = createPoster({ target: t.url, fetch, clock: new ManualClock(), retries: 0 });
    await post(legacyMsg('durable'));
    await post(legacyMsg('transient'));
    const query = '?payloadKey=StartList-2024-05-11-901%20%261';
    expect(t.seen).toEqual([
      {
        method: 'POST',
        url: `/customerapi/channel/StartList/Durable${query}`,
        contentType: 'application/xml',
        body: '<StartList date="2024-05-11"/>',
      },
      expect.objectContaining({ url: `/customerapi/channel/StartList/NonDurable${query}` }),
    ]);
  });

  it('posts a JSON message to /api/message as its event body', async () => {
    const t = await started();
    await createPoster({ target: t.url, fetch, clock: new ManualClock(), retries: 0 })(jsonMsg);
    expect(t.seen).toHaveLength(1);
    expect(t.seen[0]).toMatchObject({ method: 'POST', url: '/api/message', contentType: 'application/json' });
    expect(JSON.parse(t.seen[0]!.body)).toEqual(jsonMsg.message);
  });

  it('retries a 5xx with doubling backoff on the clock', async () => {
    const t = await started(2);
    const clock = new ManualClock();
    const post = createPoster({ target: t.url, fetch, clock, retries: 3, backoffMs: 250 });
    let done = false;
    const posting = post(jsonMsg).then(() => (done = true));
    await waitFor(() => clock.pendingTimers === 1);
    expect(t.seen).toHaveLength(1);
    clock.advance(249);
    expect(clock.pendingTimers).toBe(1);
    clock.advance(1);
    await waitFor(() => clock.pendingTimers === 1);
    expect(t.seen).toHaveLength(2);
    clock.advance(499);
    expect(clock.pendingTimers).toBe(1);
    clock.advance(1);
    await posting;
    expect(done).toBe(true);
    expect(t.seen).toHaveLength(3);
    expect(new Set(t.seen.map((s) => s.body)).size).toBe(1);
  });

  it('gives up after the retries, naming the last failure', async () => {
    const t = await started(10);
    const clock = new ManualClock();
    const posting = createPoster({ target: t.url, fetch, clock, retries: 2, backoffMs: 10 })(jsonMsg);
    posting.catch(() => undefined);
    for (let i = 0; i < 2; i++) {
      await waitFor(() => clock.pendingTimers === 1);
      clock.advance(1000);
    }
    await expect(posting).rejects.toThrow(/HTTP 503: .*nope.*gave up after 3 attempts/);
    expect(t.seen).toHaveLength(3);
  });

  it('does not retry a 4xx', async () => {
    const t = await started(1, 400);
    const posting = createPoster({ target: t.url, fetch, clock: new ManualClock(), retries: 3 })(jsonMsg);
    await expect(posting).rejects.toMatchObject({ code: 'POST_REJECTED' });
    await expect(posting).rejects.toThrow(/HTTP 400: .*nope/);
    expect(t.seen).toHaveLength(1);
  });

  it('retries a refused connection and reports it', async () => {
    const url = await closedPort();
    const clock = new ManualClock();
    const posting = createPoster({ target: url, fetch, clock, retries: 1, backoffMs: 5 })(jsonMsg);
    posting.catch(() => undefined);
    await waitFor(() => clock.pendingTimers === 1);
    clock.advance(5);
    await expect(posting).rejects.toThrow(/ECONNREFUSED.*gave up after 2 attempts/);
  });
});

describe('replay: a redirecting target', () => {
  /** A target that redirects everything to `to`, and a second server counting what reaches it. */
  async function redirecting(status: number) {
    const other = await started();
    const server = http.createServer((req, res) => {
      req.resume();
      res.writeHead(status, { location: `${other.url}${req.url}` }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push({
      close: () => {
        server.closeAllConnections();
        return new Promise<void>((resolve) => server.close(() => resolve()));
      },
    });
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, other };
  }

  it.each([301, 302, 307, 308])(
    'a %i to a post is not followed: retried like a 5xx, then given up, nothing sent to the Location',
    async (status) => {
      const { url, other } = await redirecting(status);
      const post = createPoster({ target: url, fetch, clock: new ManualClock(), retries: 0 });
      await expect(post(jsonMsg)).rejects.toThrow(
        `HTTP ${status} to ${other.url}/api/message (a redirect: not followed) (gave up after 1 attempt)`,
      );
      expect(other.seen).toEqual([]);
    },
  );

  it('a redirected /health is not healthy, and says why', async () => {
    const { url, other } = await redirecting(302);
    const clock = new ManualClock();
    const waited = waitForTarget(url, { fetch, clock, waitTimeoutMs: 0 });
    await expect(waited).rejects.toThrow(
      `HTTP 302 to ${other.url}/health (a redirect: not followed; give the simulator's own URL)`,
    );
    expect(other.seen).toEqual([]);
  });
});

describe('replay: waiting for the target', () => {
  const answers = (...statuses: Array<number | Error>): FetchFn => {
    const queue = [...statuses];
    return (async () => {
      const next = queue.length > 1 ? queue.shift()! : queue[0]!;
      if (next instanceof Error) throw next;
      return new Response(JSON.stringify({ status: 'ok', simulator: 'legacy' }), { status: next });
    }) as FetchFn;
  };

  it('polls /health until it answers 200 and reports the simulator kind', async () => {
    const clock = new ManualClock();
    const fetchFn = answers(new Error('refused'), 503, 200);
    let health: unknown;
    const waiting = waitForTarget('http://sim', { fetch: fetchFn, clock, waitTimeoutMs: 30_000 }).then(
      (h) => (health = h),
    );
    await waitFor(() => clock.pendingTimers === 1);
    clock.advance(500);
    await waitFor(() => clock.pendingTimers === 1);
    clock.advance(500);
    await waiting;
    expect(health).toEqual({ simulator: 'legacy' });
  });

  it('gives up after the wait timeout with the last reason', async () => {
    const clock = new ManualClock();
    const waiting = waitForTarget('http://sim', { fetch: answers(503), clock, waitTimeoutMs: 1200 });
    waiting.catch(() => undefined);
    for (const pause of [500, 500, 200]) {
      await waitFor(() => clock.pendingTimers === 1);
      clock.advance(pause);
    }
    const error = await waiting.catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TARGET_UNREACHABLE' });
    expect((error as Error).message).toBe(
      'target http://sim not healthy after waiting 1200 ms (last attempt: HTTP 503)',
    );
  });

  it('reads a real /health', async () => {
    const server = http.createServer((_req, res) => res.end('{"status":"ok","simulator":"json"}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const health = await waitForTarget(url, { fetch, clock: new ManualClock(), waitTimeoutMs: 0 });
    expect(health).toEqual({ simulator: 'json' });
  });
});
