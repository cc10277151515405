import { isCalendarDate, quoteShort } from '@racedata/core';
import { jsonSimError } from '../errors';

export type Query = Record<string, unknown>;

function single(query: Query, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw jsonSimError('INVALID_PARAMETER', `${name} must be given once`);
  return value;
}

/** A query value that must be a whole number >= 0 (interface 4.3 rule 6, 4.4). */
export function nonNegativeInteger(query: Query, name: string): number | undefined {
  const text = single(query, name);
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n)) {
    throw jsonSimError('INVALID_PARAMETER', `${name} must be a number >= 0, got ${quoteShort(text)}`);
  }
  return n;
}

export function calendarDate(query: Query, name: string): string | undefined {
  const text = single(query, name);
  if (text === undefined) return undefined;
  if (!isCalendarDate(text)) {
    throw jsonSimError(
      'INVALID_PARAMETER',
      `${name} must be a real date written YYYY-MM-DD, got ${quoteShort(text)}`,
    );
  }
  return text;
}

export function optionalString(query: Query, name: string): string | undefined {
  const text = single(query, name);
  if (text !== undefined && text.trim() === '')
    throw jsonSimError('INVALID_PARAMETER', `${name} must not be empty`);
  return text;
}

export interface LimitSettings {
  eventsDefaultLimit: number;
  eventsMaxLimit: number;
}

/** limit 0 or omitted takes the default; above the maximum it is clamped, not refused (README). */
export function pageLimit(query: Query, settings: LimitSettings): number {
  const limit = nonNegativeInteger(query, 'limit');
  if (limit === undefined || limit === 0) return settings.eventsDefaultLimit;
  return Math.min(limit, settings.eventsMaxLimit);
}
