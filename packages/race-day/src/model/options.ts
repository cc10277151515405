import { raceDayError } from '../errors';
import { EDGE_CASE_IDS } from '../edge-cases/catalog';
import { isRealDate } from '../time/dates';

/** `auto` (the calendar decides) or how many meetings of each sport. */
export type MeetingsOption = 'auto' | { readonly trot: number; readonly gallop: number };

export interface EdgeCaseItem {
  readonly id: string;
  readonly trackId?: number;
  readonly raceNr?: number;
}

/** default: a realistic few; all: every case at least once; none; or exactly a list. */
export type EdgeCaseRequest =
  | { readonly mode: 'default' | 'all' | 'none' }
  | { readonly mode: 'list'; readonly items: readonly EdgeCaseItem[] };

/** What generates a day: the same options give the same day, byte for byte. */
export interface DayOptions {
  readonly date: string;
  readonly seed: number;
  readonly meetings: MeetingsOption;
  readonly edgeCases: EdgeCaseRequest;
}

/** Where the day's clock stands when play starts. */
export type StartAt =
  | { readonly kind: 'now' }
  | { readonly kind: 'next-race' }
  | { readonly kind: 'clock'; readonly minutes: number };

/** Meetings a date may have at most (race-day-facts.md: trot 1-4, gallop 0-1). */
export const MEETING_CAPS = { trot: 4, gallop: 1 } as const;
export const MAX_SPEED = 3600;
export const MAX_SEED = 4_294_967_295;

const bad = (name: string, message: string) => raceDayError('RACE_DAY_INVALID', `${name}: ${message}`);
const shown = (value: unknown) => JSON.stringify(value)?.slice(0, 60) ?? String(value);

/** `today` or a real date; `today` is the local date the caller passes in. */
export function parseDateOption(value: unknown, today: string, name = 'date'): string {
  if (value === 'today') return today;
  if (typeof value !== 'string' || !isRealDate(value)) {
    throw bad(name, `expected today or a real date YYYY-MM-DD, got ${shown(value)}`);
  }
  return value;
}

/** The seed a date gets when none is given: its digits (2024-05-11 -> 20240511). */
export const defaultSeed = (date: string): number => Number(date.replace(/-/g, ''));

export function parseSeedOption(value: unknown, name = 'seed'): number {
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > MAX_SEED) {
    throw bad(name, `expected a whole number from 0 to ${MAX_SEED}, got ${shown(value)}`);
  }
  return n;
}

export function parseMeetingsOption(value: unknown, name = 'meetings'): MeetingsOption {
  if (value === 'auto' || value === undefined) return 'auto';
  let counts: Record<string, unknown>;
  if (typeof value === 'string') {
    counts = {};
    for (const part of value.split(',')) {
      const match = /^\s*(trot|gallop)\s*:\s*(\d+)\s*$/.exec(part);
      if (!match || match[1]! in counts) {
        throw bad(name, `expected auto or trot:N,gallop:N, got ${shown(value)}`);
      }
      counts[match[1]!] = Number(match[2]);
    }
  } else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    counts = value as Record<string, unknown>;
    const unknown = Object.keys(counts).filter((k) => k !== 'trot' && k !== 'gallop');
    if (unknown.length > 0) throw bad(name, `unknown field ${shown(unknown[0])}; expected trot and gallop`);
  } else {
    throw bad(name, `expected auto, trot:N,gallop:N or {"trot": N, "gallop": N}, got ${shown(value)}`);
  }
  const trot = counts.trot ?? 0;
  const gallop = counts.gallop ?? 0;
  for (const [sport, n] of [
    ['trot', trot],
    ['gallop', gallop],
  ] as const) {
    const cap = MEETING_CAPS[sport];
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > cap) {
      throw bad(name, `${sport} meetings must be a whole number from 0 to ${cap}, got ${shown(n)}`);
    }
  }
  if ((trot as number) + (gallop as number) === 0) throw bad(name, 'a day needs at least one meeting');
  return { trot: trot as number, gallop: gallop as number };
}

const ITEM = /^([a-z][a-z-]*)(?:@(\d{1,6})(?::(\d{1,3}))?)?$/;

/** `default`, `all`, `none`, or a list (comma-separated text or an array) of `id[@trackId[:raceNr]]`. */
export function parseEdgeCasesOption(value: unknown, name = 'edgeCases'): EdgeCaseRequest {
  if (value === undefined || value === 'default') return { mode: 'default' };
  if (value === 'all' || value === 'none') return { mode: value };
  let parts: unknown[];
  if (typeof value === 'string') parts = value.split(',').map((p) => p.trim());
  else if (Array.isArray(value)) parts = value;
  else throw bad(name, `expected default, all, none or a list of edge-case ids, got ${shown(value)}`);
  if (parts.length === 0 || parts.length > 200) throw bad(name, 'a list names 1 to 200 edge cases');
  const items = parts.map((part): EdgeCaseItem => {
    const match = typeof part === 'string' ? ITEM.exec(part.trim()) : null;
    if (!match) throw bad(name, `expected id, id@trackId or id@trackId:raceNr, got ${shown(part)}`);
    const id = match[1]!;
    if (!EDGE_CASE_IDS.includes(id)) {
      throw bad(name, `unknown edge case "${id.slice(0, 40)}"; known: ${EDGE_CASE_IDS.join(', ')}`);
    }
    return {
      id,
      ...(match[2] !== undefined && { trackId: Number(match[2]) }),
      ...(match[3] !== undefined && { raceNr: Number(match[3]) }),
    };
  });
  return { mode: 'list', items };
}

export function parseSpeedOption(value: unknown, name = 'speed'): number {
  const n = typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0 || n > MAX_SPEED) {
    throw bad(
      name,
      `expected a number above 0 and at most ${MAX_SPEED} (1 is real time), got ${shown(value)}`,
    );
  }
  return n;
}

export function parseStartAtOption(value: unknown, name = 'at'): StartAt {
  if (value === undefined || value === 'now') return { kind: 'now' };
  if (value === 'next-race') return { kind: 'next-race' };
  const match = typeof value === 'string' ? /^([01]\d|2[0-3]):([0-5]\d)$/.exec(value) : null;
  if (!match) throw bad(name, `expected now, next-race or a local time HH:MM, got ${shown(value)}`);
  return { kind: 'clock', minutes: Number(match[1]) * 60 + Number(match[2]) };
}

export function formatMeetings(meetings: MeetingsOption): string {
  return meetings === 'auto' ? 'auto' : `trot:${meetings.trot},gallop:${meetings.gallop}`;
}

export function formatEdgeCases(request: EdgeCaseRequest): string {
  if (request.mode !== 'list') return request.mode;
  return request.items
    .map(
      (i) =>
        `${i.id}${i.trackId === undefined ? '' : `@${i.trackId}${i.raceNr === undefined ? '' : `:${i.raceNr}`}`}`,
    )
    .join(',');
}

export function formatStartAt(at: StartAt): string {
  if (at.kind !== 'clock') return at.kind;
  return `${String(Math.floor(at.minutes / 60)).padStart(2, '0')}:${String(at.minutes % 60).padStart(2, '0')}`;
}
