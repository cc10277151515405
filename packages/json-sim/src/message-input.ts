import { isCalendarDate, type ChannelCatalog, type EventInput } from '@racedata/core';
import { jsonSimError } from './errors';

const OPTIONAL_NUMBERS = ['trackId', 'raceNr', 'startNr'] as const;

/**
 * Validates a posted message `{channel, date, trackId?, raceNr?, startNr?, payload}` before
 * anything is stored, so a bad message is refused whole.
 */
export function parseMessageInput(body: unknown, catalog: ChannelCatalog): EventInput {
  const fail = (why: string) => jsonSimError('INVALID_MESSAGE', why);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw fail('body must be a JSON object {channel, date, trackId?, raceNr?, startNr?, payload}');
  }
  const record = body as Record<string, unknown>;
  const { channel, date, payload } = record;
  if (typeof channel !== 'string' || channel === '') throw fail('channel must be a non-empty string');
  if (!catalog.has(channel)) {
    throw fail(`unknown channel "${channel}"; known channels: ${catalog.names().join(', ')}`);
  }
  if (typeof date !== 'string' || !isCalendarDate(date)) {
    throw fail(`date must be a real date written YYYY-MM-DD, got ${JSON.stringify(date)}`);
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw fail('payload must be a JSON object');
  }
  const numbers: Partial<Record<(typeof OPTIONAL_NUMBERS)[number], number>> = {};
  for (const name of OPTIONAL_NUMBERS) {
    const value = record[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
      throw fail(`${name} must be a whole number >= 0, got ${JSON.stringify(value)}`);
    }
    numbers[name] = value;
  }
  return { channel, date, ...numbers, payload: payload as Record<string, unknown> };
}
