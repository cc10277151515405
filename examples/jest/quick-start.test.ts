import { startSimulators, type RunningSimulators } from 'racedata-sim';

let sims: RunningSimulators;
beforeAll(async () => (sims = await startSimulators()));
afterAll(() => sims.close());
beforeEach(() => sims.control.reset()); // a fresh simulator for every test

test('a posted event reaches the events long poll', async () => {
  const { token } = sims.users.json[0]!; // testuser
  await sims.json.post({ channel: 'RaceDayTrot', date: '2026-05-11', payload: { raceNr: 1 } });
  // Your consumer, pointed at sims.jsonUrl, would do this:
  const res = await fetch(`${sims.jsonUrl}/customerapi/events?lastEventId=0`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(await res.json()).toMatchObject({ data: { numberOfEvents: 1 } });
  await sims.json.waitFor({ kind: 'delivered', user: 'testuser', transport: 'events' });
});
