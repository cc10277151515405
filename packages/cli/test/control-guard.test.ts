import { ControlClient } from 'racedata-sim';
import { closeAll, TOKENS } from '@racedata/test-support';
import { rawRequest, startSimProcess } from '@racedata/test-support/sim-process';

// What a browser on another site sends, over plain HTTP to a simulator in its own process: the
// Origin a page puts on its requests, the body types it may send without asking, and the Host
// of a DNS-rebound name. The browser itself is in packages/console/test/cross-site.browser.test.ts.

afterEach(closeAll);

const JSON_TYPE = { 'content-type': 'application/json' };
const TEXT = { 'content-type': 'text/plain;charset=UTF-8' };
const ADVANCE = '{"ms":90000000}';
const FAULT = '{"match":{"transport":"events"},"action":{"type":"status","status":503}}';

async function offsetOf(base: string): Promise<unknown> {
  return (await rawRequest(base, 'GET', '/_sim/state')).json?.clockOffsetMs;
}

async function faultsOf(base: string): Promise<unknown[]> {
  return (await rawRequest(base, 'GET', '/_sim/faults')).json?.rules as unknown[];
}

test('a page on another origin changes nothing: its Origin is refused 403, whatever the body type', async () => {
  const { base, port } = await startSimProcess('json');
  const foreign = { origin: `http://127.0.0.1:${port + 1}` };
  for (const [headers, body] of [
    [{ ...foreign, ...TEXT }, ADVANCE],
    [{ ...foreign, ...JSON_TYPE }, ADVANCE],
    // A sandboxed frame, a file or a data: page.
    [{ origin: 'null', ...TEXT }, ADVANCE],
    [{ origin: `http://localhost:${port}`, ...JSON_TYPE }, ADVANCE],
  ] as const) {
    const answer = await rawRequest(base, 'POST', '/_sim/clock/advance', headers, body);
    expect({ status: answer.status, code: answer.json?.code }).toEqual({
      status: 403,
      code: 'CONTROL_ORIGIN_REFUSED',
    });
    expect(answer.json?.message).toContain(headers.origin);
  }
  expect(await offsetOf(base)).toBe(0);

  expect((await rawRequest(base, 'POST', '/_sim/faults', { ...foreign, ...TEXT }, FAULT)).status).toBe(403);
  expect(await faultsOf(base)).toEqual([]);
  expect((await rawRequest(base, 'POST', '/_sim/faults', JSON_TYPE, FAULT)).status).toBe(201);
  expect((await rawRequest(base, 'DELETE', '/_sim/faults', foreign)).status).toBe(403);
  expect((await rawRequest(base, 'POST', '/_sim/reset', foreign)).status).toBe(403);
  expect(await faultsOf(base)).toHaveLength(1);
  // Reading is not refused: without CORS headers the page cannot see the answer.
  expect((await rawRequest(base, 'GET', '/_sim/state', foreign)).status).toBe(200);

  // The console's own requests: Origin is the Host they were sent to.
  const own = await rawRequest(base, 'POST', '/_sim/clock/advance', { origin: base, ...JSON_TYPE }, ADVANCE);
  expect(own.status).toBe(200);
  expect(await offsetOf(base)).toBe(90_000_000);
});

test('a JSON body must say application/json: 415 naming it, and nothing changes', async () => {
  const { base } = await startSimProcess('json');
  for (const headers of [TEXT, { 'content-type': 'application/x-www-form-urlencoded' }, {}]) {
    const answer = await rawRequest(base, 'POST', '/_sim/clock/advance', headers, ADVANCE);
    expect({ status: answer.status, code: answer.json?.code }).toEqual({
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
    });
    expect(answer.json?.message).toMatch(
      /^POST \/_sim\/clock\/advance takes a JSON body: send Content-Type: application\/json/,
    );
  }
  expect((await rawRequest(base, 'POST', '/_sim/faults', TEXT, FAULT)).status).toBe(415);
  expect(await faultsOf(base)).toEqual([]);
  expect(await offsetOf(base)).toBe(0);
  const withCharset = { 'content-type': 'Application/JSON; charset=utf-8' };
  expect((await rawRequest(base, 'POST', '/_sim/clock/advance', withCharset, ADVANCE)).status).toBe(200);
  // No body needs no type (curl -X POST .../_sim/reset), and seeding takes NDJSON as before.
  expect((await rawRequest(base, 'POST', '/_sim/reset')).status).toBe(200);
  const line = JSON.stringify({ channel: 'RaceDayTrot', date: '2026-11-22', payload: {} });
  expect((await rawRequest(base, 'POST', '/_sim/events', TEXT, `${line}\n`)).status).toBe(201);
});

