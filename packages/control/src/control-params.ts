import { invalid, isObject } from './body-checks';
import { JOURNAL_KINDS, type JournalKind, type JournalFilter, type ResetRequest } from './wire';

export const RESET_DEFAULTS: ResetRequest = {
  events: true,
  queues: true,
  journal: true,
  faults: true,
  eventIds: 'restart',
  closeSockets: false,
  clock: true,
};

/** The reset body (undefined: no body), or VALIDATION_FAILED naming the offending key. */
export function parseResetRequest(body: unknown): ResetRequest {
  if (body === undefined) return RESET_DEFAULTS;
  if (!isObject(body)) throw invalid('reset body must be a JSON object');
  const known = Object.keys(RESET_DEFAULTS);
  for (const key of Object.keys(body)) {
    if (!known.includes(key))
      throw invalid(`unknown reset option "${key.slice(0, 40)}"; known: ${known.join(', ')}`);
  }
  const flag = (key: 'events' | 'queues' | 'journal' | 'faults' | 'closeSockets' | 'clock'): boolean => {
    const value = body[key];
    if (value === undefined) return RESET_DEFAULTS[key];
    if (typeof value !== 'boolean') throw invalid(`reset option "${key}" must be true or false`);
    return value;
  };
  const eventIds = body.eventIds ?? RESET_DEFAULTS.eventIds;
  if (eventIds !== 'restart' && eventIds !== 'continue') {
    throw invalid('reset option "eventIds" must be "restart" or "continue"');
  }
  return {
    events: flag('events'),
    queues: flag('queues'),
    journal: flag('journal'),
    faults: flag('faults'),
    eventIds,
    closeSockets: flag('closeSockets'),
    clock: flag('clock'),
  };
}

/** Largest clock advance: a hundred years is more than any retention or token lifetime. */
export const MAX_ADVANCE_MS = 100 * 365 * 24 * 3_600_000;

export function parseAdvanceRequest(body: unknown): number {
  if (!isObject(body)) throw invalid('clock advance body must be a JSON object like {"ms": 1000}');
  for (const key of Object.keys(body)) {
    if (key !== 'ms') throw invalid(`unknown clock option "${key.slice(0, 40)}"; known: ms`);
  }
  const ms = body.ms;
  if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 0 || ms > MAX_ADVANCE_MS) {
    throw invalid(`"ms" must be an integer from 0 to ${MAX_ADVANCE_MS}`);
  }
  return ms;
}

export interface JournalQuery {
  readonly filter: JournalFilter;
  readonly limit: number;
}

export interface JournalWaitQuery {
  readonly filter: JournalFilter;
  readonly count: number;
  readonly timeoutMs: number;
}

export const JOURNAL_DEFAULT_LIMIT = 1000;
export const JOURNAL_MAX_WAIT_MS = 600_000;
const FILTER_PARAMS = ['user', 'transport', 'channel', 'kind', 'since'];

function single(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  if (values.length > 1) throw invalid(`parameter "${name}" is given more than once`);
  return values[0];
}

function integer(params: URLSearchParams, name: string, min: number, max: number): number | undefined {
  const raw = single(params, name);
  if (raw === undefined) return undefined;
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw invalid(`parameter "${name}" must be an integer from ${min} to ${max}`);
  }
  return Number(raw);
}

function text(params: URLSearchParams, name: string): string | undefined {
  const raw = single(params, name);
  if (raw === '') throw invalid(`parameter "${name}" must not be empty`);
  return raw;
}

function checkNames(params: URLSearchParams, allowed: readonly string[]): void {
  for (const name of params.keys()) {
    if (!allowed.includes(name)) {
      throw invalid(`unknown parameter "${name.slice(0, 40)}"; known: ${allowed.join(', ')}`);
    }
  }
}

function filterOf(params: URLSearchParams, transports: readonly string[]): JournalFilter {
  const transport = text(params, 'transport');
  // Only this simulator's journalled transports: a filter naming another could never match.
  if (transport !== undefined && !transports.includes(transport)) {
    throw invalid(`parameter "transport" must be one of ${transports.join(', ')}`);
  }
  const kind = text(params, 'kind');
  if (kind !== undefined && !(JOURNAL_KINDS as readonly string[]).includes(kind)) {
    throw invalid(`parameter "kind" must be one of ${JOURNAL_KINDS.join(', ')}`);
  }
  const user = text(params, 'user');
  const channel = text(params, 'channel');
  const since = integer(params, 'since', 0, Number.MAX_SAFE_INTEGER);
  return {
    ...(user !== undefined && { user }),
    ...(transport !== undefined && { transport }),
    ...(channel !== undefined && { channel }),
    ...(kind !== undefined && { kind: kind as JournalKind }),
    ...(since !== undefined && { since }),
  };
}

/** GET /_sim/journal?user=&transport=&channel=&since=&limit= */
export function parseJournalQuery(
  params: URLSearchParams,
  max: number,
  transports: readonly string[],
): JournalQuery {
  checkNames(params, [...FILTER_PARAMS, 'limit']);
  return {
    filter: filterOf(params, transports),
    limit: integer(params, 'limit', 1, max) ?? Math.min(JOURNAL_DEFAULT_LIMIT, max),
  };
}

/** GET /_sim/journal/wait?<filters>&count=&timeout= */
export function parseJournalWaitQuery(
  params: URLSearchParams,
  max: number,
  transports: readonly string[],
): JournalWaitQuery {
  checkNames(params, [...FILTER_PARAMS, 'count', 'timeout']);
  return {
    filter: filterOf(params, transports),
    count: integer(params, 'count', 1, max) ?? 1,
    timeoutMs: integer(params, 'timeout', 0, JOURNAL_MAX_WAIT_MS) ?? 30_000,
  };
}
