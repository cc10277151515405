import { ManualClock } from '@racedata/core';
import { closeAll, post, RawStomp, startSim, waitFor, type Running } from './support';

afterEach(closeAll);

const DEST = '/customerapi/channels/user/topic/publish';

async function subscribed(run: Running, peer: RawStomp, dest = DEST, id = 'sub-1'): Promise<void> {
  peer.send(`SUBSCRIBE\nid:${id}\ndestination:${dest}\nreceipt:r-${id}\n\n\0`);
  const receipt = await peer.next();
  expect(receipt.command).toBe('RECEIPT');
  expect(receipt.headers['receipt-id']).toBe(`r-${id}`);
}

/** Posts a NonDurable message to every user; returns how many STOMP sessions got it. */
async function recipients(run: Running): Promise<number> {
  const res = await post(run.base, '/customerapi/channel/id/NonDurable', '<a/>');
  return ((await res.json()) as { data: { recipients: number } }).data.recipients;
}

async function expectErrorAndClose(peer: RawStomp, message: RegExp): Promise<void> {
  const frame = await peer.next();
  expect(frame.command).toBe('ERROR');
  expect(frame.headers.message).toMatch(message);
  const closed = await peer.closed;
  expect(closed.code).toBe(1002);
}

describe('STOMP session: connecting', () => {
  it('answers CONNECT with version, heart-beat and server', async () => {
    const run = await startSim();
    const peer = new RawStomp(run.ws());
    await peer.opened;
    peer.send('CONNECT\naccept-version:1.0,1.1,1.2\nhost:localhost\nheart-beat:0,0\n\n\0');
    const frame = await peer.next();
    expect(frame.command).toBe('CONNECTED');
    expect(frame.headers.version).toBe('1.2');
    expect(frame.headers['heart-beat']).toMatch(/^\d+,\d+$/);
    expect(frame.headers.server).toMatch(/racedata-legacy-sim/);
  });

  it.each([
    ['STOMP\naccept-version:1.2\n\n\0', '1.2'],
    ['CONNECT\naccept-version:1.1,1.0\n\n\0', '1.1'],
    ['CONNECT\n\n\0', '1.0'],
    ['CONNECT\r\naccept-version:1.2\r\n\r\n\0', '1.2'],
  ])('negotiates %j as %s', async (connect, version) => {
    const run = await startSim();
    const peer = new RawStomp(run.ws());
    await peer.opened;
    peer.send(connect);
    const frame = await peer.next();
    expect(frame.headers.version).toBe(version);
    if (version === '1.0') expect(frame.headers['heart-beat']).toBe('0,0');
  });

  it('refuses a CONNECT with no common version, naming the supported ones', async () => {
    const run = await startSim();
    const peer = new RawStomp(run.ws());
    await peer.opened;
    peer.send('CONNECT\naccept-version:2.0\n\n\0');
    const frame = await peer.next();
    expect(frame.command).toBe('ERROR');
    expect(frame.headers.version).toBe('1.0,1.1,1.2');
    expect((await peer.closed).code).toBe(1002);
  });

  it('refuses a malformed heart-beat header', async () => {
    const run = await startSim();
    const peer = new RawStomp(run.ws());
    await peer.opened;
    peer.send('CONNECT\naccept-version:1.2\nheart-beat:fast\n\n\0');
    await expectErrorAndClose(peer, /heart-beat/);
  });

  it('refuses frames before CONNECT', async () => {
    const run = await startSim();
    const peer = new RawStomp(run.ws());
    await peer.opened;
    peer.send(`SUBSCRIBE\nid:1\ndestination:${DEST}\nreceipt:x\n\n\0`);
    const frame = await peer.next();
    expect(frame.headers['receipt-id']).toBe('x');
    expect(frame.command).toBe('ERROR');
    expect((await peer.closed).code).toBe(1002);
  });

  it('closes a socket that sends no CONNECT within the deadline (wsAuthTimeoutMs)', async () => {
    const clock = new ManualClock();
    const run = await startSim({ wsAuthTimeoutMs: 500 }, { clock });
    const silent = new RawStomp(run.ws());
    const late = new RawStomp(run.ws());
    await Promise.all([silent.opened, late.opened]);
    await waitFor(() => run.probe.stompSessions === 2, 'both sessions');
    clock.advance(499);
    late.send('CONNECT\naccept-version:1.2\n\n\0');
    expect((await late.next()).command).toBe('CONNECTED');
    clock.advance(1);
    await expectErrorAndClose(silent, /connect timeout/);
    await subscribed(run, late);
  });

  it('refuses a second CONNECT', async () => {
    const run = await startSim();
    const peer = await RawStomp.connect(run.ws());
    peer.send('CONNECT\naccept-version:1.2\n\n\0');
    await expectErrorAndClose(peer, /already connected/);
  });

  it('handles CONNECT and SUBSCRIBE in one message and a frame split over messages', async () => {
    const run = await startSim();
    const peer = new RawStomp(run.ws());
    await peer.opened;
    peer.send(`CONNECT\naccept-version:1.2\n\n\0SUBSCRIBE\nid:a\ndestination:${DEST}\nrece`);
    expect((await peer.next()).command).toBe('CONNECTED');
    peer.send('ipt:r1\n\n\0\n');
    expect((await peer.next()).headers['receipt-id']).toBe('r1');
  });
});