test('a DNS-rebound Host is refused on every /_sim/ request; loopback names and IPs are taken', async () => {
  const { base, port } = await startSimProcess('json');
  const rebound = `attacker.example:${port}`;
  const users = await rawRequest(base, 'GET', '/_sim/users', { host: rebound });
  expect({ status: users.status, code: users.json?.code }).toEqual({
    status: 403,
    code: 'CONTROL_HOST_REFUSED',
  });
  expect(users.text).not.toContain(TOKENS.testuser);
  expect(users.json?.message).toContain('CONTROL_ALLOWED_HOSTS');
  // The page's own origin matches its Host, so only the Host check stands in its way.
  const sameSite = { host: rebound, origin: `http://${rebound}`, ...JSON_TYPE };
  expect((await rawRequest(base, 'POST', '/_sim/clock/advance', sameSite, ADVANCE)).status).toBe(403);
  expect((await rawRequest(base, 'GET', '/_sim/ui', { host: rebound })).status).toBe(403);
  expect(await offsetOf(base)).toBe(0);
  // A sandbox's control plane is guarded as its parent's.
  const box = (await rawRequest(base, 'POST', '/_sim/sandboxes')).json as { basePath: string };
  expect((await rawRequest(base, 'GET', `${box.basePath}/_sim/state`, { host: rebound })).status).toBe(403);
  const foreign = { origin: 'http://attacker.example', ...JSON_TYPE };
  const boxAdvance = await rawRequest(base, 'POST', `${box.basePath}/_sim/clock/advance`, foreign, ADVANCE);
  expect(boxAdvance.json?.code).toBe('CONTROL_ORIGIN_REFUSED');
  expect(await offsetOf(`${base}${box.basePath}`)).toBe(0);
  // The customer API is not the control plane's to guard.
  expect((await rawRequest(base, 'GET', '/health', { host: rebound })).status).toBe(200);

  for (const host of [
    `localhost:${port}`,
    `127.0.0.1:${port}`,
    `[::1]:${port}`,
    `qa.localhost:${port}`,
    '10.1.2.3',
  ]) {
    expect([host, (await rawRequest(base, 'GET', '/_sim/state', { host })).status]).toEqual([host, 200]);
  }
  const page = await rawRequest(base, 'GET', '/_sim/ui');
  expect(page.status).toBe(200);
  expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(page.headers['x-frame-options']).toBe('DENY');
});

test('CONTROL_ALLOWED_HOSTS (--control-allowed-hosts) names the hosts of compose and clusters; * takes any', async () => {
  const named = await startSimProcess('legacy', ['--control-allowed-hosts', 'legacy-sim,.qa.svc']);
  for (const [host, status] of [
    ['legacy-sim:8080', 200],
    ['legacy.qa.svc', 200],
    ['localhost', 200],
    ['attacker.example', 403],
  ] as const) {
    expect([host, (await rawRequest(named.base, 'GET', '/_sim/state', { host })).status]).toEqual([
      host,
      status,
    ]);
  }
  // Origin is still checked against whichever name was used.
  const foreign = { host: 'legacy-sim:8080', origin: 'http://attacker.example', ...JSON_TYPE };
  expect((await rawRequest(named.base, 'POST', '/_sim/reset', foreign, '{}')).status).toBe(403);

  const any = await startSimProcess('json', [], { CONTROL_ALLOWED_HOSTS: '*' });
  expect((await rawRequest(any.base, 'GET', '/_sim/state', { host: 'json-sim:3000' })).status).toBe(200);
});

test("the test kit's ControlClient is a client the guard lets through", async () => {
  const { base } = await startSimProcess('json');
  const control = new ControlClient(base);
  await control.addFault({ match: { transport: 'events' }, action: { type: 'status', status: 503 } });
  await control.advanceClock(1_000);
  await control.expireTokens('testuser');
  const reset = await control.reset({ events: true });
  expect(reset.cleared).toMatchObject({ faultRules: 1, tokenExpiries: 1 });
});
