import { ControlClient } from 'racedata-sim';
import { closeAll, TOKENS } from '@racedata/test-support';
import { rawRequest, startSimProcess } from '@racedata/test-support/sim-process';

// POST /_sim/clock/advance against a simulator in its own process: how far it may go in all,
// and what POST /_sim/reset does to it.

afterEach(closeAll);

const HUNDRED_YEARS_MS = 100 * 365 * 24 * 3_600_000;
const JSON_TYPE = { 'content-type': 'application/json' };
const MESSAGE = JSON.stringify({ channel: 'RaceDayTrot', date: '2026-11-22', payload: {} });

const advance = (base: string, ms: number) =>
  rawRequest(base, 'POST', '/_sim/clock/advance', JSON_TYPE, JSON.stringify({ ms }));

test('advances add up to at most 100 years: past that 400 naming the limit, and everything still answers', async () => {
  const { base } = await startSimProcess('json');
  expect((await advance(base, HUNDRED_YEARS_MS - 1_000)).status).toBe(200);
  const over = await advance(base, 1_001);
  expect({ status: over.status, code: over.json?.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
  expect(over.json?.message).toBe(
    `the clock may run at most ${HUNDRED_YEARS_MS} ms (100 years) ahead in all; it is ` +
      `${HUNDRED_YEARS_MS - 1_000} ms ahead, so "ms" may be at most 1000 (POST /_sim/reset restores the real time)`,
  );
  expect((await advance(base, 1_000)).status).toBe(200);
  // Once at the limit every further advance is refused; summed they once made every date fail.
  for (let i = 0; i < 3; i++) expect((await advance(base, HUNDRED_YEARS_MS)).status).toBe(400);

  const state = await rawRequest(base, 'GET', '/_sim/state');
  expect(state.status).toBe(200);
  expect(state.json?.clockOffsetMs).toBe(HUNDRED_YEARS_MS);
  expect((await rawRequest(base, 'POST', '/api/message', JSON_TYPE, MESSAGE)).status).toBe(201);
  expect((await rawRequest(base, 'GET', '/_sim/catalog')).status).toBe(200);
});

async function heldPolls(base: string): Promise<number> {
  const state = await rawRequest(base, 'GET', '/_sim/state');
  return (state.json?.users as Record<string, { heldPolls: number }>).testuser?.heldPolls ?? 0;
}

test('reset restores the real time; a poll held across it keeps the time it had left', async () => {
  const { base } = await startSimProcess('json', ['--long-poll-timeout', '60000']);
  await advance(base, 90_000_000);
  const poll = fetch(`${base}/customerapi/events?lastEventId=0`, {
    headers: { authorization: `Bearer ${TOKENS.testuser}` },
  });
  // The poll has no event of its own to await; the state shows it once it is held.
  for (let i = 0; i < 500 && (await heldPolls(base)) === 0; i++);
  expect(await heldPolls(base)).toBe(1);

  // The reset keeps the store, so the poll stays held, and restores the clock under it.
  const reset = await rawRequest(base, 'POST', '/_sim/reset', JSON_TYPE, '{"events":false}');
  expect(reset.json).toMatchObject({ cleared: { clockOffsetMs: 90_000_000 } });
  const state = await rawRequest(base, 'GET', '/_sim/state');
  expect(state.json?.clockOffsetMs).toBe(0);
  expect(Math.abs(Date.parse(String(state.json?.time)) - Date.now())).toBeLessThan(60_000);
  expect(await heldPolls(base)).toBe(1);
  // Its 60 s are still 60 s away, not 25 h: one more minute ends it.
  expect((await advance(base, 60_000)).json?.timersFired).toBeGreaterThanOrEqual(1);
  expect((await poll).status).toBe(204);

  // "clock": false keeps it; the test kit's reset() restores it, as the next test's would.
  await advance(base, 5_000);
  await rawRequest(base, 'POST', '/_sim/reset', JSON_TYPE, '{"clock":false}');
  expect((await rawRequest(base, 'GET', '/_sim/state')).json?.clockOffsetMs).toBe(65_000);
  const control = new ControlClient(base);
  expect((await control.reset()).cleared.clockOffsetMs).toBe(65_000);
  expect((await control.state()).clockOffsetMs).toBe(0);
});