describe('STOMP session: garbage never crashes the server', () => {
  it.each([
    ['words', 'hello world'],
    ['JSON', '{"type":"CONNECT"}'],
    ['binary', Buffer.from([0xff, 0x00, 0x13, 0x37])],
    ['a header without colon', 'CONNECT\nno-colon-here\n\n\0'],
    ['a bad escape after CONNECT', null],
    ['a bad content-length', 'CONNECT\ncontent-length:x\n\n\0'],
    ['an unknown command', 'FROBNICATE\n\n\0'],
  ])('answers %s with ERROR and a close', async (_why, input) => {
    const run = await startSim();
    const peer = input === null ? await RawStomp.connect(run.ws()) : new RawStomp(run.ws());
    await peer.opened;
    peer.send(input ?? `SUBSCRIBE\nid:\\t\ndestination:${DEST}\n\n\0`);
    await expectErrorAndClose(peer, /./);
    const after = await RawStomp.connect(run.ws());
    after.close();
    expect((await fetch(`${run.base}/health`)).status).toBe(200);
  });

  it('answers a frame over the size limit with ERROR', async () => {
    const limits = { maxFrameBytes: 256, maxHeaders: 8, maxHeaderLineBytes: 64 };
    const run = await startSim({}, { stomp: { limits } });
    const peer = await RawStomp.connect(run.ws());
    peer.send(`SEND\ndestination:/x\n\n${'x'.repeat(300)}\0`);
    await expectErrorAndClose(peer, /frame too large/);
  });

  it('closes with 1009 on a WebSocket message far beyond the frame limit', async () => {
    const limits = { maxFrameBytes: 256, maxHeaders: 8, maxHeaderLineBytes: 64 };
    const run = await startSim({}, { stomp: { limits } });
    const peer = await RawStomp.connect(run.ws());
    peer.send(`SEND\ndestination:/x\n\n${'x'.repeat(100_000)}\0`);
    expect((await peer.closed).code).toBe(1009);
  });

  it('refuses SEND: data is injected over HTTP', async () => {
    const run = await startSim();
    const peer = await RawStomp.connect(run.ws());
    peer.send(`SEND\ndestination:${DEST}\n\nhi\0`);
    const frame = await peer.next();
    expect(frame.command).toBe('ERROR');
    expect(frame.body.toString()).toMatch(/NonDurable/);
  });
});

