import { cutShort, isCalendarDate, quoteShort, type ChannelCatalog, type EventInput } from '@racedata/core';
import { raceDayLibrary } from '@racedata/race-day/player';
import { jsonSimError } from './errors';

const OPTIONAL_NUMBERS = ['trackId', 'raceNr', 'startNr'] as const;

/**
 * Validates a posted message `{channel, date, trackId?, raceNr?, startNr?, payload}` before
 * anything is stored, so a bad message is refused whole.
 */
export function parseMessageInput(body: unknown, catalog: ChannelCatalog): EventInput {
  const fail = (why: string) => jsonSimError('INVALID_MESSAGE', why);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw fail(
      `the body must be a JSON object {channel, date, trackId?, raceNr?, startNr?, payload}, got ${describeValue(body)}`,
    );
  }
  const record = body as Record<string, unknown>;
  const { channel, date, payload } = record;
  if (typeof channel !== 'string' || channel === '') {
    throw fail(`channel must be a non-empty string, got ${describeValue(channel)}`);
  }
  if (!catalog.has(channel)) {
    throw fail(`unknown channel ${quoteShort(channel)}; known channels: ${catalog.names().join(', ')}`);
  }
  if (typeof date !== 'string' || !isCalendarDate(date)) {
    throw fail(`date must be a real date written YYYY-MM-DD, got ${describeValue(date)}`);
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw fail(`payload must be a JSON object, got ${describeValue(payload)}`);
  }
  const numbers: Partial<Record<(typeof OPTIONAL_NUMBERS)[number], number>> = {};
  for (const name of OPTIONAL_NUMBERS) {
    const value = record[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
      throw fail(`${name} must be a whole number >= 0, got ${describeValue(value)}`);
    }
    numbers[name] = value;
  }
  return { channel, date, ...numbers, payload: payload as Record<string, unknown> };
}

/**
 * STRICT_PAYLOADS: refuses a payload that breaks its channel's schema (GET /_sim/schemas/{channel}),
 * naming the JSON path of each problem (at most five). A channel without a schema (a
 * CHANNELS_FILE of your own) takes any payload.
 */
export function checkPayloadSchema(input: EventInput): void {
  const { PAYLOAD_SCHEMAS, validateSchema } = raceDayLibrary();
  const schema = Object.hasOwn(PAYLOAD_SCHEMAS, input.channel) ? PAYLOAD_SCHEMAS[input.channel] : undefined;
  if (!schema) return;
  const problems = validateSchema(schema, input.payload, '$.payload', 5);
  if (problems.length === 0) return;
  const listed = problems.map((p) => `${p.path} ${p.message}`).join('; ');
  throw jsonSimError(
    'INVALID_MESSAGE',
    `payload breaks the ${input.channel} schema (STRICT_PAYLOADS; GET /_sim/schemas/${input.channel}): ${cutShort(listed, 600)}`,
  );
}

/** A received value for "got …": a string quoted and cut short, a number as written, else its kind. */
function describeValue(value: unknown): string {
  if (typeof value === 'string') return `${quoteShort(value)} (a string)`;
  if (typeof value === 'number' || typeof value === 'boolean') return cutShort(String(value));
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value;
}
