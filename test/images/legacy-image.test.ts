import { randomUUID } from 'node:crypto';
import { USERS, closeAll } from '@racedata/test-support';
import { LegacyControlClient } from 'racedata-sim';
import { describeImages } from './image-env';
import { bearer, call, stompSession } from './image-client';
import { expectAuthentication, expectConsole, expectDocs, expectHealthy } from './shared-checks';

afterEach(closeAll);

const LISTEN = '/customerapi/channels/listen';

describeImages('the legacy image', ['legacy', 'legacyReplay', 'legacyShortPoll', 'replayNonce'], (urls) => {
  const legacy = new LegacyControlClient(urls.legacy);
  const replayed = new LegacyControlClient(urls.legacyReplay);

  test('GET /health', () => expectHealthy(legacy, 'legacy'));

  test('the web console at /_sim/ui, with catalog samples from the bundled recordings', () =>
    expectConsole(legacy, 'legacy'));

  test('the docs pages the console links, at /_sim/docs/', () => expectDocs(legacy));

  test('authenticate: subscription and Basic; wrong secret 401; listen without a token 401', async () => {
    await expectAuthentication(urls.legacy);
    const { key, secret } = USERS.legacy.testuser;
    const basic = await call(`${urls.legacy}/authenticate`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}` },
    });
    expect(basic.status).toBe(200);
    expect((await call(`${urls.legacy}${LISTEN}`)).status).toBe(401);
  });

  // Before the durable test: the replay command queued its message for testuser, and listen
  // hands out the oldest queued message first.
  test('the replay command (test-images.sh ran it into this container) queued its XML', async () => {
    const read = await call(`${urls.legacy}${LISTEN}`, { headers: bearer() });
    expect(read.status).toBe(200);
    expect(read.text).toContain(urls.replayNonce);
  });

  test('a durable message: POST …/channel/id/Durable, then GET /customerapi/channels/listen has it', async () => {
    const xml = `<smoke nonce="${randomUUID()}">durable</smoke>`;
    await expect(legacy.inject(xml, { payloadKey: 'smoke' })).resolves.toMatchObject({ delivery: 'durable' });
    const read = await call(`${urls.legacy}${LISTEN}`, { headers: bearer() });
    expect(read.status).toBe(200);
    expect(JSON.parse(read.text)).toBe(xml);
  });

  test('a transient message over STOMP (/api/v1/channels/connect, a NonDurable post)', async () => {
    const session = await stompSession(urls.legacy);
    expect(session.version).toMatch(/^1\.[012]$/);
    const xml = `<xml>Hello, ${randomUUID()}!</xml>`;
    const post = await call(`${urls.legacy}/customerapi/channel/id/NonDurable`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: xml,
    });
    expect(post.status).toBeGreaterThanOrEqual(200);
    expect(post.status).toBeLessThan(300);
    const message = await session.messages.next((m) => m.body.includes(xml), 'the MESSAGE frame');
    expect((JSON.parse(message.body) as { payload: string }).payload).toBe(xml);
  });

  test('-e LONG_POLL_TIMEOUT_MS=500: an empty listen answers 204 after about half a second', async () => {
    const poll = await call(`${urls.legacyShortPoll}${LISTEN}`, { headers: bearer() });
    expect(poll.status).toBe(204);
    expect(poll.ms).toBeGreaterThanOrEqual(300);
    expect(poll.ms).toBeLessThan(3_000);
  });

  test('-v …:/recordings, AUTO_REPLAY_MESSAGE_INTERVAL=100: the mounted recordings are replayed', async () => {
    await replayed.waitFor({ kind: 'received', since: 0 }, { timeout: 15_000 });
    // A long poll: answered at once when the replay queued the message, else when it does.
    const read = await call(`${urls.legacyReplay}${LISTEN}`, { headers: bearer() }, 15_000);
    expect(read.status).toBe(200);
    expect(read.text).toContain(urls.replayNonce);
  });
});
