import type { Evidence, ScenarioContext, TrafficOf } from '../../types';
import { evidenceOf, secs } from './evidence';

export type ClientExit = TrafficOf<'client-exit'>;

/** What a wait ended on: what it waited for, or the client ending first. */
export type OrExit<T> = { readonly value: T } | { readonly exit: ClientExit };

/**
 * Waits for `work` unless the client ends first (a scenario with gradesClientExit): the run is
 * stopped soon after a client ends, so a scenario that grades the end must not sit out its own
 * deadlines. An attached client (--attach) is not certify's process: its end is never seen here.
 */
export async function orClientExit<T>(
  ctx: ScenarioContext,
  since: number,
  work: Promise<T>,
): Promise<OrExit<T>> {
  // Longer than any scenario: the wait ends with the run (the traffic log ends its waits).
  const ended = ctx.traffic.next('client-exit', () => true, { since, timeoutMs: 10 * 60_000 });
  const outcome = await Promise.race([
    work.then((value) => ({ value })),
    ended.then((exit) => (exit ? { exit } : new Promise<never>(() => undefined))),
  ]);
  return outcome;
}

export function exited<T>(outcome: OrExit<T>): outcome is { readonly exit: ClientExit } {
  return 'exit' in outcome;
}

/** `exited with code 1` or `was killed by SIGKILL`, and the evidence line. */
export function describeExit(
  exit: ClientExit,
  after: number,
  what: string,
): { text: string; evidence: Evidence } {
  const how = exit.signal !== null ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
  return { text: `${how} ${secs(Math.max(0, exit.at - after))} after ${what}`, evidence: evidenceOf(exit) };
}
