import type { StompFrame } from '@racedata/core';
import { closeAll, post, RawStomp, startSim, waitFor } from './support';

afterEach(closeAll);

const DEST = '/customerapi/channels/user/topic/publish';

/** The next frame, which must be an ERROR; resolves once the socket closed too. */
async function errorThenClose(peer: RawStomp): Promise<{ frame: StompFrame; code: number }> {
  const frame = await peer.next();
  expect(frame.command).toBe('ERROR');
  return { frame, code: (await peer.closed).code };
}

async function recipients(base: string): Promise<number> {
  const res = await post(base, '/customerapi/channel/id/NonDurable', '<a/>');
  return ((await res.json()) as { data: { recipients: number } }).data.recipients;
}

function subscribes(from: number, count: number, receipt?: string): string {
  let text = '';
  for (let id = from; id < from + count; id++) text += `SUBSCRIBE\nid:${id}\ndestination:${DEST}\n\n\0`;
  if (receipt) text += `SUBSCRIBE\nid:last\ndestination:${DEST}\nreceipt:${receipt}\n\n\0`;
  return text;
}

describe('STOMP endpoint against abusive clients', () => {
  // Before the parser was linear this took seconds per megabyte (every message re-copied the
  // whole frame so far), so this test ran past Jest's deadline; it now takes well under one.
  it('takes a 2 MB frame sent as 200,000 ten-byte messages and keeps answering /health', async () => {
    const run = await startSim({ stompMaxFrameBytes: 2 * 1024 * 1024 });
    const peer = await RawStomp.connect(run.ws());
    const frame = Buffer.alloc(2_000_000, 0x61);
    frame.write('ACK\nid:1\nreceipt:flood\n\n');
    frame[frame.length - 1] = 0;
    for (let at = 0; at < frame.length; at += 10) peer.send(frame.subarray(at, at + 10));
    const health = await fetch(`${run.base}/health`);
    expect(health.status).toBe(200);
    const receipt = await peer.next();
    expect(receipt.headers['receipt-id']).toBe('flood');
    // The session is still whole: it subscribes and receives.
    peer.send(subscribes(0, 0, 'sub'));
    expect((await peer.next()).headers['receipt-id']).toBe('sub');
    expect(await recipients(run.base)).toBe(1);
    expect((await peer.next()).command).toBe('MESSAGE');
  });

  it('answers a frame over STOMP_MAX_FRAME_BYTES with an ERROR naming the limit, then closes', async () => {
    const run = await startSim({ stompMaxFrameBytes: 4096 });
    const peer = await RawStomp.connect(run.ws());
    const body = 'x'.repeat(5000);
    for (let at = 0; at < body.length; at += 100)
      peer.send(at === 0 ? `ACK\nid:1\n\n${body.slice(0, 100)}` : body.slice(at, at + 100));
    const { frame, code } = await errorThenClose(peer);
    expect(frame.headers.message).toBe('frame too large');
    expect(frame.body.toString()).toBe('frame exceeds 4096 bytes (STOMP_MAX_FRAME_BYTES)');
    expect(code).toBe(1002);
  });

  it('refuses the subscription past STOMP_MAX_SUBSCRIPTIONS with an ERROR naming the limit', async () => {
    const run = await startSim();
    const greedy = await RawStomp.connect(run.ws());
    const fair = await RawStomp.connect(run.ws());
    fair.send(subscribes(0, 0, 'ok'));
    await fair.next();
    // What a client trying 100,001 would send first; the session ends at the 101st.
    greedy.send(subscribes(0, 1000, 'never'));
    const { frame } = await errorThenClose(greedy);
    expect(frame.headers.message).toBe('too many subscriptions');
    expect(frame.body.toString()).toBe(
      'a session may hold at most 100 subscriptions (STOMP_MAX_SUBSCRIPTIONS)',
    );
    expect(await recipients(run.base)).toBe(1);
    expect((await fair.next()).command).toBe('MESSAGE');
  });

  it('takes exactly STOMP_MAX_SUBSCRIPTIONS subscriptions, and new ones once others are gone', async () => {
    const run = await startSim({ stompMaxSubscriptions: 3 });
    const peer = await RawStomp.connect(run.ws());
    peer.send(subscribes(0, 2, 'three'));
    expect((await peer.next()).headers['receipt-id']).toBe('three');
    peer.send(`UNSUBSCRIBE\nid:0\n\n\0SUBSCRIBE\nid:again\ndestination:${DEST}\nreceipt:again\n\n\0`);
    expect((await peer.next()).headers['receipt-id']).toBe('again');
    peer.send(`SUBSCRIBE\nid:fourth\ndestination:${DEST}\n\n\0`);
    expect((await errorThenClose(peer)).frame.headers.message).toBe('too many subscriptions');
  });

  it('refuses a session past WS_MAX_SESSIONS_PER_USER with an ERROR naming the limit and 1008', async () => {
    const run = await startSim({ wsMaxSessionsPerUser: 2 });
    const first = await RawStomp.connect(run.ws());
    await RawStomp.connect(run.ws());
    const third = new RawStomp(run.ws());
    const { frame, code } = await errorThenClose(third);
    expect(frame.headers.message).toBe('too many sessions');
    expect(frame.body.toString()).toBe(
      'a user may hold at most 2 STOMP sessions at once (WS_MAX_SESSIONS_PER_USER)',
    );
    expect(code).toBe(1008);
    first.close();
    await waitFor(() => run.probe.stompSessions === 1, 'the first session to end');
    const again = await RawStomp.connect(run.ws());
    again.close();
  });

  it('ignores UNSUBSCRIBE of an unknown id and refuses a repeated SUBSCRIBE id', async () => {
    const run = await startSim();
    const peer = await RawStomp.connect(run.ws());
    peer.send('UNSUBSCRIBE\nid:nope\nreceipt:u\n\n\0');
    expect((await peer.next()).headers['receipt-id']).toBe('u');
    peer.send(subscribes(0, 1) + subscribes(0, 1));
    expect((await errorThenClose(peer)).frame.headers.message).toBe('duplicate subscription');
  });

  it('ignores frames after DISCONNECT, garbage included', async () => {
    const run = await startSim();
    const peer = await RawStomp.connect(run.ws());
    peer.send(`DISCONNECT\nreceipt:bye\n\n\0${subscribes(0, 1)}\u0000garbage\n\n\0`);
    expect((await peer.next()).headers['receipt-id']).toBe('bye');
    expect((await peer.closed).code).toBe(1000);
  });

  it.each([
    ['too many headers', `SUBSCRIBE\n${'h:v\n'.repeat(65)}\n\0`, /at most 64 headers/],
    ['an endless header line', `SUBSCRIBE\nh:${'v'.repeat(9000)}`, /header line exceeds 8192 bytes/],
    ['an endless command', 'S'.repeat(9000), /header line exceeds 8192 bytes/],
    ['binary garbage', Buffer.from([0x00, 0xff, 0xfe, 0x0a, 0x00]), /STOMP command/],
  ])('answers %s with ERROR and a close', async (_what, input, details) => {
    const run = await startSim();
    const peer = await RawStomp.connect(run.ws());
    peer.send(input);
    const { frame } = await errorThenClose(peer);
    expect(frame.body.toString()).toMatch(details);
    expect((await fetch(`${run.base}/health`)).status).toBe(200);
  });

  it('takes invalid UTF-8 in header values without failing', async () => {
    const run = await startSim();
    const peer = await RawStomp.connect(run.ws());
    peer.send(
      Buffer.concat([
        Buffer.from('SUBSCRIBE\nid:'),
        Buffer.from([0xc3, 0x28, 0xff]),
        Buffer.from(`\ndestination:${DEST}\nreceipt:r\n\n\0`),
      ]),
    );
    expect((await peer.next()).headers['receipt-id']).toBe('r');
    expect(await recipients(run.base)).toBe(1);
    const message = await peer.next();
    expect(message.command).toBe('MESSAGE');
    expect(message.headers.subscription).toBe('\ufffd(\ufffd');
  });
});
