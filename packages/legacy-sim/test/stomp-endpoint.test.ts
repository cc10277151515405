import type { Client as StompClient, IMessage } from '@stomp/stompjs' with { 'resolution-mode': 'import' };
import WebSocket from 'ws';
import { ManualClock } from '@racedata/core';
import { TOKENS } from '@racedata/test-support';
import { AUTH, closeAll, post, RawStomp, startSim, waitFor } from './support';

// @stomp/stompjs is an ES module whose "require" export is a UMD bundle; this file compiles to CommonJS.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Client } = require('@stomp/stompjs') as { Client: typeof StompClient };

// The vendor's Node sample: stompjs 2.3.3 over ws 7, used exactly as written there.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Stomp = require('stompjs') as {
  over(ws: unknown): LegacyStompClient;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const WebSocket7 = require('ws7') as new (url: string, protocols: null, options: object) => { close(): void };

interface LegacyStompClient {
  debug: ((msg: string) => void) | null;
  connect(headers: object, onConnect: () => void, onError?: (error: unknown) => void): void;
  subscribe(
    destination: string,
    callback: (message: { body: string; headers: Record<string, string> }) => void,
  ): void;
  disconnect(callback?: () => void): void;
}

afterEach(closeAll);

function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
      ws.terminate();
    });
    ws.on('open', () => reject(new Error('upgrade unexpectedly accepted')));
    ws.on('error', () => undefined);
  });
}

describe('STOMP endpoint: upgrade', () => {
  it.each([
    ['no authorization header', {}],
    ['an unknown token', { authorization: 'Bearer wrong' }],
    ['a malformed header', { authorization: 'Token abc' }],
  ])('answers the upgrade with 401 for %s', async (_why, headers) => {
    const run = await startSim();
    expect(await upgradeStatus(run.ws(), headers)).toBe(401);
    expect(run.probe.stompSessions).toBe(0);
  });

  it('answers 401 for an expired JWT and accepts a fresh one', async () => {
    const clock = new ManualClock();
    const run = await startSim({ tokenMode: 'jwt', tokenTtlSeconds: 60 }, { clock });
    // A JWT as a client gets one: from the authenticate endpoint, as `Bearer <jwt>`.
    const issue = async () => {
      const res = await post(
        run.base,
        '/customerapi/authenticate/subscription',
        JSON.stringify({ key: 'testuser', secret: 'testpassword' }),
      );
      return res.headers.get('authorization') ?? '';
    };
    const old = await issue();
    clock.advance(61_000);
    expect(await upgradeStatus(run.ws(), { authorization: old })).toBe(401);
    const fresh = new RawStomp(run.ws(), { authorization: await issue() });
    await fresh.opened;
    fresh.close();
  });

  it('refuses upgrades on unknown paths', async () => {
    const run = await startSim();
    expect(await upgradeStatus(run.ws('/somewhere/else'), AUTH)).toBe(404);
  });

  it.each(['/customerapi/channels/connect', '/api/v1/channels/connect'])(
    'accepts the token at %s',
    async (path) => {
      const run = await startSim();
      const peer = await RawStomp.connect(run.ws(path));
      expect(run.probe.stompSessions).toBe(1);
      peer.close();
    },
  );

  it('picks a STOMP subprotocol when the client offers some', async () => {
    const run = await startSim();
    const peer = new RawStomp(run.ws(), AUTH, ['v10.stomp', 'v11.stomp']);
    await peer.opened;
    expect(peer.ws.protocol).toBe('v11.stomp');
    peer.close();
  });
});

