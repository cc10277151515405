import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { httpRequest, post } from './http';
import { layoutDays, storedEvent } from './payloads';
import { chargedTo, MEASURED, ourSim, rssBytes, type Server, type ServerOptions } from './processes';

/**
 * The JSON store of the read and memory measures (events 1..N of payloads.storedEvent, filled the
 * way a user fills it in bulk: over HTTP, or at start with --seed FILE). Events per POST. The simulator holds a body's checked events until it ends (about as much
 * memory again as the body): 25,000 events (about 10 MB) a body keeps that transient small next
 * to a 1,000,000-event store, and far under SEED_MAX_BODY_BYTES and MAX_INFLIGHT_BODY_BYTES.
 */
export const SEED_CHUNK_EVENTS = 25_000;

/** The NDJSON bodies for events 1..count (one POST /api/message body a line), built before any timing. */
function seedBodies(count: number): Buffer[] {
  const layout = { count, days: layoutDays(count) };
  const bodies: Buffer[] = [];
  for (let from = 1; from <= count; from += SEED_CHUNK_EVENTS) {
    const ids = Array.from({ length: Math.min(SEED_CHUNK_EVENTS, count - from + 1) }, (_, k) => from + k);
    bodies.push(Buffer.from(`${ids.map((i) => JSON.stringify(storedEvent(i, layout))).join('\n')}\n`));
  }
  return bodies;
}

/** The same events as an NDJSON file for `--seed FILE` (what a simulator without /_sim/* can be filled with). */
export function seedFile(dir: string, count: number): string {
  const file = path.join(dir, `store-${count}.ndjson`);
  if (!existsSync(file)) writeFileSync(file, Buffer.concat(seedBodies(count)));
  return file;
}

/** The JSON simulator with room for `events` stored events, the count alone deciding what is kept. */
export function startStore(
  ctx: Parameters<typeof ourSim>[0],
  events: number,
  options: ServerOptions = {},
  tag = 'json',
) {
  const env = {
    ...{ ...MEASURED, EVENT_STORE_MAX: String(Math.max(1, events)) },
    // Counted at JSON size + 200 B an event, 1,000,000 start-list events take about 600 MB of
    // budget, past the 256 MiB default.
    ...{ EVENT_STORE_MAX_BYTES: String(64 * 1024 ** 3), ...options.env },
  };
  return ourSim(ctx, 'json', { ...options, args: ['--no-replay', ...(options.args ?? [])], env }, tag);
}

/**
 * Fills `sim` with events 1..count over POST /_sim/events, the bodies one after another (each
 * answered 201 before the next), timed, with the server's CPU over it.
 */
export async function seedStore(sim: Server, count: number) {
  const bodies = seedBodies(count);
  let [seeded, lastEventId] = [0, 0];
  const started = performance.now();
  const { cpuMs } = await chargedTo(sim.pid, async () => {
    for (const body of bodies) {
      const answer = await post(sim.port, '/_sim/events', body, 'application/x-ndjson');
      const text = answer.body.toString();
      if (answer.status !== 201)
        throw new Error(`POST /_sim/events: HTTP ${answer.status} ${text.slice(0, 300)}`);
      const result = JSON.parse(text) as { seeded: number; lastEventId: number };
      [seeded, lastEventId] = [seeded + result.seeded, result.lastEventId];
    }
  });
  if (seeded !== count) throw new Error(`seeded ${seeded} events, not ${count}`);
  const bytes = bodies.reduce((sum, b) => sum + b.length, 0);
  return { seeded, lastEventId, bytes, wallMs: performance.now() - started, serverCpuMs: cpuMs };
}

/** GET `path` of a running simulator, answered 200: its body. */
async function got(port: number, path: string): Promise<string> {
  const answer = await httpRequest({ port, path, timeoutMs: 10_000 });
  if (answer.status !== 200) throw new Error(`GET ${path}: HTTP ${answer.status}`);
  return answer.body.toString();
}

type State = {
  users: Record<string, { heldPolls: number; queueDepth: number }>;
  store?: { events: number; bytes: number };
};
export const simState = async (port: number) => JSON.parse(await got(port, '/_sim/state')) as State;

/**
 * RSS from /proc after two full GCs (the memory measures, the abuse run), then the simulator's own
 * view of its heap from GET /metrics: as a whole and without its young generation.
 */
export async function reading(server: Server) {
  // The first /metrics answer loads what answering needs (the metrics library, which the CLI reads
  // from its on-demand part): the harness's own doing, so it comes before the idle reading too.
  await got(server.port, '/metrics');
  await server.gc();
  // RSS first: answering /metrics allocates a little.
  const rss = rssBytes(server.pid);
  const text = await got(server.port, '/metrics');
  const heap = (kind: 'total' | 'used') => gauge(text, `nodejs_heap_size_${kind}_bytes`);
  // The young generation is a reserve V8 sizes to the allocation rate (up to 2 x 16 MB
  // semi-spaces), whatever the store holds; what outlives it is the rest of the heap.
  const young = (kind: 'total' | 'used') =>
    gauge(text, `nodejs_heap_space_size_${kind}_bytes{space="new"}`) +
    gauge(text, `nodejs_heap_space_size_${kind}_bytes{space="new_large_object"}`);
  const old = (kind: 'total' | 'used') => heap(kind) - young(kind);
  return {
    rss,
    heapUsed: heap('used'),
    heapTotal: heap('total'),
    oldUsed: old('used'),
    oldTotal: old('total'),
  };
}

/** A prom-client gauge's value; `name` may carry its labels (`name{label="value"}`) to pick one series. */
function gauge(metrics: string, name: string): number {
  const pattern = name.includes('{') ? name.replace(/[{}"]/g, (c) => `\\${c}`) : `${name}(?:\\{[^}]*\\})?`;
  const match = new RegExp(`^${pattern} (\\S+)$`, 'm').exec(metrics);
  if (!match) throw new Error(`GET /metrics has no ${name}`);
  return Number(match[1]);
}
