import http from 'node:http';
import { httpRequest } from './http-client';
import { layoutDays, storedEvent } from './payloads';
import { chargedTo } from './proc-stats';
import type { CliSimulator } from './simulator-process';

/**
 * Fills a simulator's store the way a user would in bulk: POST /_sim/events, NDJSON, one
 * POST /api/message body a line. The events are those the in-process preload stores
 * (payloads.ts storedEvent: the same eventIds, channels, days and filter fields), so the read
 * paths of read-throughput find the same store either way.
 */

/**
 * Events per POST. The simulator holds a body's checked events until it ends (about as much
 * memory again as the body): 25,000 events (about 10 MB) a body keeps that transient small
 * next to a 1,000,000-event store, and far under SEED_MAX_BODY_BYTES and MAX_INFLIGHT_BODY_BYTES.
 */
export const SEED_CHUNK_EVENTS = 25_000;

/** The NDJSON bodies for events 1..count, built before any timing starts. */
function seedBodies(count: number, chunk = SEED_CHUNK_EVENTS): Buffer[] {
  const layout = { count, days: layoutDays(count) };
  const bodies: Buffer[] = [];
  for (let from = 1; from <= count; from += chunk) {
    const lines: string[] = [];
    for (let i = from; i < Math.min(count + 1, from + chunk); i++)
      lines.push(JSON.stringify(storedEvent(i, layout)));
    bodies.push(Buffer.from(`${lines.join('\n')}\n`));
  }
  return bodies;
}

export type Seeded = Awaited<ReturnType<typeof seedOverHttp>>;

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/**
 * Fills `sim` with events 1..count, the bodies posted one after another (each answered 201
 * before the next), timing the whole; stops the simulator when that fails.
 */
export async function seedStore(sim: CliSimulator, count: number): Promise<Seeded> {
  try {
    const seeded = await seedOverHttp(sim.port, sim.pid, seedBodies(count));
    if (seeded.seeded !== count) throw new Error(`seeded ${seeded.seeded} events, not ${count}`);
    return seeded;
  } catch (err) {
    await sim.stop();
    throw err;
  }
}

async function seedOverHttp(port: number, pid: number, bodies: readonly Buffer[]) {
  let seeded = 0;
  let lastEventId = 0;
  const started = performance.now();
  const { cpuMs } = await chargedTo(pid, async () => {
    for (const body of bodies) {
      const answer = await httpRequest({
        port,
        method: 'POST',
        path: '/_sim/events',
        headers: { 'content-type': 'application/x-ndjson', 'content-length': body.length },
        body,
        agent,
      });
      if (answer.status !== 201) {
        throw new Error(
          `POST /_sim/events: HTTP ${answer.status} ${answer.body.toString('utf8').slice(0, 300)}`,
        );
      }
      const result = JSON.parse(answer.body.toString('utf8')) as { seeded: number; lastEventId: number };
      seeded += result.seeded;
      lastEventId = result.lastEventId;
    }
  });
  return {
    seeded,
    lastEventId,
    bytes: bodies.reduce((sum, b) => sum + b.length, 0),
    wallMs: performance.now() - started,
    /** User + system CPU of the server process over the seeding. */
    serverCpuMs: cpuMs,
  };
}
