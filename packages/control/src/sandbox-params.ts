import { MAX_TIMER_MS } from '@racedata/core';
import { invalid, isObject, onlyKeys } from './body-checks';

/** What POST /_sim/sandboxes may ask for; everything optional (no replay by default). */
export interface SandboxRequest {
  readonly replay?: {
    readonly intervalMs?: number;
    readonly maxDelayMs?: number;
    readonly initialDelayMs?: number;
    readonly rebaseDates?: boolean;
  };
  readonly longPollTimeoutMs?: number;
}

function ms(value: unknown, name: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > MAX_TIMER_MS) {
    throw invalid(`"${name}" must be an integer from ${min} to ${MAX_TIMER_MS}`);
  }
  return value;
}

/**
 * The body of POST /_sim/sandboxes (undefined: no body). `replay: true` replays the bundled or
 * configured recordings one message a second; an object says how.
 */
export function parseSandboxRequest(body: unknown): SandboxRequest {
  if (body === undefined) return {};
  if (!isObject(body))
    throw invalid('sandbox body must be a JSON object like {"replay":{"intervalMs":1000}}');
  onlyKeys(body, ['replay', 'longPollTimeoutMs'], 'sandbox');
  const longPollTimeoutMs = ms(body.longPollTimeoutMs, 'longPollTimeoutMs', 1);
  const { replay } = body;
  let parsed: SandboxRequest['replay'];
  if (replay === true) parsed = { intervalMs: 1000 };
  else if (replay === undefined || replay === false) parsed = undefined;
  else if (isObject(replay)) {
    onlyKeys(replay, ['intervalMs', 'maxDelayMs', 'initialDelayMs', 'rebaseDates'], 'replay');
    const intervalMs = ms(replay.intervalMs, 'replay.intervalMs', 1);
    const maxDelayMs = ms(replay.maxDelayMs, 'replay.maxDelayMs', 0);
    const initialDelayMs = ms(replay.initialDelayMs, 'replay.initialDelayMs', 0);
    if (intervalMs === undefined && maxDelayMs === undefined) {
      throw invalid(
        '"replay" needs "intervalMs" (one message every N ms) or "maxDelayMs" (recorded gaps, capped)',
      );
    }
    if (replay.rebaseDates !== undefined && typeof replay.rebaseDates !== 'boolean') {
      throw invalid('"replay.rebaseDates" must be true or false');
    }
    parsed = {
      ...(intervalMs !== undefined && { intervalMs }),
      ...(maxDelayMs !== undefined && { maxDelayMs }),
      ...(initialDelayMs !== undefined && { initialDelayMs }),
      ...(replay.rebaseDates !== undefined && { rebaseDates: replay.rebaseDates }),
    };
  } else {
    throw invalid('"replay" must be true, false or an object like {"intervalMs":1000}');
  }
  return {
    ...(parsed !== undefined && { replay: parsed }),
    ...(longPollTimeoutMs !== undefined && { longPollTimeoutMs }),
  };
}
