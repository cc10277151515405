import { EventEmitter } from 'node:events';
import {
  Bursts,
  ManualClock,
  sharedTextFrame,
  silentLogger,
  StompParser,
  type StompFrame,
  textFramePayloads,
  TransientHub,
  UserTable,
} from '@racedata/core';
import type { WebSocket } from 'ws';
import { legacyChannelCatalog } from '../src/description';
import type { TransientXmlMessage } from '../src/legacy-bus';
import { FrameMemory } from '../src/stomp/frame-memory';
import { DEFAULT_STOMP_OPTIONS } from '../src/stomp/stomp-options';
import { StompSession } from '../src/stomp/stomp-session';
import { closeAll, RawStomp, startSim } from './support';

afterEach(closeAll);

const users = UserTable.fromJSON(
  [{ name: 'all', key: 'all', secret: 's', token: 't', channels: '*' }],
  legacyChannelCatalog(),
);

/**
 * A WebSocket as far as a session and core's sendFrames look at one: open, with a TCP socket that
 * takes writes straight away, recording each write (ws's own sends included).
 */
class FakeSocket extends EventEmitter {
  readonly readyState = 1;
  readonly bufferedAmount = 0;
  readonly writes: Buffer[] = [];
  readonly _sender = { _state: 0, _queue: [], _bufferedBytes: 0 };
  /** No extension negotiated: the session writes its frames straight to _socket (lifelongSocket). */
  readonly extensions = '';
  readonly _socket = {
    writableLength: 0,
    write: (chunk: Buffer) => {
      this.writes.push(Buffer.from(chunk));
      return true;
    },
  };

  /** ws's own send (CONNECTED, RECEIPT): the same text frame on the same socket, in order. */
  send(data: string | Buffer): void {
    this._socket.write(sharedTextFrame(String(data)).frame);
  }

  terminated = false;

  close(): void {}
  terminate(): void {
    this.terminated = true;
  }

  /** A text message from the client. */
  receive(text: string): void {
    this.emit('message', Buffer.from(text));
  }
}

/** The STOMP frames of what was written to `socket` (each write's WebSocket frames in order). */
function framesOf(written: Buffer[]): StompFrame[] {
  const frames: StompFrame[] = [];
  const parser = new StompParser({ onFrame: (frame) => frames.push(frame) });
  parser.version = '1.2';
  for (const chunk of written) for (const payload of textFramePayloads(chunk)) parser.push(payload);
  return frames;
}

function session(id: string, maxBufferedBytes = DEFAULT_STOMP_OPTIONS.maxBufferedBytes) {
  let flush: () => void = () => undefined;
  const bursts = new Bursts(undefined, (run) => (flush = run));
  const hub = new TransientHub<TransientXmlMessage>();
  const socket = new FakeSocket();
  new StompSession(socket as unknown as WebSocket, {
    id,
    user: users.byKey('all')!,
    hub,
    clock: new ManualClock(),
    logger: silentLogger(),
    options: { ...DEFAULT_STOMP_OPTIONS, heartBeat: { send: 0, receive: 0 }, maxBufferedBytes },
    frameMemory: new FrameMemory(),
    bursts,
  });
  return { socket, hub, flush: () => flush() };
}

const message = (n: number): TransientXmlMessage => ({
  channel: 'TimeToStart',
  payloadKey: `k-${n}`,
  payload: `<TimeToStart n="${n}">Å</TimeToStart>`,
  timestamp: '2026-01-01T00:00:00.000Z',
});

describe('STOMP MESSAGE frames written a burst at a time', () => {
  it('writes every frame a session was handed in one turn in one write, each with its own headers', () => {
    const { socket, hub, flush } = session('s7');
    socket.receive('CONNECT\naccept-version:1.2\nheart-beat:0,0\n\n\0');
    socket.receive('SUBSCRIBE\nid:a\ndestination:/customerapi/channels/user/topic/publish\n\n\0');
    socket.receive('SUBSCRIBE\nid:b:1\ndestination:/api/v1/channels/user/topic/publish\n\n\0');
    const before = socket.writes.length;
    for (let n = 1; n <= 3; n++) hub.publish('TimeToStart', message(n));
    expect(socket.writes.length).toBe(before);
    flush();
    expect(socket.writes.length).toBe(before + 1);
    const frames = framesOf(socket.writes.slice(before));
    expect(
      frames.map((f) => [f.headers.subscription, f.headers['message-id'], f.headers.destination]),
    ).toEqual([
      ['a', 's7-1', '/customerapi/channels/user/topic/publish'],
      ['b:1', 's7-2', '/api/v1/channels/user/topic/publish'],
      ['a', 's7-3', '/customerapi/channels/user/topic/publish'],
      ['b:1', 's7-4', '/api/v1/channels/user/topic/publish'],
      ['a', 's7-5', '/customerapi/channels/user/topic/publish'],
      ['b:1', 's7-6', '/api/v1/channels/user/topic/publish'],
    ]);
    for (const [i, frame] of frames.entries()) {
      expect(frame.command).toBe('MESSAGE');
      expect(Number(frame.headers['content-length'])).toBe(frame.body.length);
      expect(JSON.parse(frame.body.toString('utf8'))).toEqual(message(Math.floor(i / 2) + 1));
    }
  });

  it('keeps the headers a message was handed under when a SUBSCRIBE comes in the same turn', () => {
    const { socket, hub, flush } = session('s3');
    socket.receive('CONNECT\naccept-version:1.2\nheart-beat:0,0\n\n\0');
    socket.receive('SUBSCRIBE\nid:a\ndestination:/user/topic/publish\n\n\0');
    const before = socket.writes.length;
    hub.publish('TimeToStart', message(1));
    socket.receive('SUBSCRIBE\nid:b\ndestination:/api/v1/channels/user/topic/publish\n\n\0');
    hub.publish('TimeToStart', message(2));
    flush();
    const frames = framesOf(socket.writes.slice(before));
    expect(
      frames.map((f) => [
        f.headers.subscription,
        f.headers['message-id'],
        JSON.parse(f.body.toString()).payloadKey,
      ]),
    ).toEqual([
      ['a', 's3-1', 'k-1'],
      ['a', 's3-2', 'k-2'],
      ['b', 's3-3', 'k-2'],
    ]);
    socket.receive('UNSUBSCRIBE\nid:b\n\n\0');
    hub.publish('TimeToStart', message(3));
    flush();
    expect(framesOf(socket.writes.slice(before)).at(-1)?.headers).toMatchObject({
      subscription: 'a',
      'message-id': 's3-4',
    });
  });

  it('writes the frames it holds before any other frame of the session', () => {
    const { socket, hub, flush } = session('s1');
    socket.receive('CONNECT\naccept-version:1.2\nheart-beat:0,0\n\n\0');
    socket.receive('SUBSCRIBE\nid:a\ndestination:/user/topic/publish\n\n\0');
    hub.publish('TimeToStart', message(1));
    socket.receive('DISCONNECT\nreceipt:bye\n\n\0');
    expect(framesOf(socket.writes).map((f) => f.command)).toEqual(['CONNECTED', 'MESSAGE', 'RECEIPT']);
    flush();
    expect(framesOf(socket.writes).map((f) => f.command)).toEqual(['CONNECTED', 'MESSAGE', 'RECEIPT']);
  });
});

