import type { ChildServer } from './child-server';

/**
 * Runs `run` against `server`, charging it with the CPU time the server process used meanwhile:
 * its result with the server's CPU per 1000 units of work beside it.
 */
export async function charged<T extends { rate: number; units: number }>(
  server: ChildServer,
  run: () => Promise<T>,
) {
  const before = await server.call<NodeJS.CpuUsage>('cpu');
  const result = await run();
  const after = await server.call<NodeJS.CpuUsage>('cpu');
  const us = after.user - before.user + after.system - before.system;
  // µs per unit is ms per 1000 units.
  return { ...result, cpuMsPer1000: result.units > 0 ? us / result.units : Number.NaN };
}
