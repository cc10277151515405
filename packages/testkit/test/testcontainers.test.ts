import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import {
  JsonSimulatorContainer,
  LegacySimulatorContainer,
  SIMULATOR_IMAGES,
  type StartedRaceDataSimulatorContainer,
} from 'racedata-sim/testcontainers';
import { ControlError } from 'racedata-sim';
import { TOKENS } from '@racedata/test-support';
import { TOKEN, get } from './support';

// Needs a container runtime and the images built from docker/: scripts/test-testcontainers.sh
// (run by scripts/test-images.sh, after it builds them) provides both and sets
// RACEDATA_TESTCONTAINERS=1. A plain `npm test` has neither, so the block is skipped, saying why.
const configured = process.env.RACEDATA_TESTCONTAINERS === '1';
// Unset, the module's defaults: the images tagged with the package version.
const images = {
  json: process.env.RACEDATA_JSON_IMAGE ?? SIMULATOR_IMAGES.json,
  legacy: process.env.RACEDATA_LEGACY_IMAGE ?? SIMULATOR_IMAGES.legacy,
};
const jsonContainer = () =>
  process.env.RACEDATA_JSON_IMAGE ? new JsonSimulatorContainer(images.json) : new JsonSimulatorContainer();
const legacyContainer = () =>
  process.env.RACEDATA_LEGACY_IMAGE
    ? new LegacySimulatorContainer(images.legacy)
    : new LegacySimulatorContainer();
const SKIPPED =
  'skipped: no container runtime configured for them (RACEDATA_TESTCONTAINERS is not 1); ' +
  '`npm run test:images` builds the images and runs them with Docker or a podman socket, ' +
  '`npm run test:testcontainers` runs them against images built before';
if (!configured) console.warn(`RaceDataSimulatorContainer tests ${SKIPPED}`);

const describeContainers = configured ? describe : describe.skip;
const running: StartedRaceDataSimulatorContainer[] = [];

