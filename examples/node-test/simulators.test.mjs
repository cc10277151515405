import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { startSimulators } from 'racedata-sim';

let sims;

before(async () => {
  sims = await startSimulators({ settings: { longPollTimeoutMs: 2000 } });
});
after(() => sims.close());
beforeEach(() => sims.control.reset());

test('a posted event reaches a long poll of the JSON simulator', async () => {
  const { token } = sims.users.json[0];
  await sims.json.post({ channel: 'RaceDayTrot', date: '2024-05-11', payload: { raceNr: 1 } });

  const res = await fetch(`${sims.jsonUrl}/customerapi/events?lastEventId=0`, {
    headers: { authorization: `Bearer ${token}` },
  });
  assert.equal(res.status, 200);
  await sims.json.waitFor({ kind: 'delivered', user: 'testuser' }, { timeout: 5000 });
});

test('the event stream and STOMP endpoints are handed out', () => {
  assert.match(sims.eventStreamUrl, /^ws:\/\/127\.0\.0\.1:\d+\/customerapi\/event-stream$/);
  assert.match(sims.stompUrl, /^ws:\/\/127\.0\.0\.1:\d+\/api\/v1\/channels\/connect$/);
});
