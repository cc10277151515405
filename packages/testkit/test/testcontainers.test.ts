import {
  RaceDataSimulatorContainer,
  type StartedRaceDataSimulatorContainer,
} from 'racedata-sim/testcontainers';
import { ControlError } from 'racedata-sim';
import { TOKEN, get } from './support';

// Needs a container runtime and the images built from docker/: scripts/test-testcontainers.sh
// (run by scripts/test-images.sh, after it builds them) provides both and sets
// RACEDATA_TESTCONTAINERS=1. A plain `npm test` has neither, so the block is skipped, saying why.
const configured = process.env.RACEDATA_TESTCONTAINERS === '1';
const images = {
  json: process.env.RACEDATA_JSON_IMAGE ?? 'racedata/json-sim',
  legacy: process.env.RACEDATA_LEGACY_IMAGE ?? 'racedata/legacy-sim',
};
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

  test('the JSON image: started once /health answers, settings and control token passed, URL and client handed back', async () => {
    const sim = await new RaceDataSimulatorContainer('json', images.json)
      .withControlToken('ct-secret')
      .withSettings({ longPollTimeoutMs: 300 })
      .start();
    running.push(sim);
    expect(sim.url).toMatch(/^http:\/\/[^/]+:\d+$/);
    expect(sim.getUrl()).toBe(sim.url);
    expect(sim.url).not.toMatch(/:3000$/);
    await expect(sim.control.health()).resolves.toMatchObject({ status: 'ok', simulator: 'json' });

    // CONTROL_TOKEN reached the container: the handed-back client has it, a bare request not.
    expect((await get(`${sim.url}/_sim/state`, undefined)).status).toBe(401);
    expect((await sim.control.state()).simulator).toBe('json');

    // LONG_POLL_TIMEOUT_MS reached it: an empty poll is answered 204 well before the default 60 s.
    const t0 = Date.now();
    expect((await get(`${sim.url}/customerapi/events?lastEventId=0`, TOKEN)).status).toBe(204);
    expect(Date.now() - t0).toBeLessThan(10_000);

    await sim.control.post({ channel: 'RaceDayTrot', date: '2024-05-11', payload: { from: 'test' } });
    const page = await get(`${sim.url}/customerapi/events?lastEventId=0`, TOKEN);
    expect(JSON.parse(page.text)).toMatchObject({
      data: { events: [{ eventId: 1, payload: { from: 'test' } }] },
    });
    const delivered = await sim.control.waitFor({ kind: 'delivered', user: 'testuser' }, { timeout: 5_000 });
    expect(delivered.entries).toEqual([expect.objectContaining({ eventId: 1, transport: 'events' })]);
  });

  test('the legacy image on 8080: inject, listen, and a bad fault as a typed error', async () => {
    const sim = await new RaceDataSimulatorContainer('legacy', images.legacy).start();
    running.push(sim);
    await expect(sim.control.health()).resolves.toMatchObject({ status: 'ok', simulator: 'legacy' });
    expect(await sim.control.inject('<race id="1"/>', { payloadKey: 'r1' })).toEqual({
      delivery: 'durable',
      queued: 1,
    });
    const listen = await get(`${sim.url}/customerapi/channels/listen`, TOKEN);
    expect(JSON.parse(listen.text)).toBe('<race id="1"/>');
    const error = await sim.control
      .addFault({ match: { transport: 'events' }, action: { type: 'hold' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ControlError);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
  });

  test('stop() stops the simulator: its URL no longer answers', async () => {
    const sim = await new RaceDataSimulatorContainer('json', images.json).start();
    await sim.stop({ timeout: 2_000 });
    await expect(sim.control.health()).rejects.toMatchObject({ code: 'UNREACHABLE' });
  });
});
