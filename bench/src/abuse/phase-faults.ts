import http from 'node:http';
import { httpRequest, jsonRequest, post, sleep } from '../harness/http';
import { AUTH } from '../harness/payloads';
import type { Server } from '../harness/processes';
import { inParallel } from '../harness/schedule';
import { reading, simState } from '../harness/store';
import { check } from '../types';
import type { Phase } from './config';

/** A request on a connection of its own, abandoned when nothing came back within 0-50 ms. */
const abandon = (port: number, method: string, path: string, body?: string) =>
  httpRequest({
    ...{ port, method, path, headers: { ...AUTH, 'content-type': 'application/json' }, body },
    ...{ agent: false, timeoutMs: 1 + Math.random() * 49 },
  }).catch(() => undefined);

const HEAP_CHECK = 'heap after the rules went, against before (after a full GC each)';

/** 5. Clients that hang up on requests held or delayed by fault rules; then the rules go. */
export const abandonedRequests: Phase = {
  id: 5,
  name: 'abandoned-requests',
  title: 'abandoned requests under hold and delay rules',
  simulators: ['json'],
  env: { LONG_POLL_TIMEOUT_MS: '1000' },
  async run(sims, config) {
    const c = config.abandoned;
    const json = sims.json as Server;
    const port = json.port;
    const rules = [
      { match: { transport: 'events' }, action: { type: 'hold' } },
      { match: { transport: 'authenticate' }, action: { type: 'delay', ms: 3_600_000 } },
    ];
    for (const rule of rules) await jsonRequest(port, 'POST', '/_sim/faults', rule);
    const before = await reading(json);
    const login = '{"key":"testuser","secret":"testpassword"}';
    await inParallel(c.concurrency, c.clients, (i) =>
      i % 2 === 0
        ? abandon(port, 'GET', '/customerapi/events?lastEventId=0')
        : abandon(port, 'POST', '/customerapi/authenticate/subscription', login),
    );
    await sleep(c.settleMs);
    const held = Object.values((await simState(port)).users).reduce((n, u) => n + u.heldPolls, 0);
    const during = await reading(json);
    await jsonRequest(port, 'DELETE', '/_sim/faults');
    await jsonRequest(port, 'POST', '/_sim/reset');
    await sleep(c.settleMs);
    const after = await reading(json);
    const mb = (v: { heapUsed: number; rss: number }) =>
      `heap ${(v.heapUsed / 2 ** 20).toFixed(1)} MB, RSS ${(v.rss / 2 ** 20).toFixed(1)} MB`;
    const heaps = `before ${mb(before)}; after hang-ups ${mb(during)}; after removal and reset ${mb(after)}`;
    return {
      checks: [
        check('polls still held after every client hung up', '0', String(held), held === 0),
        check(HEAP_CHECK, '<= before + 16 MB', heaps, after.heapUsed <= before.heapUsed + 16 * 2 ** 20),
      ],
      rssBudget: { mb: 0, why: `${c.clients} abandoned requests keep nothing once gone` },
    };
  },
};

/** 6. Sandbox A's tokens on sandbox B's reads, with real JWTs signed by one JWT_SECRET. */
export const crossSandbox: Phase = {
  id: 6,
  name: 'cross-sandbox',
  title: 'cross-sandbox reads with JWTs',
  simulators: ['json', 'legacy'],
  env: { TOKEN_MODE: 'jwt', JWT_SECRET: 'abuse-run-secret', LONG_POLL_TIMEOUT_MS: '500' },
  async run(sims, config) {
    type Sandbox = { basePath: string; users: Array<{ key: string; secret: string; token: string }> };
    const [attempts, examples] = [{ tried: 0, read: 0 }, [] as string[]];
    for (const kind of ['json', 'legacy'] as const) {
      const port = sims[kind]?.port as number;
      const sandbox = async () => {
        const res = await jsonRequest(port, 'POST', '/_sim/sandboxes');
        if (res.status !== 201) throw new Error(`POST /_sim/sandboxes: ${res.status} ${res.body.toString()}`);
        return JSON.parse(res.body.toString('utf8')) as Sandbox;
      };
      const [a, b] = [await sandbox(), await sandbox()];
      // What a client of sandbox A holds: its listed token and the JWT its authenticate issues.
      const user = a.users[0] as Sandbox['users'][number];
      const login = { key: user.key, secret: user.secret };
      const path = `${a.basePath}/customerapi/authenticate/subscription`;
      const answer = await jsonRequest(port, 'POST', path, login).catch(() => undefined);
      const header = answer?.headers.authorization;
      const jwt = header?.startsWith('Bearer ') ? [header.slice(7)] : [];
      const read = `${b.basePath}/customerapi/${kind === 'json' ? 'events?lastEventId=0' : 'channels/listen'}`;
      for (let i = 0; i < config.crossSandbox.attemptsEach; i++) {
        const message = { channel: 'RaceDayTrot', date: '2026-11-22', payload: { i } };
        const durable = `${b.basePath}/customerapi/channel/id/Durable?payloadKey=x${i}`;
        await (kind === 'json'
          ? post(port, `${b.basePath}/api/message`, JSON.stringify(message))
          : post(port, durable, `<Secret n="${i}"/>`, 'application/xml'));
        for (const token of [user.token, ...jwt]) {
          attempts.tried++;
          const headers = { authorization: `Bearer ${token}` };
          if ((await httpRequest({ port, path: read, headers, timeoutMs: 10_000 })).status !== 200) continue;
          attempts.read++;
          if (examples.length < 3)
            examples.push(`${kind} ${read} with A's ${token === user.token ? 'token' : 'JWT'}: 200`);
        }
      }
    }
    const { tried, read } = attempts;
    return {
      checks: [check('cross-sandbox reads that succeeded', '0', `${read} of ${tried}`, read === 0)],
      rssBudget: { mb: 8, why: 'two sandboxes each, holding a few messages' },
      notes: examples,
    };
  },
};

/** 7. Many clock advances of the largest step the control plane takes. */
export const clockAdvances: Phase = {
  id: 7,
  name: 'clock-advances',
  title: 'clock advances',
  simulators: ['json'],
  async run(sims, config) {
    const port = sims.json?.port as number;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    let fivexx = 0;
    for (let i = 0; i < config.clock.advances; i++) {
      const res = await jsonRequest(port, 'POST', '/_sim/clock/advance', { ms: 3153600000000 }, agent);
      if (res.status >= 500) fivexx++;
    }
    const state = await httpRequest({ port, path: '/_sim/state', agent });
    agent.destroy();
    return {
      checks: [
        check('5xx answers to advances', '0', `${fivexx} of ${config.clock.advances}`, fivexx === 0),
        check('GET /_sim/state afterwards', '200', String(state.status), state.status === 200),
      ],
      rssBudget: { mb: 0, why: 'a clock offset is one number' },
    };
  },
};
