import { readFileSync } from 'node:fs';

/**
 * What a process used, read from /proc (Linux) from the outside, as `top` would: the servers
 * under test need no hook of ours for it, and every side is read the same way.
 */

/** User + system CPU time of the process so far (all its threads), in ms; 10 ms resolution (USER_HZ 100). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) is in parentheses and may hold spaces: utime and stime are the
  // 12th and 13th fields after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  if (!Number.isFinite(ticks)) throw new Error(`/proc/${pid}/stat: cannot read utime/stime`);
  return ticks * 10;
}

/** VmRSS of a process in KiB, from /proc (Linux); undefined when it cannot be read. */
export function rssKb(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Resident set size (VmRSS) of the process, in bytes. */
export function rssBytes(pid: number): number {
  const kb = rssKb(pid);
  if (kb === undefined) throw new Error(`/proc/${pid}/status: no VmRSS`);
  return kb * 1024;
}

/** Runs `run`, charging it with the CPU time process `pid` used meanwhile. */
export async function chargedTo<T>(
  pid: number,
  run: () => Promise<T>,
): Promise<{ result: T; cpuMs: number }> {
  const before = cpuMs(pid);
  const result = await run();
  return { result, cpuMs: cpuMs(pid) - before };
}

/**
 * Milliseconds on CLOCK_MONOTONIC, which every process of the machine reads alike: a post stamped
 * in the harness and its arrival stamped in a client process subtract to the latency.
 */
export const monoMs = (): number => Number(process.hrtime.bigint()) / 1e6;

/** Throws when this process may open fewer than `needed` files (Linux; elsewhere it cannot tell). */
export function requireOpenFiles(needed: number): void {
  const limit = /^Max open files\s+(\d+)/m.exec(
    readFileSync('/proc/self/limits', { encoding: 'utf8', flag: 'r' }),
  )?.[1];
  if (Number(limit) < needed)
    throw new Error(
      `open-file limit ${limit} is below the ${needed} this run needs: raise it (ulimit -n 8192)`,
    );
}
