/**
 * A made-up third simulator (sample-description.ts) run through the control plane's assembly: its transports
 * reach fault routing, fault and journal parameters, GET /_sim/state, the control plane's
 * OpenAPI document and /metrics without core or the control plane naming any of them. Adding a transport to a
 * simulator is an edit of that simulator's description alone.
 */
import type { RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ReplayControl, UpgradeRouter } from '@racedata/core';
import {
  assembleSimulator,
  buildOpenApiDocument,
  replayState,
  simulatorServices,
  type LiveSession,
  type Simulator,
} from '../src';
import { closeAfterTest, closeAll } from '@racedata/test-support';
import { SAMPLE_DESCRIPTION } from '../../core/test/sample-description';

afterEach(closeAll);

interface Fake {
  readonly base: string;
  readonly closed: number[];
  readonly basics: ReturnType<typeof simulatorServices>;
}

async function startFake(): Promise<Fake> {
  const services = simulatorServices(SAMPLE_DESCRIPTION, {}, {});
  const { settings, clock, logger, journal, users, catalog } = services;
  const app: RequestListener = (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!.toLowerCase().replace(/\/$/, '');
    if (path === '/feed/pull') {
      journal.deliveredEach(['testuser'], { transport: 'pull', channel: 'RaceDayTrot', status: 200 });
      res.writeHead(200).end('pulled');
    } else if (/^\/feed\/lane\/[^/]+\/in$/.test(path) || path === '/feed/status') {
      res.writeHead(200).end('ok');
    } else {
      res.writeHead(404).end();
    }
  };
  const replay = new ReplayControl({ settings, recordings: [], clock, logger, deliver: () => undefined });
  const ctx = { kind: SAMPLE_DESCRIPTION.kind, description: SAMPLE_DESCRIPTION, catalog, users, settings };
  const sim: Simulator = assembleSimulator(services, {
    http: { app, upgrades: new UpgradeRouter() },
    replay: { handle: replay, recordings: [] },
    control: {
      hooks: {
        state: () => ({ users: {}, replay: replayState(replay) }),
        reset: () => ({}),
      },
      docs: {
        openapi: buildOpenApiDocument({
          ctx,
          title: 'fake',
          description: 'A made-up simulator',
          own: { paths: {} },
          state: { stateFields: {}, clearedCounts: [] },
          securitySchemes: {},
        }),
        asyncapi: {},
      },
    },
    shutdown: () => undefined,
  });
  const address: AddressInfo = await sim.listen(0, '127.0.0.1');
  closeAfterTest(sim);
  const closed: number[] = [];
  const session: LiveSession = {
    user: 'testuser',
    transport: 'ticker',
    path: '/feed/ticker',
    close: (code) => closed.push(code),
  };
  services.faults.register(session);
  return { base: `http://127.0.0.1:${address.port}`, closed, basics: services };
}

async function post(
  base: string,
  path: string,
  body: unknown,
): Promise<{ status: number; body: { message?: string } & Record<string, unknown> }> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { message?: string } & Record<string, unknown> };
}

const status503 = { type: 'status', status: 503 };

/** The parts of the OpenAPI document read here. */
interface OpenApiView {
  components: { schemas: Record<string, { properties: { transport: { enum: string[] } } }> };
  paths: Record<string, { get: { parameters: Array<{ name: string; schema: unknown }> } }>;
}

