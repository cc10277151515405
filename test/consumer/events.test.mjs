// A suite in a project that installed racedata-sim: ESM, run by node:test. Copied into that
// project by test/package-install.test.ts.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ControlError, startSimulators } from 'racedata-sim';
import {
  ControlError as ContainerControlError,
  RaceDataSimulatorContainer,
} from 'racedata-sim/testcontainers';

let sims;

before(async () => {
  sims = await startSimulators();
});

after(async () => {
  await sims.close();
});

test('an event posted through the control plane comes back from a poll', async () => {
  const auth = await fetch(`${sims.jsonUrl}/customerapi/authenticate/subscription`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key: 'testuser', secret: 'testpassword' }),
  });
  assert.equal(auth.status, 200);
  await sims.json.post({ channel: 'RaceDayTrot', date: '2024-05-11', payload: { track: 'Solvalla' } });

  const poll = await fetch(`${sims.jsonUrl}/customerapi/events?lastEventId=0`, {
    headers: { authorization: auth.headers.get('authorization') },
  });
  assert.equal(poll.status, 200);
  assert.match(JSON.stringify(await poll.json()), /"Solvalla"/);
  const health = await sims.legacy.health();
  assert.deepEqual([health.status, health.simulator], ['ok', 'legacy']);
});

test('both entry points hand out the same classes', () => {
  assert.equal(ContainerControlError, ControlError);
  assert.equal(typeof RaceDataSimulatorContainer, 'function');
});