describe('a burst and the client that is not reading', () => {
  /** A connected, subscribed session whose client has `unread` bytes it has not read yet. */
  function behind(unread: number, limit: number) {
    const s = session('s1', limit);
    s.socket.receive('CONNECT\naccept-version:1.2\nheart-beat:0,0\n\n\0');
    s.socket.receive('SUBSCRIBE\nid:a\ndestination:/user/topic/publish\n\n\0');
    s.socket._socket.writableLength = unread;
    return { ...s, before: s.socket.writes.length };
  }

  // Every frame of these three messages has the same size (one-digit sequences and message-ids).
  const frameBytes = (() => {
    const s = behind(0, DEFAULT_STOMP_OPTIONS.maxBufferedBytes);
    s.hub.publish('TimeToStart', message(1));
    s.flush();
    return (s.socket.writes.at(-1) as Buffer).length;
  })();

  it('writes the whole burst when the unread bytes and all but its last message fit the limit', () => {
    const s = behind(100, 100 + 2 * frameBytes);
    for (let n = 1; n <= 3; n++) s.hub.publish('TimeToStart', message(n));
    s.flush();
    expect(s.socket.terminated).toBe(false);
    expect(s.socket.writes.length).toBe(s.before + 1);
    expect(framesOf(s.socket.writes.slice(s.before)).map((f) => f.headers['message-id'])).toEqual([
      's1-1',
      's1-2',
      's1-3',
    ]);
  });

  it('drops the client and writes none of the burst when they pass it', () => {
    const s = behind(101, 100 + 2 * frameBytes);
    for (let n = 1; n <= 3; n++) s.hub.publish('TimeToStart', message(n));
    s.flush();
    expect(s.socket.terminated).toBe(true);
    expect(s.socket.writes.length).toBe(s.before);
    // Released: later messages are not held for it.
    s.hub.publish('TimeToStart', message(4));
    s.flush();
    expect(s.socket.writes.length).toBe(s.before);
  });
});

describe('Bursts', () => {
  it('flushes each connection once per turn, and the rest when one throws', () => {
    let run: () => void = () => undefined;
    let scheduled = 0;
    const bursts = new Bursts(undefined, (flush) => {
      scheduled++;
      run = flush;
    });
    const flushed: string[] = [];
    bursts.hold({ flushHeld: () => flushed.push('a') });
    bursts.hold({
      flushHeld: () => {
        throw new Error('broken');
      },
    });
    bursts.hold({ flushHeld: () => flushed.push('c') });
    expect(scheduled).toBe(1);
    run();
    expect(flushed).toEqual(['a', 'c']);
    bursts.hold({ flushHeld: () => flushed.push('d') });
    expect(scheduled).toBe(2);
  });
});

describe('messages published in one turn, over real STOMP connections', () => {
  it('reach every subscription in order, message-ids consecutive', async () => {
    const run = await startSim();
    const peers = await Promise.all([RawStomp.connect(run.ws()), RawStomp.connect(run.ws())]);
    for (const [i, peer] of peers.entries()) {
      peer.send(`SUBSCRIBE\nid:sub-${i}\ndestination:/user/topic/publish\nreceipt:r\n\n\0`);
      expect((await peer.next()).command).toBe('RECEIPT');
    }
    for (let n = 1; n <= 20; n++) {
      run.probe.publish({ channel: 'id', delivery: 'transient', payloadKey: `k-${n}`, xml: `<m n="${n}"/>` });
    }
    for (const [i, peer] of peers.entries()) {
      const ids: string[] = [];
      for (let n = 1; n <= 20; n++) {
        const frame = await peer.next();
        expect(frame.headers.subscription).toBe(`sub-${i}`);
        expect(JSON.parse(frame.body.toString('utf8'))).toMatchObject({ payloadKey: `k-${n}` });
        ids.push(frame.headers['message-id'] as string);
      }
      const prefix = ids[0]?.replace(/\d+$/, '');
      expect(ids).toEqual(ids.map((_id, k) => `${prefix}${k + 1}`));
    }
  });
});
