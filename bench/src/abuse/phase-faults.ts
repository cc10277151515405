import http from 'node:http';
import type { Server } from '../harness/processes';
import { check } from '../types';
import { heapReading, simState } from '../harness/store';
import { httpRequest, jsonRequest, sleep } from '../harness/http';
import { AUTH } from '../harness/payloads';
import { rssKb } from '../harness/proc';
import type { Phase } from './config';

/** A request on a connection of its own that hangs up when nothing came back for `afterMs`. */
const abandon = (port: number, method: string, path: string, body: string | undefined, afterMs: number) =>
  httpRequest({
    ...{ port, method, path, headers: { ...AUTH, 'content-type': 'application/json' }, body },
    ...{ agent: false, timeoutMs: Math.max(1, afterMs) },
  }).catch(() => undefined);

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
    const { port, pid } = json;
    const reading = async () => {
      await json.gc();
      return { heap: (await heapReading(port)).heapUsed / 1024 / 1024, rss: (rssKb(pid) ?? 0) / 1024 };
    };
    const rules = [
      { match: { transport: 'events' }, action: { type: 'hold' } },
      { match: { transport: 'authenticate' }, action: { type: 'delay', ms: 3_600_000 } },
    ];
    for (const rule of rules) await jsonRequest(port, 'POST', '/_sim/faults', rule);
    const before = await reading();
    let next = 0;
    const worker = async () => {
      while (next < c.clients) {
        const i = next++;
        await (i % 2 === 0
          ? abandon(port, 'GET', '/customerapi/events?lastEventId=0', undefined, Math.random() * 50)
          : abandon(
              port,
              'POST',
              '/customerapi/authenticate/subscription',
              '{"key":"testuser","secret":"testpassword"}',
              Math.random() * 50,
            ));
      }
    };
    await Promise.all(Array.from({ length: c.concurrency }, worker));
    await sleep(c.settleMs);
    const held = Object.values((await simState(port)).users).reduce((n, u) => n + u.heldPolls, 0);
    const during = await reading();
    await jsonRequest(port, 'DELETE', '/_sim/faults');
    await jsonRequest(port, 'POST', '/_sim/reset');
    await sleep(c.settleMs);
    const after = await reading();
    const mb = (v: { heap: number; rss: number }) =>
      `heap ${v.heap.toFixed(1)} MB, RSS ${v.rss.toFixed(1)} MB`;
    return {
      checks: [
        check('polls still held after every client hung up', '0', String(held), held === 0),
        check(
          'heap after the rules went, against before (after a full GC each)',
          '<= before + 16 MB',
          `before ${mb(before)}; after hang-ups ${mb(during)}; after removal and reset ${mb(after)}`,
          after.heap <= before.heap + 16,
        ),
      ],
      rssBudget: { mb: 0, why: `${c.clients} abandoned requests keep nothing once gone` },
    };
  },
};

interface Sandbox {
  id: string;
  basePath: string;
  users: Array<{ key: string; secret: string; token: string }>;
}

async function createSandbox(port: number): Promise<Sandbox> {
  const res = await jsonRequest(port, 'POST', '/_sim/sandboxes');
  if (res.status !== 201) throw new Error(`POST /_sim/sandboxes: ${res.status} ${res.body.toString('utf8')}`);
  return JSON.parse(res.body.toString('utf8')) as Sandbox;
}

/** The tokens a client of sandbox A holds: its listed token and the JWT its authenticate issues. */
async function tokensOf(port: number, box: Sandbox): Promise<string[]> {
  const user = box.users[0]!;
  const path = `${box.basePath}/customerapi/authenticate/subscription`;
  const answer = await jsonRequest(port, 'POST', path, { key: user.key, secret: user.secret }).catch(
    () => undefined,
  );
  const header = answer?.headers.authorization;
  return [user.token, ...(header?.startsWith('Bearer ') ? [header.slice(7)] : [])];
}

/** 6. Sandbox A's tokens on sandbox B's reads, with real JWTs signed by one JWT_SECRET. */
export const crossSandbox: Phase = {
  id: 6,
  name: 'cross-sandbox',
  title: 'cross-sandbox reads with JWTs',
  simulators: ['json', 'legacy'],
  env: { TOKEN_MODE: 'jwt', JWT_SECRET: 'abuse-run-secret', LONG_POLL_TIMEOUT_MS: '500' },
  async run(sims, config) {
    let attempts = 0;
    let reads = 0;
    const examples: string[] = [];
    for (const kind of ['json', 'legacy'] as const) {
      const port = sims[kind]?.port as number;
      const a = await createSandbox(port);
      const b = await createSandbox(port);
      const tokens = await tokensOf(port, a);
      for (let i = 0; i < config.crossSandbox.attemptsEach; i++) {
        await (kind === 'json'
          ? jsonRequest(port, 'POST', `${b.basePath}/api/message`, {
              channel: 'RaceDayTrot',
              date: '2026-11-22',
              payload: { i },
            })
          : httpRequest({
              port,
              method: 'POST',
              path: `${b.basePath}/customerapi/channel/id/Durable?payloadKey=x${i}`,
              body: `<Secret n="${i}"/>`,
              headers: { 'content-type': 'application/xml' },
            }));
        const readPath =
          kind === 'json'
            ? `${b.basePath}/customerapi/events?lastEventId=0`
            : `${b.basePath}/customerapi/channels/listen`;
        for (const token of tokens) {
          attempts++;
          const res = await httpRequest({
            port,
            path: readPath,
            headers: { authorization: `Bearer ${token}` },
            timeoutMs: 10_000,
          });
          if (res.status === 200) {
            reads++;
            if (examples.length < 3)
              examples.push(`${kind} ${readPath} with A's ${token.length > 40 ? 'JWT' : 'token'}: 200`);
          }
        }
      }
    }
    return {
      checks: [check('cross-sandbox reads that succeeded', '0', `${reads} of ${attempts}`, reads === 0)],
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
