import { asyncApiProblems, AsyncMessages } from '@racedata/test-support/api-docs';
import { TOKENS } from '@racedata/test-support';
import {
  STREAM_PATH,
  WsClient,
  closeAll,
  connectAuthenticated,
  event,
  postMessage,
  startSim,
} from './helpers';

// Real event-stream traffic held against the payload schemas GET /_sim/asyncapi.json declares.

interface StreamDoc {
  asyncapi: string;
  operations: Record<string, { channel: { $ref: string }; messages: Array<{ $ref: string }> }>;
  channels: Record<string, { address: string; 'x-close-codes': Array<{ code: number }> }>;
  components: { messages: Record<string, { payload?: unknown }> };
}

let doc: StreamDoc;
let messages: AsyncMessages;

beforeAll(async () => {
  const s = await startSim();
  doc = (await (await fetch(`${s.base}/_sim/asyncapi.json`)).json()) as StreamDoc;
  messages = new AsyncMessages(doc);
  await s.sim.close();
});

afterEach(closeAll);

const closeCodes = () => (doc.channels.eventStream?.['x-close-codes'] ?? []).map((c) => c.code);

const advance = (base: string, ms: number) =>
  fetch(`${base}/_sim/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ms }),
  });

describe('GET /_sim/asyncapi.json', () => {
  test('is a valid AsyncAPI 3.0 document of the event stream', () => {
    expect(asyncApiProblems(doc)).toEqual([]);
    expect(doc.channels.eventStream?.address).toBe(STREAM_PATH);
  });
});

describe('event-stream messages match the document', () => {
  test('Connection, the token, Authenticated, Data and Ping', async () => {
    const s = await startSim();
    const client = await WsClient.connect(s.wsUrl);
    messages.check('Connection', 'payload', await client.next());
    messages.check('Token', 'payload', TOKENS.testuser);
    messages.check('Authenticated', 'payload', await client.authenticate(TOKENS.testuser));
    expect(
      (await postMessage(s.base, event('TimeToStartTrot', { trackId: 5, raceNr: 2, startNr: 7 }))).status,
    ).toBe(202);
    messages.check('Data', 'payload', await client.next('Data'));
    messages.check('Ping', 'payload', await client.next('Ping'));
  });

  test('the JSON token form, and AuthenticationError for a bad token, closed with a listed code', async () => {
    const s = await startSim();
    const first = { token: TOKENS.testuser };
    messages.check('TokenObject', 'payload', first);
    const good = await WsClient.connect(s.wsUrl);
    await good.next('Connection');
    messages.check('Authenticated', 'payload', await good.authenticate(JSON.stringify(first)));

    const bad = await WsClient.connect(s.wsUrl);
    await bad.next('Connection');
    bad.send('not-a-token');
    messages.check('AuthenticationError', 'payload', await bad.next('AuthenticationError'));
    const { code } = await bad.closed;
    expect(code).toBe(1008);
    expect(closeCodes()).toContain(code);
  });

  test('AuthenticationError when no token arrives in time', async () => {
    const s = await startSim({ wsAuthTimeoutMs: 60_000 });
    const client = await WsClient.connect(s.wsUrl);
    await client.next('Connection');
    // The deadline runs on the simulator's clock.
    expect((await advance(s.base, 60_000)).status).toBe(200);
    messages.check('AuthenticationError', 'payload', await client.next('AuthenticationError'));
    expect(closeCodes()).toContain((await client.closed).code);
  });

  test('a reset that closes sockets closes with a listed code', async () => {
    const s = await startSim();
    const client = await connectAuthenticated(s.wsUrl, TOKENS.testuser);
    await fetch(`${s.base}/_sim/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ closeSockets: true }),
    });
    expect(closeCodes()).toContain((await client.closed).code);
  });
});
