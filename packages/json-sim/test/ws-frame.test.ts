import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { prefixedTextFrame, sendBounded, sharedTextFrame } from '@racedata/core';

// The frames fan-out writes as they are (core's ws-frame.ts) must be the frames ws itself would
// send; tested here, where ws is a dependency.

/** ws's own framing (not in its type definitions). */
const wsFrame = (WebSocket as unknown as { Sender: { frame(data: Buffer, options: object): Buffer[] } })
  .Sender.frame;

describe('sharedTextFrame / prefixedTextFrame', () => {
  const sizes = [0, 1, 125, 126, 127, 65_535, 65_536, 70_000];

  test.each(sizes)('a %i-byte text gets the RFC 6455 header ws would write', (size) => {
    const text = 'x'.repeat(size);
    const { frame, payload } = sharedTextFrame(text);
    const expected = Buffer.concat(
      wsFrame(Buffer.from(text), {
        fin: true,
        opcode: 1,
        mask: false,
        readOnly: false,
        rsv1: false,
      }),
    );
    expect(frame.equals(expected)).toBe(true);
    expect(payload.toString('utf8')).toBe(text);
  });

  test('counts UTF-8 bytes, not characters, and the prefixed frame equals the whole text framed', () => {
    const shared = Buffer.from('destination:/topic/åby 🐎\n\n{"a":"é"}\0', 'utf8');
    for (const prefix of ['MESSAGE\nmessage-id:s-1\n', 'MESSAGE\nsubscription:ü\nmessage-id:s-12345\n']) {
      const framed = prefixedTextFrame(prefix, shared);
      const whole = sharedTextFrame(prefix + shared.toString('utf8'));
      expect(framed.frame.equals(whole.frame)).toBe(true);
      expect(framed.payload.equals(whole.payload)).toBe(true);
    }
  });
});

describe('sendBounded with a framed text', () => {
  let server: Server;
  let wss: WebSocketServer;

  afterEach(async () => {
    wss?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  test('every client receives the same frame as a text message, in order with send()', async () => {
    server = createServer();
    wss = new WebSocketServer({ server, perMessageDeflate: false });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const connected = new Promise<WebSocket[]>((resolve) => {
      const sockets: WebSocket[] = [];
      wss.on('connection', (ws) => {
        sockets.push(ws);
        if (sockets.length === 3) resolve(sockets);
      });
    });
    const clients = [0, 1, 2].map(() => new WebSocket(`ws://127.0.0.1:${port}`));
    const received = clients.map(
      (client) =>
        new Promise<Array<[string, boolean]>>((resolve) => {
          const seen: Array<[string, boolean]> = [];
          client.on('message', (data, isBinary) => {
            seen.push([String(data), isBinary]);
            if (seen.length === 3) resolve(seen);
          });
        }),
    );
    const sockets = await connected;
    const limit = { maxBufferedBytes: 1 << 20, onDrop: () => undefined };
    const shared = sharedTextFrame('{"type":"Data","track":"Åby"}');
    for (const ws of sockets) {
      sendBounded(ws, 'before', limit);
      sendBounded(ws, shared, limit);
      sendBounded(ws, 'after', limit);
    }
    for (const seen of await Promise.all(received)) {
      expect(seen).toEqual([
        ['before', false],
        ['{"type":"Data","track":"Åby"}', false],
        ['after', false],
      ]);
    }
    for (const client of clients) client.close();
  });
});
