import { asyncApiProblems, AsyncMessages } from '@racedata/test-support/api-docs';
import { PUBLISH_DESTINATIONS, STOMP_PATHS } from '../src';
import type { StompFrame } from '@racedata/core';
import { RawStomp, closeAll, post, startSim } from './support';

// Real STOMP frames held against the header and body schemas GET /_sim/asyncapi.json declares.

interface StompDoc {
  asyncapi: string;
  operations: Record<string, { channel: { $ref: string }; messages: Array<{ $ref: string }> }>;
  servers: Record<string, { pathname: string }>;
  channels: Record<string, { address: string | null; 'x-close-codes'?: Array<{ code: number }> }>;
  components: { messages: Record<string, { payload?: unknown; headers?: unknown }> };
}

let doc: StompDoc;
let messages: AsyncMessages;

beforeAll(async () => {
  const s = await startSim();
  doc = (await (await fetch(`${s.base}/_sim/asyncapi.json`)).json()) as StompDoc;
  messages = new AsyncMessages(doc);
  await s.sim.close();
});

afterEach(closeAll);

const closeCodes = () => (doc.channels.session?.['x-close-codes'] ?? []).map((c) => c.code);

/** A frame's headers as a plain object, and its body as text. */
function parts(frame: StompFrame): { headers: Record<string, string>; body: string } {
  return { headers: { ...frame.headers }, body: frame.body.toString('utf8') };
}

function checkFrame(name: string, frame: StompFrame, body?: 'json' | 'text'): void {
  const { headers, body: text } = parts(frame);
  messages.check(name, 'headers', headers);
  if (body) messages.check(name, 'payload', body === 'json' ? JSON.parse(text) : text);
}

describe('GET /_sim/asyncapi.json', () => {
  test('is a valid AsyncAPI 3.0 document of both STOMP paths and every publish destination', () => {
    expect(asyncApiProblems(doc)).toEqual([]);
    expect(Object.values(doc.servers).map((s) => s.pathname)).toEqual(STOMP_PATHS);
    const addresses = Object.values(doc.channels).map((c) => c.address);
    expect(addresses).toEqual(expect.arrayContaining([...PUBLISH_DESTINATIONS]));
  });
});

describe('STOMP frames match the document', () => {
  test('CONNECT, CONNECTED, SUBSCRIBE, RECEIPT, MESSAGE, DISCONNECT', async () => {
    const s = await startSim();
    const peer = new RawStomp(s.ws());
    await peer.opened;
    const connect = { 'accept-version': '1.1,1.2', 'heart-beat': '0,0', host: 'localhost' };
    messages.check('CONNECT', 'headers', connect);
    peer.send(`CONNECT\naccept-version:1.1,1.2\nheart-beat:0,0\nhost:localhost\n\n\0`);
    const connected = await peer.next();
    expect(connected.command).toBe('CONNECTED');
    checkFrame('CONNECTED', connected);

    const subscribe = { id: 'sub-1', destination: PUBLISH_DESTINATIONS[0] as string, receipt: 'r1' };
    messages.check('SUBSCRIBE', 'headers', subscribe);
    peer.send(`SUBSCRIBE\nid:sub-1\ndestination:${subscribe.destination}\nreceipt:r1\n\n\0`);
    checkFrame('RECEIPT', await peer.next());

    expect((await post(s.base, '/customerapi/channel/id/NonDurable?payloadKey=k9', '<t>1</t>')).status).toBe(
      200,
    );
    const message = await peer.next();
    expect(message.command).toBe('MESSAGE');
    checkFrame('MESSAGE', message, 'json');

    peer.send('DISCONNECT\nreceipt:bye\n\n\0');
    checkFrame('RECEIPT', await peer.next());
    expect(closeCodes()).toContain((await peer.closed).code);
  });

  test.each([
    ['SEND', 'SEND\ndestination:/x\n\nhello\0'],
    ['an unsupported version', 'CONNECT\naccept-version:9.9\n\n\0'],
    ['a bad heart-beat', 'CONNECT\naccept-version:1.2\nheart-beat:soon\n\n\0'],
    ['SUBSCRIBE before CONNECT', 'SUBSCRIBE\nid:1\ndestination:/x\nreceipt:r\n\n\0'],
  ])('ERROR for %s, then a close code the document lists', async (_what, frame) => {
    const s = await startSim();
    const peer = new RawStomp(s.ws());
    await peer.opened;
    if (frame.startsWith('SEND')) {
      peer.send('CONNECT\naccept-version:1.2\nheart-beat:0,0\n\n\0');
      await peer.next();
    }
    peer.send(frame);
    const error = await peer.next();
    expect(error.command).toBe('ERROR');
    checkFrame('ERROR', error, 'text');
    expect(closeCodes()).toContain((await peer.closed).code);
  });
});
