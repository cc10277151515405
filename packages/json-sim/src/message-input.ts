import { isCalendarDate, type ChannelCatalog, type EventInput } from '@racedata/core';
import { jsonSimError } from './errors';
import { describeValue, quoted } from './excerpt';

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
    throw fail(`unknown channel ${quoted(channel)}; known channels: ${catalog.names().join(', ')}`);
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
