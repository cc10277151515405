/**
 * The record command against the hostile upstream: started as users start it (its own process),
 * with compressed timings, and the measures the hostile tests hold it to.
 */
import { readFileSync } from 'node:fs';
import { findSecrets } from '@racedata/recorder';
import { eventually } from '@racedata/test-support';
import { startRecord, type RecordProcess } from '../record-process';
import type { HostileUpstream } from './hostile-upstream';

/** The upstream holds a long poll this long at most (--long-poll-timeout): requests end by 1.5 times it. */
export const LONG_POLL_MS = 1000;
/** Every stop must be done by then, whatever the upstream does. */
export const STOP_LIMIT_MS = 5000;

export interface Credentials {
  readonly key: string;
  readonly secret: string;
}

export const DEFAULT_CREDENTIALS: Credentials = { key: 'rec-key-4711', secret: 'Sec"ret\\Pw-2024' };

/** `racedata-sim record` on both URLs of `up`, writing to `out`, with `extra` options. */
export function recordHostile(
  up: HostileUpstream,
  out: string,
  extra: readonly string[] = [],
  credentials: Credentials = DEFAULT_CREDENTIALS,
): RecordProcess {
  return startRecord(
    [
      '--out',
      out,
      '--json-url',
      up.base,
      '--legacy-url',
      up.base,
      '--progress-interval',
      '0',
      '--long-poll-timeout',
      String(LONG_POLL_MS),
      ...extra,
    ],
    { RACEDATA_KEY: credentials.key, RACEDATA_SECRET: credentials.secret, LOG_LEVEL: 'info' },
  );
}

/** Sends `signal` and resolves with the exit code and how long the process took to end. */
export async function stopTimed(
  rec: RecordProcess,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<{ code: number | null; ms: number }> {
  const started = performance.now();
  rec.child.kill(signal);
  const code = await Promise.race([
    rec.exited,
    new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), STOP_LIMIT_MS + 3000).unref()),
  ]);
  if (code === 'late')
    throw new Error(
      `still running ${STOP_LIMIT_MS + 3000} ms after ${signal}:\n${rec.stderr().slice(-2000)}`,
    );
  return { code, ms: performance.now() - started };
}

/** The process's peak resident set (VmHWM) in MiB, from /proc. */
export function peakRssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)\s+kB/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

/** Waits until stderr holds `text` (a log line's message or field). */
export function logged(rec: RecordProcess, text: string, timeoutMs = 10_000): Promise<void> {
  return eventually(async () => rec.stderr().includes(text), `the recorder to log ${text}`, timeoutMs);
}

/**
 * How many log lines hold `text`, once at least `times` do: a line reaches stderr in a batch up to
 * 10 ms after it is logged, so it may still be on its way when what caused it is already seen.
 */
export async function loggedLines(rec: RecordProcess, text: string, times: number): Promise<number> {
  await eventually(async () => logLines(rec, text) >= times, `${times} log line(s) holding ${text}`, 10_000);
  return logLines(rec, text);
}

/** How many log lines hold `text`. */
export function logLines(rec: RecordProcess, text: string): number {
  return rec
    .stderr()
    .split('\n')
    .filter((line) => line.includes(text)).length;
}

/** The summary the record command printed on stdout (its last block). */
export function summary(rec: RecordProcess): string {
  const out = rec.stdout();
  const at = out.lastIndexOf('record: ');
  return at === -1 ? '' : out.slice(at);
}

/** No form of any of `secrets` in the process's output. */
export function expectQuietOutput(rec: RecordProcess, secrets: readonly string[]): void {
  expect(findSecrets(rec.stdout(), secrets)).toEqual([]);
  expect(findSecrets(rec.stderr(), secrets)).toEqual([]);
}
