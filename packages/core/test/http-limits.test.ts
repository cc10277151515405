import { connect, type Socket } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHttpLifecycle, type HttpLifecycle, type HttpLimits } from '@racedata/core';
import { waitFor } from '@racedata/test-support';

const LIMITS: HttpLimits = {
  httpHeadersTimeoutMs: 200,
  httpRequestTimeoutMs: 300,
  maxInflightBodyBytes: 1024 * 1024,
  maxBodyBytes: 1024,
};

/** A raw client: writes what the test says, records what comes back, resolves when closed. */
class RawClient {
  readonly socket: Socket;
  received = '';
  readonly closed: Promise<string>;
  private trickle: NodeJS.Timeout | undefined;

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.setEncoding('latin1');
    this.socket.on('data', (text: string) => (this.received += text));
    this.socket.on('error', () => undefined);
    this.closed = new Promise((resolve) =>
      this.socket.once('close', () => {
        clearInterval(this.trickle);
        resolve(this.received);
      }),
    );
  }

  /** Sends `text` one byte per `everyMs` until it is all out or the server closes. */
  trickleOut(text: string, everyMs = 25): void {
    let at = 0;
    this.trickle = setInterval(() => {
      if (at >= text.length || this.socket.destroyed) return clearInterval(this.trickle);
      this.socket.write(text[at++] as string);
    }, everyMs);
  }

  /** Resolves with what arrived once it matches (or the connection ended). */
  async reply(pattern: RegExp): Promise<string> {
    await waitFor(() => pattern.test(this.received) || this.socket.destroyed, 'a response');
    return this.received;
  }

  destroy(): void {
    clearInterval(this.trickle);
    this.socket.destroy();
  }
}

/** Waits for a reply matching `pattern` and fails with what did arrive if the connection ended first. */
async function expectReply(client: RawClient, pattern: RegExp): Promise<void> {
  expect(await client.reply(pattern)).toMatch(pattern);
}

function post(length: number, chunked = false): string {
  const framing = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`;
  return `POST /echo HTTP/1.1\r\nHost: x\r\n${framing}\r\n\r\n`;
}

describe('HTTP limits against slow and greedy clients', () => {
  const opened: HttpLifecycle[] = [];
  const clients: RawClient[] = [];
  const held: ServerResponse[] = [];

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/hold') {
      held.push(res);
      return;
    }
    let bytes = 0;
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => {
      if (req.url === '/hold-after-body') {
        held.push(res);
        return;
      }
      res.end(`got ${bytes}`);
    });
  };

  async function start(limits: Partial<HttpLimits> = {}) {
    const lc = createHttpLifecycle({ handler, limits: { ...LIMITS, ...limits } });
    opened.push(lc);
    const { port } = await lc.listen();
    const client = () => {
      const c = new RawClient(port);
      clients.push(c);
      return c;
    };
    return { lc, port, client };
  }

  afterEach(async () => {
    for (const c of clients.splice(0)) c.destroy();
    for (const res of held.splice(0)) if (!res.writableEnded) res.end();
    for (const lc of opened.splice(0)) await lc.close();
  });

  it('cuts a client trickling its body with 408 and keeps serving others meanwhile', async () => {
    const { client } = await start();
    const slow = client();
    slow.socket.write(post(100));
    slow.trickleOut('x'.repeat(100));
    const other = client();
    other.socket.write('GET /x HTTP/1.1\r\nHost: x\r\n\r\n');
    await expectReply(other, /^HTTP\/1\.1 200/);
    expect(await slow.closed).toMatch(/^HTTP\/1\.1 408/);
  });

  it('cuts a client trickling its request head with 408', async () => {
    const { client } = await start();
    const slow = client();
    slow.trickleOut('GET /x HTTP/1.1\r\nHost: x\r\nX-Padding: ' + 'p'.repeat(200));
    expect(await slow.closed).toMatch(/^HTTP\/1\.1 408/);
  });

  it.each([
    ['a GET held by the server', 'GET /hold HTTP/1.1\r\nHost: x\r\n\r\n'],
    [
      'a POST answered long after its body arrived',
      'POST /hold-after-body HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nok',
    ],
  ])('never cuts %s however long it is held', async (_what, request) => {
    const { client } = await start();
    const poll = client();
    poll.socket.write(request);
    await waitFor(() => held.length === 1, 'the request to be held');
    // A trickling client that arrives later is cut, so the deadline check has run past the held one.
    const slow = client();
    slow.socket.write(post(100));
    slow.trickleOut('x'.repeat(100));
    expect(await slow.closed).toMatch(/^HTTP\/1\.1 408/);
    expect(poll.socket.destroyed).toBe(false);
    held[0]!.end('late answer');
    await expectReply(poll, /^HTTP\/1\.1 200[^]*late answer$/);
  });

  it('refuses bodies past MAX_INFLIGHT_BODY_BYTES with 503 + Retry-After, and takes them again once room is free', async () => {
    const { lc, client } = await start({ maxInflightBodyBytes: 100, maxBodyBytes: 80 });
    const first = client();
    first.socket.write(post(80) + 'x'.repeat(40));
    await waitFor(() => lc.bodyBytesInFlight === 80, 'the first body to be claimed');

    const refused = client();
    refused.socket.write(post(50) + 'y'.repeat(50));
    const reply = await refused.closed;
    expect(reply).toMatch(/^HTTP\/1\.1 503/);
    expect(reply).toMatch(/\r\nretry-after: 1\r\n/i);
    expect(reply).toContain('MAX_INFLIGHT_BODY_BYTES 100');

    const fits = client();
    fits.socket.write(post(20) + 'z'.repeat(20));
    await expectReply(fits, /^HTTP\/1\.1 200[^]*got 20$/);

    first.socket.write('x'.repeat(40));
    await expectReply(first, /got 80$/);
    await waitFor(() => lc.bodyBytesInFlight === 0, 'the claims to be released');
  });

  it('claims the per-body limit for a chunked body and releases it when the client goes away', async () => {
    const { lc, client } = await start({ maxInflightBodyBytes: 100, maxBodyBytes: 80 });
    const chunked = client();
    chunked.socket.write(post(0, true) + '5\r\nhello\r\n');
    await waitFor(() => lc.bodyBytesInFlight === 80, 'the chunked body to be claimed');
    chunked.destroy();
    await waitFor(() => lc.bodyBytesInFlight === 0, 'the claim to be released');
    const next = client();
    next.socket.write(post(80) + 'x'.repeat(80));
    await expectReply(next, /got 80$/);
  });

  it('lets a body-less request through whatever the budget holds', async () => {
    const { lc, client } = await start({ maxInflightBodyBytes: 80, maxBodyBytes: 80 });
    const first = client();
    first.socket.write(post(80) + 'x');
    await waitFor(() => lc.bodyBytesInFlight === 80, 'the body to be claimed');
    const get = client();
    get.socket.write('GET /x HTTP/1.1\r\nHost: x\r\n\r\n');
    await expectReply(get, /^HTTP\/1\.1 200/);
  });
});
