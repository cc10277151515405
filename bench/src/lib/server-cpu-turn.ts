import type { ChildServer } from './child-server';

/** One side's turn in a round: its rate, and the server's CPU per 1000 units of work. */
export interface Turn {
  readonly rate: number;
  readonly cpuMsPer1000: number;
}

/** Runs `run` against `server`, charging it with the CPU time the server process used meanwhile. */
export async function charged<T extends { rate: number; units: number }>(
  server: ChildServer,
  run: () => Promise<T>,
): Promise<Turn & T> {
  const before = await server.call<NodeJS.CpuUsage>('cpu');
  const result = await run();
  const after = await server.call<NodeJS.CpuUsage>('cpu');
  const us = after.user - before.user + after.system - before.system;
  // µs per unit is ms per 1000 units.
  return { ...result, cpuMsPer1000: result.units > 0 ? us / result.units : Number.NaN };
}
