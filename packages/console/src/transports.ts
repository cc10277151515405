import type { TransportInfo } from '@racedata/core';

/** The journal sources of replayed and race-day messages: both belong to every simulator. */
const REPLAY_SOURCE = 'replay';
const RACE_DAY_SOURCE = 'race-day';

/**
 * What the live view's transport filter offers: the transports deliveries go out on, then the
 * sources messages come in from (a received entry is filtered by its source).
 */
export function feedTransports(transports: readonly TransportInfo[]): string[] {
  const out = transports.filter((t) => t.journalled).map((t) => t.name);
  const sources = transports.flatMap((t) => (t.source === undefined ? [] : [t.source]));
  return [...new Set([...out, ...sources, REPLAY_SOURCE, RACE_DAY_SOURCE])];
}

/** What a fault rule may name, in the simulator's order. */
export function faultTransports(transports: readonly TransportInfo[]): string[] {
  return transports.filter((t) => t.faultTarget).map((t) => t.name);
}
