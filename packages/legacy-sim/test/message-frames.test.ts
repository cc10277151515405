import { FrameMemory } from '../src/stomp/frame-memory';
import { frameHead, messageFrames, MessageFrames } from '../src/stomp/message-frames';
import { escapeHeader, serializeFrame, type StompVersion } from '@racedata/core';
import { messageFrame, type Subscription } from '../src/stomp/stomp-subscriptions';
import { closeAll, post, RawStomp, startSim } from './support';

const VERSIONS: StompVersion[] = ['1.0', '1.1', '1.2'];

const SUBSCRIPTIONS: Subscription[] = [
  { id: 'sub-0', destination: '/api/v1/channels/user/topic/publish', delivers: true },
  { id: undefined, destination: '/user/topic/publish', delivers: true },
  { id: 'a:b\\c\nd\re', destination: '/odd:dest\\x\ry', delivers: true },
  { id: 'prenumeration-å', destination: '/kö/ämne', delivers: true },
];

const MESSAGES = [
  { channel: 'id', payloadKey: 'race-5', payload: '<a/>', timestamp: '2026-01-01T00:00:00.000Z' },
  {
    channel: 'TimeToStart',
    payloadKey: null,
    payload: '<t>Åby "🐎"\n</t>',
    timestamp: '2026-01-01T00:00:00.001Z',
  },
];

describe('MESSAGE frames built once per hub message', () => {
  it.each(VERSIONS)('are the bytes serializeFrame(messageFrame(...)) gives, STOMP %s', (version) => {
    for (const message of MESSAGES) {
      const frames = new MessageFrames(message);
      for (const subscription of SUBSCRIPTIONS) {
        for (const session of ['s1', 's42', 'odd:session']) {
          const head = frameHead(subscription, session, version);
          for (const sequence of [1, 2, 1234567]) {
            const expected = serializeFrame(
              messageFrame(subscription, `${session}-${sequence}`, JSON.stringify(message)),
              version,
            );
            const framed = frames.frame(head, sequence, new FrameMemory());
            expect(framed.payload.toString('utf8')).toBe(expected);
            // The WebSocket frame around it, written as one buffer: FIN + text opcode, unmasked,
            // the payload's length, then the payload.
            expect(framed.frame[0]).toBe(0x81);
            expect(
              framed.frame.subarray(framed.frame.length - framed.payload.length).equals(framed.payload),
            ).toBe(true);
          }
        }
      }
    }
  });

  it('serialises each message once, shared by every session it reaches', () => {
    const message = MESSAGES[0] as object;
    expect(messageFrames(message)).toBe(messageFrames(message));
    expect(messageFrames({ ...message })).not.toBe(messageFrames(message));
  });

  it('escapeHeader returns values without special characters unchanged', () => {
    for (const version of VERSIONS) {
      expect(escapeHeader('/api/v1/channels/user/topic/publish', version)).toBe(
        '/api/v1/channels/user/topic/publish',
      );
      expect(escapeHeader('s12-345', version)).toBe('s12-345');
    }
    expect(escapeHeader('x\ry', '1.1')).toBe('x\ry');
    expect(escapeHeader('x\ry', '1.2')).toBe('x\\ry');
  });
});

describe('MESSAGE frames on the wire', () => {
  afterEach(closeAll);

  const DEST = '/customerapi/channels/user/topic/publish';

  it('each session and subscription gets its own headers around the same body', async () => {
    const run = await startSim();
    const one = await RawStomp.connect(run.ws());
    const two = await RawStomp.connect(run.ws());
    one.send(`SUBSCRIBE\nid:x\ndestination:${DEST}\nreceipt:r1\n\n\0`);
    two.send(`SUBSCRIBE\nid:y\ndestination:${DEST}\nreceipt:r2\n\n\0`);
    two.send('SUBSCRIBE\nid:z\ndestination:/user/topic/publish\nreceipt:r3\n\n\0');
    expect((await one.next()).command).toBe('RECEIPT');
    expect((await two.next()).command).toBe('RECEIPT');
    expect((await two.next()).command).toBe('RECEIPT');

    await post(run.base, '/customerapi/channel/id/NonDurable?payloadKey=k', '<a>Åby</a>');
    const a = await one.next();
    const [b, c] = [await two.next(), await two.next()];
    expect(a.body.equals(b.body)).toBe(true);
    expect(b.body.equals(c.body)).toBe(true);
    expect([a.headers.subscription, b.headers.subscription, c.headers.subscription]).toEqual(['x', 'y', 'z']);
    expect([a.headers.destination, b.headers.destination, c.headers.destination]).toEqual([
      DEST,
      DEST,
      '/user/topic/publish',
    ]);
    const ids = [a, b, c].map((f) => f.headers['message-id']);
    expect(new Set(ids).size).toBe(3);

    // After UNSUBSCRIBE the session's frames are rebuilt: only the remaining subscription.
    two.send('UNSUBSCRIBE\nid:y\nreceipt:u\n\n\0');
    expect((await two.next()).command).toBe('RECEIPT');
    await post(run.base, '/customerapi/channel/id/NonDurable', '<b/>');
    expect((await one.next()).headers.subscription).toBe('x');
    const only = await two.next();
    expect(only.headers.subscription).toBe('z');
    expect(Number(only.headers['message-id']?.split('-').at(-1))).toBe(
      Number(c.headers['message-id']?.split('-').at(-1)) + 1,
    );
  });
});