describe('STOMP endpoint: real clients', () => {
  it('works with stompjs 2.3.3 over ws 7 exactly as in the vendor sample', async () => {
    const run = await startSim();
    const url = run.ws('/api/v1/channels/connect');
    const client = Stomp.over(
      new WebSocket7(url, null, { headers: { authorization: `Bearer ${TOKENS.testuser}` } }),
    );
    client.debug = null;
    await new Promise<void>((resolve, reject) => client.connect({}, resolve, reject));
    const received = new Promise<{ body: string; headers: Record<string, string> }>((resolve) =>
      client.subscribe('/api/v1/channels/user/topic/publish', resolve),
    );
    await waitFor(() => run.probe.hub.size === 1, 'the subscription');
    const res = await post(run.base, '/customerapi/channel/id/NonDurable', '<xml>Hello, world!</xml>');
    expect(res.status).toBe(200);
    const message = await received;
    expect(JSON.parse(message.body).payload).toBe('<xml>Hello, world!</xml>');
    expect(message.headers['content-type']).toBe('application/json');
    client.disconnect();
    await waitFor(() => run.probe.stompSessions === 0, 'the socket to close');
  });

  it('works with @stomp/stompjs 7 over ws 8 and stays open across many heart-beat periods', async () => {
    // Real timers on both sides: the client library's watchdog runs on its own. 200 ms periods
    // leave a stalled event loop (2 shared cores under a full suite) 400 ms before a watchdog trips.
    const run = await startSim({}, { stomp: { heartBeat: { send: 200, receive: 200 } } });
    let serverFrames = 0;
    const client = new Client({
      webSocketFactory: () => new WebSocket(run.ws(), { headers: AUTH }),
      heartbeatIncoming: 200,
      heartbeatOutgoing: 200,
      reconnectDelay: 0,
      debug: (line) => {
        if (line.includes('<<< PONG')) serverFrames += 1;
      },
    });
    const connected = new Promise<void>((resolve) => (client.onConnect = () => resolve()));
    const failures: string[] = [];
    client.onWebSocketClose = (event) => failures.push(`closed ${event.code}`);
    client.onStompError = (frame) => failures.push(frame.headers.message ?? 'ERROR');
    client.activate();
    await connected;
    const messages: IMessage[] = [];
    client.subscribe('/customerapi/channels/user/topic/publish', (m) => messages.push(m), { receipt: 'sub' });
    await waitFor(() => run.probe.hub.size === 1, 'the subscription');
    const before = serverFrames;
    // Idle for six heart-beat periods: a missed beat either way would trip a watchdog (2x tolerance).
    await waitFor(() => serverFrames - before >= 6, 'six server heart-beats');
    expect(failures).toEqual([]);
    expect(client.connected).toBe(true);
    await post(run.base, '/customerapi/channel/SplitTimes/NonDurable?payloadKey=p', '<SplitTimes/>');
    await waitFor(() => messages.length === 1, 'the message');
    expect(JSON.parse(messages[0]!.body)).toMatchObject({
      channel: 'SplitTimes',
      payloadKey: 'p',
      payload: '<SplitTimes/>',
    });
    expect(messages[0]!.headers['message-id']).toBeTruthy();
    await client.deactivate();
    expect(failures).toEqual(['closed 1000']);
  });
});

describe('STOMP endpoint: limits and shutdown', () => {
  it('drops a consumer that stops reading once its buffer passes wsMaxBufferedBytes', async () => {
    const run = await startSim({ wsMaxBufferedBytes: 64 * 1024 });
    const peer = await RawStomp.connect(run.ws());
    peer.send(`SUBSCRIBE\nid:1\ndestination:/user/topic/publish\nreceipt:r\n\n\0`);
    await peer.next();
    peer.ws.pause();
    const xml = `<big>${'x'.repeat(256 * 1024)}</big>`;
    for (let i = 0; i < 400 && run.probe.stompSessions > 0; i++) {
      run.probe.publish({ channel: 'id', delivery: 'transient', xml });
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(run.probe.stompSessions).toBe(0);
    expect(run.probe.hub.size).toBe(0);
  });

  it('close() closes STOMP sockets with 1001 and resolves quickly', async () => {
    const run = await startSim();
    const peers = await Promise.all([
      RawStomp.connect(run.ws()),
      RawStomp.connect(run.ws('/api/v1/channels/connect')),
    ]);
    const started = Date.now();
    await run.sim.close();
    expect(Date.now() - started).toBeLessThan(1000);
    for (const peer of peers) expect((await peer.closed).code).toBe(1001);
    const refused = new WebSocket(run.ws(), { headers: AUTH });
    await expect(new Promise((_resolve, reject) => refused.on('error', reject))).rejects.toThrow(
      /ECONNREFUSED/,
    );
  });

  it('close() does not wait for a peer that never answers the close handshake', async () => {
    const run = await startSim({}, { stomp: { closeGraceMs: 50 } });
    const peer = await RawStomp.connect(run.ws());
    peer.ws.pause();
    const started = Date.now();
    await run.sim.close();
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
