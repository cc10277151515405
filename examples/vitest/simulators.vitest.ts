import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { startSimulators, type RunningSimulators } from 'racedata-sim';

let sims: RunningSimulators;

beforeAll(async () => {
  sims = await startSimulators({ settings: { longPollTimeoutMs: 2000 } });
});
afterAll(() => sims.close()); // answers held polls, closes sockets, frees the ports
beforeEach(async () => {
  await sims.control.reset(); // both simulators: events, queues, journal, faults
});

test('a posted event reaches a long poll of the JSON simulator', async () => {
  const { token } = sims.users.json[0]!; // testuser: key, secret, token, channels
  await sims.json.post({ channel: 'RaceDayTrot', date: '2024-05-11', payload: { raceNr: 1 } });

  // The code under test would do this, pointed at sims.jsonUrl:
  const res = await fetch(`${sims.jsonUrl}/customerapi/events?lastEventId=0`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  await sims.json.waitFor({ kind: 'delivered', user: 'testuser' }, { timeout: 5000 });
});

test('an injected XML message reaches the legacy listen loop', async () => {
  const { token } = sims.users.legacy[0]!;
  await sims.legacy.inject('<race id="1"/>', { payloadKey: 'race-1' });

  const res = await fetch(`${sims.legacyUrl}/customerapi/channels/listen`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(await res.json()).toBe('<race id="1"/>');
});
