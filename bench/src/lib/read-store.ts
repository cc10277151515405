import type { BenchContext } from '../context';
import type { ChildServer } from './child-server';
import type { CliSimulator } from './simulator-process';
import { startStoreSimulator } from './store-simulator';
import { httpRequest } from './http-client';
import type { LoadResult } from './load';
import { AUTH } from './payloads';
import { FILTERED, NO_MATCH, PAGING, SELECTIVE, type ReadScenario } from './read-paths';
import { seedStore } from './seed-http';

/** One server's part in the paired rounds of read-throughput. */
export interface Side {
  readonly name: string;
  readonly port: number;
  /** The process serving it, whose CPU time is read from /proc. */
  readonly pid?: number;
  readonly path: string | (() => string);
  readonly headers?: Record<string, string>;
  /** Runs before each of its turns, outside the timing (bare Node: the page it must send). */
  readonly before?: () => Promise<unknown>;
  readonly results: LoadResult[];
  /** Server CPU (user + system) per 1,000 requests, per turn. */
  readonly cpu: number[];
}

const side = (
  name: string,
  server: { readonly port: number; readonly pid: number },
  path: Side['path'],
  extra: Partial<Side> = {},
): Side => ({
  name,
  port: server.port,
  pid: server.pid,
  path,
  headers: AUTH,
  results: [],
  cpu: [],
  ...extra,
});

/**
 * A read on our simulator and the same read on bare Node, with one of our answers (for the peers
 * to serve). Bare Node gets the same requests (the same walk of paths with their query strings, the same
 * header) and sends the bytes of one of our answers; it serves every read of every store, so
 * its page is set before each of its turns.
 */
async function pair(
  ctx: BenchContext,
  scenario: ReadScenario,
  sim: CliSimulator,
  last: number,
  bare: ChildServer,
) {
  const paths = scenario.paths(last);
  const sample = await httpRequest({ port: sim.port, path: paths.sample, headers: AUTH });
  if (sample.status !== 200) throw new Error(`${paths.sample}: HTTP ${sample.status}`);
  const setBody = () =>
    bare.call('set-body', { base64: sample.body.toString('base64'), authorization: AUTH.authorization });
  await setBody();
  const check = await httpRequest({ port: bare.port, path: paths.sample, headers: AUTH });
  if (check.status !== 200 || check.body.length !== sample.body.length) {
    throw new Error(`bare Node answered ${paths.sample} with HTTP ${check.status}, ${check.body.length} B`);
  }
  ctx.log(`    ${scenario.label}: ${sample.body.length} B a page`);
  return {
    scenario,
    ours: side(`ours, ${scenario.events}`, sim, paths.next),
    bare: side(`bare Node, ${scenario.events}`, bare, scenario.paths(last).next, { before: setBody }),
    sample: sample.body,
  };
}

/**
 * One store size: its own CLI process, seeded once, with every read the measure makes of it (the
 * filter that matches nothing and one that one event in 20 matches are read against `page.ours`
 * in the same rounds).
 */
export async function openReadStore(ctx: BenchContext, events: number, bare: ChildServer) {
  const sim = await startStoreSimulator(ctx, events);
  const seeded = await seedStore(sim, events);
  try {
    ctx.log(`    seeded ${events} events over HTTP in ${(seeded.wallMs / 1000).toFixed(1)} s`);
    const last = seeded.lastEventId;
    const path = NO_MATCH(events).paths(last).sample;
    const answer = await httpRequest({ port: sim.port, path, headers: AUTH });
    if (answer.status !== 204) throw new Error(`${path}: HTTP ${answer.status}, expected 204`);
    return {
      events,
      sim,
      seeded,
      page: await pair(ctx, PAGING(events), sim, last, bare),
      filtered: await pair(ctx, FILTERED(events), sim, last, bare),
      noMatch: side(`no match, ${events}`, sim, path),
      selective: side(`selective, ${events}`, sim, SELECTIVE(events).paths(last).next),
    };
  } catch (err) {
    await sim.stop();
    throw err;
  }
}

/**
 * The same store in a simulator that logs every request (LOG_REQUESTS=true, LOG_LEVEL=info, a
 * JSON line each on its stderr, sent to /dev/null): what request logging costs a page read.
 */
export async function openLoggedStore(
  ctx: BenchContext,
  events: number,
): Promise<{ sim: CliSimulator; side: Side }> {
  const env = { LOG_REQUESTS: 'true', LOG_LEVEL: 'info' };
  const sim = await startStoreSimulator(ctx, events, { env, discardLogs: true });
  const { lastEventId } = await seedStore(sim, events);
  return { sim, side: side(`LOG_REQUESTS, ${events}`, sim, PAGING(events).paths(lastEventId).next) };
}

export type Pair = Awaited<ReturnType<typeof pair>>;
export type ReadStore = Awaited<ReturnType<typeof openReadStore>>;