describe('STOMP session: subscriptions and messages', () => {
  it.each([DEST, '/api/v1/channels/user/topic/publish', '/user/topic/publish'])(
    'delivers NonDurable posts as MESSAGE frames on %s',
    async (dest) => {
      const run = await startSim();
      const peer = await RawStomp.connect(run.ws());
      await subscribed(run, peer, dest);
      const xml = '<TimeToStart minutes="3">Åby</TimeToStart>';
      const res = await post(run.base, '/customerapi/channel/TimeToStart/NonDurable?payloadKey=race-5', xml);
      expect(await res.json()).toEqual({ status: 'success', data: { delivery: 'transient', recipients: 1 } });
      const frame = await peer.next();
      expect(frame.command).toBe('MESSAGE');
      expect(frame.headers).toMatchObject({
        subscription: 'sub-1',
        destination: dest,
        'content-type': 'application/json',
        'content-length': String(frame.body.length),
      });
      expect(frame.headers['message-id']).toBeTruthy();
      const body = JSON.parse(frame.body.toString('utf8'));
      expect(body).toEqual({
        channel: 'TimeToStart',
        payloadKey: 'race-5',
        payload: xml,
        timestamp: expect.any(String),
      });
      expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
    },
  );

  it('gives each message a distinct message-id', async () => {
    const run = await startSim();
    const peer = await RawStomp.connect(run.ws());
    await subscribed(run, peer);
    await post(run.base, '/customerapi/channel/id/NonDurable', '<a/>');
    await post(run.base, '/customerapi/channel/id/NonDurable', '<b/>');
    const ids = [(await peer.next()).headers['message-id'], (await peer.next()).headers['message-id']];
    expect(new Set(ids).size).toBe(2);
  });

  it('escapes header values in 1.1 and 1.2 MESSAGE frames', async () => {
    const run = await startSim();
    const peer = await RawStomp.connect(run.ws());
    peer.send(`SUBSCRIBE\nid:a\\cb\ndestination:${DEST}\nreceipt:r\\c1\n\n\0`);
    expect((await peer.next()).headers['receipt-id']).toBe('r:1');
    await post(run.base, '/customerapi/channel/id/NonDurable', '<a/>');
    expect((await peer.next()).headers.subscription).toBe('a:b');
  });

  it('stops delivering after UNSUBSCRIBE', async () => {
    const run = await startSim();
    const peer = await RawStomp.connect(run.ws());
    await subscribed(run, peer);
    peer.send('UNSUBSCRIBE\nid:sub-1\nreceipt:u\n\n\0');
    expect((await peer.next()).headers['receipt-id']).toBe('u');
    expect(await recipients(run)).toBe(0);
  });

  it('accepts but never feeds a subscription to another destination', async () => {
    const run = await startSim();
    const peer = await RawStomp.connect(run.ws());
    await subscribed(run, peer, '/topic/other');
    expect(await recipients(run)).toBe(0);
  });

  it('requires an id on SUBSCRIBE from 1.1 on, and refuses a duplicate id', async () => {
    const run = await startSim();
    const peer = await RawStomp.connect(run.ws());
    peer.send(`SUBSCRIBE\ndestination:${DEST}\n\n\0`);
    await expectErrorAndClose(peer, /missing id/);
    const again = await RawStomp.connect(run.ws());
    await subscribed(run, again);
    again.send(`SUBSCRIBE\nid:sub-1\ndestination:${DEST}\n\n\0`);
    await expectErrorAndClose(again, /duplicate/);
  });

  it('lets a 1.0 client subscribe without id', async () => {
    const run = await startSim();
    const peer = await RawStomp.connect(run.ws(), 'login:x');
    peer.send(`SUBSCRIBE\ndestination: ${DEST}\nreceipt:r\n\n\0`);
    expect((await peer.next()).command).toBe('RECEIPT');
    await post(run.base, '/customerapi/channel/id/NonDurable', '<a/>');
    const frame = await peer.next();
    expect(frame.headers.subscription).toBeUndefined();
    expect(frame.headers.destination).toBe(DEST);
    peer.send(`UNSUBSCRIBE\ndestination:${DEST}\nreceipt:u\n\n\0`);
    expect((await peer.next()).command).toBe('RECEIPT');
    expect(await recipients(run)).toBe(0);
  });

  it('acknowledges ACK, NACK and transactions as no-ops', async () => {
    const run = await startSim();
    const peer = await RawStomp.connect(run.ws());
    peer.send('BEGIN\ntransaction:t\n\n\0ACK\nid:1\nreceipt:a\n\n\0');
    expect((await peer.next()).headers['receipt-id']).toBe('a');
  });

  it('sends RECEIPT for DISCONNECT, then closes normally', async () => {
    const run = await startSim();
    const peer = await RawStomp.connect(run.ws());
    await subscribed(run, peer);
    peer.send('DISCONNECT\nreceipt:bye\n\n\0');
    const frame = await peer.next();
    expect(frame.command).toBe('RECEIPT');
    expect(frame.headers['receipt-id']).toBe('bye');
    expect((await peer.closed).code).toBe(1000);
    await waitFor(() => run.probe.hub.size === 0, 'hub to forget the session');
  });
});

