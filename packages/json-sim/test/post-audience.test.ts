import { createLogger } from '@racedata/core';
import { JSON_TESTUSER_CHANNELS, TOKENS } from '@racedata/test-support';
import { eventually } from '@racedata/test-support';
import { closeAll, connectAuthenticated, EVENTS_PATH, get, postMessage, startSim } from './helpers';

// POST /api/message keeps the vendor's body and says in headers of the simulator's own who the
// post can reach: the default testuser does not take ScratchingsTrot nor TimeToStartGallop, so
// there only alluser does, and without alluser connected the answer carries a notice.

const DURABLE = 'ScratchingsTrot';
const TRANSIENT = 'TimeToStartGallop';

afterEach(closeAll);

function withLog() {
  const lines: Array<{ level: string; msg: string; channel?: string }> = [];
  const logger = createLogger({
    level: 'warn',
    destination: { write: (line: string) => lines.push(JSON.parse(line)) },
  });
  return { logger, warnings: () => lines.filter((l) => l.level === 'warn') };
}

const message = (channel: string) => ({ channel, date: '2026-05-13', payload: { trackId: 901, raceNr: 1 } });

test('the two channels only alluser takes among the built-in users', () => {
  expect(JSON_TESTUSER_CHANNELS.has(DURABLE)).toBe(false);
  expect(JSON_TESTUSER_CHANNELS.has(TRANSIENT)).toBe(false);
});

test('durable, nobody connected: 201 with the vendor body, the subscribers named and a notice; warned once per channel', async () => {
  const log = withLog();
  const { base } = await startSim({}, { logger: log.logger });
  const answer = await postMessage(base, message(DURABLE));
  expect(answer.status).toBe(201);
  expect(Object.keys(answer.body)).toEqual(['status', 'data']);
  expect(answer.body).toMatchObject({
    status: 'success',
    data: { delivery: 'durable', event: { channel: DURABLE } },
  });
  expect(Object.keys(answer.body.data!)).toEqual(['delivery', 'event']);
  expect(answer.headers.get('x-racedata-subscribers')).toBe('alluser');
  expect(answer.headers.get('x-racedata-connected-subscribers')).toBe('');
  expect(answer.headers.get('x-racedata-notice')).toBe(
    `no user subscribed to "${DURABLE}" (alluser) is connected now (no open /event-stream session, no held ` +
      'long poll for it): the event is stored for their next read',
  );
  // Stored all the same: alluser reads it later.
  const read = await get(base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.alluser);
  expect(read.body.data!.events.map((e) => e.channel)).toEqual([DURABLE]);

  await postMessage(base, message(DURABLE));
  await postMessage(base, message('ScratchingsGallop'));
  expect(log.warnings().map((w) => [w.channel, w.msg.split(' (')[0]])).toEqual([
    [DURABLE, `no user subscribed to "${DURABLE}"`],
    ['ScratchingsGallop', 'no user subscribed to "ScratchingsGallop"'],
  ]);
});

test('durable, alluser on the event stream: named as connected, no notice, the body as before', async () => {
  const log = withLog();
  const { base, wsUrl } = await startSim({}, { logger: log.logger });
  const client = await connectAuthenticated(wsUrl, TOKENS.alluser);
  const answer = await postMessage(base, message(DURABLE));
  expect(answer.status).toBe(201);
  expect(answer.body).toMatchObject({ status: 'success', data: { delivery: 'durable' } });
  expect(answer.headers.get('x-racedata-connected-subscribers')).toBe('alluser');
  expect(answer.headers.get('x-racedata-notice')).toBeNull();
  expect(log.warnings()).toEqual([]);
  client.terminate();
});

test('durable, alluser holding an /events long poll (and no stream): connected; testuser holding one is not', async () => {
  const { base } = await startSim({ longPollTimeoutMs: 10_000 });
  const held = async () =>
    ((await (await fetch(`${base}/_sim/state`)).json()) as { users: Record<string, { heldPolls: number }> })
      .users;
  // testuser's poll waits for its own channels: a post on ScratchingsTrot answers nothing there.
  const testuserPoll = get(base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser);
  await eventually(async () => (await held()).testuser!.heldPolls === 1, 'testuser poll held');
  const lonely = await postMessage(base, message(DURABLE));
  expect(lonely.headers.get('x-racedata-notice')).toContain('is connected now');

  const poll = get(base, `${EVENTS_PATH}?lastEventId=1`, TOKENS.alluser);
  await eventually(async () => (await held()).alluser!.heldPolls === 1, 'alluser poll held');
  const answer = await postMessage(base, message(DURABLE));
  expect(answer.status).toBe(201);
  expect(answer.headers.get('x-racedata-connected-subscribers')).toBe('alluser');
  expect(answer.headers.get('x-racedata-notice')).toBeNull();
  expect((await poll).body.data!.events.map((e) => e.channel)).toEqual([DURABLE]);
  // A post testuser takes answers its poll, and ends the test with nothing held.
  await postMessage(base, message('ResultTrot'));
  expect((await testuserPoll).body.data!.events.map((e) => e.channel)).toEqual(['ResultTrot']);
});

test('transient: 202 with recipients 0 and a notice; with alluser streaming, recipients 1 and no notice', async () => {
  const { base, wsUrl } = await startSim();
  const nobody = await postMessage(base, message(TRANSIENT));
  expect([nobody.status, nobody.body]).toEqual([
    202,
    { status: 'success', data: { delivery: 'transient', recipients: 0 } },
  ]);
  expect(nobody.headers.get('x-racedata-subscribers')).toBe('alluser');
  expect(nobody.headers.get('x-racedata-notice')).toBe(
    `no user subscribed to "${TRANSIENT}" (alluser) is connected now (no open /event-stream session): the message reached nobody`,
  );
  // testuser's stream does not count: the channel is not in its subscription.
  const testuser = await connectAuthenticated(wsUrl, TOKENS.testuser);
  expect((await postMessage(base, message(TRANSIENT))).headers.get('x-racedata-notice')).not.toBeNull();

  const alluser = await connectAuthenticated(wsUrl, TOKENS.alluser);
  const reached = await postMessage(base, message(TRANSIENT));
  expect([reached.status, reached.body]).toEqual([
    202,
    { status: 'success', data: { delivery: 'transient', recipients: 1 } },
  ]);
  expect(reached.headers.get('x-racedata-connected-subscribers')).toBe('alluser');
  expect(reached.headers.get('x-racedata-notice')).toBeNull();
  testuser.terminate();
  alluser.terminate();
});

test('a channel testuser takes names both users; a refused post carries none of the headers', async () => {
  const { base } = await startSim();
  const answer = await postMessage(base, message('ResultTrot'));
  expect(answer.headers.get('x-racedata-subscribers')).toBe('testuser, alluser');
  const refused = await postMessage(base, message('NoSuchChannel'));
  expect(refused.status).toBe(400);
  expect(refused.headers.get('x-racedata-subscribers')).toBeNull();
  expect(refused.headers.get('x-racedata-notice')).toBeNull();
});
