import path from 'node:path';
import type { CertificationSource, CertificationState } from '@racedata/control';
import type { SimulatorSettings } from '@racedata/core';
import { checkedClient, concretePath } from './checked-client';
import { controlGuarded, operationsWhere, sweep, takesBody } from './openapi-model';
import type { OpenApiConformance } from './openapi-conformance';

/** What the shared control-plane cases need from one simulator's test file. */
export interface ControlCasesOptions {
  /** The conformance object of the file (built in its beforeAll). */
  readonly api: () => OpenApiConformance;
  /**
   * Starts a simulator on a free port with these settings (and a certification, as certify's
   * simulators have); the file's afterEach closes it.
   */
  readonly start: (
    settings: Partial<SimulatorSettings>,
    deps?: { certification?: CertificationSource; docsRoot?: string },
  ) => Promise<{ base: string }>;
  /** Puts in one durable message and has testuser read it, so the journal has both kinds. */
  readonly deliverOne: (base: string) => Promise<void>;
  /** The journal transport of that read. */
  readonly readTransport: string;
  /** Opens an authenticated WebSocket session of testuser; `closed` resolves with its close code. */
  readonly openSession: (base: string) => Promise<{ closed: Promise<number> }>;
  readonly sessionTransport: 'event-stream' | 'stomp';
  /** Valid fault rules of this simulator, one of each action. */
  readonly faultRules: readonly object[];
}

const json = { 'content-type': 'application/json' };

/** The repository's root: README.md, CHANGELOG.md and docs/, as the CLI hands them to a simulator. */
const DOCS_ROOT = path.resolve(__dirname, '..', '..');

/** A certification halfway: one check graded (an expected failure, with evidence), one to come. */
const CERTIFICATION: CertificationState = {
  suite: 'events',
  client: 'node client.mjs',
  attached: false,
  timings: {
    longPollTimeoutMs: 2000,
    pingIntervalMs: 1000,
    authTimeoutMs: 3000,
    tokenTtlSeconds: 300,
    stompHeartBeatMs: 1000,
  },
  startedAt: '2026-11-26T10:00:00.000Z',
  phase: 'playing',
  scenario: 'long polls',
  clientReadyAfterMs: 120,
  checks: [
    {
      id: 'repoll-after-204',
      scenario: 'long polls',
      required: true,
      status: 'fail',
      summary: 'waited 3004 ms after a 204',
      expectedFailure: true,
      evidence: [{ at: '2026-11-26T10:00:01.000Z', what: 'GET /customerapi/events -> 204 (2003 ms)' }],
    },
    {
      id: 'no-hot-loop',
      scenario: 'whole run',
      required: true,
      status: 'pending',
      summary: 'rule',
      evidence: [],
    },
  ],
  passed: 0,
  failed: 0,
};

/**
 * The /_sim/* routes, /health and /metrics are one design on both simulators: their answers are
 * held against each simulator's own document by these cases, defined once.
 */
