/**
 * A body in a charset (or content encoding) the simulator cannot read gets a clear 415 naming
 * it, in each simulator's own error body, never a 500; nothing is stored and the process keeps
 * serving. From outside: the simulator runs as its own process.
 */
import { closeAll, TOKENS } from '@racedata/test-support';
import { startSimProcess, type SimProcess } from '@racedata/test-support/sim-process';

afterEach(closeAll);

const AUTH = { authorization: `Bearer ${TOKENS.testuser}` };

interface Answer {
  readonly status: number;
  readonly body: unknown;
}

async function post(
  sim: SimProcess,
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<Answer> {
  const res = await fetch(`${sim.base}${path}`, { method: 'POST', headers, body });
  return { status: res.status, body: await res.json() };
}

test('JSON: a message or credentials in koi8-r, or in an unknown content encoding, are refused with 415', async () => {
  const sim = await startSimProcess('json', ['--long-poll-timeout', '20']);
  const message = JSON.stringify({ channel: 'RaceDayTrot', date: '2026-11-22', payload: { track: 'Åby' } });
  const koi8 = { 'content-type': 'application/json; charset=koi8-r' };
  expect(await post(sim, '/api/message', koi8, message)).toEqual({
    status: 415,
    body: { status: 'fail', message: 'unsupported charset "koi8-r"; send UTF-8 JSON' },
  });
  expect(await post(sim, '/customerapi/authenticate/subscription', koi8, '{"key":"testuser"}')).toEqual({
    status: 415,
    body: { status: 'fail', message: 'unsupported charset "koi8-r"; send UTF-8 JSON' },
  });
  const squashed = await post(
    sim,
    '/api/message',
    { 'content-type': 'application/json', 'content-encoding': 'x-squash' },
    message,
  );
  expect(squashed).toEqual({
    status: 415,
    body: { status: 'fail', message: expect.stringMatching(/^unsupported content encoding "x-squash"; /) },
  });
  // Nothing was stored: the long poll ends empty.
  const events = await fetch(`${sim.base}/customerapi/events?lastEventId=0`, { headers: AUTH });
  expect(events.status).toBe(204);
  expect(sim.alive()).toBe(true);
});

test('legacy: an XML message in ebcdic, credentials in koi8-r or an unknown content encoding are refused with 415', async () => {
  const sim = await startSimProcess('legacy', ['--long-poll-timeout', '20']);
  expect(
    await post(
      sim,
      '/customerapi/channel/id/Durable',
      { 'content-type': 'text/xml; charset=ebcdic' },
      '<a/>',
    ),
  ).toEqual({
    status: 415,
    body: {
      status: 'fail',
      code: 'UNSUPPORTED_CHARSET',
      message: 'unsupported charset "ebcdic"; send UTF-8 or ISO-8859-1',
    },
  });
  const credentials = JSON.stringify({ key: 'testuser', secret: 'testpassword' });
  for (const path of ['/customerapi/authenticate/subscription', '/authenticate']) {
    expect(
      await post(sim, path, { 'content-type': 'application/json; charset=koi8-r' }, credentials),
    ).toEqual({
      status: 415,
      body: {
        status: 'fail',
        code: 'UNSUPPORTED_CHARSET',
        message: 'unsupported charset "koi8-r"; send UTF-8 JSON',
      },
    });
  }
  const squashed = await post(
    sim,
    '/customerapi/channel/id/Durable',
    { 'content-type': 'text/xml', 'content-encoding': 'x-squash' },
    '<a/>',
  );
  expect(squashed).toEqual({
    status: 415,
    body: {
      status: 'fail',
      code: 'UNSUPPORTED_CHARSET',
      message: expect.stringMatching(/^unsupported content encoding "x-squash"; /),
    },
  });
  // Nothing was queued: the long poll ends empty.
  expect((await fetch(`${sim.base}/customerapi/channels/listen`, { headers: AUTH })).status).toBe(204);
  expect(sim.alive()).toBe(true);
});
