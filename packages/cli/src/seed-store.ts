import { createReadStream } from 'node:fs';
import { monotonicMs, type Logger } from '@racedata/core';
import type { JsonSeeder, SeedResult } from '@racedata/json-sim';
import { CliError } from './errors';

/** `--seed N`: a count of generated events rather than a file name. */
const COUNT = /^\d+$/;

/**
 * `racedata-sim json --seed <file|N>`: fills the JSON simulator's store before it listens, from
 * an NDJSON file (a line per event, as POST /api/message takes; all or nothing) or with N
 * generated start-list events. In-process, no HTTP. A bad file stops the start (exit 2).
 */
export async function seedStore(seeder: JsonSeeder, source: string, logger: Logger): Promise<SeedResult> {
  const started = monotonicMs();
  let result: SeedResult;
  try {
    result = COUNT.test(source)
      ? seeder.generated(Number(source))
      : await seeder.ndjson(createReadStream(source, { highWaterMark: 1 << 20 }));
  } catch (err) {
    throw new CliError('SEED_INVALID', { source, detail: (err as Error).message }, { cause: err });
  }
  const ms = monotonicMs() - started;
  logger.info(
    { ...result, ms: Math.round(ms), eventsPerSecond: Math.round((result.seeded * 1000) / Math.max(ms, 1)) },
    'store seeded',
  );
  return result;
}
