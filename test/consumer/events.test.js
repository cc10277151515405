// A suite in a project that installed racedata-sim: CommonJS, run by jest. Copied into that
// project by test/package-install.test.ts.
const { startSimulators, ControlError } = require('racedata-sim');
const containers = require('racedata-sim/testcontainers');

let sims;

beforeAll(async () => {
  sims = await startSimulators();
});

afterAll(async () => {
  await sims.close();
});

test('an event posted through the control plane comes back from a poll', async () => {
  const auth = await fetch(`${sims.jsonUrl}/customerapi/authenticate/subscription`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key: 'testuser', secret: 'testpassword' }),
  });
  expect(auth.status).toBe(200);
  await sims.json.post({ channel: 'RaceDayTrot', date: '2024-05-11', payload: { track: 'Solvalla' } });

  const poll = await fetch(`${sims.jsonUrl}/customerapi/events?lastEventId=0`, {
    headers: { authorization: auth.headers.get('authorization') },
  });
  expect(poll.status).toBe(200);
  expect(JSON.stringify(await poll.json())).toContain('"Solvalla"');
  expect(await sims.legacy.health()).toMatchObject({ status: 'ok', simulator: 'legacy' });
});

test('both entry points hand out the same classes', () => {
  expect(containers.ControlError).toBe(ControlError);
  expect(typeof containers.RaceDataSimulatorContainer).toBe('function');
});
