import { SimError, type ChannelCatalog, jsonDepthExceeds, MAX_JSON_DEPTH } from '@racedata/core';
import { jsonSimError } from '../errors';
import { parseMessageInput } from '../message-input';
import { prepareEvent } from '../store/stored-json';
import { StagedEvents } from '../store/staged-events';
import { CanonicalLines } from './canonical-line';

/**
 * The events of an NDJSON seed, checked line by line as POST /api/message checks a body, and
 * staged as bytes (StagedEvents: no string or object per event) until the whole seed is known
 * to be good. Blank lines are skipped; anything else that is not a durable event
 * refuses the seed, naming its line.
 */
export class SeedLines {
  readonly events = new StagedEvents();
  private readonly canonical: CanonicalLines;

  constructor(private readonly catalog: ChannelCatalog) {
    this.canonical = new CanonicalLines(catalog);
  }

  /** Checks one line; throws a 400 SimError `line N: <reason>`. */
  add(line: Buffer, number: number): void {
    // Most seeds are written by JSON.stringify: such a line is stored as it is.
    if (this.canonical.stage(line, this.events)) return;
    if (isBlank(line)) return;
    const fail = (why: string) => jsonSimError('INVALID_MESSAGE', `line ${number}: ${why}`);
    if (jsonDepthExceeds(line, MAX_JSON_DEPTH)) {
      throw fail(`nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep (the limit)`);
    }
    let value: unknown;
    try {
      value = JSON.parse(line.toString('utf8'));
    } catch (err) {
      throw fail(`not valid JSON (${(err as Error).message})`);
    }
    let input;
    try {
      input = parseMessageInput(value, this.catalog);
    } catch (err) {
      throw err instanceof SimError ? fail(err.message) : err;
    }
    // Transient messages are broadcast once, never stored: a seed of them would be lost silently.
    if (this.catalog.kindOf(input.channel) !== 'durable') {
      throw fail(`channel "${input.channel}" is transient; only durable events can be seeded`);
    }
    this.events.add(prepareEvent(input));
  }
}

function isBlank(line: Buffer): boolean {
  for (const byte of line) if (byte !== 0x20 && byte !== 0x09) return false;
  return true;
}