describe('a simulator core has never heard of', () => {
  test('GET /_sim/state lists its transports as the description declares them', async () => {
    const { base } = await startFake();
    const state = (await (await fetch(`${base}/_sim/state`)).json()) as { transports: unknown };
    expect(state.transports).toEqual([
      { name: 'pull', kind: 'poll', paths: ['/feed/pull'], faultTarget: true, journalled: true },
      {
        name: 'ticker',
        kind: 'session',
        paths: ['/feed/ticker', '/v2/ticker'],
        faultTarget: true,
        journalled: true,
      },
      { name: 'login', kind: 'request', paths: ['/feed/login'], faultTarget: true, journalled: false },
      {
        name: 'drop-in',
        kind: 'request',
        paths: ['/feed/lane/{lane}/In'],
        faultTarget: true,
        journalled: false,
        source: 'post',
      },
      {
        name: 'status-page',
        kind: 'request',
        paths: ['/feed/status'],
        faultTarget: false,
        journalled: false,
      },
    ]);
  });

  test('a fault rule on its transport meets the route in any spelling, a path parameter included', async () => {
    const { base } = await startFake();
    expect(
      (await post(base, '/_sim/faults', { match: { transport: 'pull' }, action: status503 })).status,
    ).toBe(201);
    expect(
      (await post(base, '/_sim/faults', { match: { path: '/feed/lane/7/In' }, action: status503 })).status,
    ).toBe(201);
    const statuses = [];
    for (const path of ['/feed/pull', '/FEED/Pull/', '/feed/LANE/7/in/', '/feed/lane/8/In', '/feed/status']) {
      statuses.push((await fetch(`${base}${path}`)).status);
    }
    expect(statuses).toEqual([503, 503, 503, 200, 200]);
  });

  test('rules that could never fire are refused, in its own terms', async () => {
    const { base } = await startFake();
    const refused = [];
    for (const rule of [
      { match: { transport: 'events' }, action: status503 },
      { match: { transport: 'status-page' }, action: status503 },
      { match: { transport: 'login', user: 'testuser' }, action: status503 },
      { match: { transport: 'pull', path: '/feed/lane/1/In' }, action: status503 },
      { match: { transport: 'pull' }, action: { type: 'drop' } },
    ]) {
      const res = await post(base, '/_sim/faults', rule);
      refused.push([res.status, res.body.message]);
    }
    expect(refused).toEqual([
      [400, 'the json simulator has no "events" transport; it has pull, ticker, login, drop-in'],
      [400, 'the json simulator has no "status-page" transport; it has pull, ticker, login, drop-in'],
      [400, expect.stringContaining('"match.user" cannot match authentication')],
      [400, expect.stringContaining('not a path of the "pull" transport')],
      [400, expect.stringContaining('drop applies only to transient WebSocket deliveries (ticker)')],
    ]);
  });

  test('its session transport is what drop rules and connections/close act on', async () => {
    const { base, closed, basics } = await startFake();
    expect(
      (await post(base, '/_sim/faults', { match: { transport: 'ticker' }, action: { type: 'drop' } })).status,
    ).toBe(201);
    expect(basics.faults.drops('testuser', 'ticker', 'TimeToStartTrot')).toBe(true);
    const wrong = await post(base, '/_sim/connections/close', { transport: 'pull' });
    expect([wrong.status, wrong.body.message]).toEqual([
      400,
      '"transport" must be "ticker", the json simulator\'s session transport',
    ]);
    expect(await post(base, '/_sim/connections/close', { transport: 'ticker', code: 4000 })).toEqual({
      status: 200,
      body: { closed: 1 },
    });
    expect(closed).toEqual([4000]);
  });

  test('the journal records and filters by its transport names; another is refused', async () => {
    const { base } = await startFake();
    await fetch(`${base}/feed/pull`);
    const page = (await (await fetch(`${base}/_sim/journal?transport=pull`)).json()) as {
      entries: unknown[];
    };
    expect(page.entries).toEqual([
      expect.objectContaining({ kind: 'delivered', user: 'testuser', transport: 'pull', status: 200 }),
    ]);
    const other = await fetch(`${base}/_sim/journal?transport=events`);
    expect(other.status).toBe(400);
    expect(((await other.json()) as { message: string }).message).toBe(
      'parameter "transport" must be one of pull, ticker',
    );
  });

  test('the control plane document and /metrics name its transports and routes', async () => {
    const { base } = await startFake();
    const doc = (await (await fetch(`${base}/_sim/openapi.json`)).json()) as OpenApiView;
    const schemas = doc.components.schemas;
    const enumOf = (name: string) => schemas[name]?.properties.transport.enum;
    expect(enumOf('FaultMatch')).toEqual(['pull', 'ticker', 'login', 'drop-in']);
    expect(enumOf('DeliveredEntry')).toEqual(['pull', 'ticker']);
    expect(enumOf('ClosedEntry')).toEqual(['ticker']);
    const received = schemas.ReceivedEntry as unknown as { properties: { source: { enum: string[] } } };
    expect(received.properties.source.enum).toEqual(['post', 'replay', 'race-day']);
    const journalParams = doc.paths['/_sim/journal']?.get.parameters ?? [];
    expect(journalParams.find((p) => p.name === 'transport')?.schema).toEqual({ enum: ['pull', 'ticker'] });
    await fetch(`${base}/feed/lane/3/In`);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toContain('route="/feed/lane/{lane}/In"');
  });
});
