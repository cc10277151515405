import { randomUUID } from 'node:crypto';
import { TOKENS, closeAll } from '@racedata/test-support';
import { JsonControlClient } from 'racedata-sim';
import { describeImages } from './image-env';
import { bearer, call, eventStream, postJson, today } from './image-client';
import { expectAuthentication, expectConsole, expectDocs, expectHealthy } from './shared-checks';

afterEach(closeAll);

describeImages('the JSON image', ['json', 'jsonReplay', 'replayNonce'], (urls) => {
  const json = new JsonControlClient(urls.json);
  const replayed = new JsonControlClient(urls.jsonReplay);

  test('GET /health', () => expectHealthy(json, 'json'));

  test('the web console at /_sim/ui, with catalog samples from the bundled recordings', () =>
    expectConsole(json, 'json'));

  test('the docs pages the console links, at /_sim/docs/', () => expectDocs(json));

  test('authenticate: token in the authorization header; wrong secret 401; events without a token 401', async () => {
    await expectAuthentication(urls.json);
    expect((await call(`${urls.json}/customerapi/events`)).status).toBe(401);
  });

  test('the replay command (test-images.sh ran it into this container) stored its events', async () => {
    const read = await call(`${urls.json}/customerapi/events?lastEventId=0&limit=10000`, {
      headers: bearer(TOKENS.alluser),
    });
    expect(read.status).toBe(200);
    expect(read.text).toContain(urls.replayNonce);
  });

  test('a durable message: POST /api/message, then GET /customerapi/events has it', async () => {
    const nonce = randomUUID();
    const post = await postJson(`${urls.json}/api/message`, {
      channel: 'RaceDayTrot',
      date: today(),
      trackId: 5,
      raceNr: 1,
      payload: { smoke: nonce },
    });
    expect(post.status).toBe(201);
    const eventId = (JSON.parse(post.text) as { data: { event: { eventId: number } } }).data.event.eventId;
    expect(Number.isInteger(eventId)).toBe(true);
    const since = (await json.state()).journal.lastSeq;
    const read = await call(`${urls.json}/customerapi/events?lastEventId=${eventId - 1}`, {
      headers: bearer(),
    });
    expect(read.status).toBe(200);
    expect(read.text).toContain(nonce);
    // The control plane saw the same delivery.
    const delivered = await json.waitFor({ kind: 'delivered', user: 'testuser', transport: 'events', since });
    expect(delivered.entries[0]).toMatchObject({ eventId, status: 200 });
  });

  test('a transient message over /customerapi/event-stream', async () => {
    const stream = await eventStream(urls.json);
    const nonce = randomUUID();
    const post = await postJson(`${urls.json}/api/message`, {
      channel: 'TimeToStartTrot',
      date: today(),
      trackId: 5,
      raceNr: 1,
      payload: { smoke: nonce },
    });
    expect(post.status).toBe(202);
    expect(JSON.parse(post.text)).toMatchObject({ data: { recipients: expect.any(Number) } });
    const { message } = await stream.messages.next((m) => m.text.includes(nonce), 'the Data message');
    expect(message).toMatchObject({ type: 'Data', data: { channel: 'TimeToStartTrot' } });
  });

  test('-e LONG_POLL_TIMEOUT_MS=500: an empty poll answers 204 after about half a second', async () => {
    const poll = await call(`${urls.jsonReplay}/customerapi/events?lastEventId=999999999`, {
      headers: bearer(),
    });
    expect(poll.status).toBe(204);
    expect(poll.ms).toBeGreaterThanOrEqual(300);
    expect(poll.ms).toBeLessThan(3_000);
  });

  test('-e PORT=4000 -v …:/recordings, AUTO_REPLAY_MESSAGE_INTERVAL=100: the mounted recordings are replayed', async () => {
    // The journal wait answers once the replay took a message in; the store then has it.
    await replayed.waitFor({ kind: 'received', since: 0 }, { timeout: 15_000 });
    const read = await call(`${urls.jsonReplay}/customerapi/events?lastEventId=0&limit=10000`, {
      headers: bearer(TOKENS.alluser),
    });
    expect(read.status).toBe(200);
    expect(read.text).toContain(urls.replayNonce);
  });
});
