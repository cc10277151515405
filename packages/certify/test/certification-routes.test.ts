/**
 * The certification as the control plane serves it from a certify server (a simulator mounted
 * with a board): GET /_sim/certification, GET /_sim/state's summary, and the console stream's
 * state event soon after the board changes.
 */
import { SseClient } from '@racedata/test-support/sse';
import { consoleAssets } from '@racedata/console';
import { closeAfterTest, closeAll } from '@racedata/test-support';
import { CertificationBoard } from '../src/run/certification-board';
import { startCertifyServer } from '../src/server/certify-server';
import { CERTIFY_TIMINGS } from '../src/timings';
import type { CheckInfo } from '../src/types';

afterEach(closeAll);

const check = (id: string): CheckInfo => ({ id, required: true, rule: `must ${id}`, source: 'test' });

function newBoard(suite: 'events' | 'stomp') {
  return new CertificationBoard({
    suite,
    client: 'node client.mjs',
    timings: CERTIFY_TIMINGS,
    scenarios: [{ name: 'authenticates', checks: [check('auth-key-secret'), check('no-hot-loop')] }],
    now: Date.now,
  });
}

async function serve(simulator: 'json' | 'legacy', board?: CertificationBoard) {
  const server = await startCertifyServer({
    simulator,
    timings: CERTIFY_TIMINGS,
    ...(board && { certification: board }),
  });
  return closeAfterTest(server);
}

describe('GET /_sim/certification on a certify server', () => {
  it.each(['json', 'legacy'] as const)(
    '%s: answers the board as it is, and GET /_sim/state carries its summary',
    async (simulator) => {
      const suite = simulator === 'json' ? 'events' : 'stomp';
      const board = newBoard(suite);
      const server = await serve(simulator, board);
      const first = await fetch(`${server.base}/_sim/certification`);
      expect(first.status).toBe(200);
      expect(await first.json()).toMatchObject({
        client: 'node client.mjs',
        phase: 'waiting',
        checks: [
          { id: 'auth-key-secret', status: 'pending', summary: 'must auth-key-secret' },
          { id: 'no-hot-loop', status: 'pending' },
        ],
      });
      board.fold({ type: 'scenario-start', suite, name: 'authenticates', checks: [] });
      board.fold({
        type: 'check',
        suite,
        result: { id: 'auth-key-secret', status: 'pass', required: true, summary: 'ok', evidence: [] },
      });
      const now = (await (await fetch(`${server.base}/_sim/certification`)).json()) as Record<
        string,
        unknown
      >;
      expect(now).toMatchObject({ phase: 'playing', scenario: 'authenticates', passed: 1 });
      const state = (await (await fetch(`${server.base}/_sim/state`)).json()) as Record<string, unknown>;
      expect(state.certification).toEqual({
        suite,
        phase: 'playing',
        scenario: 'authenticates',
        checks: 2,
        graded: 1,
        passed: 1,
        failed: 0,
      });
    },
  );

  it('answers 404 in the error shape on a simulator that runs no certification, and its state has none', async () => {
    const server = await serve('json');
    const res = await fetch(`${server.base}/_sim/certification`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      status: 'fail',
      code: 'NOT_FOUND',
      message: expect.stringMatching(/no certification/),
    });
    const state = (await (await fetch(`${server.base}/_sim/state`)).json()) as Record<string, unknown>;
    expect(state).not.toHaveProperty('certification');
  });
});

describe('the console stream of a certify server', () => {
  it('sends a state carrying the certification as soon as a check is graded', async () => {
    const board = newBoard('events');
    const server = await serve('json', board);
    const stream = closeAfterTest(await SseClient.open(`${server.base}/_sim/stream`));
    const opening = await stream.next((e) => e.event === 'state');
    expect(JSON.parse(opening.data)).toMatchObject({ certification: { phase: 'waiting' } });
    board.fold({ type: 'scenario-start', suite: 'events', name: 'authenticates', checks: [] });
    board.fold({
      type: 'check',
      suite: 'events',
      result: {
        id: 'no-hot-loop',
        status: 'fail',
        required: true,
        summary: '25 requests in a second',
        evidence: [],
      },
    });
    const graded = await stream.next(
      (e) => e.event === 'state' && e.data.includes('25 requests in a second'),
    );
    const state = JSON.parse(graded.data) as { certification: Record<string, unknown> };
    expect(state.certification).toMatchObject({
      phase: 'playing',
      scenario: 'authenticates',
      failed: 1,
      checks: [
        { id: 'auth-key-secret', status: 'pending' },
        { id: 'no-hot-loop', status: 'fail' },
      ],
    });
    // The two folds of one task left as one state event.
    expect(stream.events.filter((e) => e.event === 'state')).toHaveLength(2);
  });
});

describe('the console on a certify server', () => {
  it('is served, and a person opening it is not traffic of the client under certification', async () => {
    const server = closeAfterTest(
      await startCertifyServer({ simulator: 'json', timings: CERTIFY_TIMINGS, consoleAssets }),
    );
    expect(server.console).toBe(`${server.base}/_sim/ui`);
    const root = await fetch(`${server.base}/`, { redirect: 'manual' });
    expect([root.status, root.headers.get('location')]).toEqual([302, './_sim/ui']);
    for (const asset of ['/_sim/ui', '/_sim/ui/console.js', '/_sim/ui/console.css']) {
      expect((await fetch(`${server.base}${asset}`)).status).toBe(200);
    }
    expect(server.traffic.all()).toEqual([]);
    await fetch(`${server.base}/customerapi/events`);
    const recorded = await server.traffic.next('request', () => true, { timeoutMs: 5000, since: 0 });
    expect([recorded?.path, recorded?.status]).toEqual(['/customerapi/events', 401]);
    expect(server.traffic.all()).toHaveLength(1);
  });
});
