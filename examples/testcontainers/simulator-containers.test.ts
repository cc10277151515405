import { JsonSimulatorContainer, type StartedJsonSimulatorContainer } from 'racedata-sim/testcontainers';

// Needs a container runtime and the image: scripts/test-testcontainers.sh runs it with both.
const describeContainers = process.env.RACEDATA_TESTCONTAINERS === '1' ? describe : describe.skip;

describeContainers('the JSON simulator in a container', () => {
  let sim: StartedJsonSimulatorContainer;

  beforeAll(async () => {
    sim = await new JsonSimulatorContainer() // racedata/json-sim:<package version>
      .withControlToken('secret')
      .withSettings({ longPollTimeoutMs: 2000 }) // passed as LONG_POLL_TIMEOUT_MS
      .start(); // waits until /health answers
  }, 120_000);
  afterAll(() => sim.stop());
  beforeEach(() => sim.control.reset());

  test('a posted event reaches a long poll', async () => {
    const { token } = sim.getUsers()[0]!;
    await sim.control.post({ channel: 'RaceDayTrot', date: '2024-05-11', payload: { raceNr: 1 } });

    const res = await fetch(`${sim.getBaseUrl()}/customerapi/events?lastEventId=0`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    // sim.getWsUrl(): ws://<host>:<mapped port>/customerapi/event-stream
  });
});
