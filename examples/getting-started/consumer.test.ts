import { startSimulators, type RunningSimulators } from 'racedata-sim';
import { authenticate, nextEvents, nextMessage } from './consumer';

let sims: RunningSimulators;

beforeAll(async () => {
  // Both simulators in this process, on free ports; a long poll with nothing to say ends after 1 s.
  sims = await startSimulators({ settings: { longPollTimeoutMs: 1000 } });
});
afterAll(() => sims.close());
beforeEach(() => sims.control.reset()); // every test starts from freshly started simulators

test('reads a posted result from the JSON simulator', async () => {
  const token = await authenticate(sims.jsonUrl, sims.users.json[0]!); // testuser
  await sims.json.post({
    channel: 'ResultTrot',
    date: '2026-05-11',
    trackId: 5,
    raceNr: 1,
    payload: { winner: 3 },
  });

  const events = await nextEvents(sims.jsonUrl, token, 0);

  expect(events.map((e) => e.channel)).toEqual(['ResultTrot']);
  // The journal records what the simulator delivered, to whom and how: wait on it, never sleep.
  await sims.json.waitFor({ kind: 'delivered', user: 'testuser', transport: 'events' }, { timeout: 5000 });
});

test('finds nothing after the reset', async () => {
  const token = await authenticate(sims.jsonUrl, sims.users.json[0]!);
  expect(await nextEvents(sims.jsonUrl, token, 0)).toEqual([]); // a 204 after the 1 s long poll
});

test('takes an injected XML document off the legacy queue', async () => {
  const token = await authenticate(sims.legacyUrl, sims.users.legacy[0]!);
  await sims.legacy.inject('<Result raceNr="1" winner="3"/>', { payloadKey: 'result-1' });

  expect(await nextMessage(sims.legacyUrl, token)).toBe('<Result raceNr="1" winner="3"/>');
});
