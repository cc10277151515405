import type { IncomingMessage } from 'node:http';
import { coreError } from '@racedata/core';
import type { ChannelBus } from '../channel-bus';
import { generatedEvents } from './generated-events';
import { NdjsonLines } from './ndjson-lines';
import { SeedLines } from './seed-lines';
import { StagedEvents } from '../store/staged-events';

/** The answer of a seed: how many events were stored and their eventIds (null for none). */
export interface SeedResult {
  readonly seeded: number;
  readonly firstEventId: number | null;
  readonly lastEventId: number | null;
}

/**
 * Bulk seeding of the durable store, in-process: `racedata-sim json --seed <file|N>` runs it
 * before the server listens. Handed out by createJsonSimulator's `seeder` dependency.
 */
export interface JsonSeeder {
  /** Stores the events of an NDJSON stream (a line per event, as POST /api/message takes), all or nothing. */
  ndjson(source: AsyncIterable<Buffer | string>): Promise<SeedResult>;
  /** Stores `count` generated start-list events over the durable channels, race days ending today. */
  generated(count: number): SeedResult;
}

export function jsonSeeder(bus: ChannelBus, now: () => number): JsonSeeder {
  return {
    ndjson: async (source) => {
      const lines = new SeedLines(bus.catalog);
      const splitter = new NdjsonLines((line, number) => lines.add(line, number));
      for await (const chunk of source) splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      splitter.end();
      return result(bus, lines);
    },
    generated: (count) => {
      let first: number | null = null;
      let last: number | null = null;
      for (const events of generatedEvents(count, bus.catalog.names('durable'), now())) {
        const staged = new StagedEvents();
        for (const event of events) staged.add(event);
        const ids = bus.seed(staged);
        staged.release();
        first ??= ids?.firstEventId ?? null;
        last = ids?.lastEventId ?? last;
      }
      return { seeded: count, firstEventId: first, lastEventId: last };
    },
  };
}

function result(bus: ChannelBus, lines: SeedLines): SeedResult {
  const seeded = lines.events.length;
  const ids = bus.seed(lines.events);
  lines.events.release();
  return {
    seeded,
    firstEventId: ids?.firstEventId ?? null,
    lastEventId: ids?.lastEventId ?? null,
  };
}

/**
 * POST /_sim/events: the body is NDJSON, read as it arrives and checked line by line; nothing is
 * stored unless every line is a valid durable event. Up to `maxBytes` of body (more: 413 at once,
 * the rest of the body read and dropped); the checked events are held until the body ends, about
 * as much memory again as the body.
 */
export function seedRequest(bus: ChannelBus, req: IncomingMessage, maxBytes: number): Promise<SeedResult> {
  return new Promise((resolve, reject) => {
    const tooLarge = () =>
      coreError(
        'PAYLOAD_TOO_LARGE',
        `the seed body exceeds ${maxBytes} bytes (SEED_MAX_BODY_BYTES); nothing was stored`,
      );
    const lines = new SeedLines(bus.catalog);
    const splitter = new NdjsonLines((line, number) => lines.add(line, number));
    let size = 0;
    let failed = false;
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      req.off('data', onData);
      // Drained and dropped, so the answer reaches a client still sending.
      req.resume();
      reject(err);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) return fail(tooLarge());
      try {
        splitter.push(chunk);
      } catch (err) {
        fail(err);
      }
    };
    if (Number(req.headers['content-length'] ?? 0) > maxBytes) return fail(tooLarge());
    req.on('data', onData);
    req.once('error', fail);
    req.once('end', () => {
      if (failed) return;
      try {
        splitter.end();
        resolve(result(bus, lines));
      } catch (err) {
        reject(err);
      }
    });
  });
}
