import type { Client as StompClient, IMessage } from '@stomp/stompjs' with { 'resolution-mode': 'import' };
import fc from 'fast-check';
import WebSocket from 'ws';
import { AUTH, closeAll, post, RawStomp, startSim, waitFor } from './support';

// @stomp/stompjs is an ES module whose "require" export is a UMD bundle; this file compiles to CommonJS.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Client } = require('@stomp/stompjs') as { Client: typeof StompClient };

afterEach(closeAll);

const DEST = '/customerapi/channels/user/topic/publish';

/** One WebSocket message: text, binary, or text that is not valid UTF-8. */
type Garbage = { kind: 'text'; text: string } | { kind: 'binary' | 'bad-utf8'; bytes: Uint8Array };

const framePiece = fc.constantFrom(
  `SUBSCRIBE\nid:x\ndestination:${DEST}\n\n\0`,
  'UNSUBSCRIBE\nid:x\n\n\0',
  'ACK\nid:1\nreceipt:r\n\n\0',
  'SEND\ncontent-length:2\n\nab\0',
  'CONNECT\naccept-version:1.2\n\n\0',
  'DISCONNECT\n\n\0',
  'BEGIN\ntransaction:t\n\n\0',
  '\n',
  '\0',
  'SUBSCRIBE\nid:',
  'content-length:99\n\n',
  'x:\\q\n\n\0',
);

const garbage: fc.Arbitrary<Garbage> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .array(fc.oneof({ weight: 3, arbitrary: framePiece }, fc.string({ maxLength: 20 })), { maxLength: 6 })
      .map((parts) => ({ kind: 'text' as const, text: parts.join('') })),
  },
  {
    weight: 2,
    arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => ({ kind: 'binary' as const, bytes })),
  },
  {
    weight: 1,
    arbitrary: fc.uint8Array({ minLength: 1, maxLength: 16 }).map((bytes) => ({
      kind: 'bad-utf8' as const,
      bytes: Uint8Array.from([...bytes, 0xff]),
    })),
  },
);

type Ending = 'error-and-close' | 'ws-close' | 'still-open';

/**
 * Sends the messages, then a WebSocket ping: ws answers it only after every earlier message
 * went through the session, so at the pong the session has either sent ERROR or is still open.
 */
async function sendAll(peer: RawStomp, messages: Garbage[]): Promise<Ending> {
  for (const m of messages) {
    if (peer.ws.readyState !== WebSocket.OPEN) break;
    if (m.kind === 'text') peer.ws.send(m.text);
    else peer.ws.send(Buffer.from(m.bytes), { binary: m.kind === 'binary' });
  }
  const settled = await Promise.race([
    new Promise<'pong'>((resolve) => {
      peer.ws.once('pong', () => resolve('pong'));
      if (peer.ws.readyState === WebSocket.OPEN) peer.ws.ping();
    }),
    peer.closed.then(() => 'closed' as const),
  ]);
  const error = peer.pending().find((f) => f.command === 'ERROR');
  if (error) {
    const { code } = await peer.closed;
    expect([1002, 1008]).toContain(code);
    return 'error-and-close';
  }
  if (settled === 'closed') {
    // Only a DISCONNECT (1000) and ws refusing text that is not UTF-8 (1007) end a session
    // without an ERROR.
    expect([1000, 1007]).toContain((await peer.closed).code);
    return 'ws-close';
  }
  expect(peer.ws.readyState).toBe(WebSocket.OPEN);
  return 'still-open';
}

describe('STOMP endpoint fed garbage', () => {
  it('ends every session with ERROR and a close or keeps it valid, and keeps serving', async () => {
    const run = await startSim();
    const endings = new Set<Ending>();
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.array(garbage, { minLength: 1, maxLength: 8 }),
        async (connectFirst, messages) => {
          const peer = connectFirst ? await RawStomp.connect(run.ws()) : new RawStomp(run.ws());
          await peer.opened;
          const ending = await sendAll(peer, messages);
          endings.add(ending);
          if (ending === 'still-open') {
            peer.ws.terminate();
            await peer.closed;
          }
        },
      ),
      { numRuns: 100 },
    );
    expect(endings.has('error-and-close')).toBe(true);
    await waitFor(() => run.probe.stompSessions === 0, 'every fuzzed session to end');

    expect((await fetch(`${run.base}/health`)).status).toBe(200);
    const client = new Client({
      webSocketFactory: () => new WebSocket(run.ws(), { headers: AUTH }),
      reconnectDelay: 0,
      heartbeatIncoming: 0,
      heartbeatOutgoing: 0,
    });
    const connected = new Promise<void>((resolve) => (client.onConnect = () => resolve()));
    client.activate();
    await connected;
    const messages: IMessage[] = [];
    const subscribed = new Promise<void>((resolve) => client.watchForReceipt('fresh', () => resolve()));
    client.subscribe(DEST, (m) => messages.push(m), { receipt: 'fresh' });
    await subscribed;
    expect((await post(run.base, '/customerapi/channel/id/NonDurable', '<after-fuzz/>')).status).toBe(200);
    await waitFor(() => messages.length === 1, 'the NonDurable message');
    expect(JSON.parse(messages[0]!.body).payload).toBe('<after-fuzz/>');
    await client.deactivate();
  });
});
