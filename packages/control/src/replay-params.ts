import { MAX_REPLAY_DELAY_MS, type ReplayCommand, type ReplaySchedule } from '@racedata/core';
import { invalid, isObject } from './body-checks';

export const REPLAY_ACTIONS = ['start', 'pause', 'resume', 'next-race', 'speed'] as const;

function ms(value: unknown, name: string, min: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > MAX_REPLAY_DELAY_MS) {
    throw invalid(`"${name}" must be an integer from ${min} to ${MAX_REPLAY_DELAY_MS} (milliseconds)`);
  }
  return value;
}

/** intervalMs (one message per interval) or maxDelayMs (recorded gaps, capped); not both. */
function parseSpeed(body: Record<string, unknown>): ReplaySchedule | undefined {
  const { intervalMs, maxDelayMs } = body;
  if (intervalMs !== undefined && maxDelayMs !== undefined) {
    throw invalid('give "intervalMs" (one message per interval) or "maxDelayMs" (recorded gaps), not both');
  }
  if (intervalMs !== undefined) return { mode: 'interval', intervalMs: ms(intervalMs, 'intervalMs', 1) };
  if (maxDelayMs !== undefined) return { mode: 'timed', maxDelayMs: ms(maxDelayMs, 'maxDelayMs', 0) };
  return undefined;
}

/** The POST /_sim/replay body, or VALIDATION_FAILED naming what is wrong. */
export function parseReplayCommand(body: unknown): ReplayCommand {
  if (!isObject(body)) {
    throw invalid(
      `replay body must be a JSON object like {"action": "pause"}; actions: ${REPLAY_ACTIONS.join(', ')}`,
    );
  }
  for (const key of Object.keys(body)) {
    if (!['action', 'intervalMs', 'maxDelayMs'].includes(key)) {
      throw invalid(`unknown replay option "${key.slice(0, 40)}"; known: action, intervalMs, maxDelayMs`);
    }
  }
  const action = body.action;
  if (typeof action !== 'string' || !(REPLAY_ACTIONS as readonly string[]).includes(action)) {
    throw invalid(`"action" must be one of ${REPLAY_ACTIONS.join(', ')}`);
  }
  const schedule = parseSpeed(body);
  if (action === 'start') return schedule ? { action, schedule } : { action };
  if (action === 'speed') {
    if (!schedule) throw invalid('"speed" needs "intervalMs" or "maxDelayMs"');
    return { action, schedule };
  }
  if (schedule) throw invalid(`"${action}" takes no speed; use "start" or "speed" for that`);
  return { action: action as 'pause' | 'resume' | 'next-race' };
}