describe('STOMP session: heart-beats', () => {
  it('sends heart-beats at the negotiated rate', async () => {
    const clock = new ManualClock();
    const run = await startSim({}, { clock, stomp: { heartBeat: { send: 20, receive: 20 } } });
    // The client wants one every 30 ms at the most, the server can do 20: every 30 ms it is.
    const peer = await RawStomp.connect(run.ws(), 'accept-version:1.2\nheart-beat:0,30');
    // A beat is written before the RECEIPT that follows it on the same socket, so after a round
    // trip the count is final for the time advanced so far.
    clock.advance(29);
    await subscribed(run, peer, DEST, 'at-29');
    expect(peer.heartBeats).toBe(0);
    clock.advance(1);
    await subscribed(run, peer, DEST, 'at-30');
    expect(peer.heartBeats).toBe(1);
    clock.advance(60);
    await subscribed(run, peer, DEST, 'at-90');
    expect(peer.heartBeats).toBe(3);
  });

  it('sends none to a client that does not want them', async () => {
    const clock = new ManualClock();
    const run = await startSim({}, { clock, stomp: { heartBeat: { send: 20, receive: 20 } } });
    const peer = await RawStomp.connect(run.ws(), 'accept-version:1.2\nheart-beat:0,0');
    clock.advance(10_000);
    await subscribed(run, peer);
    expect(peer.heartBeats).toBe(0);
  });

  it('closes a client silent for twice its promised interval, and only then', async () => {
    const clock = new ManualClock();
    const run = await startSim({}, { clock, stomp: { heartBeat: { send: 0, receive: 50 } } });
    const peer = await RawStomp.connect(run.ws(), 'accept-version:1.2\nheart-beat:100,0');
    let closed = false;
    void peer.closed.then(() => (closed = true));
    clock.advance(200);
    // Still open at exactly 2x: prove it with a round trip.
    await subscribed(run, peer);
    expect(closed).toBe(false);
    // The round trip was activity too: silence now counts from here.
    clock.advance(300);
    expect((await peer.closed).code).toBe(1008);
  });

  it('keeps a client that sends heart-beats', async () => {
    const clock = new ManualClock();
    const run = await startSim({}, { clock, stomp: { heartBeat: { send: 0, receive: 50 } } });
    const peer = await RawStomp.connect(run.ws(), 'accept-version:1.2\nheart-beat:100,0');
    for (let i = 0; i < 5; i++) {
      peer.send('\n');
      await subscribed(run, peer, DEST, `s${i}`); // a round trip: the beat has arrived
      clock.advance(150);
    }
    await subscribed(run, peer, DEST, 'last');
  });
});