export function describeControlPlane(o: ControlCasesOptions): void {
  const start = async (settings: Partial<SimulatorSettings> = {}) => {
    const { base } = await o.start(settings);
    return { base, call: checkedClient(o.api(), base) };
  };

  describe('the control plane answers as documented', () => {
    test('health, metrics, state, journal and its wait, the documents', async () => {
      const { base, call } = await start();
      await call('GET', '/health');
      await o.deliverOne(base);
      await call('GET', '/metrics');
      expect((await call('GET', '/_sim/state')).body).toMatchObject({ users: { testuser: {} } });
      const journal = await call(
        'GET',
        `/_sim/journal?transport=${o.readTransport}&user=testuser&since=0&limit=10`,
      );
      expect(journal.body).toMatchObject({ entries: [{ kind: 'delivered' }] });
      expect((await call('GET', '/_sim/journal?kind=received')).body).toMatchObject({
        entries: [{ seq: 1 }],
      });
      expect((await call('GET', '/_sim/journal?limit=0')).status).toBe(400);
      expect((await call('GET', '/_sim/journal?user=nobody')).status).toBe(400);
      expect((await call('GET', '/_sim/journal/wait?count=2&timeout=60000')).status).toBe(200);
      expect((await call('GET', '/_sim/journal/wait?count=3&timeout=0')).status).toBe(408);
      expect((await call('GET', '/_sim/journal/wait?colour=red')).status).toBe(400);
      await call('GET', '/_sim/openapi.json');
      await call('GET', '/_sim/asyncapi.json');
    });

    test('certification: 404 on a simulator that runs none; 200, and a summary in the state, on one that does', async () => {
      const { call } = await start();
      expect((await call('GET', '/_sim/certification')).status).toBe(404);
      const certified = await o.start(
        {},
        { certification: { current: () => CERTIFICATION, onChange: () => () => undefined } },
      );
      const certifiedCall = checkedClient(o.api(), certified.base);
      expect((await certifiedCall('GET', '/_sim/certification')).body).toEqual(CERTIFICATION);
      expect((await certifiedCall('GET', '/_sim/state')).body).toMatchObject({
        certification: { suite: 'events', phase: 'playing', checks: 2, graded: 1, passed: 0, failed: 0 },
      });
    });

    test('race-day: 404 with none playing, 400 refused, 200 started and shown, 200 stopped; schemas: 200, 404', async () => {
      const { call } = await start();
      expect((await call('GET', '/_sim/race-day')).status).toBe(404);
      const refused = await call('POST', '/_sim/race-day', { json: { edgeCases: 'photo-fnish' } });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'RACE_DAY_INVALID' });
      const started = await call('POST', '/_sim/race-day', {
        json: { date: '2026-05-13', seed: 1, edgeCases: 'all', at: '14:00', speed: 2 },
      });
      expect(started.body).toMatchObject({ date: '2026-05-13', seed: 1, play: { speed: 2, at: '14:00' } });
      expect((await call('GET', '/_sim/race-day')).status).toBe(200);
      expect((await call('GET', '/_sim/state')).body).toMatchObject({
        raceDay: { on: true, date: '2026-05-13' },
      });
      expect((await call('DELETE', '/_sim/race-day')).body).toEqual({ stopped: true });
      expect((await call('GET', '/_sim/state')).body).toMatchObject({ raceDay: { on: false } });
      expect((await call('GET', '/_sim/schemas')).status).toBe(200);
      expect((await call('GET', '/_sim/schemas/ResultTrot')).body).toMatchObject({
        $id: 'urn:racedata-sim:payload:ResultTrot',
      });
      expect((await call('GET', '/_sim/schemas/Result')).status).toBe(404);
    });

    test('race-day actions and goto: 400 with none playing, 200, 400 unknown, 409 by phase and backwards', async () => {
      const { call } = await start();
      const scratch = { action: 'scratch', trackId: 909, raceNr: 8, startNr: 3 };
      const none = await call('POST', '/_sim/race-day/actions', { json: scratch });
      expect(none.body).toMatchObject({ code: 'RACE_DAY_NOT_PLAYING' });
      const goto = { trackId: 909, raceNr: 8, phase: 'start', offsetMs: -30_000 };
      expect((await call('POST', '/_sim/race-day/goto', { json: goto })).status).toBe(400);
      await call('POST', '/_sim/race-day', { json: { date: '2026-05-13', edgeCases: 'none', at: '09:00' } });
      const done = await call('POST', '/_sim/race-day/actions', { json: scratch });
      expect(done.body).toMatchObject({
        action: 'scratch',
        phase: 'scheduled',
        emitted: [{ channel: 'ScratchingsTrot' }, { channel: 'StartListTrot' }],
      });
      const unknown = await call('POST', '/_sim/race-day/actions', { json: { ...scratch, startNr: 77 } });
      expect(unknown.body).toMatchObject({ code: 'RACE_DAY_NO_SUCH_RACE' });
      const early = await call('POST', '/_sim/race-day/actions', {
        json: { ...scratch, action: 'finish-now', startNr: undefined },
      });
      expect(early).toMatchObject({ status: 409, body: { code: 'RACE_DAY_PHASE' } });
      expect((await call('POST', '/_sim/race-day/goto', { json: goto })).body).toMatchObject({
        phase: 'countdown',
      });
      expect((await call('POST', '/_sim/race-day/goto', { json: { ...goto, phase: 'parade' } })).status).toBe(
        409,
      );
    });

    test('docs: 404 where not installed; the index, a page and an image; 304 on a revisit; 404 unknown', async () => {
      const { call } = await start();
      expect((await call('GET', '/_sim/docs/')).status).toBe(404);
      expect((await call('GET', '/_sim/docs/console.md')).status).toBe(404);
      const docs = await o.start({}, { docsRoot: DOCS_ROOT });
      const docsCall = checkedClient(o.api(), docs.base);
      const index = await docsCall('GET', '/_sim/docs/');
      expect(index.text).toContain('<a href="console.md">The web console</a>');
      const page = await docsCall('GET', '/_sim/docs/console.md');
      expect(page.text).toContain('<h1 id="the-web-console">');
      expect((await docsCall('GET', '/_sim/docs/race-board.png')).headers.get('content-type')).toBe(
        'image/png',
      );
      expect(page.headers.get('etag')).toMatch(/^"[\w-]+"$/);
      for (const at of ['/_sim/docs/', '/_sim/docs/console.md']) {
        const etag = (await docsCall('GET', at)).headers.get('etag') ?? '';
        expect((await docsCall('GET', at, { headers: { 'if-none-match': etag } })).status).toBe(304);
      }
      expect((await docsCall('GET', '/_sim/docs/nothing.md')).body).toMatchObject({ code: 'NOT_FOUND' });
    });

    test('clock/advance: 200, 400', async () => {
      const { call } = await start();
      expect((await call('POST', '/_sim/clock/advance', { json: { ms: 1000 } })).body).toMatchObject({
        advancedMs: 1000,
      });
      expect((await call('POST', '/_sim/clock/advance', { json: { ms: -1 } })).status).toBe(400);
      expect((await call('POST', '/_sim/clock/advance')).status).toBe(400);
    });

    test('reset: 200, 400', async () => {
      const { call } = await start();
      expect((await call('POST', '/_sim/reset', { json: { bogus: true } })).status).toBe(400);
      expect((await call('POST', '/_sim/reset', { body: '{nope', headers: json })).status).toBe(400);
      expect((await call('POST', '/_sim/reset')).status).toBe(200);
      const reset = await call('POST', '/_sim/reset', {
        json: {
          events: true,
          queues: true,
          journal: false,
          faults: false,
          eventIds: 'continue',
          closeSockets: true,
        },
      });
      expect(reset.body).toMatchObject({ eventIds: 'continue' });
    });

    test('with CONTROL_TOKEN set, every /_sim/ operation and /metrics answer 401 without it', async () => {
      const { base, call } = await start({ controlToken: 'sesame' });
      const failed = await sweep(
        operationsWhere(o.api().doc, controlGuarded),
        async ({ method, template, op }) => {
          const path = concretePath(template, { id: 'f1', channel: 'RaceDayTrot', page: 'console.md' });
          expect((await call(method, path, takesBody(op) ? { json: {} } : {})).status).toBe(401);
        },
      );
      expect(failed).toEqual([]);
      expect(
        (await fetch(`${base}/_sim/state`, { headers: { authorization: 'Bearer sesame' } })).status,
      ).toBe(200);
    });

    test('every /_sim/ operation answers 403 to a Host it does not answer to (DNS rebinding)', async () => {
      const { call } = await start();
      const controlOps = operationsWhere(o.api().doc, controlGuarded).filter((at) =>
        at.template.startsWith('/_sim/'),
      );
      const failed = await sweep(controlOps, async ({ method, template, op }) => {
        const path = concretePath(template, { id: 'f1', channel: 'RaceDayTrot', page: 'console.md' });
        const headers = { host: 'attacker.example', ...json };
        const answer = await call(method, path, takesBody(op) ? { json: {}, headers } : { headers });
        expect(answer.body).toMatchObject({ code: 'CONTROL_HOST_REFUSED' });
      });
      expect(failed).toEqual([]);
    });

    test('every /_sim/ operation with a JSON body answers 403 to a foreign Origin and 415 to text/plain', async () => {
      const { base, call } = await start();
      const controlOps = operationsWhere(o.api().doc, takesBody).filter((at) =>
        at.template.startsWith('/_sim/'),
      );
      const failed = await sweep(controlOps, async ({ method, template }) => {
        const foreign = { origin: 'http://attacker.example', ...json };
        expect((await call(method, template, { body: '{}', headers: foreign })).body).toMatchObject({
          code: 'CONTROL_ORIGIN_REFUSED',
        });
        const text = { 'content-type': 'text/plain;charset=UTF-8', origin: base };
        expect((await call(method, template, { body: '{}', headers: text })).status).toBe(415);
      });
      expect(failed).toEqual([]);
    });

    test('every operation with a body answers 413 to one over MAX_BODY_BYTES', async () => {
      const { call } = await start({ maxBodyBytes: 1024 });
      const oversized = JSON.stringify({ key: 'x'.repeat(2048) });
      const failed = await sweep(operationsWhere(o.api().doc, takesBody), async ({ method, template }) => {
        const path = concretePath(template, { channelId: 'id' });
        expect((await call(method, path, { body: oversized, headers: json })).status).toBe(413);
      });
      expect(failed).toEqual([]);
    });

    test('every operation with a body answers 503 while too many bodies are in flight', async () => {
      const { call } = await start({ maxInflightBodyBytes: 1 });
      const failed = await sweep(operationsWhere(o.api().doc, takesBody), async ({ method, template }) => {
        const path = concretePath(template, { channelId: 'id' });
        expect((await call(method, path, { json: { any: 'body' } })).status).toBe(503);
      });
      expect(failed).toEqual([]);
    });
  });

  describe('fault rules, connection closes and token expiry answer as documented', () => {
    test('POST, GET and DELETE /_sim/faults', async () => {
      const { call } = await start();
      for (const rule of o.faultRules)
        expect((await call('POST', '/_sim/faults', { json: rule })).status).toBe(201);
      expect((await call('POST', '/_sim/faults', { json: { action: { type: 'explode' } } })).status).toBe(
        400,
      );
      // A 1xx is never a final answer: refused, as the document's 200-599 says.
      const informational = { action: { type: 'status', status: 101 } };
      expect((await call('POST', '/_sim/faults', { json: informational })).status).toBe(400);
      const dropByPath = { action: { type: 'drop' }, match: { path: '/x' } };
      expect((await call('POST', '/_sim/faults', { json: dropByPath })).status).toBe(400);
      const listed = (await call('GET', '/_sim/faults')).body as { rules: Array<{ id: string }> };
      expect(listed.rules).toHaveLength(o.faultRules.length);
      const first = listed.rules[0]?.id ?? 'f1';
      expect((await call('DELETE', `/_sim/faults/${first}`)).body).toEqual({ removed: 1 });
      expect((await call('DELETE', `/_sim/faults/${first}`)).status).toBe(404);
      // An id that is not valid percent-encoding is refused, not a crash of the route.
      expect((await call('DELETE', '/_sim/faults/%zz')).status).toBe(400);
      expect((await call('DELETE', '/_sim/faults')).body).toEqual({ removed: o.faultRules.length - 1 });
    });

    test('past FAULT_BODY_MAX_BYTES 413, past FAULT_RULES_MAX and JOURNAL_WAITERS_MAX 429', async () => {
      const { base, call } = await start({ faultRulesMax: 1, faultBodyMaxBytes: 8, journalWaitersMax: 1 });
      const rule = (body: string) => ({
        match: { path: '/nowhere' },
        action: { type: 'status', status: 503, body },
      });
      expect((await call('POST', '/_sim/faults', { json: rule('12345678') })).status).toBe(201);
      const tooLarge = await call('POST', '/_sim/faults', { json: rule('123456789') });
      expect([tooLarge.status, tooLarge.text]).toEqual([
        413,
        expect.stringContaining('FAULT_BODY_MAX_BYTES'),
      ]);
      const tooMany = await call('POST', '/_sim/faults', { json: rule('x') });
      expect([tooMany.status, tooMany.text]).toEqual([429, expect.stringContaining('FAULT_RULES_MAX')]);
      const waiters = async (n: number) => {
        for (let tries = 0; tries < 500; tries++) {
          const state = (await (await fetch(`${base}/_sim/state`)).json()) as {
            journal: { waiters: number };
          };
          if (state.journal.waiters === n) return;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        throw new Error(`never ${n} journal waits held`);
      };
      const held = new AbortController();
      const first = fetch(`${base}/_sim/journal/wait?count=1&timeout=60000`, { signal: held.signal });
      await waiters(1);
      const refused = await call('GET', '/_sim/journal/wait?count=1&timeout=60000');
      expect([refused.status, refused.text]).toEqual([429, expect.stringContaining('JOURNAL_WAITERS_MAX')]);
      held.abort();
      await expect(first).rejects.toThrow();
      await waiters(0);
    });

    test('POST /_sim/connections/close closes the session with the code, and the journal says so', async () => {
      const { base, call } = await start();
      const session = await o.openSession(base);
      const closed = await call('POST', '/_sim/connections/close', {
        json: { user: 'testuser', transport: o.sessionTransport, code: 4000 },
      });
      expect(closed.body).toEqual({ closed: 1 });
      expect(await session.closed).toBe(4000);
      const page = await call('GET', '/_sim/journal/wait?kind=closed&count=1&timeout=5000');
      expect(page.body).toMatchObject({ entries: [{ kind: 'closed', transport: o.sessionTransport }] });
      expect((await call('POST', '/_sim/connections/close', { json: { code: 1005 } })).status).toBe(400);
      const other = o.sessionTransport === 'stomp' ? 'event-stream' : 'stomp';
      expect((await call('POST', '/_sim/connections/close', { json: { transport: other } })).status).toBe(
        400,
      );
      expect((await call('POST', '/_sim/connections/close')).body).toEqual({ closed: 0 });
    });

    test('POST /_sim/tokens/expire, and a reset that clears the faults', async () => {
      const { call } = await start();
      const expired = await call('POST', '/_sim/tokens/expire', { json: { user: 'testuser' } });
      expect(expired.body).toEqual({ expired: ['testuser'] });
      expect((await call('POST', '/_sim/tokens/expire', { json: { user: 'nobody' } })).status).toBe(400);
      await call('POST', '/_sim/faults', { json: { action: { type: 'hold' }, match: { path: '/nowhere' } } });
      const reset = await call('POST', '/_sim/reset', { json: { faults: true } });
      expect(reset.body).toMatchObject({ cleared: { faultRules: 1, tokenExpiries: 1 } });
    });
  });

  describe('sandboxes answer as documented', () => {
    test('POST, GET and DELETE /_sim/sandboxes; the sandbox serves the documented paths under its basePath', async () => {
      const { call } = await start({ sandboxMax: 1 });
      const created = await call('POST', '/_sim/sandboxes', {
        json: { replay: false, longPollTimeoutMs: 1000 },
      });
      expect(created.status).toBe(201);
      const box = created.body as { id: string; basePath: string };
      expect((await call('POST', '/_sim/sandboxes')).status).toBe(429);
      expect((await call('POST', '/_sim/sandboxes', { json: { replay: {} } })).status).toBe(400);
      expect((await call('GET', '/_sim/sandboxes')).body).toMatchObject({
        max: 1,
        sandboxes: [{ id: box.id }],
      });
      await call('GET', `${box.basePath}/health`);
      await call('GET', `${box.basePath}/_sim/state`);
      // Sandboxes do not nest.
      expect((await call('GET', `${box.basePath}/_sim/sandboxes`)).status).toBe(404);
      expect((await call('DELETE', `/_sim/sandboxes/${box.id}`)).body).toEqual({ deleted: box.id });
      expect((await call('DELETE', `/_sim/sandboxes/${box.id}`)).status).toBe(404);
      expect((await call('DELETE', '/_sim/sandboxes/%zz')).status).toBe(400);
    });

    test('SANDBOX_MAX=0: the sandbox routes answer 404', async () => {
      const { call } = await start({ sandboxMax: 0 });
      expect((await call('POST', '/_sim/sandboxes')).status).toBe(404);
    });
  });
}

/** Fails on a documented answer no test produced, and on allow-list entries that excuse nothing. */
export function testCoverage(api: () => OpenApiConformance, allowed: Readonly<Record<string, string>>): void {
  test('every documented answer was produced by a test above (or is allow-listed)', () => {
    expect(api().unexercised(allowed)).toEqual([]);
    expect(api().staleAllowances(allowed)).toEqual([]);
  });
}