describeContainers(`RaceDataSimulatorContainer${configured ? '' : ` (${SKIPPED})`}`, () => {
  jest.setTimeout(120_000);

  afterEach(async () => {
    await Promise.all(running.splice(0).map((c) => c.stop({ timeout: 2_000 })));
  });

  test('the JSON image: started once /health answers, settings and control token passed, URLs, users and client handed back', async () => {
    const sim = await jsonContainer()
      .withControlToken('ct-secret')
      .withSettings({ longPollTimeoutMs: 300 })
      .start();
    running.push(sim);
    const url = sim.getBaseUrl();
    expect(url).toMatch(/^http:\/\/[^/]+:\d+$/);
    expect(url).toBe(`http://${sim.getHost()}:${sim.getPort()}`);
    expect(sim.getPort()).toBe(sim.getMappedPort(3000));
    expect(sim.getWsUrl()).toBe(`${url.replace('http', 'ws')}/customerapi/event-stream`);
    expect(sim.getUsers().map((u) => [u.key, u.secret, u.token])).toEqual([
      ['testuser', 'testpassword', TOKEN],
      ['alluser', 'allpassword', TOKENS.alluser],
    ]);
    await expect(sim.control.health()).resolves.toMatchObject({ status: 'ok', simulator: 'json' });

    // CONTROL_TOKEN reached the container: the handed-back client has it, a bare request not.
    expect((await get(`${url}/_sim/state`, undefined)).status).toBe(401);
    expect((await sim.control.state()).simulator).toBe('json');

    // LONG_POLL_TIMEOUT_MS reached it: an empty poll is answered 204 well before the default 60 s.
    const t0 = Date.now();
    expect((await get(`${url}/customerapi/events?lastEventId=0`, TOKEN)).status).toBe(204);
    expect(Date.now() - t0).toBeLessThan(10_000);

    await sim.control.post({ channel: 'RaceDayTrot', date: '2024-05-11', payload: { from: 'test' } });
    const page = await get(`${url}/customerapi/events?lastEventId=0`, TOKEN);
    expect(JSON.parse(page.text)).toMatchObject({
      data: { events: [{ eventId: 1, payload: { from: 'test' } }] },
    });
    const delivered = await sim.control.waitFor({ kind: 'delivered', user: 'testuser' }, { timeout: 5_000 });
    expect(delivered.entries).toEqual([expect.objectContaining({ eventId: 1, transport: 'events' })]);
  });

  test('the legacy image on 8080: STOMP URL, inject, listen, and a bad fault as a typed error', async () => {
    const sim = await legacyContainer().start();
    running.push(sim);
    expect(sim.getPort()).toBe(sim.getMappedPort(8080));
    expect(sim.getStompUrl()).toBe(`${sim.getBaseUrl().replace('http', 'ws')}/api/v1/channels/connect`);
    expect(sim.getWsUrl()).toBe(sim.getStompUrl());
    await expect(sim.control.health()).resolves.toMatchObject({ status: 'ok', simulator: 'legacy' });
    // The STOMP endpoint answers the WebSocket upgrade at that URL, given a user's token.
    const { token } = sim.getUsers()[0]!;
    const ws = new WebSocket(sim.getStompUrl(), ['v12.stomp'], {
      headers: { authorization: `Bearer ${token}` },
    });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    ws.terminate();
    expect(await sim.control.inject('<race id="1"/>', { payloadKey: 'r1' })).toEqual({
      delivery: 'durable',
      queued: 1,
    });
    const listen = await get(`${sim.getBaseUrl()}/customerapi/channels/listen`, TOKEN);
    expect(JSON.parse(listen.text)).toBe('<race id="1"/>');
    const error = await sim.control
      .addFault({ match: { transport: 'events' }, action: { type: 'hold' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ControlError);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
  });

  test('withUsers, withChannels and withRecordings copy into the container; withReplay replays them', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'racedata-tc-'));
    try {
      mkdirSync(path.join(dir, 'json'));
      const line = (n: number) =>
        JSON.stringify({
          at: `2024-05-11T12:00:0${n}.000Z`,
          delivery: 'durable',
          channel: 'OwnChannel',
          date: '2024-05-11',
          payload: { copied: n },
        });
      writeFileSync(path.join(dir, 'json', 'own.jsonl'), `${line(1)}\n${line(2)}\n`);
      const sim = await jsonContainer()
        .withChannels({ durable: ['OwnChannel'], transient: ['OwnLive'] })
        .withUsers([{ name: 'own', key: 'own', secret: 'own-secret', token: 'b3du', channels: '*' }])
        .withRecordings(dir)
        .withReplay(50)
        .start();
      running.push(sim);
      expect(sim.getUsers()).toEqual([
        { key: 'own', name: 'own', secret: 'own-secret', token: 'b3du', channels: ['OwnChannel', 'OwnLive'] },
      ]);
      expect((await sim.control.catalog()).map((c) => [c.name, c.kind])).toEqual([
        ['OwnChannel', 'durable'],
        ['OwnLive', 'transient'],
      ]);
      const replayed = await sim.control.waitFor({ kind: 'received' }, { count: 2, timeout: 10_000 });
      expect(replayed.entries).toEqual([
        expect.objectContaining({ channel: 'OwnChannel', source: 'replay' }),
        expect.objectContaining({ channel: 'OwnChannel', source: 'replay' }),
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('withSettings refuses host paths and names the call that copies them in', () => {
    // @ts-expect-error: usersFile is not a container setting; withUsers copies the table in
    expect(() => jsonContainer().withSettings({ usersFile: '/home/me/users.json' })).toThrow(
      /withUsers\(table\)/,
    );
    // @ts-expect-error: as above, withRecordings
    expect(() => legacyContainer().withSettings({ recordingsDir: '/tmp/rec' })).toThrow(
      /withRecordings\(dir\)/,
    );
  });

  test('stop() stops the simulator: its URL no longer answers', async () => {
    const sim = await jsonContainer().start();
    await sim.stop({ timeout: 2_000 });
    await expect(sim.control.health()).rejects.toMatchObject({ code: 'UNREACHABLE' });
  });
});
